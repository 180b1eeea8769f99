/*
 * The interposer's state: the installed hooks (the one process-wide slot a
 * scheduler writes) and each thread's mode and current-queue stack.
 */
#include "interposer.h"

#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
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

/* The loaded images' address ranges, each marked machinery or not, so that telling who
 * called takes a few comparisons: `dladdr` also looks for the nearest symbol, and on every
 * interposed call that cost more than the rest of a schedule. Entries are only ever added
 * (under `images_adding`), and each is complete before `image_count` publishes it, so a
 * reader needs no lock. The libraries it classifies are never unloaded. */
enum { RC_IMAGE_CAPACITY = 512 };
static struct image_range {
  uintptr_t start, end;
  bool machinery;
} images[RC_IMAGE_CAPACITY];
static _Atomic size_t image_count;
static atomic_flag images_adding = ATOMIC_FLAG_INIT;

static bool is_machinery(const char *path) {
  for (size_t i = 0; i < sizeof machinery / sizeof *machinery; i++) {
    if (strstr(path, machinery[i])) return true;
  }
  return false;
}

static int add_image(struct dl_phdr_info *info, size_t size, void *context) {
  (void)size;
  size_t *count = context;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
    if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
    uintptr_t start = info->dlpi_addr + segment->p_vaddr;
    bool known = false;
    for (size_t j = 0; j < *count && !known; j++) known = images[j].start == start;
    if (known || *count == RC_IMAGE_CAPACITY) continue;
    images[*count] = (struct image_range){
        start, start + segment->p_memsz, info->dlpi_name && is_machinery(info->dlpi_name)};
    (*count)++;
  }
  return 0;
}

/* Adds the images loaded since the last call; another thread adding them meanwhile is as good. */
static void add_loaded_images(void) {
  if (atomic_flag_test_and_set_explicit(&images_adding, memory_order_acquire)) return;
  size_t count = atomic_load_explicit(&image_count, memory_order_relaxed);
  dl_iterate_phdr(add_image, &count);
  atomic_store_explicit(&image_count, count, memory_order_release);
  atomic_flag_clear_explicit(&images_adding, memory_order_release);
}

/* The image holding `address`, or NULL when no image known yet does. */
static const struct image_range *image_holding(uintptr_t address) {
  size_t count = atomic_load_explicit(&image_count, memory_order_acquire);
  for (size_t i = 0; i < count; i++) {
    if (images[i].start <= address && address < images[i].end) return &images[i];
  }
  return 0;
}

const rc_interposer_hooks *rc_enter_hooks_from(const void *caller) {
  if (!rc_is_subject()) return 0;
  uintptr_t address = (uintptr_t)caller;
  const struct image_range *image = image_holding(address);
  if (image == 0) {
    add_loaded_images();
    image = image_holding(address);
  }
  if (image != 0 && image->machinery) return 0;
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
