/*
 * CUnwind: libunwind (Debian's libunwind-dev, the "nongnu" libunwind) for
 * local unwinding only.
 *
 * UNW_LOCAL_ONLY must be defined before <libunwind.h> so that the unw_*
 * names resolve to the faster local-only _ULx86_64_* entry points instead of
 * the generic remote-capable ones.
 *
 * Most of libunwind's API is made of function-like macros that Swift cannot
 * import, so the few calls Swift may need are wrapped below in static inline
 * functions. unw_getcontext() is deliberately NOT wrapped: it captures the
 * registers of the frame that calls it, and a wrapper's frame is gone as soon
 * as it returns. Capture the current stack from C instead (see
 * rc_capture_current_stack in CRaceCheckSupport).
 */
#ifndef RACECHECK_CUNWIND_H
#define RACECHECK_CUNWIND_H

#define UNW_LOCAL_ONLY
#include <libunwind.h>

/* Starts a cursor at `context`; pass UNW_INIT_SIGNAL_FRAME for a signal's ucontext. */
static inline int rc_unw_init_local2(unw_cursor_t *cursor, unw_context_t *context, int flags) {
  return unw_init_local2(cursor, context, flags);
}

/* Moves the cursor one frame up; > 0 on success, 0 at the outermost frame, < 0 on error. */
static inline int rc_unw_step(unw_cursor_t *cursor) {
  return unw_step(cursor);
}

/* The frame's instruction pointer (UNW_REG_IP) or another register. */
static inline int rc_unw_get_reg(unw_cursor_t *cursor, unw_regnum_t reg, unw_word_t *value) {
  return unw_get_reg(cursor, reg, value);
}

/* The name of the procedure around the cursor and the PC's offset in it (not async-signal-safe). */
static inline int rc_unw_get_proc_name(unw_cursor_t *cursor, char *buffer, size_t length, unw_word_t *offset) {
  return unw_get_proc_name(cursor, buffer, length, offset);
}

#endif
