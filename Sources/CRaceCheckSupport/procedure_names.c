/*
 * The names of the procedures on the calling thread's stack, read by libunwind
 * from the loaded objects' symbol tables. A test binary exports none of its
 * symbols dynamically, so dladdr cannot name its test methods; libunwind reads
 * the full symbol table and can.
 */
#include "CRaceCheckSupport.h"

/* Local unwinding only: the _UL entry points live in libunwind itself, not in its remote variants. */
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <string.h>

int rc_current_procedure_names(char *buffer, int capacity) {
  unw_context_t context;
  unw_cursor_t cursor;
  if (capacity <= 0 || unw_getcontext(&context) != 0) return 0;
  if (unw_init_local(&cursor, &context) < 0) return 0;
  int used = 0;
  while (unw_step(&cursor) > 0) {
    char name[1024];
    unw_word_t offset = 0;
    /* A name too long for `name` comes back truncated with -UNW_ENOMEM; it cannot be a test's. */
    if (unw_get_proc_name(&cursor, name, sizeof(name), &offset) != 0) continue;
    int length = (int)strlen(name);
    if (used + length + 1 > capacity) break;
    memcpy(buffer + used, name, (size_t)length + 1);
    used += length + 1;
  }
  return used;
}
