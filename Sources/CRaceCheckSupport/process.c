/*
 * Process helpers that Swift's Glibc module cannot reach (they need
 * _GNU_SOURCE), and the parent's side of a stack request.
 */
#include "CRaceCheckSupport.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

int rc_request_stacks(pid_t pid) {
  char path[64];
  snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
  DIR *directory = opendir(path);
  if (directory == NULL) return -1;
  int signalled = 0;
  struct dirent *entry;
  while ((entry = readdir(directory)) != NULL) {
    long tid = 0;
    const char *name = entry->d_name;
    if (name[0] < '0' || name[0] > '9') continue;
    for (; *name >= '0' && *name <= '9'; name++) tid = tid * 10 + (*name - '0');
    if (*name != '\0') continue;
    /* A thread that exited since the listing is simply not counted. */
    if (syscall(SYS_tgkill, pid, (pid_t)tid, SIGPROF) == 0) signalled++;
  }
  closedir(directory);
  return signalled;
}

int rc_pipe_cloexec(int fds[2]) {
  return pipe2(fds, O_CLOEXEC);
}

int rc_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *file_actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np(file_actions, from);
}

pid_t rc_gettid(void) {
  return (pid_t)syscall(SYS_gettid);
}

int rc_set_thread_name(const char *name) {
  char truncated[16];
  snprintf(truncated, sizeof(truncated), "%s", name);
  return pthread_setname_np(pthread_self(), truncated);
}
