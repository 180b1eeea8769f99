/*
 * Synchronization.Mutex's slow paths. `withLock` is inlined into its caller: the lock
 * compares-and-swaps the lock word from 0 to the thread's id, the unlock from the id back to
 * 0, and only when that fails does it call `_MutexHandle._lockSlow`, `_unlockSlow` or
 * `_tryLockSlow`, which the code under test calls from the executable and which this file
 * therefore defines. A scheduler makes every lock and unlock of a Mutex it knows fail the
 * fast path by keeping the word at RC_MUTEX_POISON, no thread's id, so that each reaches it.
 *
 * They are Swift methods of a ~Copyable struct: the handle arrives by address in the
 * `swiftself` register, which clang's `swift_context` parameter of a `swiftcall` function is.
 */
#include "interposer.h"

#include <sched.h>
#include <stdint.h>
#include <unistd.h>

#define RC_LOCK_SLOW "$s15Synchronization12_MutexHandleV9_lockSlowyys6UInt32VF"
#define RC_UNLOCK_SLOW "$s15Synchronization12_MutexHandleV11_unlockSlowyyF"
#define RC_TRY_LOCK_SLOW "$s15Synchronization12_MutexHandleV12_tryLockSlowSbyF"

#define RC_SWIFT_SELF __attribute__((swift_context))

typedef __attribute__((swiftcall)) void rc_lock_slow_function(uint32_t, RC_SWIFT_SELF void *);
typedef __attribute__((swiftcall)) void rc_unlock_slow_function(RC_SWIFT_SELF void *);
typedef __attribute__((swiftcall)) bool rc_try_lock_slow_function(RC_SWIFT_SELF void *);

__attribute__((swiftcall)) void rc_mutex_lock_slow(uint32_t thread_id, RC_SWIFT_SELF void *word)
    __asm__(RC_LOCK_SLOW);
__attribute__((swiftcall)) void rc_mutex_unlock_slow(RC_SWIFT_SELF void *word)
    __asm__(RC_UNLOCK_SLOW);
__attribute__((swiftcall)) bool rc_mutex_try_lock_slow(RC_SWIFT_SELF void *word)
    __asm__(RC_TRY_LOCK_SLOW);

static void *_Atomic lock_slow_slot, *_Atomic unlock_slow_slot, *_Atomic try_lock_slow_slot;

/* The original of a slow path, found once. */
static void *original(const char *name, void *_Atomic *slot) {
  void *function = atomic_load_explicit(slot, memory_order_relaxed);
  return function ? function : rc_resolve(name, slot);
}

/* The scheduler's answer for the calling thread, or RC_MUTEX_FORWARD outside a schedule. */
static rc_mutex_outcome scheduled(void *word, rc_mutex_operation operation, uint32_t thread_id) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return RC_MUTEX_FORWARD;
  rc_mutex_outcome outcome = hooks->mutex_slow(hooks->context, word, operation, thread_id);
  rc_leave_hooks();
  return outcome;
}

__attribute__((swiftcall)) void rc_mutex_lock_slow(uint32_t thread_id, RC_SWIFT_SELF void *word) {
  if (rc_is_subject() && scheduled(word, RC_MUTEX_LOCK, thread_id) != RC_MUTEX_FORWARD) return;
  /* A thread outside the schedule that meets a Mutex the schedule models waits for its end,
   * which gives the word back: the kernel would take the poison for a thread id. */
  while (rc_mutex_word_load(word) == RC_MUTEX_POISON) sched_yield();
  ((rc_lock_slow_function *)original(RC_LOCK_SLOW, &lock_slow_slot))(thread_id, word);
  rc_sanitizer_mutex_acquired(word);
}

__attribute__((swiftcall)) void rc_mutex_unlock_slow(RC_SWIFT_SELF void *word) {
  if (rc_is_subject() && scheduled(word, RC_MUTEX_UNLOCK, 0) != RC_MUTEX_FORWARD) return;
  rc_sanitizer_mutex_releasing(word);
  ((rc_unlock_slow_function *)original(RC_UNLOCK_SLOW, &unlock_slow_slot))(word);
}

__attribute__((swiftcall)) bool rc_mutex_try_lock_slow(RC_SWIFT_SELF void *word) {
  if (rc_is_subject()) {
    rc_mutex_outcome outcome = scheduled(word, RC_MUTEX_TRY_LOCK, 0);
    if (outcome != RC_MUTEX_FORWARD) return outcome == RC_MUTEX_TAKEN;
  }
  if (rc_mutex_word_load(word) == RC_MUTEX_POISON) return false;
  bool locked = ((rc_try_lock_slow_function *)original(RC_TRY_LOCK_SLOW, &try_lock_slow_slot))(word);
  if (locked) rc_sanitizer_mutex_acquired(word);
  return locked;
}

/* Not sanitized: poisoning a word and giving it back is the scheduler's bookkeeping, never the
 * subject's access; seen, it raced with the Mutex's own initialization in every schedule. */
RC_NOT_SANITIZED uint32_t rc_mutex_word_load(const void *word) {
  return atomic_load_explicit((const _Atomic uint32_t *)word, memory_order_acquire);
}

RC_NOT_SANITIZED bool rc_mutex_word_replace(void *word, uint32_t expected, uint32_t desired) {
  return atomic_compare_exchange_strong_explicit(
      (_Atomic uint32_t *)word, &expected, desired, memory_order_acq_rel, memory_order_acquire);
}

uint32_t rc_thread_system_id(void) { return (uint32_t)gettid(); }
