/*
 * Waiting for another thread: dispatch semaphores, dispatch groups and pthread
 * condition variables (which NSCondition uses). Under a scheduler the real
 * semaphore or group keeps the count: a wait first tries it without waiting,
 * and when that fails the scheduler parks the thread until another controlled
 * thread signals the object, then it tries again. A timed wait may also be
 * chosen to time out, as it may when the signal comes too late.
 */
#include "interposer.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>

long dispatch_semaphore_wait(void *semaphore, uint64_t timeout);
long dispatch_semaphore_signal(void *semaphore);
long dispatch_group_wait(void *group, uint64_t timeout);
void dispatch_group_leave(void *group);

RC_ORIGINAL(dispatch_semaphore_wait)
RC_ORIGINAL(dispatch_semaphore_signal)
RC_ORIGINAL(dispatch_group_wait)
RC_ORIGINAL(dispatch_group_leave)
RC_ORIGINAL(pthread_cond_wait)
RC_ORIGINAL(pthread_cond_timedwait)
RC_ORIGINAL(pthread_cond_signal)
RC_ORIGINAL(pthread_cond_broadcast)
RC_ORIGINAL(pthread_mutex_lock)
RC_ORIGINAL(pthread_mutex_unlock)

/* DISPATCH_TIME_NOW and DISPATCH_TIME_FOREVER. */
static const uint64_t time_now = 0;
static const uint64_t time_forever = ~(uint64_t)0;

/* Tries `attempt` until it succeeds or the scheduler chooses a timeout; 0 on success. */
static long wait_scheduled(
    const rc_interposer_hooks *hooks, void *object, rc_signal_kind kind, uint64_t timeout,
    long (*attempt)(void *, uint64_t)) {
  hooks->signal_try(hooks->context, object, kind);
  while (attempt(object, time_now) != 0) {
    if (timeout == time_now || !hooks->signal_wait(hooks->context, object, kind, timeout != time_forever)) {
      return 1; /* what libdispatch returns for a timeout: non-zero */
    }
  }
  return 0;
}

long dispatch_semaphore_wait(void *semaphore, uint64_t timeout) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_semaphore_wait()(semaphore, timeout);
  long result = wait_scheduled(
      hooks, semaphore, RC_SIGNAL_SEMAPHORE, timeout, rc_real_dispatch_semaphore_wait());
  rc_leave_hooks();
  return result;
}

long dispatch_semaphore_signal(void *semaphore) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_semaphore_signal()(semaphore);
  hooks->signal(hooks->context, semaphore, RC_SIGNAL_SEMAPHORE);
  long result = rc_real_dispatch_semaphore_signal()(semaphore);
  rc_leave_hooks();
  return result;
}

long dispatch_group_wait(void *group, uint64_t timeout) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_group_wait()(group, timeout);
  long result = wait_scheduled(hooks, group, RC_SIGNAL_GROUP, timeout, rc_real_dispatch_group_wait());
  rc_leave_hooks();
  return result;
}

void dispatch_group_leave(void *group) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_group_leave()(group);
  hooks->signal(hooks->context, group, RC_SIGNAL_GROUP);
  rc_real_dispatch_group_leave()(group);
  rc_leave_hooks();
}

static int condition_wait(
    const rc_interposer_hooks *hooks, pthread_cond_t *condition, pthread_mutex_t *mutex, bool timed) {
  RC_VISIBLE(rc_real_pthread_mutex_unlock()(mutex));
  bool signaled = hooks->condition_wait(hooks->context, condition, mutex, timed);
  RC_VISIBLE(rc_real_pthread_mutex_lock()(mutex));
  return signaled ? 0 : ETIMEDOUT;
}

int pthread_cond_wait(pthread_cond_t *condition, pthread_mutex_t *mutex) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_pthread_cond_wait()(condition, mutex);
  int result = condition_wait(hooks, condition, mutex, false);
  rc_leave_hooks();
  return result;
}

int pthread_cond_timedwait(
    pthread_cond_t *condition, pthread_mutex_t *mutex, const struct timespec *deadline) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_pthread_cond_timedwait()(condition, mutex, deadline);
  int result = condition_wait(hooks, condition, mutex, true);
  rc_leave_hooks();
  return result;
}

int pthread_cond_signal(pthread_cond_t *condition) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_pthread_cond_signal()(condition);
  hooks->signal(hooks->context, condition, RC_SIGNAL_CONDITION);
  int result = rc_real_pthread_cond_signal()(condition);
  rc_leave_hooks();
  return result;
}

int pthread_cond_broadcast(pthread_cond_t *condition) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_pthread_cond_broadcast()(condition);
  hooks->signal(hooks->context, condition, RC_SIGNAL_CONDITION);
  int result = rc_real_pthread_cond_broadcast()(condition);
  rc_leave_hooks();
  return result;
}
