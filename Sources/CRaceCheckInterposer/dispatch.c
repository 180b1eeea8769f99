/*
 * libdispatch's entry points. Under a scheduler a sync block runs on the calling
 * thread once the scheduler admits it to its queue, and an async block goes to
 * the scheduler, which runs it on a controlled thread of its own; the real
 * queues never see either. What the scheduler needs to know of a queue (serial
 * or concurrent, global or not) comes from watching every queue being created.
 */
#include "interposer.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*rc_function)(void *);

/* The originals' prototypes: <dispatch/dispatch.h> declares its block-taking
 * functions only when compiled with -fblocks, and a block is a pointer here. */
void dispatch_sync(void *queue, void *block);
void dispatch_sync_f(void *queue, void *context, rc_function function);
void dispatch_barrier_sync(void *queue, void *block);
void dispatch_barrier_sync_f(void *queue, void *context, rc_function function);
void dispatch_async(void *queue, void *block);
void dispatch_async_f(void *queue, void *context, rc_function function);
void dispatch_barrier_async(void *queue, void *block);
void dispatch_barrier_async_f(void *queue, void *context, rc_function function);
void dispatch_group_async(void *group, void *queue, void *block);
void dispatch_group_async_f(void *group, void *queue, void *context, rc_function function);
void dispatch_group_enter(void *group);
void dispatch_group_leave(void *group);
void *dispatch_queue_create(const char *label, void *attr);
void *dispatch_queue_create_with_target(const char *label, void *attr, void *target);
void *dispatch_queue_attr_make_with_qos_class(void *attr, unsigned int qos, int priority);
void *dispatch_queue_attr_make_initially_inactive(void *attr);
void *dispatch_queue_attr_make_with_autorelease_frequency(void *attr, unsigned long frequency);
void *dispatch_get_global_queue(intptr_t identifier, uintptr_t flags);
void *dispatch_block_create(unsigned long flags, void *block);
void *dispatch_block_create_with_qos_class(
    unsigned long flags, unsigned int qos, int priority, void *block);
void *dispatch_get_specific(const void *key);
void *dispatch_queue_get_specific(void *queue, const void *key);
const char *dispatch_queue_get_label(void *queue);
void dispatch_after(uint64_t when, void *queue, void *block);
void dispatch_after_f(uint64_t when, void *queue, void *context, rc_function function);
void dispatch_group_notify(void *group, void *queue, void *block);
void dispatch_group_notify_f(void *group, void *queue, void *context, rc_function function);
void dispatch_apply(size_t iterations, void *queue, void *block);
void dispatch_apply_f(size_t iterations, void *queue, void *context, void (*function)(void *, size_t));
void *dispatch_source_create(const void *type, uintptr_t handle, uintptr_t mask, void *queue);
long dispatch_block_wait(void *block, uint64_t timeout);
void dispatch_block_notify(void *block, void *queue, void *notification);
void dispatch_suspend(void *object);
void dispatch_activate(void *object);
void dispatch_set_target_queue(void *object, void *queue);
void dispatch_read(int descriptor, size_t length, void *queue, void *handler);
void dispatch_write(int descriptor, void *data, void *queue, void *handler);
void *dispatch_io_create(unsigned long type, int descriptor, void *queue, void *cleanup);
void *dispatch_io_create_with_path(
    unsigned long type, const char *path, int flags, unsigned int mode, void *queue, void *cleanup);
void *dispatch_io_create_with_io(unsigned long type, void *io, void *queue, void *cleanup);
long dispatch_group_wait(void *group, uint64_t timeout);
uint64_t dispatch_time(uint64_t when, int64_t delta);
uint64_t dispatch_walltime(const struct timespec *when, int64_t delta);
void dispatch_retain(void *object);
void dispatch_release(void *object);
void *_Block_copy(const void *block);
void _Block_release(const void *block);
/* DISPATCH_QUEUE_CONCURRENT is the address of this object. */
extern char _dispatch_queue_attr_concurrent[];

RC_ORIGINAL(dispatch_sync)
RC_ORIGINAL(dispatch_sync_f)
RC_ORIGINAL(dispatch_barrier_sync)
RC_ORIGINAL(dispatch_barrier_sync_f)
RC_ORIGINAL(dispatch_async)
RC_ORIGINAL(dispatch_async_f)
RC_ORIGINAL(dispatch_barrier_async)
RC_ORIGINAL(dispatch_barrier_async_f)
RC_ORIGINAL(dispatch_group_async)
RC_ORIGINAL(dispatch_group_async_f)
RC_ORIGINAL(dispatch_group_enter)
RC_ORIGINAL(dispatch_group_leave)
RC_ORIGINAL(dispatch_queue_create)
RC_ORIGINAL(dispatch_queue_create_with_target)
RC_ORIGINAL(dispatch_queue_attr_make_with_qos_class)
RC_ORIGINAL(dispatch_queue_attr_make_initially_inactive)
RC_ORIGINAL(dispatch_queue_attr_make_with_autorelease_frequency)
RC_ORIGINAL(dispatch_get_global_queue)
RC_ORIGINAL(dispatch_block_create)
RC_ORIGINAL(dispatch_block_create_with_qos_class)
RC_ORIGINAL(dispatch_get_specific)
RC_ORIGINAL(dispatch_queue_get_specific)
RC_ORIGINAL(dispatch_queue_get_label)
RC_ORIGINAL(dispatch_after)
RC_ORIGINAL(dispatch_after_f)
RC_ORIGINAL(dispatch_group_notify)
RC_ORIGINAL(dispatch_group_notify_f)
RC_ORIGINAL(dispatch_apply)
RC_ORIGINAL(dispatch_apply_f)
RC_ORIGINAL(dispatch_source_create)
RC_ORIGINAL(dispatch_block_wait)
RC_ORIGINAL(dispatch_block_notify)
RC_ORIGINAL(dispatch_suspend)
RC_ORIGINAL(dispatch_activate)
RC_ORIGINAL(dispatch_set_target_queue)
RC_ORIGINAL(dispatch_read)
RC_ORIGINAL(dispatch_write)
RC_ORIGINAL(dispatch_io_create)
RC_ORIGINAL(dispatch_io_create_with_path)
RC_ORIGINAL(dispatch_io_create_with_io)
RC_ORIGINAL(dispatch_group_wait)

/* MARK: Which queues are concurrent */

/* A set of addresses under a spin flag: queues are created rarely, and a lock
 * here must not be a pthread mutex, which this module interposes. */
typedef struct rc_address_set {
  atomic_flag busy;
  const void **slots; /* NULL: empty; RC_REMOVED: a tombstone */
  size_t capacity;
  size_t used; /* members and tombstones */
} rc_address_set;

#define RC_REMOVED ((const void *)1)

static void set_lock(rc_address_set *set) {
  while (atomic_flag_test_and_set_explicit(&set->busy, memory_order_acquire)) {
  }
}

static void set_unlock(rc_address_set *set) {
  atomic_flag_clear_explicit(&set->busy, memory_order_release);
}

static size_t slot_of(const void *address, size_t capacity) {
  uintptr_t bits = (uintptr_t)address;
  bits ^= bits >> 17;
  bits *= 0x9E3779B97F4A7C15u;
  return (size_t)(bits >> 7) & (capacity - 1);
}

static bool set_contains_locked(const rc_address_set *set, const void *address) {
  if (set->capacity == 0) return false;
  for (size_t i = slot_of(address, set->capacity);; i = (i + 1) & (set->capacity - 1)) {
    if (set->slots[i] == 0) return false;
    if (set->slots[i] == address) return true;
  }
}

static void set_insert_locked(rc_address_set *set, const void *address);

static void set_grow_locked(rc_address_set *set) {
  const void **old = set->slots;
  size_t old_capacity = set->capacity;
  size_t capacity = old_capacity ? old_capacity * 2 : 64;
  const void **slots = calloc(capacity, sizeof *slots);
  if (slots == 0) abort();
  set->slots = slots;
  set->capacity = capacity;
  set->used = 0;
  for (size_t i = 0; i < old_capacity; i++) {
    if (old[i] != 0 && old[i] != RC_REMOVED) set_insert_locked(set, old[i]);
  }
  free(old);
}

static void set_insert_locked(rc_address_set *set, const void *address) {
  if (set_contains_locked(set, address)) return;
  if ((set->used + 1) * 2 > set->capacity) set_grow_locked(set);
  size_t i = slot_of(address, set->capacity);
  while (set->slots[i] != 0 && set->slots[i] != RC_REMOVED) i = (i + 1) & (set->capacity - 1);
  if (set->slots[i] == 0) set->used++;
  set->slots[i] = address;
}

static void set_remove_locked(rc_address_set *set, const void *address) {
  if (set->capacity == 0) return;
  for (size_t i = slot_of(address, set->capacity);; i = (i + 1) & (set->capacity - 1)) {
    if (set->slots[i] == 0) return;
    if (set->slots[i] == address) {
      set->slots[i] = RC_REMOVED;
      return;
    }
  }
}

static bool set_contains(rc_address_set *set, const void *address) {
  set_lock(set);
  bool found = set_contains_locked(set, address);
  set_unlock(set);
  return found;
}

static void set_put(rc_address_set *set, const void *address, bool member) {
  set_lock(set);
  if (member) {
    set_insert_locked(set, address);
  } else {
    set_remove_locked(set, address);
  }
  set_unlock(set);
}

/* What a queue's target queue is reported as: blocks of queues sharing a serial target run
 * one at a time, which the scheduler does not model. */
static const char target_queue[] = "a queue's target queue (DispatchQueue(target:), setTarget)";

/* Queues created concurrent; every creation updates it, so a serial queue at the
 * address of a freed concurrent one is not taken for concurrent. */
static rc_address_set concurrent_queues;
/* Attributes that make a queue concurrent: DISPATCH_QUEUE_CONCURRENT and those made from it. */
static rc_address_set concurrent_attributes;
/* The global queues handed out. */
static rc_address_set global_queues;

static bool attribute_is_concurrent(void *attr) {
  return attr != 0
      && (attr == (void *)_dispatch_queue_attr_concurrent
          || set_contains(&concurrent_attributes, attr));
}

static void *derived_attribute(void *base, void *made) {
  if (made != 0 && attribute_is_concurrent(base)) set_put(&concurrent_attributes, made, true);
  return made;
}

void *dispatch_queue_attr_make_with_qos_class(void *attr, unsigned int qos, int priority) {
  return derived_attribute(attr, rc_real_dispatch_queue_attr_make_with_qos_class()(attr, qos, priority));
}

void *dispatch_queue_attr_make_initially_inactive(void *attr) {
  return derived_attribute(attr, rc_real_dispatch_queue_attr_make_initially_inactive()(attr));
}

void *dispatch_queue_attr_make_with_autorelease_frequency(void *attr, unsigned long frequency) {
  return derived_attribute(
      attr, rc_real_dispatch_queue_attr_make_with_autorelease_frequency()(attr, frequency));
}

static void *created_queue(void *queue, const char *label, void *attr) {
  if (queue != 0) {
    set_put(&concurrent_queues, queue, attribute_is_concurrent(attr));
    rc_sanitizer_queue_made(queue, label);
  }
  return queue;
}

void *dispatch_queue_create(const char *label, void *attr) {
  return created_queue(rc_real_dispatch_queue_create()(label, attr), label, attr);
}

void *dispatch_queue_create_with_target(const char *label, void *attr, void *target) {
  /* A global queue as target is what every queue has. */
  if (target != 0 && !set_contains(&global_queues, target)) {
    rc_note_unseen(target_queue, __builtin_return_address(0));
  }
  return created_queue(
      rc_real_dispatch_queue_create_with_target()(label, attr, target), label, attr);
}

void *dispatch_get_global_queue(intptr_t identifier, uintptr_t flags) {
  void *queue = rc_real_dispatch_get_global_queue()(identifier, flags);
  if (queue != 0 && !set_contains(&global_queues, queue)) {
    set_put(&global_queues, queue, true);
    rc_sanitizer_global_queue(queue, rc_real_dispatch_queue_get_label()(queue));
  }
  return queue;
}

static rc_queue describe(void *queue) {
  const char *label = rc_real_dispatch_queue_get_label()(queue);
  bool global = set_contains(&global_queues, queue);
  return (rc_queue){
      .address = queue,
      .label = label ? label : "",
      .is_concurrent = global || set_contains(&concurrent_queues, queue),
      .is_global = global,
  };
}

/* MARK: Which blocks are barriers */

/* The Block ABI's layout of a block object (clang's "Block Implementation Specification"). */
struct rc_block_descriptor {
  unsigned long reserved;
  unsigned long size;
};

struct rc_block_layout {
  void *isa;
  int flags;
  int reserved;
  void (*invoke)(void *);
  struct rc_block_descriptor *descriptor;
};

/* libdispatch's private data of a block made by dispatch_block_create: captured
 * right after the block's header, starting with a magic number and the flags. */
struct rc_dispatch_block_data {
  unsigned long magic;
  unsigned long flags;
};

enum { RC_DISPATCH_BLOCK_MAGIC = 0xD159B10C, RC_DISPATCH_BLOCK_BARRIER = 0x1 };

/* The invoke function every dispatch_block_create block shares, once one was made. */
static void *_Atomic dispatch_block_invoke;

static void *created_block(void *block) {
  if (block != 0) {
    atomic_store_explicit(
        &dispatch_block_invoke, (void *)((struct rc_block_layout *)block)->invoke,
        memory_order_relaxed);
  }
  return block;
}

void *dispatch_block_create(unsigned long flags, void *block) {
  return created_block(rc_real_dispatch_block_create()(flags, block));
}

void *dispatch_block_create_with_qos_class(
    unsigned long flags, unsigned int qos, int priority, void *block) {
  return created_block(rc_real_dispatch_block_create_with_qos_class()(flags, qos, priority, block));
}

/* Whether `block` is a DispatchWorkItem (or dispatch_block_create block) flagged barrier. */
static bool block_is_barrier(void *block) {
  const struct rc_block_layout *layout = block;
  void *shared = atomic_load_explicit(&dispatch_block_invoke, memory_order_relaxed);
  if (shared == 0 || (void *)layout->invoke != shared) return false;
  if (layout->descriptor->size < sizeof *layout + sizeof(struct rc_dispatch_block_data)) return false;
  const struct rc_dispatch_block_data *data =
      (const void *)((const char *)block + sizeof *layout);
  return data->magic == RC_DISPATCH_BLOCK_MAGIC && (data->flags & RC_DISPATCH_BLOCK_BARRIER) != 0;
}

static void invoke_block(void *block) { ((struct rc_block_layout *)block)->invoke(block); }

/* MARK: Work under the scheduler */

static void sync_scheduled(
    const rc_interposer_hooks *hooks, void *queue, bool barrier, rc_function function,
    void *context) {
  rc_queue described = describe(queue);
  hooks->queue_sync_enter(hooks->context, described, barrier);
  rc_push_current_queue(queue);
  rc_block_marks marks;
  rc_sanitizer_block_marks(&marks, described, barrier);
  rc_leave_hooks();
  rc_sanitizer_run_block(&marks, false, function, context);
  rc_sanitizer_left_queue(&marks);
  rc_set_mode(RC_MODE_SCHEDULER);
  rc_pop_current_queue();
  hooks->queue_sync_exit(hooks->context, described, barrier);
  rc_leave_hooks();
}

/* A block (copied) or a function and its context, to run later on `queue`, which it keeps
 * alive until then, as libdispatch does. */
static rc_work make_work(
    void *group, void *queue, bool barrier, void *block, rc_function function, void *context) {
  rc_work work;
  if (block != 0) {
    void *copy = _Block_copy(block);
    work = (rc_work){.block = copy, .function = invoke_block, .context = copy};
  } else {
    work = (rc_work){.block = 0, .function = function, .context = context};
  }
  work.queue = queue;
  work.group = group;
  dispatch_retain(queue);
  rc_sanitizer_block_marks(&work.marks, describe(queue), barrier);
  return work;
}

static void async_scheduled(
    const rc_interposer_hooks *hooks, void *group, void *queue, bool barrier, void *block,
    rc_function function, void *context) {
  rc_work work = make_work(group, queue, barrier, block, function, context);
  /* The real group counts the block, so that its waiters outside the scheduler wait for it. */
  if (group != 0) {
    hooks->group_entering(hooks->context, group);
    rc_real_dispatch_group_enter()(group);
  }
  hooks->queue_async(hooks->context, describe(queue), barrier, work);
  rc_leave_hooks();
}

void rc_work_run(rc_work work) {
  rc_push_current_queue(work.queue);
  rc_thread_mode previous = rc_interposer_set_mode(RC_MODE_SUBJECT);
  rc_sanitizer_run_block(&work.marks, true, work.function, work.context);
  rc_set_mode(previous);
  rc_pop_current_queue();
}

void rc_work_finish(rc_work work) {
  if (work.group != 0) {
    /* The group's waiters see the block finish: through the interposer, as a signal. */
    rc_thread_mode previous = rc_interposer_set_mode(RC_MODE_SUBJECT);
    dispatch_group_leave(work.group);
    rc_set_mode(previous);
  }
  if (work.block != 0) _Block_release(work.block);
  dispatch_release((void *)work.queue);
}

/* MARK: Work under Thread Sanitizer's eyes */

#if RC_SANITIZER
/* A block run under its marks (see CRaceCheckSanitizer.h), so that the stacks of the
 * accesses it makes say which queue it ran on and which call submitted it. */
typedef struct rc_marked_work {
  rc_function function;
  void *context;
  /* A copied block, released once run; NULL for a function or a sync block. */
  void *block;
  /* The group it leaves once run, or NULL. */
  void *group;
  rc_block_marks marks;
} rc_marked_work;

static void run_marked_sync(void *argument) {
  rc_marked_work *work = argument;
  rc_sanitizer_run_block(&work->marks, false, work->function, work->context);
}

static void run_marked_async(void *argument) {
  rc_marked_work *work = argument;
  rc_sanitizer_run_block(&work->marks, true, work->function, work->context);
  rc_sanitizer_block_finished(&work->marks);
  if (work->group != 0) rc_real_dispatch_group_leave()(work->group);
  if (work->block != 0) _Block_release(work->block);
  free(work);
}

/* GCD runs a barrier on a global queue as an ordinary block; submitted as one, the
 * sanitizer does not take it for a barrier that orders anything. */
static bool runs_as_barrier(rc_queue queue, bool barrier) { return barrier && !queue.is_global; }

static void sync_marked(void *queue, bool barrier, rc_function function, void *context) {
  rc_queue described = describe(queue);
  rc_marked_work work = {.function = function, .context = context};
  rc_sanitizer_block_marks(&work.marks, described, barrier);
  if (runs_as_barrier(described, barrier)) {
    rc_real_dispatch_barrier_sync_f()(queue, &work, run_marked_sync);
  } else {
    rc_real_dispatch_sync_f()(queue, &work, run_marked_sync);
  }
  rc_sanitizer_left_queue(&work.marks);
}

static void async_marked(
    void *group, void *queue, bool barrier, void *block, rc_function function, void *context) {
  rc_marked_work *work = malloc(sizeof *work);
  if (work == 0) abort();
  *work = (rc_marked_work){.function = function, .context = context, .group = group};
  if (block != 0) {
    work->block = _Block_copy(block);
    work->function = invoke_block;
    work->context = work->block;
  }
  rc_queue described = describe(queue);
  rc_sanitizer_block_marks(&work->marks, described, barrier);
  rc_sanitizer_block_submitted(&work->marks);
  if (group != 0) rc_real_dispatch_group_enter()(group);
  if (runs_as_barrier(described, barrier)) {
    rc_real_dispatch_barrier_async_f()(queue, work, run_marked_async);
  } else {
    rc_real_dispatch_async_f()(queue, work, run_marked_async);
  }
}

/* While a check takes Thread Sanitizer's reports, forwarding runs the block under its marks. */
#define RC_FORWARD_MARKED_SYNC(queue, barrier, function, context) \
  if (rc_sanitizer_armed()) return sync_marked(queue, barrier, function, context)
#define RC_FORWARD_MARKED_ASYNC(group, queue, barrier, block, function, context) \
  if (rc_sanitizer_armed()) return async_marked(group, queue, barrier, block, function, context)
#else
#define RC_FORWARD_MARKED_SYNC(queue, barrier, function, context)
#define RC_FORWARD_MARKED_ASYNC(group, queue, barrier, block, function, context)
#endif

/* MARK: The entry points */

RC_COLD static void dispatch_sync_scheduled(void *queue, void *block) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_sync()(queue, block);
  sync_scheduled(hooks, queue, block_is_barrier(block), invoke_block, block);
}

RC_FIRST_CALL(void, dispatch_sync, (void *queue, void *block), (queue, block))
RC_FIRST_CALL(void, dispatch_async, (void *queue, void *block), (queue, block))

void dispatch_sync(void *queue, void *block) {
  if (rc_is_subject()) return dispatch_sync_scheduled(queue, block);
  RC_FORWARD_MARKED_SYNC(queue, block_is_barrier(block), invoke_block, block);
  RC_FORWARD(dispatch_sync, queue, block);
}

void dispatch_sync_f(void *queue, void *context, rc_function function) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) {
    RC_FORWARD_MARKED_SYNC(queue, false, function, context);
    return rc_real_dispatch_sync_f()(queue, context, function);
  }
  sync_scheduled(hooks, queue, false, function, context);
}

void dispatch_barrier_sync(void *queue, void *block) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) {
    RC_FORWARD_MARKED_SYNC(queue, true, invoke_block, block);
    return rc_real_dispatch_barrier_sync()(queue, block);
  }
  sync_scheduled(hooks, queue, true, invoke_block, block);
}

void dispatch_barrier_sync_f(void *queue, void *context, rc_function function) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) {
    RC_FORWARD_MARKED_SYNC(queue, true, function, context);
    return rc_real_dispatch_barrier_sync_f()(queue, context, function);
  }
  sync_scheduled(hooks, queue, true, function, context);
}

RC_COLD static void dispatch_async_scheduled(void *queue, void *block) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_async()(queue, block);
  async_scheduled(hooks, 0, queue, block_is_barrier(block), block, 0, 0);
}

void dispatch_async(void *queue, void *block) {
  if (rc_is_subject()) return dispatch_async_scheduled(queue, block);
  RC_FORWARD_MARKED_ASYNC(0, queue, block_is_barrier(block), block, 0, 0);
  RC_FORWARD(dispatch_async, queue, block);
}

void dispatch_async_f(void *queue, void *context, rc_function function) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) {
    RC_FORWARD_MARKED_ASYNC(0, queue, false, 0, function, context);
    return rc_real_dispatch_async_f()(queue, context, function);
  }
  async_scheduled(hooks, 0, queue, false, 0, function, context);
}

void dispatch_barrier_async(void *queue, void *block) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) {
    RC_FORWARD_MARKED_ASYNC(0, queue, true, block, 0, 0);
    return rc_real_dispatch_barrier_async()(queue, block);
  }
  async_scheduled(hooks, 0, queue, true, block, 0, 0);
}

void dispatch_barrier_async_f(void *queue, void *context, rc_function function) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) {
    RC_FORWARD_MARKED_ASYNC(0, queue, true, 0, function, context);
    return rc_real_dispatch_barrier_async_f()(queue, context, function);
  }
  async_scheduled(hooks, 0, queue, true, 0, function, context);
}

void dispatch_group_async(void *group, void *queue, void *block) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) {
    RC_FORWARD_MARKED_ASYNC(group, queue, block_is_barrier(block), block, 0, 0);
    return rc_real_dispatch_group_async()(group, queue, block);
  }
  async_scheduled(hooks, group, queue, block_is_barrier(block), block, 0, 0);
}

void dispatch_group_async_f(void *group, void *queue, void *context, rc_function function) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) {
    RC_FORWARD_MARKED_ASYNC(group, queue, false, 0, function, context);
    return rc_real_dispatch_group_async_f()(group, queue, context, function);
  }
  async_scheduled(hooks, group, queue, false, 0, function, context);
}

/* Under the scheduler no block runs on its real queue, so the queue-specific
 * value is looked up on the queue the scheduler runs the thread's block of. */
void *dispatch_get_specific(const void *key) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_get_specific()(key);
  const void *queue = rc_current_queue();
  void *value = queue ? rc_real_dispatch_queue_get_specific()((void *)queue, key) : 0;
  rc_leave_hooks();
  return value;
}

/* DISPATCH_CURRENT_QUEUE_LABEL (NULL) names the queue the scheduler runs the thread's block of. */
const char *dispatch_queue_get_label(void *queue) {
  if (queue == 0) {
    const rc_interposer_hooks *hooks = rc_enter_hooks();
    if (hooks != 0) {
      const void *current = rc_current_queue();
      rc_leave_hooks();
      if (current != 0) return rc_real_dispatch_queue_get_label()((void *)current);
    }
  }
  return rc_real_dispatch_queue_get_label()(queue);
}

/* MARK: Deferred work: timers, group notifications, dispatch_apply */

/* DISPATCH_TIME_FOREVER, and the top bit of a time on the monotonic clock or the wall clock. */
static const uint64_t time_forever = ~(uint64_t)0;
static const uint64_t monotonic_or_wall = (uint64_t)1 << 63;
/* With it, the bit of a time on the wall clock. */
static const uint64_t wall = (uint64_t)1 << 62;

/* How far `when` lies ahead of now on its own clock, in nanoseconds (0 when passed), or -1 for
 * DISPATCH_TIME_FOREVER, when libdispatch never runs the block. libdispatch keeps an uptime
 * (dispatch_time) as it is, a monotonic time (Swift's concurrency runtime's) with the top bit
 * set, and a wall-clock time (dispatch_walltime) as its negation. */
static int64_t delay_until(uint64_t when) {
  if (when == time_forever) return -1;
  if (when == 0) return 0;
  int64_t ahead;
  if (!(when & monotonic_or_wall)) {
    ahead = (int64_t)(when - dispatch_time(0, 0));
  } else if (when & wall) {
    ahead = -(int64_t)when - -(int64_t)dispatch_walltime(0, 0);
  } else {
    /* dispatch_time of the bit alone is now on the monotonic clock. */
    ahead = (int64_t)((when & ~monotonic_or_wall)
                      - (dispatch_time(monotonic_or_wall, 0) & ~monotonic_or_wall));
  }
  return ahead < 0 ? 0 : ahead;
}

static void after_scheduled(
    const rc_interposer_hooks *hooks, uint64_t when, void *queue, void *block,
    rc_function function, void *context) {
  int64_t delay = delay_until(when);
  rc_work work = make_work(0, queue, false, block, function, context);
  hooks->queue_after(hooks->context, describe(queue), delay, work);
  rc_leave_hooks();
}

void dispatch_after(uint64_t when, void *queue, void *block) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_after()(when, queue, block);
  after_scheduled(hooks, when, queue, block, 0, 0);
}

void dispatch_after_f(uint64_t when, void *queue, void *context, rc_function function) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_after_f()(when, queue, context, function);
  after_scheduled(hooks, when, queue, 0, function, context);
}

static void notify_scheduled(
    const rc_interposer_hooks *hooks, void *group, void *queue, void *block, rc_function function,
    void *context) {
  rc_work work = make_work(0, queue, false, block, function, context);
  /* Held until the notification is enqueued: the group is asked whether it is empty until then. */
  dispatch_retain(group);
  hooks->group_notify(hooks->context, group, describe(queue), work);
  rc_leave_hooks();
}

void dispatch_group_notify(void *group, void *queue, void *block) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_group_notify()(group, queue, block);
  notify_scheduled(hooks, group, queue, block, 0, 0);
}

void dispatch_group_notify_f(void *group, void *queue, void *context, rc_function function) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_group_notify_f()(group, queue, context, function);
  notify_scheduled(hooks, group, queue, 0, function, context);
}

void dispatch_group_enter(void *group) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_group_enter()(group);
  hooks->group_entering(hooks->context, group);
  rc_real_dispatch_group_enter()(group);
  rc_leave_hooks();
}

bool rc_group_is_empty(const void *group) {
  return rc_real_dispatch_group_wait()((void *)group, 0) == 0;
}

void rc_group_release(const void *group) { dispatch_release((void *)group); }

/* The block of a dispatch_apply is called with the iteration's index. */
static void invoke_apply_block(void *block, size_t index) {
  ((void (*)(void *, size_t))((struct rc_block_layout *)block)->invoke)(block, index);
}

static void apply_scheduled(
    const rc_interposer_hooks *hooks, size_t iterations, void *queue, void *block,
    void (*function)(void *, size_t), void *context) {
  /* DISPATCH_APPLY_AUTO (NULL) runs the iterations on a global queue. */
  if (queue == 0) queue = dispatch_get_global_queue(0, 0);
  rc_apply_work work = {.block = block, .function = function, .context = context, .queue = queue};
  if (block != 0) {
    work.function = invoke_apply_block;
    work.context = block;
  }
  rc_sanitizer_block_marks(&work.marks, describe(queue), false);
  hooks->apply(hooks->context, describe(queue), iterations, &work);
  rc_leave_hooks();
}

void dispatch_apply(size_t iterations, void *queue, void *block) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_apply()(iterations, queue, block);
  apply_scheduled(hooks, iterations, queue, block, 0, 0);
}

void dispatch_apply_f(
    size_t iterations, void *queue, void *context, void (*function)(void *, size_t)) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return rc_real_dispatch_apply_f()(iterations, queue, context, function);
  apply_scheduled(hooks, iterations, queue, 0, function, context);
}

/* One iteration, as the function the sanitizer's marks run. */
typedef struct rc_iteration {
  const rc_apply_work *work;
  size_t index;
} rc_iteration;

static void run_iteration(void *argument) {
  const rc_iteration *iteration = argument;
  iteration->work->function(iteration->work->context, iteration->index);
}

void rc_apply_run(const rc_apply_work *work, size_t index) {
  rc_iteration iteration = {.work = work, .index = index};
  rc_push_current_queue(work->queue);
  rc_thread_mode previous = rc_interposer_set_mode(RC_MODE_SUBJECT);
  rc_sanitizer_run_block(&work->marks, true, run_iteration, &iteration);
  rc_set_mode(previous);
  rc_pop_current_queue();
}

/* MARK: What the scheduler does not control */

/* Each is reported when code under test calls it under a scheduler, then runs as usual: its
 * handlers run on libdispatch's threads, or it orders blocks in a way the scheduler does not
 * model. */

void *dispatch_source_create(const void *type, uintptr_t handle, uintptr_t mask, void *queue) {
  rc_note_unseen(
      "a dispatch source (DispatchSource), whose handlers run outside the schedule",
      __builtin_return_address(0));
  return rc_real_dispatch_source_create()(type, handle, mask, queue);
}

long dispatch_block_wait(void *block, uint64_t timeout) {
  rc_note_unseen("DispatchWorkItem.wait (dispatch_block_wait)", __builtin_return_address(0));
  return rc_real_dispatch_block_wait()(block, timeout);
}

void dispatch_block_notify(void *block, void *queue, void *notification) {
  rc_note_unseen(
      "DispatchWorkItem.notify (dispatch_block_notify), whose block runs outside the schedule",
      __builtin_return_address(0));
  rc_real_dispatch_block_notify()(block, queue, notification);
}

void dispatch_suspend(void *object) {
  rc_note_unseen("a suspended queue (dispatch_suspend)", __builtin_return_address(0));
  rc_real_dispatch_suspend()(object);
}

void dispatch_activate(void *object) {
  rc_note_unseen("an initially inactive queue (dispatch_activate)", __builtin_return_address(0));
  rc_real_dispatch_activate()(object);
}

void dispatch_set_target_queue(void *object, void *queue) {
  rc_note_unseen(target_queue, __builtin_return_address(0));
  rc_real_dispatch_set_target_queue()(object, queue);
}

static const char dispatch_io[] =
    "dispatch I/O (DispatchIO, dispatch_read, dispatch_write), whose handlers run outside the schedule";

void dispatch_read(int descriptor, size_t length, void *queue, void *handler) {
  rc_note_unseen(dispatch_io, __builtin_return_address(0));
  rc_real_dispatch_read()(descriptor, length, queue, handler);
}

void dispatch_write(int descriptor, void *data, void *queue, void *handler) {
  rc_note_unseen(dispatch_io, __builtin_return_address(0));
  rc_real_dispatch_write()(descriptor, data, queue, handler);
}

void *dispatch_io_create(unsigned long type, int descriptor, void *queue, void *cleanup) {
  rc_note_unseen(dispatch_io, __builtin_return_address(0));
  return rc_real_dispatch_io_create()(type, descriptor, queue, cleanup);
}

void *dispatch_io_create_with_path(
    unsigned long type, const char *path, int flags, unsigned int mode, void *queue,
    void *cleanup) {
  rc_note_unseen(dispatch_io, __builtin_return_address(0));
  return rc_real_dispatch_io_create_with_path()(type, path, flags, mode, queue, cleanup);
}

void *dispatch_io_create_with_io(unsigned long type, void *io, void *queue, void *cleanup) {
  rc_note_unseen(dispatch_io, __builtin_return_address(0));
  return rc_real_dispatch_io_create_with_io()(type, io, queue, cleanup);
}
