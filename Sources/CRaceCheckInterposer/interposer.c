/*
 * The interposer's state: the installed hooks (the one process-wide slot a
 * scheduler writes) and each thread's mode and current-queue stack.
 */
#include "interposer.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

RC_THREAD_LOCAL rc_thread_mode rc_mode = RC_MODE_UNCONTROLLED;
RC_THREAD_LOCAL const rc_interposer_hooks *rc_hooks = 0;

/* The queues whose blocks the thread runs under the scheduler, innermost last. A
 * thread nests a few sync blocks at most; deeper ones are not tracked. */
enum { RC_QUEUE_DEPTH = 32 };
static RC_THREAD_LOCAL const void *rc_current_queues[RC_QUEUE_DEPTH];
static RC_THREAD_LOCAL int rc_current_queue_count;

void rc_interposer_install(const rc_interposer_hooks *hooks) { rc_hooks = hooks; }

rc_thread_mode rc_interposer_mode(void) { return rc_mode; }

rc_thread_mode rc_interposer_set_mode(rc_thread_mode mode) {
  rc_thread_mode previous = rc_mode;
  rc_set_mode(mode);
  return previous;
}

/* A sanitizer's interceptor of `name` linked into this executable, or NULL. Thread
 * Sanitizer intercepts mutexes and libdispatch under the same names, weakly, so the
 * interposer's definitions win: forwarding to its interceptor keeps it seeing every lock
 * and block, where forwarding past it would make it report races that are not there. */
static void *sanitizer_interceptor(const char *name) {
  static const char *const prefixes[] = {"___interceptor_", "__interceptor_"};
  char symbol[128];
  size_t length = strlen(name);
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
    size_t prefix = strlen(prefixes[i]);
    if (prefix + length + 1 > sizeof symbol) return 0;
    memcpy(symbol, prefixes[i], prefix);
    memcpy(symbol + prefix, name, length + 1);
    void *interceptor = dlsym(RTLD_DEFAULT, symbol);
    if (interceptor != 0) return interceptor;
  }
  return 0;
}

void *rc_interposer_original(const char *name) {
  void *interceptor = sanitizer_interceptor(name);
  return interceptor ? interceptor : dlsym(RTLD_NEXT, name);
}

RC_NOT_SANITIZED void *rc_resolve(const char *name, void *_Atomic *slot) {
  void *function = rc_interposer_original(name);
  if (function == 0) {
    /* No stdio: this may run before anything is set up, or inside malloc's caller. */
    static const char prefix[] = "racecheck: the interposer found no original of ";
    (void)!write(2, prefix, sizeof prefix - 1);
    (void)!write(2, name, strlen(name));
    (void)!write(2, "\n", 1);
    abort();
  }
  atomic_store_explicit(slot, function, memory_order_relaxed);
  return function;
}

/* The libraries whose threads, sleeps and queues are their own machinery, not code under test's. */
static const char *const machinery[] = {
    "libdispatch.so", "libswift_Concurrency.so", "libswiftCore.so", "libstdc++.so",
};

const rc_interposer_hooks *rc_enter_hooks_from(const void *caller) {
  if (!rc_is_subject()) return 0;
  Dl_info found;
  if (dladdr(caller, &found) && found.dli_fname != 0) {
    for (size_t i = 0; i < sizeof machinery / sizeof *machinery; i++) {
      if (strstr(found.dli_fname, machinery[i])) return 0;
    }
  }
  return rc_enter_hooks();
}

void rc_note_unseen(const char *primitive, const void *caller) {
  const rc_interposer_hooks *hooks = rc_enter_hooks_from(caller);
  if (hooks == 0) return;
  hooks->unseen(hooks->context, primitive);
  rc_leave_hooks();
}

void rc_push_current_queue(const void *queue) {
  if (rc_current_queue_count < RC_QUEUE_DEPTH) rc_current_queues[rc_current_queue_count] = queue;
  rc_current_queue_count++;
}

void rc_pop_current_queue(void) {
  if (rc_current_queue_count > 0) rc_current_queue_count--;
}

/* The innermost queue the thread runs a block of under the scheduler, or NULL. */
const void *rc_current_queue(void) {
  int count = rc_current_queue_count;
  if (count == 0 || count > RC_QUEUE_DEPTH) return 0;
  return rc_current_queues[count - 1];
}

/* Whether `name` resolves, for every library, to the definition in this module's own object. */
static bool resolves_here(const char *name) {
  Dl_info found, here;
  void *definition = dlsym(RTLD_DEFAULT, name);
  if (definition == 0 || !dladdr(definition, &found)) return false;
  if (!dladdr((void *)&rc_interposer_is_linked, &here)) return false;
  return found.dli_fbase == here.dli_fbase;
}

bool rc_interposer_is_linked(void) {
  return resolves_here("dispatch_sync") && resolves_here("pthread_mutex_lock")
      && resolves_here("swift_beginAccess");
}
