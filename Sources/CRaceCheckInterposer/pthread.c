/*
 * glibc's mutexes, which NSLock, NSRecursiveLock and NSCondition are built on, and its
 * reader-writer locks.
 * Under a scheduler the scheduler decides who owns a mutex; the thread it grants
 * one to then takes the real one too, which is free unless a thread outside the
 * scheduler holds it, so that code outside the scheduler stays excluded.
 */
#include "interposer.h"

#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <string.h>

RC_ORIGINAL(pthread_mutex_lock)
RC_ORIGINAL(pthread_mutex_trylock)
RC_ORIGINAL(pthread_mutex_unlock)
RC_ORIGINAL(pthread_rwlock_rdlock)
RC_ORIGINAL(pthread_rwlock_tryrdlock)
RC_ORIGINAL(pthread_rwlock_wrlock)
RC_ORIGINAL(pthread_rwlock_trywrlock)
RC_ORIGINAL(pthread_rwlock_unlock)

/* glibc keeps the type PTHREAD_MUTEX_RECURSIVE etc. in the low bits of the mutex's __kind. */
static bool is_recursive(const pthread_mutex_t *mutex) {
  return (mutex->__data.__kind & 0x3) == PTHREAD_MUTEX_RECURSIVE;
}

/* MARK: Whose mutexes count */

/* The Swift runtime's own mutexes (metadata and conformance caches) guard short
 * critical sections of C++ that call back into no code under test. They stay
 * real: were one a scheduling point, a thread parked while holding it would
 * block the scheduler's own code, which takes the same mutexes, for good. So do
 * the test frameworks' (Swift Testing's and XCTest's, which record an explored
 * body's failed expectation) and libunwind's (which they take the expectation's
 * backtrace with): they are not the code under test, and scheduled, they would fill
 * a failing schedule's trace with hundreds of steps that change from one run to the
 * next as the frameworks warm their caches, and its replay would diverge. */
static const char *const runtime_libraries[] = {
    "libswiftCore.so", "libswift_Concurrency.so", "lib_FoundationICU.so", "libstdc++.so",
    "libTesting.so",   "libXCTest.so",            "libunwind.so",
};

enum { RC_RUNTIME_RANGES = 16 };
static struct {
  uintptr_t start, end;
} runtime_ranges[RC_RUNTIME_RANGES];
static _Atomic int runtime_range_count = -1;

static int note_runtime_library(struct dl_phdr_info *info, size_t size, void *count) {
  (void)size;
  bool runtime = false;
  for (size_t i = 0; i < sizeof runtime_libraries / sizeof *runtime_libraries; i++) {
    if (info->dlpi_name && strstr(info->dlpi_name, runtime_libraries[i])) runtime = true;
  }
  if (!runtime) return 0;
  for (int i = 0; i < info->dlpi_phnum && *(int *)count < RC_RUNTIME_RANGES; i++) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
    if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
    uintptr_t start = info->dlpi_addr + segment->p_vaddr;
    runtime_ranges[*(int *)count].start = start;
    runtime_ranges[*(int *)count].end = start + segment->p_memsz;
    (*(int *)count)++;
  }
  return 0;
}

static atomic_flag filling_runtime_ranges = ATOMIC_FLAG_INIT;

/* Whether `pc`, a return address, is in the Swift runtime's code. */
RC_NOT_SANITIZED static bool called_by_runtime(const void *pc) {
  int count = atomic_load_explicit(&runtime_range_count, memory_order_acquire);
  if (count < 0) {
    /* The first caller fills the table; any other waits for it (no mutex: this is one). */
    if (!atomic_flag_test_and_set_explicit(&filling_runtime_ranges, memory_order_acquire)) {
      int found = 0;
      dl_iterate_phdr(note_runtime_library, &found);
      atomic_store_explicit(&runtime_range_count, found, memory_order_release);
    }
    while ((count = atomic_load_explicit(&runtime_range_count, memory_order_acquire)) < 0) {
    }
  }
  for (int i = 0; i < count; i++) {
    if ((uintptr_t)pc >= runtime_ranges[i].start && (uintptr_t)pc < runtime_ranges[i].end) return true;
  }
  return false;
}

/* The hooks for a call on `mutex` from `caller`, or NULL when it forwards. */
static const rc_interposer_hooks *hooks_for(const void *caller) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks != 0 && called_by_runtime(caller)) {
    rc_leave_hooks();
    return 0;
  }
  return hooks;
}

/* MARK: The entry points */

RC_COLD static int mutex_lock_scheduled(pthread_mutex_t *mutex, const void *caller) {
  const rc_interposer_hooks *hooks = hooks_for(caller);
  if (hooks == 0) return rc_real_pthread_mutex_lock()(mutex);
  hooks->mutex_lock(hooks->context, mutex, is_recursive(mutex));
  int result = RC_VISIBLE(rc_real_pthread_mutex_lock()(mutex));
  if (result == 0) rc_sanitizer_locked();
  rc_leave_hooks();
  return result;
}

RC_COLD static int mutex_trylock_scheduled(pthread_mutex_t *mutex, const void *caller) {
  const rc_interposer_hooks *hooks = hooks_for(caller);
  if (hooks == 0) return rc_real_pthread_mutex_trylock()(mutex);
  int result = EBUSY;
  if (hooks->mutex_trylock(hooks->context, mutex, is_recursive(mutex))) {
    result = RC_VISIBLE(rc_real_pthread_mutex_trylock()(mutex));
    if (result == 0) rc_sanitizer_locked();
    /* Held by a thread outside the scheduler: the scheduler's grant is given back. */
    if (result != 0) hooks->mutex_unlock(hooks->context, mutex);
  }
  rc_leave_hooks();
  return result;
}

RC_COLD static int mutex_unlock_scheduled(pthread_mutex_t *mutex, const void *caller) {
  const rc_interposer_hooks *hooks = hooks_for(caller);
  if (hooks == 0) return rc_real_pthread_mutex_unlock()(mutex);
  int result = RC_VISIBLE(rc_real_pthread_mutex_unlock()(mutex));
  if (result == 0) rc_sanitizer_unlocked();
  hooks->mutex_unlock(hooks->context, mutex);
  rc_leave_hooks();
  return result;
}

RC_FIRST_CALL(int, pthread_mutex_lock, (pthread_mutex_t * mutex), (mutex))
RC_FIRST_CALL(int, pthread_mutex_trylock, (pthread_mutex_t * mutex), (mutex))
RC_FIRST_CALL(int, pthread_mutex_unlock, (pthread_mutex_t * mutex), (mutex))

/* Not sanitized, the entry points and what they call on the forwarding path: a thread's
 * key destructors (libunwind's among them) lock mutexes after the sanitizer finished the
 * thread, when a frame of the sanitizer's own would crash it. */
#if RC_SANITIZER
/* Under Thread Sanitizer a race report says whether the thread held a lock, and whether its
 * call had released one: the forwarding path counts the locks of code that is not the runtime's. */
RC_NOT_SANITIZED static int counted(int result, bool taken, const void *caller) {
  if (result == 0 && rc_sanitizer_armed() && !called_by_runtime(caller)) {
    if (taken) {
      rc_sanitizer_locked();
    } else {
      rc_sanitizer_unlocked();
    }
  }
  return result;
}
#define RC_FORWARD_COUNTED(name, taken, ...) \
  return counted(rc_real_##name()(__VA_ARGS__), taken, __builtin_return_address(0))
#else
#define RC_FORWARD_COUNTED(name, taken, ...) RC_FORWARD(name, __VA_ARGS__)
#endif

RC_NOT_SANITIZED int pthread_mutex_lock(pthread_mutex_t *mutex) {
  if (rc_is_subject()) return mutex_lock_scheduled(mutex, __builtin_return_address(0));
  RC_FORWARD_COUNTED(pthread_mutex_lock, true, mutex);
}

RC_NOT_SANITIZED int pthread_mutex_trylock(pthread_mutex_t *mutex) {
  if (rc_is_subject()) return mutex_trylock_scheduled(mutex, __builtin_return_address(0));
  RC_FORWARD_COUNTED(pthread_mutex_trylock, true, mutex);
}

RC_NOT_SANITIZED int pthread_mutex_unlock(pthread_mutex_t *mutex) {
  if (rc_is_subject()) return mutex_unlock_scheduled(mutex, __builtin_return_address(0));
  RC_FORWARD_COUNTED(pthread_mutex_unlock, false, mutex);
}

/* Reader-writer locks, as mutexes are: the scheduler grants, then the real one is taken. */
RC_NOT_SANITIZED static int rwlock_lock(pthread_rwlock_t *lock, bool for_writing, const void *caller) {
  const rc_interposer_hooks *hooks = hooks_for(caller);
  if (hooks == 0) {
    int result =
        for_writing ? rc_real_pthread_rwlock_wrlock()(lock) : rc_real_pthread_rwlock_rdlock()(lock);
#if RC_SANITIZER
    counted(result, true, caller);
#endif
    return result;
  }
  hooks->rwlock_lock(hooks->context, lock, for_writing);
  int result = RC_VISIBLE(
      for_writing ? rc_real_pthread_rwlock_wrlock()(lock) : rc_real_pthread_rwlock_rdlock()(lock));
  rc_leave_hooks();
  return result;
}

RC_NOT_SANITIZED static int rwlock_trylock(pthread_rwlock_t *lock, bool for_writing, const void *caller) {
  const rc_interposer_hooks *hooks = hooks_for(caller);
  if (hooks == 0) {
    return for_writing ? rc_real_pthread_rwlock_trywrlock()(lock)
                       : rc_real_pthread_rwlock_tryrdlock()(lock);
  }
  int result = EBUSY;
  if (hooks->rwlock_trylock(hooks->context, lock, for_writing)) {
    result = RC_VISIBLE(
        for_writing ? rc_real_pthread_rwlock_trywrlock()(lock) : rc_real_pthread_rwlock_tryrdlock()(lock));
    if (result != 0) hooks->rwlock_unlock(hooks->context, lock);
  }
  rc_leave_hooks();
  return result;
}

RC_NOT_SANITIZED int pthread_rwlock_rdlock(pthread_rwlock_t *lock) {
  return rwlock_lock(lock, false, __builtin_return_address(0));
}

RC_NOT_SANITIZED int pthread_rwlock_wrlock(pthread_rwlock_t *lock) {
  return rwlock_lock(lock, true, __builtin_return_address(0));
}

RC_NOT_SANITIZED int pthread_rwlock_tryrdlock(pthread_rwlock_t *lock) {
  return rwlock_trylock(lock, false, __builtin_return_address(0));
}

RC_NOT_SANITIZED int pthread_rwlock_trywrlock(pthread_rwlock_t *lock) {
  return rwlock_trylock(lock, true, __builtin_return_address(0));
}

RC_NOT_SANITIZED int pthread_rwlock_unlock(pthread_rwlock_t *lock) {
  const rc_interposer_hooks *hooks = hooks_for(__builtin_return_address(0));
  if (hooks == 0) {
    int result = rc_real_pthread_rwlock_unlock()(lock);
#if RC_SANITIZER
    counted(result, false, __builtin_return_address(0));
#endif
    return result;
  }
  int result = RC_VISIBLE(rc_real_pthread_rwlock_unlock()(lock));
  hooks->rwlock_unlock(hooks->context, lock);
  rc_leave_hooks();
  return result;
}
