/*
 * Thread Sanitizer's race reports: the marks the interposer pushes onto its shadow
 * stacks, the serial numbers that tell queues apart in them, and the report hook
 * that decodes them into the race log. See CRaceCheckSanitizer.h.
 *
 * The functions that touch the log, the label table or a report are not sanitized: they run inside Thread Sanitizer's report, where an instrumented
 * access or an intercepted call could start another report, and their shared data is
 * ordered by the log's atomic count, which the sanitizer does not need to see.
 */
#include "interposer.h"

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#if RC_SANITIZER
#include <sanitizer/allocator_interface.h>
#include <sanitizer/tsan_interface.h>
void __tsan_func_entry(void *pc);
void __tsan_func_exit(void);
void __tsan_read1_pc(void *address, void *pc);
void __tsan_write1_pc(void *address, void *pc);
void *dispatch_queue_get_specific(void *queue, const void *key);
void dispatch_queue_set_specific(void *queue, const void *key, void *context, void (*destructor)(void *));
#endif

bool rc_sanitizer_is_active(void) { return RC_SANITIZER; }

/* MARK: The log */

static rc_race_log own_log;
static rc_race_log *_Atomic current_log = &own_log;
static _Atomic int armed_checks;

void rc_sanitizer_arm(bool armed) {
  atomic_fetch_add_explicit(&armed_checks, armed ? 1 : -1, memory_order_relaxed);
}

RC_NOT_SANITIZED bool rc_sanitizer_armed(void) {
  return atomic_load_explicit(&armed_checks, memory_order_relaxed) > 0;
}

void rc_sanitizer_use_log(rc_race_log *log) {
  atomic_store_explicit(&current_log, log ? log : &own_log, memory_order_release);
}

/* Not sanitized: the report hook calls it (see decode_mark). */
RC_NOT_SANITIZED rc_race_log *rc_sanitizer_log(void) {
  return atomic_load_explicit(&current_log, memory_order_acquire);
}

uint64_t rc_race_log_count(const rc_race_log *log) {
  return atomic_load_explicit(&((rc_race_log *)log)->count, memory_order_acquire);
}

const rc_race_record *rc_race_log_record(const rc_race_log *log, uint64_t index) {
  uint64_t count = rc_race_log_count(log);
  if (index >= count || count - index > RC_RACE_LOG_CAPACITY) return 0;
  return &log->records[index % RC_RACE_LOG_CAPACITY];
}

int64_t rc_race_log_advance_stamp(rc_race_log *log) {
  return atomic_fetch_add_explicit(&log->stamp, 1, memory_order_acq_rel) + 1;
}

int64_t rc_race_log_stamp(const rc_race_log *log) {
  return atomic_load_explicit(&((rc_race_log *)log)->stamp, memory_order_acquire);
}

/* MARK: Marks */

/* The region whose addresses the marks are: code nobody calls, filled with traps. A mark
 * is base + 16 + 4 * (256 * digit + byte), four bytes apart so that a stack walker's
 * "return address minus one" still decodes to the same mark. */
__asm__(".pushsection .text\n"
        ".balign 16\n"
        ".globl racecheck_interposer_marks\n"
        ".type racecheck_interposer_marks, @function\n"
        "racecheck_interposer_marks:\n"
        ".fill 8192, 1, 0xcc\n"
        ".size racecheck_interposer_marks, 8192\n"
        ".popsection\n");
extern const char racecheck_interposer_marks[];

/* The functions that push or pop marks are not instrumented themselves: a frame of their
 * own, popped as they return, would pop the mark they pushed instead. */

/* What each digit of a mark says. A block pushes its header, then its queue's serial
 * number a byte at a time; a call pushes its header (the runner thread), then its index. */
enum {
  RC_MARK_BLOCK = 0,       /* byte: queue kind * 2 + flagged barrier */
  RC_MARK_QUEUE_SERIAL = 1, /* digits 1, 2, 3: the serial's bytes, low first */
  RC_MARK_CALL = 4,        /* byte: the runner thread, + RC_MARK_ASYNC for an async block's */
  RC_MARK_CALL_INDEX = 5,  /* digits 5, 6: the index's bytes, low first */
  RC_MARK_DIGITS = 7,
  RC_MARK_ASYNC = 0x80,
};

static const void *mark(int digit, unsigned byte) {
  return racecheck_interposer_marks + 16 + 4 * (256 * digit + (byte & 0xFF));
}

/* The digit and byte of a mark, or false when `pc` is not one. Not sanitized: it runs inside
 * a report, where a function entry the sanitizer records can wait for the lock the report
 * holds (a trace part full), and the child would hang. */
RC_NOT_SANITIZED static bool decode_mark(uint64_t pc, int *digit, unsigned *byte) {
  uint64_t base = (uint64_t)(uintptr_t)racecheck_interposer_marks;
  if (pc < base + 14 || pc >= base + 16 + 4 * 256 * RC_MARK_DIGITS) return false;
  uint64_t code = (pc - base - 14) / 4;
  *digit = (int)(code / 256);
  *byte = (unsigned)(code % 256);
  return true;
}

/* The call the calling thread makes, or the one that submitted the block it runs. */
static RC_THREAD_LOCAL int32_t call_thread = -1;
static RC_THREAD_LOCAL int64_t call_index = -1;
/* Locks the thread holds, whether its call released one, and the queues it left by sync. */
static RC_THREAD_LOCAL int32_t locks_held;
static RC_THREAD_LOCAL bool released_lock;
static RC_THREAD_LOCAL int32_t queues_left_count;
static RC_THREAD_LOCAL uint32_t queues_left[RC_RACE_BLOCKS];

/* Whether each call of each runner thread synchronized yet, which a report reads for the
 * earlier access, made on another thread that may have gone on to later calls since. A call
 * has the slot of its index; a thread makes far fewer calls in one invocation. */
enum { RC_CALL_THREADS = 64, RC_CALL_SLOTS = 256 };
typedef struct rc_call_fact {
  _Atomic int64_t call_index;
  _Atomic int32_t synchronized;
} rc_call_fact;
static rc_call_fact call_facts[RC_CALL_THREADS][RC_CALL_SLOTS];

/* The fact of `thread`'s call `index`, or NULL for a thread past the table. */
RC_NOT_SANITIZED static rc_call_fact *call_fact(int32_t thread, int64_t index) {
  if (thread < 0 || thread >= RC_CALL_THREADS || index < 0) return 0;
  return &call_facts[thread][index % RC_CALL_SLOTS];
}

RC_NOT_SANITIZED static void call_synchronized(void) {
  rc_call_fact *fact = call_fact(call_thread, call_index);
  if (fact) atomic_store_explicit(&fact->synchronized, 1, memory_order_relaxed);
}

RC_NOT_SANITIZED static void push(const void *pc) {
#if RC_SANITIZER
  __tsan_func_entry((void *)pc);
#else
  (void)pc;
#endif
}

RC_NOT_SANITIZED static void pop(void) {
#if RC_SANITIZER
  __tsan_func_exit();
#endif
}

RC_NOT_SANITIZED static void push_call(int32_t thread, int64_t index, bool async_block) {
  push(mark(RC_MARK_CALL, (unsigned)(thread & 0x7F) | (async_block ? RC_MARK_ASYNC : 0)));
  push(mark(RC_MARK_CALL_INDEX, (unsigned)index));
  push(mark(RC_MARK_CALL_INDEX + 1, (unsigned)(index >> 8)));
}

RC_NOT_SANITIZED static void pop_call(void) {
  for (int i = 0; i < 3; i++) pop();
}

RC_NOT_SANITIZED void rc_sanitizer_call_begins(int32_t thread, int64_t index) {
  if (!RC_SANITIZER) return;
  call_thread = thread;
  call_index = index;
  released_lock = false;
  queues_left_count = 0;
  rc_call_fact *fact = call_fact(thread, index);
  if (fact) {
    atomic_store_explicit(&fact->synchronized, 0, memory_order_relaxed);
    atomic_store_explicit(&fact->call_index, index, memory_order_relaxed);
  }
  push_call(thread, index, false);
}

RC_NOT_SANITIZED void rc_sanitizer_call_ends(void) {
  if (!RC_SANITIZER) return;
  pop_call();
  call_thread = -1;
  call_index = -1;
}

static _Atomic int64_t pending_blocks;

int64_t rc_sanitizer_pending_blocks(void) {
  return atomic_load_explicit(&pending_blocks, memory_order_acquire);
}

RC_NOT_SANITIZED void rc_sanitizer_locked(void) { locks_held++; }

RC_NOT_SANITIZED void rc_sanitizer_unlocked(void) {
  if (locks_held > 0) locks_held--;
  released_lock = true;
  call_synchronized();
}

void rc_sanitizer_left_queue(const rc_block_marks *marks) {
  if (queues_left_count < RC_RACE_BLOCKS) queues_left[queues_left_count++] = marks->queue_serial;
  call_synchronized();
}

/* MARK: Queue serial numbers */

static _Atomic uint32_t last_serial;
/* The key under which a queue keeps its serial number (its address is the key). */
static const char serial_key = 0;

/* The global queues have no queue-specific storage of their own: a table holds theirs. */
enum { RC_GLOBAL_QUEUES = 16 };
static struct {
  void *_Atomic queue;
  _Atomic uint32_t serial;
} global_serials[RC_GLOBAL_QUEUES];

/* The labels of the latest queues, by serial number, for reports that name them. */
enum { RC_LABELS = 256 };
static struct {
  _Atomic uint32_t serial;
  char label[RC_RACE_LABEL];
} labels[RC_LABELS];

static uint32_t next_serial(void) {
  uint32_t serial = atomic_fetch_add_explicit(&last_serial, 1, memory_order_relaxed) + 1;
  /* Three bytes travel in a mark; 0 means unknown. */
  serial &= 0xFFFFFF;
  return serial ? serial : next_serial();
}

#if RC_SANITIZER
RC_NOT_SANITIZED static void note_label(uint32_t serial, const char *label) {
  size_t slot = serial % RC_LABELS;
  atomic_store_explicit(&labels[slot].serial, 0, memory_order_relaxed);
  size_t i = 0;
  for (; label && label[i] && i + 1 < RC_RACE_LABEL; i++) labels[slot].label[i] = label[i];
  labels[slot].label[i] = 0;
  atomic_store_explicit(&labels[slot].serial, serial, memory_order_release);
}
#endif

void rc_sanitizer_queue_made(void *queue, const char *label) {
#if RC_SANITIZER
  uint32_t serial = next_serial();
  dispatch_queue_set_specific(queue, &serial_key, (void *)(uintptr_t)serial, 0);
  note_label(serial, label);
#else
  (void)queue;
  (void)label;
#endif
}

void rc_sanitizer_global_queue(void *queue, const char *label) {
#if RC_SANITIZER
  for (int i = 0; i < RC_GLOBAL_QUEUES; i++) {
    void *expected = 0;
    if (atomic_load_explicit(&global_serials[i].queue, memory_order_acquire) == queue) return;
    if (atomic_compare_exchange_strong(&global_serials[i].queue, &expected, queue)) {
      uint32_t serial = next_serial();
      note_label(serial, label);
      atomic_store_explicit(&global_serials[i].serial, serial, memory_order_release);
      return;
    }
  }
#else
  (void)queue;
  (void)label;
#endif
}

static uint32_t queue_serial(void *queue, bool global) {
#if RC_SANITIZER
  if (global) {
    for (int i = 0; i < RC_GLOBAL_QUEUES; i++) {
      if (atomic_load_explicit(&global_serials[i].queue, memory_order_acquire) == queue) {
        return atomic_load_explicit(&global_serials[i].serial, memory_order_acquire);
      }
    }
    return 0;
  }
  return (uint32_t)(uintptr_t)dispatch_queue_get_specific(queue, &serial_key);
#else
  (void)queue;
  (void)global;
  return 0;
#endif
}

/* MARK: Blocks */

void rc_sanitizer_block_marks(rc_block_marks *marks, rc_queue queue, bool barrier) {
  int kind = queue.is_global ? RC_RACE_QUEUE_GLOBAL
             : queue.is_concurrent ? RC_RACE_QUEUE_CONCURRENT
                                   : RC_RACE_QUEUE_SERIAL;
  uint32_t serial = queue_serial((void *)queue.address, queue.is_global);
  marks->pcs[0] = mark(RC_MARK_BLOCK, (unsigned)(kind * 2 + (barrier ? 1 : 0)));
  marks->pcs[1] = mark(RC_MARK_QUEUE_SERIAL, serial);
  marks->pcs[2] = mark(RC_MARK_QUEUE_SERIAL + 1, serial >> 8);
  marks->pcs[3] = mark(RC_MARK_QUEUE_SERIAL + 2, serial >> 16);
  marks->queue_serial = serial;
  marks->call_thread = call_thread;
  marks->call_index = call_index;
}

void rc_sanitizer_block_submitted(const rc_block_marks *marks) {
  if (marks->call_index >= 0) atomic_fetch_add_explicit(&pending_blocks, 1, memory_order_relaxed);
}

void rc_sanitizer_block_finished(const rc_block_marks *marks) {
  if (marks->call_index >= 0) atomic_fetch_sub_explicit(&pending_blocks, 1, memory_order_release);
}

/* What running a block changes of its thread, restored when it ends. */
typedef struct rc_block_state {
  int32_t call_thread;
  int64_t call_index;
  bool released_lock;
  int32_t queues_left_count;
} rc_block_state;

RC_NOT_SANITIZED static void block_begins(
    const rc_block_marks *marks, rc_block_state *saved, bool other_thread) {
  saved->call_thread = call_thread;
  saved->call_index = call_index;
  saved->released_lock = released_lock;
  saved->queues_left_count = queues_left_count;
  if (other_thread) {
    /* A block run on another thread belongs to the call that submitted it, which took no lock there. */
    if (marks->call_index >= 0) push_call(marks->call_thread, marks->call_index, true);
    call_thread = marks->call_thread;
    call_index = marks->call_index;
    released_lock = false;
    queues_left_count = 0;
  }
  for (int i = 0; i < 4; i++) push(marks->pcs[i]);
}

RC_NOT_SANITIZED static void block_ends(
    const rc_block_marks *marks, const rc_block_state *saved, bool other_thread) {
  for (int i = 0; i < 4; i++) pop();
  if (other_thread && marks->call_index >= 0) pop_call();
  call_thread = saved->call_thread;
  call_index = saved->call_index;
  released_lock = saved->released_lock;
  if (other_thread) queues_left_count = saved->queues_left_count;
}

void rc_sanitizer_run_block(
    const rc_block_marks *marks, bool other_thread, void (*function)(void *), void *context) {
  rc_block_state saved;
  block_begins(marks, &saved, other_thread);
  function(context);
  block_ends(marks, &saved, other_thread);
}

/* MARK: Schedule mode */

#if RC_SANITIZER
void AnnotateIgnoreSyncBegin(const char *file, int line);
void AnnotateIgnoreSyncEnd(const char *file, int line);
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
#endif

/* Whether the sanitizer ignores the calling thread now: it runs the scheduler's code. */
static RC_THREAD_LOCAL bool hidden;

static void set_hidden(bool hide) {
#if RC_SANITIZER
  if (hide == hidden) return;
  hidden = hide;
  if (hide) {
    __tsan_ignore_thread_begin();
    AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
  } else {
    AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
    __tsan_ignore_thread_end();
  }
#else
  (void)hide;
#endif
}

void rc_sanitizer_mode_changes(rc_thread_mode mode) { set_hidden(mode == RC_MODE_SCHEDULER); }

/* Nested visible sections of the calling thread, and whether it was hidden before the first. */
static RC_THREAD_LOCAL int visible_depth;
static RC_THREAD_LOCAL bool hidden_before_visible;

void rc_sanitizer_visible_begin(void) {
  if (visible_depth++ == 0) {
    hidden_before_visible = hidden;
    set_hidden(false);
  }
}

void rc_sanitizer_visible_end(void) {
  if (--visible_depth == 0) set_hidden(hidden_before_visible);
}

void rc_sanitizer_release(const void *token) {
#if RC_SANITIZER
  rc_sanitizer_visible_begin();
  __tsan_release((void *)token);
  rc_sanitizer_visible_end();
#else
  (void)token;
#endif
}

void rc_sanitizer_acquire(const void *token) {
#if RC_SANITIZER
  rc_sanitizer_visible_begin();
  __tsan_acquire((void *)token);
  rc_sanitizer_visible_end();
#else
  (void)token;
#endif
}

/* MARK: Accesses the compiler did not instrument */

RC_NOT_SANITIZED void rc_sanitizer_access(void *address, bool modify, void *pc) {
#if RC_SANITIZER
  /* Only heap objects: a global of uninstrumented code may be guarded by atomics the
   * sanitizer cannot see, and a thread's stack is its own. */
  if (!rc_sanitizer_armed() || __sanitizer_get_allocated_begin(address) == 0) return;
  if (modify) {
    __tsan_write1_pc(address, pc);
  } else {
    __tsan_read1_pc(address, pc);
  }
#else
  (void)address;
  (void)modify;
  (void)pc;
#endif
}

/* MARK: Synchronization.Mutex */

/* `Synchronization.Mutex` locks and unlocks inline with an atomic compare-and-exchange, which
 * the sanitizer sees in the caller's code. Under contention it calls into the library (built
 * without the sanitizer), where the kernel hands the lock over (FUTEX_LOCK_PI and
 * FUTEX_UNLOCK_PI): no atomic there tells the sanitizer the unlocking thread's past comes
 * before the locking one's, so every pair of critical sections that met contention would
 * look like a race. mutex.c's definitions of the library's slow paths call these around the
 * library's, on the mutex's word, which the inline paths' atomics use. */
#if RC_SANITIZER
static _Atomic uint64_t mutex_handovers;
#endif

void rc_sanitizer_mutex_acquired(void *word) {
#if RC_SANITIZER
  __tsan_acquire(word);
  atomic_fetch_add_explicit(&mutex_handovers, 1, memory_order_relaxed);
#else
  (void)word;
#endif
}

void rc_sanitizer_mutex_releasing(void *word) {
#if RC_SANITIZER
  __tsan_release(word);
#else
  (void)word;
#endif
}

/* MARK: Swift's reference counts */

#if RC_SANITIZER
/* Copy-on-write (a Dictionary returned from `queue.sync { dict }`, then read outside the
 * queue while a later write runs on it) is ordered by the reference count: the reader's
 * release comes before the writer's check that the buffer is now unique, and only then
 * does the writer change it in place. Both are atomics in the Swift runtime, which is not
 * built with the sanitizer, so an optimized build's inlined reads and in-place writes of the
 * buffer look like a race. While a check runs, the executable's definitions of the runtime's
 * releases and uniqueness check forward to it and tell the sanitizer that order: a release
 * releases the object, and a check that finds it unique acquires it. */
void swift_release(void *object);
void swift_release_n(void *object, uint32_t count);
void swift_bridgeObjectRelease(void *object);
void swift_bridgeObjectRelease_n(void *object, uint32_t count);
bool swift_isUniquelyReferenced_nonNull_native(const void *object);
RC_ORIGINAL(swift_release)
RC_ORIGINAL(swift_release_n)
RC_ORIGINAL(swift_bridgeObjectRelease)
RC_ORIGINAL(swift_bridgeObjectRelease_n)
RC_ORIGINAL(swift_isUniquelyReferenced_nonNull_native)

/* Releases `object` to whoever finds it unique next. A bridge object's spare bits (the top
 * byte and the low three) are cleared first, and only the start of a heap block is taken:
 * a bridge object may be no pointer at all (a small string's bytes), and the sanitizer
 * orders only memory it knows. */
RC_NOT_SANITIZED static void released(const void *object) {
  void *address = (void *)((uintptr_t)object & 0x00FFFFFFFFFFFFF8ULL);
  if ((uintptr_t)address < 4096 || !rc_sanitizer_armed()) return;
  if (__sanitizer_get_allocated_begin(address) == address) __tsan_release(address);
}

RC_NOT_SANITIZED void swift_release(void *object) {
  released(object);
  rc_real_swift_release()(object);
}

RC_NOT_SANITIZED void swift_release_n(void *object, uint32_t count) {
  released(object);
  rc_real_swift_release_n()(object, count);
}

RC_NOT_SANITIZED void swift_bridgeObjectRelease(void *object) {
  released(object);
  rc_real_swift_bridgeObjectRelease()(object);
}

RC_NOT_SANITIZED void swift_bridgeObjectRelease_n(void *object, uint32_t count) {
  released(object);
  rc_real_swift_bridgeObjectRelease_n()(object, count);
}

RC_NOT_SANITIZED bool swift_isUniquelyReferenced_nonNull_native(const void *object) {
  bool unique = rc_real_swift_isUniquelyReferenced_nonNull_native()(object);
  if (unique && rc_sanitizer_armed()) __tsan_acquire((void *)object);
  return unique;
}
#endif

uint64_t rc_sanitizer_mutex_handovers(void) {
#if RC_SANITIZER
  return atomic_load_explicit(&mutex_handovers, memory_order_relaxed);
#else
  return 0;
#endif
}

/* MARK: Reports */

#if RC_SANITIZER

/* Every race is reported, however often its stacks or address were seen: each invocation
 * has a subject of its own, and shrinking and replays must see the same race again. The
 * TSAN_OPTIONS environment variable still overrides these. */
const char *__tsan_default_options(void) {
  return "suppress_equal_stacks=0:suppress_equal_addresses=0";
}

RC_NOT_SANITIZED static void copy_text(char *destination, size_t capacity, const char *source) {
  size_t i = 0;
  for (; source && source[i] && i + 1 < capacity; i++) destination[i] = source[i];
  destination[i] = 0;
}

RC_NOT_SANITIZED static bool same_text(const char *a, const char *b) {
  size_t i = 0;
  for (; a[i] && a[i] == b[i]; i++) {
  }
  return a[i] == b[i];
}

RC_NOT_SANITIZED static void clear(void *memory, size_t size) {
  volatile char *bytes = memory;
  for (size_t i = 0; i < size; i++) bytes[i] = 0;
}

/* The index of `path` in the record's module table, added if new; -1 when full. */
RC_NOT_SANITIZED static int8_t module_index(rc_race_record *record, const char *path) {
  for (int i = 0; i < record->module_count; i++) {
    if (same_text(record->modules[i], path)) return (int8_t)i;
  }
  if (record->module_count == RC_RACE_MODULES) return -1;
  copy_text(record->modules[record->module_count], RC_RACE_MODULE_PATH, path);
  return (int8_t)record->module_count++;
}

RC_NOT_SANITIZED static void label_of(uint32_t serial, char *destination) {
  size_t slot = serial % RC_LABELS;
  destination[0] = 0;
  if (serial == 0 || atomic_load_explicit(&labels[slot].serial, memory_order_acquire) != serial) return;
  copy_text(destination, RC_RACE_LABEL, labels[slot].label);
}

/* Turns a report's stack into frames, blocks and a call: marks become values. */
RC_NOT_SANITIZED static void decode_stack(
    rc_race_record *record, rc_race_access *access, void *const *trace, int count) {
  unsigned digits[RC_MARK_DIGITS] = {0};
  rc_race_block found[RC_RACE_BLOCKS];
  int blocks = 0;
  uint64_t previous = 0;
  for (int i = 0; i < count && trace[i] != 0; i++) {
    uint64_t pc = (uint64_t)(uintptr_t)trace[i];
    int digit;
    unsigned byte;
    if (decode_mark(pc, &digit, &byte)) {
      digits[digit] = byte;
      if (digit == RC_MARK_BLOCK && blocks < RC_RACE_BLOCKS) {
        rc_race_block *block = &found[blocks++];
        block->kind = (int32_t)(byte / 2);
        block->flagged_barrier = (int32_t)(byte % 2);
        block->queue_serial = digits[1] | digits[2] << 8 | digits[3] << 16;
        label_of(block->queue_serial, block->label);
      } else if (digit == RC_MARK_CALL && access->call_index < 0) {
        /* The innermost call mark: the call or the block's submitter. */
        access->runner_thread = (int32_t)(byte & 0x7F);
        access->in_async_block = (byte & RC_MARK_ASYNC) != 0;
        access->call_index = (int64_t)(digits[5] | digits[6] << 8);
      }
      continue;
    }
    /* An inlined function gives one address several symbolized frames. */
    if (pc == previous || access->frame_count == RC_RACE_FRAMES) continue;
    previous = pc;
    int frame = access->frame_count++;
    access->pcs[frame] = pc;
    access->modules[frame] = -1;
    Dl_info image;
    if (dladdr((void *)(uintptr_t)pc, &image) && image.dli_fname) {
      access->offsets[frame] = pc - (uint64_t)(uintptr_t)image.dli_fbase;
      access->modules[frame] = module_index(record, image.dli_fname);
    }
  }
  /* Found innermost first; kept innermost last. */
  for (int i = 0; i < blocks; i++) access->blocks[i] = found[blocks - 1 - i];
  access->block_count = blocks;
}

RC_NOT_SANITIZED static bool starts_with(const char *text, const char *prefix) {
  size_t i = 0;
  for (; prefix[i]; i++) {
    if (text[i] != prefix[i]) return false;
  }
  return true;
}

/* The start of Thread Sanitizer's report and of one access in it, as compiler-rt lays them
 * out (tsan_report.h: ReportDesc, ReportMop), read for what the report API does not return:
 * the mutexes each access held. The layout is checked against what the API returned for the
 * same access before it is trusted. */
typedef struct rc_tsan_vector {
  char *begin;
  char *end;
  char *last;
} rc_tsan_vector;

typedef struct rc_tsan_report_head {
  int type;
  uintptr_t tag;
  rc_tsan_vector stacks;
  rc_tsan_vector mops;
} rc_tsan_report_head;

typedef struct rc_tsan_mop {
  int tid;
  uintptr_t address;
  int size;
  bool write;
  bool atomic;
  uintptr_t external_tag;
  rc_tsan_vector mutexes;
} rc_tsan_mop;

/* Whether `id` is one of the report's mutexes. */
RC_NOT_SANITIZED static bool is_report_mutex(void *report, int mutexes, uint64_t id) {
  for (int i = 0; i < mutexes; i++) {
    uint64_t mutex_id = 0;
    void *address = 0;
    int destroyed = 0;
    void *trace[1];
    if (__tsan_get_report_mutex(report, (unsigned long)i, &mutex_id, &address, &destroyed, trace, 1)
        && mutex_id == id) {
      return true;
    }
  }
  return false;
}

/* How many entries of `stride` bytes (an int id, or a u64 at 16) `bytes` of an access's
 * mutex list hold, or -1 unless each id is one of the report's mutexes. */
RC_NOT_SANITIZED static int32_t report_mutex_entries(
    void *report, int mutexes, const char *entries, size_t bytes, size_t stride) {
  if (bytes % stride != 0) return -1;
  for (size_t at = 0; at < bytes; at += stride) {
    const void *entry = entries + at;
    uint64_t id = stride == 8 ? (uint64_t)*(const int *)entry : *(const uint64_t *)entry;
    if (!is_report_mutex(report, mutexes, id)) return -1;
  }
  return (int32_t)(bytes / stride);
}

/* The number of mutexes the report says access `index` held, or -1 when the runtime's layout
 * is not the one known: `tid` to `atomic` are what the API returned for it. */
RC_NOT_SANITIZED static int32_t mutexes_held(
    void *report, int index, int mutexes, int tid, void *address, int size, int write, int atomic) {
  const rc_tsan_report_head *head = report;
  if ((size_t)(head->mops.end - head->mops.begin) / sizeof(void *) <= (size_t)index) return -1;
  const rc_tsan_mop *mop = ((rc_tsan_mop *const *)(void *)head->mops.begin)[index];
  if (mop == 0 || mop->tid != tid || mop->address != (uintptr_t)address || mop->size != size
      || mop->write != (write != 0) || mop->atomic != (atomic != 0)) {
    return -1;
  }
  size_t bytes = (size_t)(mop->mutexes.end - mop->mutexes.begin);
  /* An entry is a mutex id and whether it was held for writing: an int and a bool (8 bytes)
   * in the runtimes since LLVM 14, a u64 and a bool (16) before; the ids must be the report's. */
  int32_t held = report_mutex_entries(report, mutexes, mop->mutexes.begin, bytes, 8);
  return held >= 0 ? held : report_mutex_entries(report, mutexes, mop->mutexes.begin, bytes, 16);
}

/* A report of two accesses: a data race, a race on a Swift access the compiler announced
 * (an "external" race), or one whose earlier access freed the memory. */
RC_NOT_SANITIZED static bool is_race(const char *description) {
  return starts_with(description, "data-race") || starts_with(description, "external-race")
      || starts_with(description, "heap-use-after-free");
}

/* Thread Sanitizer's hook for every report it is about to print (the runtime's weak
 * __tsan::OnReport): returning true keeps it from printing. While a check is armed, a data
 * race goes to the log instead. */
bool rc_sanitizer_on_report(const void *report, bool suppressed) __asm__(
    "_ZN6__tsan8OnReportEPKNS_10ReportDescEb");

RC_NOT_SANITIZED __attribute__((used, visibility("default"))) bool rc_sanitizer_on_report(
    const void *report, bool suppressed) {
  if (suppressed || !rc_sanitizer_armed()) return suppressed;
  void *opaque = (void *)report;
  const char *description = 0;
  int count, stacks, mops, locations, mutexes, threads, unique;
  void *sleep_trace[1];
  if (!__tsan_get_report_data(
          opaque, &description, &count, &stacks, &mops, &locations, &mutexes, &threads, &unique,
          sleep_trace, 1)
      || description == 0 || !is_race(description) || mops < 2) {
    return false;
  }
  rc_race_log *log = rc_sanitizer_log();
  uint64_t taken = atomic_load_explicit(&log->count, memory_order_relaxed);
  rc_race_record *record = &log->records[taken % RC_RACE_LOG_CAPACITY];
  clear(record, sizeof *record);
  record->stamp = atomic_load_explicit(&log->stamp, memory_order_relaxed);
  record->mutex_count = mutexes;
  copy_text(record->description, sizeof record->description, description);
  for (int i = 0; i < 2; i++) {
    rc_race_access *access = &record->accesses[i];
    int tid = -1, size = 0, write = 0, atomic = 0;
    void *address = 0;
    void *trace[128] = {0};
    if (!__tsan_get_report_mop(opaque, (unsigned long)i, &tid, &address, &size, &write, &atomic, trace, 128)) {
      return false;
    }
    access->address = (uint64_t)(uintptr_t)address;
    access->size = size;
    access->is_write = write;
    access->is_atomic = atomic;
    access->runner_thread = -1;
    access->call_index = -1;
    access->locks_held = mutexes_held(opaque, i, mutexes, tid, address, size, write, atomic);
    access->released_lock = -1;
    access->call_synchronized = -1;
    for (int j = 0; j < threads; j++) {
      int thread_tid = -1, running = 0, parent = 0;
      uint64_t os_id = 0;
      const char *name = 0;
      void *thread_trace[1];
      if (__tsan_get_report_thread(opaque, (unsigned long)j, &thread_tid, &os_id, &running, &name, &parent, thread_trace, 1)
          && thread_tid == tid) {
        access->thread_id = os_id;
      }
    }
    decode_stack(record, access, trace, 128);
  }
  /* The report is made on the thread of the access that found the race. The mutexes each
   * access held are the report's; the interposer's count of the thread's locks stands in
   * only when the report cannot be read for them, and then only for this access. */
  rc_race_access *later = &record->accesses[0];
  record->mutexes_per_access = later->locks_held >= 0 && record->accesses[1].locks_held >= 0;
  if (!record->mutexes_per_access) later->locks_held = locks_held;
  later->released_lock = released_lock;
  later->queues_left_count = queues_left_count;
  for (int i = 0; i < queues_left_count && i < RC_RACE_BLOCKS; i++) later->queues_left[i] = queues_left[i];
  /* The earlier access's call may have synchronized since; if it had not yet, it had not before. */
  rc_race_access *earlier = &record->accesses[1];
  rc_call_fact *fact = call_fact(earlier->runner_thread, earlier->call_index);
  if (fact && atomic_load_explicit(&fact->call_index, memory_order_relaxed) == earlier->call_index) {
    earlier->call_synchronized = atomic_load_explicit(&fact->synchronized, memory_order_relaxed);
  }
  atomic_store_explicit(&log->count, taken + 1, memory_order_release);
  return true;
}

#endif
