/*
 * Threads code under test starts itself, and its sleeps. Under a scheduler, pthread_create
 * (which Foundation's Thread.start calls) still makes a real thread, with the caller's
 * attributes, but the thread runs as a controlled thread of the schedule: it waits to be
 * picked like any other, pthread_join on it waits under the scheduler, and pthread_exit ends
 * it there before the real thread ends. A sleep is a
 * scheduling point in virtual time: nothing really sleeps, and the other threads may run.
 *
 * Only code under test's calls count: libdispatch and the Swift runtime start worker threads
 * and back off with sleeps of their own, which stay real.
 */
#include "interposer.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

RC_ORIGINAL(pthread_create)
RC_ORIGINAL(pthread_join)
RC_ORIGINAL(pthread_detach)
RC_ORIGINAL(pthread_exit)
RC_ORIGINAL(nanosleep)
RC_ORIGINAL(clock_nanosleep)
RC_ORIGINAL(usleep)
RC_ORIGINAL(sleep)

/* MARK: Threads */

static void *run_controlled(void *argument) {
  rc_thread_routine *routine = argument;
  routine->hooks->thread_run(routine->hooks->context, routine->token);
  void *result = routine->result;
  free(routine);
  return result;
}

void rc_thread_routine_run(rc_thread_routine *routine) {
  rc_thread_mode previous = rc_interposer_set_mode(RC_MODE_SUBJECT);
  routine->result = routine->function(routine->argument);
  rc_set_mode(previous);
}

static bool is_detached(const pthread_attr_t *attr) {
  int state = PTHREAD_CREATE_JOINABLE;
  return attr != 0 && pthread_attr_getdetachstate(attr, &state) == 0 && state == PTHREAD_CREATE_DETACHED;
}

int pthread_create(
    pthread_t *thread, const pthread_attr_t *attr, void *(*function)(void *), void *argument) {
  const rc_interposer_hooks *hooks = rc_enter_hooks_from(__builtin_return_address(0));
  if (hooks == 0) return rc_real_pthread_create()(thread, attr, function, argument);
  rc_thread_routine *routine = malloc(sizeof *routine);
  if (routine == 0) {
    rc_leave_hooks();
    return EAGAIN;
  }
  *routine = (rc_thread_routine){
      .function = function,
      .argument = argument,
      .creator = __builtin_return_address(0),
      .detached = is_detached(attr),
      .hooks = hooks,
  };
  routine->token = hooks->thread_create(hooks->context, routine);
  void *token = routine->token;
  int result = rc_real_pthread_create()(thread, attr, run_controlled, routine);
  /* On success the new thread owns the routine, and may already have freed it. */
  hooks->thread_created(hooks->context, token, result == 0 ? *thread : 0, result == 0);
  if (result != 0) free(routine);
  rc_leave_hooks();
  return result;
}

int pthread_join(pthread_t thread, void **result) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_pthread_join()(thread, result);
  /* A controlled thread has ended its part once the scheduler lets the joiner on; the real join
   * then only waits for it to return. */
  hooks->thread_join(hooks->context, thread);
  int joined = rc_real_pthread_join()(thread, result);
  rc_leave_hooks();
  return joined;
}

int pthread_detach(pthread_t thread) {
  const rc_interposer_hooks *hooks = rc_enter_hooks_from(__builtin_return_address(0));
  if (hooks == 0) return rc_real_pthread_detach()(thread);
  hooks->thread_detach(hooks->context, thread);
  int detached = rc_real_pthread_detach()(thread);
  rc_leave_hooks();
  return detached;
}

/* A created thread that exits early (Foundation's Thread.exit) first ends its part in the schedule,
 * which would otherwise wait for it for good. */
void pthread_exit(void *result) {
  const rc_interposer_hooks *hooks = rc_enter_hooks_from(__builtin_return_address(0));
  if (hooks != 0 && !hooks->thread_exit(hooks->context)) rc_leave_hooks();
  rc_real_pthread_exit()(result);
  __builtin_unreachable();
}

/* MARK: Sleeps */

static int64_t nanoseconds(const struct timespec *duration) {
  return (int64_t)duration->tv_sec * 1000000000 + duration->tv_nsec;
}

/* A sleep as a scheduling point: the other threads may run, and no time passes. */
static void sleep_scheduled(const rc_interposer_hooks *hooks, int64_t duration) {
  hooks->sleep(hooks->context, duration);
  rc_leave_hooks();
}

int nanosleep(const struct timespec *duration, struct timespec *remaining) {
  const rc_interposer_hooks *hooks = rc_enter_hooks_from(__builtin_return_address(0));
  if (hooks == 0) return rc_real_nanosleep()(duration, remaining);
  sleep_scheduled(hooks, nanoseconds(duration));
  if (remaining != 0) *remaining = (struct timespec){0, 0};
  return 0;
}

int clock_nanosleep(
    clockid_t clock, int flags, const struct timespec *request, struct timespec *remaining) {
  const rc_interposer_hooks *hooks = rc_enter_hooks_from(__builtin_return_address(0));
  if (hooks == 0) return rc_real_clock_nanosleep()(clock, flags, request, remaining);
  int64_t duration = nanoseconds(request);
  if (flags & TIMER_ABSTIME) {
    struct timespec now;
    clock_gettime(clock, &now);
    duration -= nanoseconds(&now);
    if (duration < 0) duration = 0;
  }
  sleep_scheduled(hooks, duration);
  if (remaining != 0 && !(flags & TIMER_ABSTIME)) *remaining = (struct timespec){0, 0};
  return 0;
}

int usleep(useconds_t microseconds) {
  const rc_interposer_hooks *hooks = rc_enter_hooks_from(__builtin_return_address(0));
  if (hooks == 0) return rc_real_usleep()(microseconds);
  sleep_scheduled(hooks, (int64_t)microseconds * 1000);
  return 0;
}

unsigned int sleep(unsigned int seconds) {
  const rc_interposer_hooks *hooks = rc_enter_hooks_from(__builtin_return_address(0));
  if (hooks == 0) return rc_real_sleep()(seconds);
  sleep_scheduled(hooks, (int64_t)seconds * 1000000000);
  return 0;
}
