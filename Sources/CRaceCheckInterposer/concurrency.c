/*
 * The Swift concurrency runtime's own state, which code under test changes with no
 * primitive the rest of the interposer sees: the actor a task takes or leaves
 * (swift_task_switch), a task's cancellation, the children of a task group. The runtime
 * decides each by atomics of its own. Under a scheduler each such call is noted in the
 * calling thread's log, which the scheduler reads at the thread's next scheduling point:
 * partial-order reduction then orders the steps that made them, as it orders two
 * acquires of one lock.
 *
 * The Swift-level entry points (Task.cancel(), Task.isCancelled, ...) are called from the
 * code under test through its PLT, so the executable's definitions here take them over as
 * the dispatch functions are; the runtime's calls inside its own library are direct, and
 * not seen. Each declares the registers its original may read (the arguments, Swift's self
 * and error registers) and passes them on unchanged.
 */
#include "interposer.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* MARK: The log */

enum { RC_RUNTIME_LOG_CAPACITY = 64 };
static RC_THREAD_LOCAL rc_runtime_touch rc_runtime_log[RC_RUNTIME_LOG_CAPACITY];
static RC_THREAD_LOCAL int rc_runtime_log_count;
/* More was noted since the last take than the log holds. */
static RC_THREAD_LOCAL bool rc_runtime_log_overflowed;

RC_NOT_SANITIZED static void note(rc_runtime_touch_kind kind, uintptr_t object, uintptr_t related) {
  if (rc_runtime_log_count == RC_RUNTIME_LOG_CAPACITY) {
    rc_runtime_log_overflowed = true;
    return;
  }
  rc_runtime_log[rc_runtime_log_count++] = (rc_runtime_touch){kind, object, related};
}

RC_NOT_SANITIZED void rc_runtime_touches_clear(void) {
  rc_runtime_log_count = 0;
  rc_runtime_log_overflowed = false;
}

RC_NOT_SANITIZED int rc_runtime_touches_take(rc_runtime_touch *touches, int capacity) {
  int count = rc_runtime_log_count;
  bool overflowed = rc_runtime_log_overflowed || count > capacity;
  rc_runtime_touches_clear();
  if (overflowed) return -1;
  for (int index = 0; index < count; index++) touches[index] = rc_runtime_log[index];
  return count;
}

/* The runtime's Job header (swift/ABI/Task.h): a heap object (two words), two scheduler
 * words, then 32-bit flags whose low byte is the job's kind: 0 for a task, 193 for the job
 * that runs a default actor's queue of jobs made apart from the actor (ProcessOutOfLineJob,
 * swift/Concurrency/Actor.cpp), which holds the actor right after the header. */
enum { RC_JOB_KIND_TASK = 0, RC_JOB_KIND_ACTOR_SEPARATE = 193, RC_JOB_HEADER_SIZE = 64 };

/* Reads the job now: by the thread's next scheduling point it may have run and been freed. */
RC_NOT_SANITIZED void rc_runtime_note_job(const void *job) {
  if (!rc_is_subject()) return;
  uint32_t kind = *(const uint32_t *)((const char *)job + 32) & 0xFF;
  if (kind == RC_JOB_KIND_TASK) {
    note(RC_RUNTIME_TASK_JOB, (uintptr_t)job, 0);
  } else if (kind == RC_JOB_KIND_ACTOR_SEPARATE) {
    note(RC_RUNTIME_EXECUTOR_JOB, *(const uintptr_t *)((const char *)job + RC_JOB_HEADER_SIZE), 0);
  } else {
    note(RC_RUNTIME_EXECUTOR_JOB, 0, 0);
  }
}

/* MARK: Executors */

/* The runtime's SerialExecutorRef: the executor's identity (the actor, for a default actor)
 * and its implementation word. */
typedef struct rc_serial_executor {
  const void *identity;
  uintptr_t implementation;
} rc_serial_executor;

extern rc_serial_executor swift_task_getCurrentExecutor(void) __attribute__((swiftcall));
extern rc_serial_executor swift_task_getMainExecutor(void) __attribute__((swiftcall));

RC_NOT_SANITIZED uintptr_t rc_main_executor_identity(void) {
  return (uintptr_t)swift_task_getMainExecutor().identity;
}

__attribute__((swiftasynccall)) void swift_task_switch(
    __attribute__((swift_async_context)) void *context, void *resume,
    rc_serial_executor executor);
RC_ORIGINAL(swift_task_switch)

/* A task moves from the executor it runs on to `executor`: it leaves the one, and takes the
 * other or queues on it. Both change the actors' state. */
RC_NOT_SANITIZED __attribute__((swiftasynccall)) void swift_task_switch(
    __attribute__((swift_async_context)) void *context, void *resume,
    rc_serial_executor executor) {
  if (rc_is_subject()) {
    /* A switch to the executor it runs on already changes nothing. */
    const void *current = swift_task_getCurrentExecutor().identity;
    if (current != executor.identity) {
      note(RC_RUNTIME_EXECUTOR_LEFT, (uintptr_t)current, 0);
      note(RC_RUNTIME_EXECUTOR_SOUGHT, (uintptr_t)executor.identity, 0);
    }
  }
  __attribute__((musttail)) return rc_real_swift_task_switch()(context, resume, executor);
}

/* MARK: Task groups */

/* swift_task_create's result: the task and its initial context. */
typedef struct rc_task_and_context {
  void *task;
  void *context;
} rc_task_and_context;

__attribute__((swiftcall)) rc_task_and_context swift_task_create(
    size_t flags, void *options, const void *result_type, void *entry, void *closure);
RC_ORIGINAL(swift_task_create)

/* A TaskOptionRecord: 32-bit flags whose low byte is its kind, then the next record; a task
 * group's (kind 1) holds the group next. */
enum { RC_TASK_OPTION_TASK_GROUP = 1 };

RC_NOT_SANITIZED __attribute__((swiftcall)) rc_task_and_context swift_task_create(
    size_t flags, void *options, const void *result_type, void *entry, void *closure) {
  rc_task_and_context made = rc_real_swift_task_create()(flags, options, result_type, entry, closure);
  if (rc_is_subject()) {
    for (uintptr_t *record = options; record != 0; record = (uintptr_t *)record[1]) {
      if ((record[0] & 0xFF) == RC_TASK_OPTION_TASK_GROUP) {
        note(RC_RUNTIME_GROUP_CHILD, (uintptr_t)made.task, record[2]);
      }
    }
  }
  return made;
}

/* MARK: Cancellation */

/* Defines `name`, the Swift symbol `symbol` returning `result`, noting `kind` before it forwards. */
#define RC_CANCELLATION(result, name, symbol, kind)                                         \
  typedef __attribute__((swiftcall)) result rc_##name##_function(                           \
      void *first, void *second, void *third, __attribute__((swift_context)) void *self);  \
  __attribute__((swiftcall)) result rc_##name(                                              \
      void *first, void *second, void *third, __attribute__((swift_context)) void *self)   \
      __asm__(symbol);                                                                      \
  static void *_Atomic rc_original_slot_##name;                                             \
  RC_NOT_SANITIZED __attribute__((swiftcall)) result rc_##name(                             \
      void *first, void *second, void *third, __attribute__((swift_context)) void *self) { \
    rc_##name##_function *original = atomic_load_explicit(                                  \
        &rc_original_slot_##name, memory_order_relaxed);                                    \
    if (original == 0) original = rc_resolve(symbol, &rc_original_slot_##name);             \
    if (rc_is_subject()) note(kind, 0, 0);                                                  \
    return original(first, second, third, self);                                           \
  }

RC_CANCELLATION(void, task_cancel, "$sScT6cancelyyF", RC_RUNTIME_CANCEL)
RC_CANCELLATION(void, unsafe_current_task_cancel, "$sSct6cancelyyF", RC_RUNTIME_CANCEL)
RC_CANCELLATION(void, task_group_cancel_all, "$sScG9cancelAllyyF", RC_RUNTIME_CANCEL)
RC_CANCELLATION(void, throwing_task_group_cancel_all, "$sScg9cancelAllyyF", RC_RUNTIME_CANCEL)
RC_CANCELLATION(
    void, discarding_task_group_cancel_all, "$ss19DiscardingTaskGroupV9cancelAllyyF",
    RC_RUNTIME_CANCEL)
RC_CANCELLATION(
    void, throwing_discarding_task_group_cancel_all,
    "$ss27ThrowingDiscardingTaskGroupV9cancelAllyyF", RC_RUNTIME_CANCEL)
RC_CANCELLATION(bool, task_is_cancelled, "$sScT11isCancelledSbvg", RC_RUNTIME_CANCELLATION_CHECK)
RC_CANCELLATION(
    bool, current_task_is_cancelled, "$sScTss5NeverORszABRs_rlE11isCancelledSbvgZ",
    RC_RUNTIME_CANCELLATION_CHECK)
RC_CANCELLATION(
    bool, unsafe_current_task_is_cancelled, "$sSct11isCancelledSbvg",
    RC_RUNTIME_CANCELLATION_CHECK)
RC_CANCELLATION(
    bool, task_group_is_cancelled, "$sScG11isCancelledSbvg", RC_RUNTIME_CANCELLATION_CHECK)
RC_CANCELLATION(
    bool, throwing_task_group_is_cancelled, "$sScg11isCancelledSbvg",
    RC_RUNTIME_CANCELLATION_CHECK)
RC_CANCELLATION(
    bool, discarding_task_group_is_cancelled, "$ss19DiscardingTaskGroupV11isCancelledSbvg",
    RC_RUNTIME_CANCELLATION_CHECK)
RC_CANCELLATION(
    bool, throwing_discarding_task_group_is_cancelled,
    "$ss27ThrowingDiscardingTaskGroupV11isCancelledSbvg", RC_RUNTIME_CANCELLATION_CHECK)

/* Task.checkCancellation(), which throws: Swift's error register is its result. */
typedef __attribute__((swiftcall)) void rc_check_cancellation_function(
    __attribute__((swift_context)) void *self, __attribute__((swift_error_result)) void **error);
__attribute__((swiftcall)) void rc_check_cancellation(
    __attribute__((swift_context)) void *self, __attribute__((swift_error_result)) void **error)
    __asm__("$sScTss5NeverORszABRs_rlE17checkCancellationyyKFZ");
static void *_Atomic rc_original_slot_check_cancellation;

RC_NOT_SANITIZED __attribute__((swiftcall)) void rc_check_cancellation(
    __attribute__((swift_context)) void *self, __attribute__((swift_error_result)) void **error) {
  rc_check_cancellation_function *original =
      atomic_load_explicit(&rc_original_slot_check_cancellation, memory_order_relaxed);
  if (original == 0) {
    original = rc_resolve(
        "$sScTss5NeverORszABRs_rlE17checkCancellationyyKFZ", &rc_original_slot_check_cancellation);
  }
  if (rc_is_subject()) note(RC_RUNTIME_CANCELLATION_CHECK, 0, 0);
  original(self, error);
}
