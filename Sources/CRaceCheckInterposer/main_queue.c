/*
 * dispatch_main, kept on the main thread.
 *
 * On Linux, libdispatch's dispatch_main ends the main thread (pthread_exit) and hands
 * the main queue to its worker threads. Swift's async `main`, which Swift Testing's
 * entry point is, calls it: in a test process nothing ever runs on the main thread,
 * not even main-actor code, and a check could not put an operation there. The
 * interposer's dispatch_main keeps the thread and drains the main queue on it, the way
 * CoreFoundation's run loop does (libdispatch's eventfd for the main queue, then its
 * drain callback), as the main queue behaves on Apple's platforms. It never returns,
 * like the original; exit() from any thread ends the process.
 */
#include "interposer.h"

#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

void dispatch_main(void);
/* libdispatch's run-loop integration, which it exports for CoreFoundation. */
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

RC_ORIGINAL(dispatch_main)

/* Waits for the main queue's wakeup and drains it, until `*done` (when not NULL) is true;
 * false when there is no handle or the wait failed. */
static bool drain_main_queue(const _Atomic bool *done) {
  int handle = _dispatch_get_main_queue_handle_4CF();
  if (handle < 0) return false;
  while (done == 0 || !atomic_load(done)) {
    struct pollfd ready = {.fd = handle, .events = POLLIN, .revents = 0};
    if (poll(&ready, 1, -1) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    /* Reset the eventfd before draining: a wakeup written during the drain stays for the next. */
    uint64_t wakeups;
    (void)!read(handle, &wakeups, sizeof wakeups);
    _dispatch_main_queue_callback_4CF(0);
  }
  return true;
}

void dispatch_main(void) {
  drain_main_queue(0);
  rc_real_dispatch_main()();
}

struct rc_main_drain {
  _Atomic bool done;
};

rc_main_drain *rc_main_drain_create(void) { return calloc(1, sizeof(rc_main_drain)); }

bool rc_main_drain_run(rc_main_drain *drain) { return drain_main_queue(&drain->done); }

/* The main queue, which dispatch_get_main_queue() names in C. */
extern struct dispatch_queue_s _dispatch_main_q;
void dispatch_async_f(void *queue, void *context, void (*function)(void *));

static void wake(void *context) { (void)context; }

void rc_main_drain_finish(rc_main_drain *drain) {
  atomic_store(&drain->done, true);
  dispatch_async_f(&_dispatch_main_q, 0, wake);
}

void rc_main_drain_destroy(rc_main_drain *drain) { free(drain); }

bool rc_is_main_thread(void) { return gettid() == getpid(); }
