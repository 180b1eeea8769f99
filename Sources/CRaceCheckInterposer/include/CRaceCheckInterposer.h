/*
 * CRaceCheckInterposer: takes over the synchronization entry points that code
 * under test calls, so that schedule mode can run unmodified code.
 *
 * The module defines, in the executable that links racecheck, functions with
 * the names of libdispatch's, glibc's and the Swift runtime's:
 *
 *   dispatch_sync(_f), dispatch_barrier_sync(_f), dispatch_async(_f),
 *   dispatch_barrier_async(_f), dispatch_group_async(_f), dispatch_group_enter, dispatch_group_wait,
 *   dispatch_group_leave, dispatch_semaphore_wait, dispatch_semaphore_signal,
 *   dispatch_get_specific, dispatch_queue_get_label, dispatch_queue_create(_with_target),
 *   dispatch_queue_attr_make_*, dispatch_get_global_queue, dispatch_block_create(_with_qos_class),
 *   pthread_mutex_lock, pthread_mutex_trylock, pthread_mutex_unlock,
 *   pthread_rwlock_rdlock, _wrlock, _tryrdlock, _trywrlock, _unlock,
 *   pthread_cond_wait, _timedwait, _signal, _broadcast,
 *   dispatch_after(_f), dispatch_group_notify(_f), dispatch_apply(_f),
 *   pthread_create, pthread_join, pthread_detach, pthread_exit, nanosleep, clock_nanosleep, usleep, sleep,
 *   and, only to report their use under a scheduler: dispatch_source_create,
 *   dispatch_block_wait, dispatch_block_notify, dispatch_suspend, dispatch_activate,
 *   dispatch_set_target_queue, dispatch_read, dispatch_write, dispatch_io_create(_with_path,
 *   _with_io),
 *   swift_beginAccess, swift_allocObject, swift_allocBox,
 *   Synchronization's _MutexHandle._lockSlow, _unlockSlow and _tryLockSlow,
 *   and, only to note what they do to the concurrency runtime's own state for
 *   partial-order reduction: swift_task_switch, swift_task_create, Task.cancel(),
 *   Task.isCancelled, Task.checkCancellation(), UnsafeCurrentTask's and the task
 *   groups' cancel, cancelAll() and isCancelled.
 *
 * The static linker exports a definition in an executable that a shared
 * library on the link line refers to, and the dynamic linker then binds that
 * library's calls to it: Swift's Dispatch overlay, Foundation (NSLock,
 * NSMutableArray) and the code under test all call these instead of the
 * originals. No LD_PRELOAD, no change to the code under test.
 *
 * Each function forwards to the original (found with dlsym(RTLD_NEXT), or Thread
 * Sanitizer's interceptor of it in a --sanitize=thread build) unless
 * the calling thread runs code under test for a scheduler that installed its
 * hooks on it; the test is one thread-local load. Then it calls the scheduler's hook instead,
 * which makes the call a scheduling point and models the primitive.
 *
 * A thread is in one of three modes:
 *
 *   RC_MODE_UNCONTROLLED  every thread at first: everything forwards;
 *   RC_MODE_SCHEDULER     a controlled thread running the scheduler's own code:
 *                         everything forwards, so the scheduler never sees itself;
 *   RC_MODE_SUBJECT       a controlled thread running code under test: the
 *                         hooks see every call.
 *
 * A hook runs in RC_MODE_SCHEDULER; the interposer switches back to
 * RC_MODE_SUBJECT to run the code under test's blocks.
 */
#ifndef CRACECHECK_INTERPOSER_H
#define CRACECHECK_INTERPOSER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "CRaceCheckSanitizer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The mode of the calling thread; see above. */
typedef enum rc_thread_mode {
  RC_MODE_UNCONTROLLED = 0,
  RC_MODE_SCHEDULER = 1,
  RC_MODE_SUBJECT = 2,
} rc_thread_mode;

/* What the interposer knows of a dispatch queue. */
typedef struct rc_queue {
  /* The queue object: the same address on every call while it lives. */
  const void *address;
  /* Its label, or "" (dispatch_queue_get_label's answer). */
  const char *label;
  /* Created with DISPATCH_QUEUE_CONCURRENT, or one of the global queues. */
  bool is_concurrent;
  /* One of the global queues, which run barriers as ordinary blocks. */
  bool is_global;
} rc_queue;

/* A block submitted with dispatch_async (copied) or a function and its context;
 * rc_work_run runs it once, rc_work_finish frees it. */
typedef struct rc_work {
  /* The copied block, or NULL for a function. */
  void *block;
  void (*function)(void *);
  void *context;
  /* The queue it was submitted to. */
  const void *queue;
  /* The group it was submitted with, or NULL: it leaves the group once run or discarded. */
  void *group;
  /* Under Thread Sanitizer: the marks it runs under (see CRaceCheckSanitizer.h). */
  rc_block_marks marks;
} rc_work;

/* The iterations of a dispatch_apply: rc_apply_run runs one of them. */
typedef struct rc_apply_work {
  /* The block, or NULL for a function. */
  void *block;
  void (*function)(void *, size_t);
  void *context;
  /* The queue the iterations run on (a global one for DISPATCH_APPLY_AUTO). */
  const void *queue;
  /* Under Thread Sanitizer: the marks each iteration runs under. */
  rc_block_marks marks;
} rc_apply_work;

/* A thread code under test creates with pthread_create: its start routine and argument, what
 * the routine returned, and the scheduler's token for the controlled thread that runs it. */
typedef struct rc_thread_routine {
  void *(*function)(void *);
  void *argument;
  void *result;
  /* The return address of the pthread_create call: in the function that created the thread. */
  const void *creator;
  /* Whether it was created detached: nobody joins it, and the system reclaims it as it ends. */
  bool detached;
  /* The hooks of the scheduler the thread belongs to, and its token there. */
  const struct rc_interposer_hooks *hooks;
  void *token;
} rc_thread_routine;

/* What a thread can wait on for another thread's signal. */
typedef enum rc_signal_kind {
  RC_SIGNAL_SEMAPHORE = 0,
  RC_SIGNAL_GROUP = 1,
  RC_SIGNAL_CONDITION = 2,
} rc_signal_kind;

/* A call on a Synchronization.Mutex that missed its inlined fast path. */
typedef enum rc_mutex_operation {
  RC_MUTEX_LOCK = 0,
  RC_MUTEX_TRY_LOCK = 1,
  RC_MUTEX_UNLOCK = 2,
} rc_mutex_operation;

/* What the scheduler did with it. */
typedef enum rc_mutex_outcome {
  /* Nothing: the original slow path runs. */
  RC_MUTEX_FORWARD = 0,
  /* The thread holds the Mutex now (a lock or a try that succeeded) or gave it up (an unlock). */
  RC_MUTEX_TAKEN = 1,
  /* A try found it held. */
  RC_MUTEX_BUSY = 2,
} rc_mutex_outcome;

/* The scheduler's side. Every hook is called on a controlled thread in RC_MODE_SCHEDULER. */
typedef struct rc_interposer_hooks {
  void *context;
  /* Before a sync block runs: waits until the queue admits it. */
  void (*queue_sync_enter)(void *context, rc_queue queue, bool barrier);
  /* After it ran. */
  void (*queue_sync_exit)(void *context, rc_queue queue, bool barrier);
  /* Takes ownership of `work`, to run it on a controlled thread once the queue admits it. */
  void (*queue_async)(void *context, rc_queue queue, bool barrier, rc_work work);
  /* Waits until `mutex` is free, then makes the thread its owner (again, when recursive). */
  void (*mutex_lock)(void *context, const void *mutex, bool recursive);
  /* Takes `mutex` if it is free (or, when recursive, held by the thread); false otherwise. */
  bool (*mutex_trylock)(void *context, const void *mutex, bool recursive);
  /* Gives up one hold of `mutex`. */
  void (*mutex_unlock)(void *context, const void *mutex);
  /* One access to class or global storage at `address`, as the Swift runtime's
   * exclusivity check announces it; `pc` is the accessing instruction. */
  void (*access)(void *context, const void *address, bool modify, const void *pc);
  /* One plain load or store at `address` by C code built with load and store tracing
   * (traced_memory.c); `pc` is in the accessing function. NULL for an access to the thread's
   * own stack, which is no scheduling point but shows that the function is traced. */
  void (*traced_access)(void *context, const void *address, bool modify, const void *pc);
  /* Waits until the reader-writer lock is free (for writing) or has no writer (for reading),
   * then takes it. */
  void (*rwlock_lock)(void *context, const void *lock, bool for_writing);
  /* Takes it if that needs no wait; false otherwise. */
  bool (*rwlock_trylock)(void *context, const void *lock, bool for_writing);
  /* Gives up the thread's hold of it, for reading or writing. */
  void (*rwlock_unlock)(void *context, const void *lock);
  /* A scheduling point before the thread tries to take `object` (a semaphore's count, a
   * group's emptiness) without waiting. */
  void (*signal_try)(void *context, const void *object, rc_signal_kind kind);
  /* The try failed: waits until another thread signals `object`, and returns true, or, when
   * `timed`, may instead return false for a timeout. The thread then tries again. */
  bool (*signal_wait)(void *context, const void *object, rc_signal_kind kind, bool timed);
  /* The thread signals `object` (a semaphore's signal, a group's leave, a condition's signal
   * or broadcast): every thread waiting on it may try again. */
  void (*signal)(void *context, const void *object, rc_signal_kind kind);
  /* pthread_cond_wait: gives up `mutex` (held once), waits for a signal of `condition`, or
   * when `timed` possibly a timeout, then takes `mutex` again; returns whether it was signaled. */
  bool (*condition_wait)(void *context, const void *condition, const void *mutex, bool timed);
  /* An object of `size` bytes now lives at `address`: earlier accesses there were to another
   * one. `metadata` is its class's, or NULL for a box holding a captured variable. */
  void (*allocated)(void *context, const void *address, uintptr_t size, const void *metadata);
  /* A Synchronization.Mutex's slow path, `word` its lock word, `thread_id` the id a lock
   * stores there: models the Mutex when the scheduler knows it, else says to forward. */
  rc_mutex_outcome (*mutex_slow)(
      void *context, void *word, rc_mutex_operation operation, uint32_t thread_id);
  /* pthread_create, before the real thread exists: makes the controlled thread that will run
   * `routine` and returns its token, which the new thread hands to thread_run. */
  void *(*thread_create)(void *context, rc_thread_routine *routine);
  /* The real pthread_create returned: `created` with the new thread's `handle`, or it failed
   * and the controlled thread never runs. */
  void (*thread_created)(void *context, void *token, pthread_t handle, bool created);
  /* On the new thread: its whole life as a controlled thread, which runs the routine once the
   * scheduler picks it (rc_thread_routine_run). */
  void (*thread_run)(void *context, void *token);
  /* pthread_exit on the calling thread: when it is a thread code under test created, ends it as
   * a controlled thread, leaves it uncontrolled and returns true; false for any other thread. */
  bool (*thread_exit)(void *context);
  /* pthread_join: waits until the thread `handle` finished, when it is a controlled thread of
   * this schedule, and returns true; false for any other thread, which the real join waits for. */
  bool (*thread_join)(void *context, pthread_t handle);
  /* pthread_detach of the thread `handle`: the code under test will not join it. */
  void (*thread_detach)(void *context, pthread_t handle);
  /* dispatch_after: takes ownership of `work`, a timer that may fire `delay` nanoseconds of
   * virtual time from now (negative: never), enqueuing it on its queue. */
  void (*queue_after)(void *context, rc_queue queue, int64_t delay, rc_work work);
  /* dispatch_group_notify: takes ownership of `work`, enqueued on its queue once `group`
   * (retained until then) is empty. */
  void (*group_notify)(void *context, const void *group, rc_queue queue, rc_work work);
  /* `group` is about to be entered (dispatch_group_enter, or a block submitted with it): a
   * notification of it that found it empty before is due, however soon it is entered. */
  void (*group_entering)(void *context, const void *group);
  /* dispatch_apply: runs the `iterations` of `work` on controlled threads and returns when all ran. */
  void (*apply)(void *context, rc_queue queue, size_t iterations, const rc_apply_work *work);
  /* A sleep of `nanoseconds` by code under test: a scheduling point; nothing really sleeps. */
  void (*sleep)(void *context, int64_t nanoseconds);
  /* Code under test used `primitive`, which the scheduler does not control: it is reported. */
  void (*unseen)(void *context, const char *primitive);
} rc_interposer_hooks;

/* What a scheduler keeps in the lock word of a Mutex it models: no thread's id (a Linux thread
 * id is below 2^22, and the futex bits 30 and 31 are clear), so that every lock, try and unlock
 * misses its inlined fast path and reaches the interposer. */
#define RC_MUTEX_POISON 0x3FFFFFFFu

/* The Mutex lock word at `word`, read atomically. */
uint32_t rc_mutex_word_load(const void *word);

/* Replaces the lock word at `word` by `desired` if it holds `expected`; returns whether it did. */
bool rc_mutex_word_replace(void *word, uint32_t expected, uint32_t desired);

/* The calling thread's kernel id, which a Mutex it holds keeps in its lock word. */
uint32_t rc_thread_system_id(void);

/* Makes `hooks` the ones the calling thread's calls go to while it runs code under test;
 * NULL removes them. Each controlled thread installs its own scheduler's, so that two
 * schedulers can run in one process at once (tests run in parallel). */
void rc_interposer_install(const rc_interposer_hooks *hooks);

/* The calling thread's mode. */
rc_thread_mode rc_interposer_mode(void);

/* Sets the calling thread's mode and returns the one it replaces. */
rc_thread_mode rc_interposer_set_mode(rc_thread_mode mode);

/* Runs `work` once as code under test on the calling (controlled) thread. */
void rc_work_run(rc_work work);

/* After the block ended on its queue: leaves its group, which its waiters see, and frees it. */
void rc_work_finish(rc_work work);

/* MARK: The Swift concurrency runtime's own state (concurrency.c) */

/* What a call of code under test did to the concurrency runtime's state, as noted. */
typedef enum rc_runtime_touch_kind {
  /* A task left the executor whose identity is `object` (the actor itself, for a default
   * actor) for another one. */
  RC_RUNTIME_EXECUTOR_LEFT = 0,
  /* A task went to the executor whose identity is `object`: it took it, or queued on it. */
  RC_RUNTIME_EXECUTOR_SOUGHT = 1,
  /* A check of a task's or a group's cancellation. */
  RC_RUNTIME_CANCELLATION_CHECK = 2,
  /* A task, or a group's tasks, cancelled: their children too. */
  RC_RUNTIME_CANCEL = 3,
  /* The task `object` made as a child of the task group `related`. */
  RC_RUNTIME_GROUP_CHILD = 4,
  /* The thread starts running the task job `object`. */
  RC_RUNTIME_TASK_JOB = 5,
  /* The thread starts running a job the runtime made for the executor whose identity is
   * `object`, an actor's queue of jobs; 0 for one it cannot tell. */
  RC_RUNTIME_EXECUTOR_JOB = 6,
} rc_runtime_touch_kind;

typedef struct rc_runtime_touch {
  rc_runtime_touch_kind kind;
  uintptr_t object;
  uintptr_t related;
} rc_runtime_touch;

/* Moves the calling thread's notes since the last take into `touches`: how many, or -1 when
 * there were more than `capacity`, or than the log holds, and some are lost. */
int rc_runtime_touches_take(rc_runtime_touch *touches, int capacity);

/* Drops the calling thread's notes. */
void rc_runtime_touches_clear(void);

/* Notes, under a scheduler, that the calling thread starts running `job`. */
void rc_runtime_note_job(const void *job);

/* The main actor's executor identity. */
uintptr_t rc_main_executor_identity(void);

/* Runs iteration `index` of `work` as code under test on the calling (controlled) thread. */
void rc_apply_run(const rc_apply_work *work, size_t index);

/* Runs a created thread's start routine as code under test on its (controlled) thread. */
void rc_thread_routine_run(rc_thread_routine *routine);

/* Whether the dispatch group has no block or enter left to wait for (the real group's count). */
bool rc_group_is_empty(const void *group);

/* Gives up the reference group_notify's group held. */
void rc_group_release(const void *group);


/* Whether the dynamic linker binds the originals' names to the interposer's
 * definitions: false when the executable did not export them (linked without
 * the libraries that call them, or loaded as a plugin). */
bool rc_interposer_is_linked(void);

/* A wait on the main thread that drains the main queue until another thread ends it. */
typedef struct rc_main_drain rc_main_drain;
rc_main_drain *rc_main_drain_create(void);
/* On the main thread: drains the main queue until rc_main_drain_finish; false at once
 * when libdispatch has no main-queue handle. */
bool rc_main_drain_run(rc_main_drain *drain);
/* From any thread: ends the drain's run, waking the main queue. */
void rc_main_drain_finish(rc_main_drain *drain);
void rc_main_drain_destroy(rc_main_drain *drain);
/* Whether the calling thread is the process's main thread (its thread id is the process id). */
bool rc_is_main_thread(void);

/* The original of `name` (the definition the interposer forwards to), for measuring what
 * the interposer costs; NULL when there is none. */
void *rc_interposer_original(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* CRACECHECK_INTERPOSER_H */
