/*
 * Thread Sanitizer's race reports, taken as evidence while a check runs.
 *
 * In a --sanitize=thread build, while a check is armed, the interposer takes
 * each data-race report Thread Sanitizer makes (through its OnReport hook, so
 * that the report is not printed but kept) and writes what racecheck needs of
 * it into a race log: both accesses, their stacks, the queue blocks each ran
 * in and the call of the scenario each belongs to.
 *
 * Thread Sanitizer keeps a shadow stack of every thread, and restores the one
 * of the earlier access from its history. So that both stacks say what the
 * interposer knew when they were made, it pushes frames of its own onto the
 * shadow stack: around each block it runs (the queue's kind, its serial
 * number, whether the block was flagged barrier) and around each call of a
 * scenario (the runner thread and the call's index). These marks are program
 * counters inside a region of the interposer's code; decoding a report turns
 * them back into values, and the stacks the log keeps have them removed.
 *
 * The log is written by one report at a time (Thread Sanitizer serializes its
 * reports) and read by the runner after each invocation: it lives in the
 * process, or, for an isolated child, in the flight recorder's shared memory,
 * so that a race found just before a crash is not lost with the child.
 *
 * Without Thread Sanitizer every function here does nothing.
 */
#ifndef CRACECHECK_SANITIZER_H
#define CRACECHECK_SANITIZER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  /* Frames kept of each access's stack, innermost first. */
  RC_RACE_FRAMES = 40,
  /* Queue blocks kept of each access, innermost last. */
  RC_RACE_BLOCKS = 4,
  /* Bytes of a queue's label kept. */
  RC_RACE_LABEL = 48,
  /* Distinct loaded images a record's frames can name. */
  RC_RACE_MODULES = 8,
  /* Bytes of an image's path kept. */
  RC_RACE_MODULE_PATH = 200,
  /* Records the log holds; later reports overwrite the oldest. */
  RC_RACE_LOG_CAPACITY = 4,
};

/* The kind of queue a block ran on. */
typedef enum rc_race_queue_kind {
  RC_RACE_QUEUE_SERIAL = 0,
  RC_RACE_QUEUE_CONCURRENT = 1,
  RC_RACE_QUEUE_GLOBAL = 2,
} rc_race_queue_kind;

/* A queue block an access ran in. */
typedef struct rc_race_block {
  /* rc_race_queue_kind. */
  int32_t kind;
  /* Whether the code asked for a barrier (GCD runs none on a global queue). */
  int32_t flagged_barrier;
  /* The queue's serial number in this process, counted from 1 as queues are made; 0 unknown. */
  uint32_t queue_serial;
  /* Its label, when the queue was made through the interposer. */
  char label[RC_RACE_LABEL];
} rc_race_block;

/* One of the two accesses of a race. */
typedef struct rc_race_access {
  /* The accessing thread's kernel id, 0 when unknown. */
  uint64_t thread_id;
  uint64_t address;
  int32_t size;
  int32_t is_write;
  int32_t is_atomic;
  /* The runner thread and the index of the call the access belongs to, -1 when none:
   * the call the thread was making, or the one that submitted the block it ran in. */
  int32_t runner_thread;
  int64_t call_index;
  /* Whether it ran in an async block of that call, on a thread of its own. */
  int32_t in_async_block;
  /* The mutexes the access held, as the report says (see the record's mutexes_per_access);
   * whether its call had released a lock before, and the queues it had left by sync (serial
   * numbers): known for the access that found the race only, -1 and 0 for the earlier one. */
  int32_t locks_held;
  int32_t released_lock;
  int32_t queues_left_count;
  uint32_t queues_left[RC_RACE_BLOCKS];
  /* For the earlier access: whether its call had released a lock or left a queue by the
   * time of the report, 1 or 0, or -1 when unknown. None by then means none before it. */
  int32_t call_synchronized;
  int32_t block_count;
  rc_race_block blocks[RC_RACE_BLOCKS];
  int32_t frame_count;
  /* Each frame's program counter, its offset in its image, and the image's index in the
   * record's module table (-1 when dladdr found none). */
  uint64_t pcs[RC_RACE_FRAMES];
  uint64_t offsets[RC_RACE_FRAMES];
  int8_t modules[RC_RACE_FRAMES];
} rc_race_access;

/* One report: accesses[0] found the race, accesses[1] is the earlier one it conflicts with. */
typedef struct rc_race_record {
  /* The log's stamp when the report was made: which invocation it belongs to. */
  int64_t stamp;
  /* The mutexes either access held, as the report counts them. */
  int32_t mutex_count;
  /* Whether each access's locks_held is the report's own count for it; when false the later
   * access's is the interposer's count of its thread's locks and the earlier one's -1. */
  int32_t mutexes_per_access;
  int32_t module_count;
  char description[32];
  char modules[RC_RACE_MODULES][RC_RACE_MODULE_PATH];
  rc_race_access accesses[2];
} rc_race_record;

/* The race log. `count` counts every report taken; record i is records[i % capacity]. */
typedef struct rc_race_log {
  _Atomic uint64_t count;
  /* Set by the runner before each invocation; copied into each record. */
  _Atomic int64_t stamp;
  rc_race_record records[RC_RACE_LOG_CAPACITY];
} rc_race_log;

/* The marks a block pushes while it runs, made when it is submitted. */
typedef struct rc_block_marks {
  const void *pcs[4];
  /* The queue's serial number. */
  uint32_t queue_serial;
  /* The call that submitted it, -1 when none. */
  int32_t call_thread;
  int64_t call_index;
} rc_block_marks;

/* Whether this build has Thread Sanitizer (the interposer was compiled with it). */
bool rc_sanitizer_is_active(void);

/* Starts (true) or ends (false) one check's taking of reports; checks may overlap. While
 * none is armed, reports are printed as Thread Sanitizer prints them. */
void rc_sanitizer_arm(bool armed);

/* Makes `log` the one reports are written to; NULL makes it the process's own again. */
void rc_sanitizer_use_log(rc_race_log *log);

/* The log reports are written to. */
rc_race_log *rc_sanitizer_log(void);

/* The reports `log` took, ever. */
uint64_t rc_race_log_count(const rc_race_log *log);

/* Report `index` of `log` (count - 1 is the latest), or NULL when it was not taken or was
 * overwritten since. */
const rc_race_record *rc_race_log_record(const rc_race_log *log, uint64_t index);

/* Gives later reports a new stamp, and returns it; an invocation starts with one. */
int64_t rc_race_log_advance_stamp(rc_race_log *log);

/* The stamp reports get now. */
int64_t rc_race_log_stamp(const rc_race_log *log);

/* The calling thread starts call `index` of the scenario as runner thread `thread`: pushes
 * the call's mark and forgets the locks an earlier call released. */
void rc_sanitizer_call_begins(int32_t thread, int64_t index);

/* The calling thread's call returned (or threw): pops its mark. */
void rc_sanitizer_call_ends(void);

/* Schedule mode: the scheduler's threads hand over to each other through semaphores, which
 * would order every access of a schedule. A controlled thread is hidden from the sanitizer
 * while it runs the scheduler's code (RC_MODE_SCHEDULER: its accesses and its
 * synchronization are ignored) and seen while it runs the code under test; the scheduler
 * tells the sanitizer the orders its model of each primitive makes instead: the calling
 * thread releases `token` (an address that stands for a queue, a lock, a signal), and a
 * thread that acquires it later is ordered after. */
void rc_sanitizer_release(const void *token);
void rc_sanitizer_acquire(const void *token);

/* The async blocks calls submitted that have not finished running: a race in one is
 * reported only once it runs, and the runner waits for them before it judges an invocation. */
int64_t rc_sanitizer_pending_blocks(void);

/* A Synchronization.Mutex's contended path took or is about to give back the lock at `word`:
 * the order the kernel makes, told to the sanitizer (nothing elsewhere). */
void rc_sanitizer_mutex_acquired(void *word);
void rc_sanitizer_mutex_releasing(void *word);

/* How many times a Synchronization.Mutex was handed over through its contended path, whose
 * order the interposer told the sanitizer; 0 in a build without it. */
uint64_t rc_sanitizer_mutex_handovers(void);

#ifdef __cplusplus
}
#endif

#endif /* CRACECHECK_SANITIZER_H */
