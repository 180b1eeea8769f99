/*
 * What the interposer's files share: the calling thread's mode, the installed
 * hooks, and the originals every definition forwards to.
 */
#ifndef CRACECHECK_INTERPOSER_INTERNAL_H
#define CRACECHECK_INTERPOSER_INTERNAL_H

#include "CRaceCheckInterposer.h"

#include <stdatomic.h>

/* Whether the module is built with Thread Sanitizer (swift build --sanitize=thread). */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RC_SANITIZER 1
#endif
#endif
#ifndef RC_SANITIZER
#define RC_SANITIZER 0
#endif

/* A function Thread Sanitizer does not instrument at all, not even with a frame of its own. */
#if RC_SANITIZER
#define RC_NOT_SANITIZED __attribute__((disable_sanitizer_instrumentation))
#else
#define RC_NOT_SANITIZED
#endif

/* Initial-exec: the module is linked into the executable, so a thread-local
 * read is one load relative to the thread pointer, with no call. */
#define RC_THREAD_LOCAL __thread __attribute__((tls_model("initial-exec")))

extern RC_THREAD_LOCAL rc_thread_mode rc_mode;
extern RC_THREAD_LOCAL const rc_interposer_hooks *rc_hooks;

/* The installed hooks when the calling thread runs code under test, else NULL:
 * the whole cost of an interposed call that forwards. When it returns hooks,
 * the thread is switched to RC_MODE_SCHEDULER; rc_leave_hooks switches back. */
/* Under Thread Sanitizer a thread running the scheduler's code is hidden from it (see
 * rc_sanitizer_release); every change of mode goes through here. */
void rc_sanitizer_mode_changes(rc_thread_mode mode);

RC_NOT_SANITIZED static inline void rc_set_mode(rc_thread_mode mode) {
#if RC_SANITIZER
  rc_sanitizer_mode_changes(mode);
#endif
  rc_mode = mode;
}

RC_NOT_SANITIZED static inline const rc_interposer_hooks *rc_enter_hooks(void) {
  if (__builtin_expect(rc_mode != RC_MODE_SUBJECT, 1)) return 0;
  const rc_interposer_hooks *hooks = rc_hooks;
  if (hooks) rc_set_mode(RC_MODE_SCHEDULER);
  return hooks;
}

RC_NOT_SANITIZED static inline void rc_leave_hooks(void) { rc_set_mode(RC_MODE_SUBJECT); }

/* Runs `call`, a real primitive the scheduler's code takes for the code under test, where the
 * sanitizer sees it: the lock a thread then holds is one a race report names. */
void rc_sanitizer_visible_begin(void);
void rc_sanitizer_visible_end(void);
#if RC_SANITIZER
#define RC_VISIBLE(call)              \
  ({                                  \
    rc_sanitizer_visible_begin();     \
    __typeof__(call) rc_visible_result = (call); \
    rc_sanitizer_visible_end();       \
    rc_visible_result;                \
  })
#else
#define RC_VISIBLE(call) (call)
#endif

/* Whether the calling thread runs code under test: the one test on the forwarding path.
 * The hot entry points test it and tail-call the original, keeping their slow path in a
 * function of its own, so that forwarding needs no stack frame. */
RC_NOT_SANITIZED static inline bool rc_is_subject(void) {
  return __builtin_expect(rc_mode == RC_MODE_SUBJECT, 0);
}

#define RC_COLD __attribute__((noinline, cold))

/* The next definition of `name` after the executable's: the original. Aborts with
 * a message when there is none, since nothing sensible can follow. */
void *rc_resolve(const char *name, void *_Atomic *slot);

/* Declares rc_real_<name>(), which returns the original of `name`, found once. */
#define RC_ORIGINAL(name)                                                          \
  static void *_Atomic rc_original_slot_##name;                                   \
  RC_NOT_SANITIZED static inline __typeof__(&name) rc_real_##name(void) {         \
    void *function = atomic_load_explicit(&rc_original_slot_##name, memory_order_relaxed); \
    if (__builtin_expect(function == 0, 0))                                        \
      function = rc_resolve(#name, &rc_original_slot_##name);                     \
    return (__typeof__(&name))function;                                            \
  }

/* For the hottest entry points: a pointer that starts at a first-call function, which finds
 * the original, stores it here and calls it. Forwarding is then a load and a jump, with no
 * test and no call of its own, which lets the compiler give the entry point no stack frame.
 * RC_FIRST_CALL(result, name, (parameters), (arguments)) defines both; RC_ORIGINAL(name)
 * must come first. */
#define RC_FIRST_CALL(result, name, parameters, arguments)                         \
  static __typeof__(name) rc_first_call_##name;                                   \
  static __typeof__(&name) _Atomic rc_forward_##name = rc_first_call_##name;      \
  RC_COLD RC_NOT_SANITIZED static result rc_first_call_##name parameters {         \
    __typeof__(&name) original = rc_real_##name();                                \
    atomic_store_explicit(&rc_forward_##name, original, memory_order_relaxed);     \
    return original arguments;                                                     \
  }

/* Tail-calls the original of `name`, declared with RC_FIRST_CALL. */
#define RC_FORWARD(name, ...) \
  return atomic_load_explicit(&rc_forward_##name, memory_order_relaxed)(__VA_ARGS__)

/* rc_enter_hooks for a call made from `caller` (a return address) by code under test: NULL
 * also when the caller is in libdispatch or the Swift runtime, whose worker threads, sleeps
 * and queues are their own machinery. */
const rc_interposer_hooks *rc_enter_hooks_from(const void *caller);

/* Under a scheduler, tells it that code under test used `primitive`, which it does not control:
 * the check is inconclusive, naming it. The caller then forwards the call. */
void rc_note_unseen(const char *primitive, const void *caller);

/* The current queue of the calling controlled thread, as code under test asks for it. */
void rc_push_current_queue(const void *queue);
void rc_pop_current_queue(void);
/* The innermost queue the thread runs a block of under the scheduler, or NULL. */
const void *rc_current_queue(void);

/* MARK: Thread Sanitizer (sanitizer.c); each does nothing in a build without it. */

/* Whether some check takes reports now. */
bool rc_sanitizer_armed(void);
/* Gives a queue made through the interposer its serial number, and keeps its label. */
void rc_sanitizer_queue_made(void *queue, const char *label);
/* The same for a global queue, once. */
void rc_sanitizer_global_queue(void *queue, const char *label);
/* The marks of a block submitted now to `queue` by the calling thread. */
void rc_sanitizer_block_marks(rc_block_marks *marks, rc_queue queue, bool barrier);
/* An async block with these marks was submitted; it is pending until it ends. */
void rc_sanitizer_block_submitted(const rc_block_marks *marks);
/* An async block with these marks ran to its end. */
void rc_sanitizer_block_finished(const rc_block_marks *marks);
/* Runs a block's `function` under its marks: `other_thread` when it runs on a thread other
 * than its submitter's, where it belongs to the submitting call. */
void rc_sanitizer_run_block(
    const rc_block_marks *marks, bool other_thread, void (*function)(void *), void *context);
/* The calling thread's call left the queue of a sync block it ran: state it read there may be used outside. */
void rc_sanitizer_left_queue(const rc_block_marks *marks);
/* A lock was taken, or given up, by code that is not the Swift runtime's. */
void rc_sanitizer_locked(void);
void rc_sanitizer_unlocked(void);
/* An access the Swift runtime's exclusivity check announced, shown to the sanitizer. */
void rc_sanitizer_access(void *address, bool modify, void *pc);

#endif /* CRACECHECK_INTERPOSER_INTERNAL_H */
