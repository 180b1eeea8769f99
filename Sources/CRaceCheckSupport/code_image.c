/* Where a code address lives: its image's path and its offset from the image's load bias. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <string.h>
#include <unistd.h>

#include "CRaceCheckSupport.h"

int rc_code_image(uintptr_t pc, char *path, int capacity, uintptr_t *offset) {
  Dl_info info;
  struct link_map *map = NULL;
  if (capacity <= 0 || dladdr1((void *)pc, &info, (void **)&map, RTLD_DL_LINKMAP) == 0
      || map == NULL) {
    return -1;
  }
  *offset = pc - (uintptr_t)map->l_addr;
  /* The main program's link map is first and has an empty name. */
  if (map->l_prev == NULL || map->l_name == NULL || map->l_name[0] == '\0') {
    ssize_t length = readlink("/proc/self/exe", path, (size_t)capacity - 1);
    if (length <= 0) return -1;
    path[length] = '\0';
    return 0;
  }
  strncpy(path, map->l_name, (size_t)capacity - 1);
  path[capacity - 1] = '\0';
  return 0;
}

/* The runtime's SerialExecutorRef: the executor's identity (an actor, for a default actor) and its implementation word. */
typedef struct {
  const void *identity;
  uintptr_t implementation;
} rc_serial_executor_ref;

extern rc_serial_executor_ref swift_task_getCurrentExecutor(void) __attribute__((swiftcall));

uintptr_t rc_current_executor_identity(void) {
  return (uintptr_t)swift_task_getCurrentExecutor().identity;
}
