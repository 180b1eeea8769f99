/*
 * The crash handler and the stack-dump handler of a racecheck child process.
 *
 * CONSTRAINTS. Both handlers run inside a signal, on a thread that may have
 * been stopped anywhere: inside malloc, holding a lock, in the middle of a
 * write. So, in everything reached from crash_handler and stack_handler:
 *
 *   - no malloc, no stdio, no locks of libc or of the Swift runtime: every
 *     buffer is preallocated (mmap) by rc_install_crash_handler before the
 *     handlers are installed;
 *   - output only with write(2), formatted by the hand-written append_*
 *     functions below (no printf);
 *   - records from several threads are serialized by `writer_tid`, an atomic
 *     spin flag that holds the owner's tid, so that a thread that faults
 *     while writing (a crash inside the stack handler) does not wait on
 *     itself;
 *   - two crashes at once are serialized by `crashing_tid`: the first thread
 *     reports and kills the process, a second one pauses forever;
 *   - errno is saved and restored by the handler that returns (SIGPROF).
 *
 * Two knowing exceptions, acceptable in a throwaway child whose parent has a
 * timeout: libunwind's unw_step is not formally async-signal-safe (it may
 * read the loaded-object list), and dladdr1 takes the dynamic loader's lock.
 * The raw program counters are therefore written before dladdr is called, and
 * every function the handlers use is called once at installation so that no
 * lazy symbol binding or first-use allocation happens inside a signal.
 *
 * The record format is documented in include/CRaceCheckSupport.h.
 */
#include "CRaceCheckSupport.h"

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* Frames kept per record; deeper frames are dropped. */
#define RC_MAX_FRAMES 128
/* Text of one record: header, pc lines and module lines with their paths. */
#define RC_TEXT_CAPACITY (48 * 1024)
/* Room kept free at the end of the text for the closing "end\n". */
#define RC_TEXT_RESERVE 8
/* Threads that can build a stack record at the same time. */
#define RC_STACK_BUFFERS 64
/* Alternate signal stack per prepared thread, plus a guard page below it. */
#define RC_ALTSTACK_SIZE (128 * 1024)
#define RC_GUARD_SIZE 4096

/* A record under construction: raw PCs and the text that is written. */
typedef struct rc_record_buffer {
  _Atomic int busy; /* claimed by a stack handler; unused for the crash buffer */
  int frame_count;
  uintptr_t pcs[RC_MAX_FRAMES];
  size_t length;
  int full; /* set when a line did not fit; later lines are dropped too */
  char text[RC_TEXT_CAPACITY];
} rc_record_buffer;

static const int crash_signals[] = {SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGTRAP};
#define RC_CRASH_SIGNAL_COUNT ((int)(sizeof(crash_signals) / sizeof(crash_signals[0])))

/* State read by the handlers; written only by rc_install_crash_handler, before installing. */
static int report_fd = -1;
static const rc_flight_recorder *active_recorder;
static rc_record_buffer *crash_buffer;
static rc_record_buffer *stack_buffers; /* RC_STACK_BUFFERS of them */
static char executable_path[PATH_MAX];

/* Tid of the thread reporting a crash, 0 when none. */
static _Atomic pid_t crashing_tid;
/* Tid of the thread writing a record, 0 when none. */
static _Atomic pid_t writer_tid;

/* Per-thread alternate stacks, freed by the key's destructor when a thread exits. */
static pthread_once_t altstack_once = PTHREAD_ONCE_INIT;
static pthread_key_t altstack_key;

/* ---- Async-signal-safe helpers ------------------------------------------ */

static pid_t raw_gettid(void) {
  return (pid_t)syscall(SYS_gettid);
}

static void raw_yield(void) {
  syscall(SYS_sched_yield);
}

static void buffer_reset(rc_record_buffer *buffer) {
  buffer->length = 0;
  buffer->full = 0;
}

/* Appends bytes unless the buffer is full; `reserve` is the room that must stay free. */
static void append_bytes(rc_record_buffer *buffer, const char *bytes, size_t count, size_t reserve) {
  if (buffer->full || buffer->length + count + reserve > RC_TEXT_CAPACITY) {
    buffer->full = 1;
    return;
  }
  for (size_t index = 0; index < count; index++) buffer->text[buffer->length + index] = bytes[index];
  buffer->length += count;
}

static void append_string(rc_record_buffer *buffer, const char *string) {
  size_t count = 0;
  while (string[count] != '\0') count++;
  append_bytes(buffer, string, count, RC_TEXT_RESERVE);
}

static void append_decimal(rc_record_buffer *buffer, int64_t value) {
  char digits[24];
  int count = 0;
  uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
  do {
    digits[sizeof(digits) - 1 - count++] = (char)('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (value < 0) digits[sizeof(digits) - 1 - count++] = '-';
  append_bytes(buffer, digits + sizeof(digits) - count, (size_t)count, RC_TEXT_RESERVE);
}

static void append_hex(rc_record_buffer *buffer, uint64_t value) {
  static const char hex[] = "0123456789abcdef";
  char digits[20];
  int count = 0;
  do {
    digits[sizeof(digits) - 1 - count++] = hex[value & 0xF];
    value >>= 4;
  } while (value != 0);
  digits[sizeof(digits) - 1 - count++] = 'x';
  digits[sizeof(digits) - 1 - count++] = '0';
  append_bytes(buffer, digits + sizeof(digits) - count, (size_t)count, RC_TEXT_RESERVE);
}

/* Appends at most `limit` bytes of `string`, percent-encoding controls, space, DEL and '%'. */
static void append_escaped(rc_record_buffer *buffer, const char *string, size_t limit) {
  static const char hex[] = "0123456789ABCDEF";
  for (size_t index = 0; index < limit && string[index] != '\0'; index++) {
    unsigned char byte = (unsigned char)string[index];
    if (byte <= 0x20 || byte == 0x7F || byte == '%') {
      char escape[3] = {'%', hex[byte >> 4], hex[byte & 0xF]};
      append_bytes(buffer, escape, 3, RC_TEXT_RESERVE);
    } else {
      append_bytes(buffer, (const char *)&byte, 1, RC_TEXT_RESERVE);
    }
  }
}

/* Appends a whole line or nothing: a line that does not fit is rolled back. */
static void line_rollback_if_full(rc_record_buffer *buffer, size_t line_start) {
  if (buffer->full) buffer->length = line_start;
}

static void append_end(rc_record_buffer *buffer) {
  append_bytes(buffer, "end\n", 4, 0); /* uses the reserve */
}

/* Writes everything, retrying after EINTR and partial writes; gives up on other errors. */
static void write_all(const char *bytes, size_t count) {
  while (count > 0) {
    ssize_t written = write(report_fd, bytes, count);
    if (written < 0) {
      if (errno == EINTR) continue;
      return;
    }
    bytes += written;
    count -= (size_t)written;
  }
}

/* Takes the writer flag; returns 0 when this thread already held it (and must not release it). */
static int writer_lock(pid_t tid) {
  for (;;) {
    pid_t expected = 0;
    if (atomic_compare_exchange_weak_explicit(&writer_tid, &expected, tid, memory_order_acquire,
                                              memory_order_relaxed)) {
      return 1;
    }
    if (expected == tid) return 0;
    raw_yield();
  }
}

static void writer_unlock(void) {
  atomic_store_explicit(&writer_tid, 0, memory_order_release);
}

/* ---- Unwinding and record building --------------------------------------- */

/* Collects the PCs of the interrupted thread, frame 0 being the interrupted instruction. */
static int collect_pcs(void *signal_context, uintptr_t *pcs, int capacity) {
  ucontext_t *context = signal_context;
  unw_cursor_t cursor;
  if (unw_init_local2(&cursor, (unw_context_t *)context, UNW_INIT_SIGNAL_FRAME) < 0) {
    /* libunwind refused the context: the faulting pc is still worth reporting. */
    pcs[0] = (uintptr_t)context->uc_mcontext.gregs[REG_RIP];
    return 1;
  }
  int count = 0;
  do {
    unw_word_t ip = 0;
    if (unw_get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0) break;
    pcs[count++] = (uintptr_t)ip;
  } while (count < capacity && unw_step(&cursor) > 0);
  return count;
}

/* Finds the flight-recorder slot registered for `tid`, or -1. */
static int slot_of_thread(pid_t tid) {
  if (active_recorder == NULL) return -1;
  for (int slot = 0; slot < RC_FLIGHT_RECORDER_SLOTS; slot++) {
    if (rc_flight_recorder_tid(active_recorder, slot) == tid) return slot;
  }
  return -1;
}

static void append_header(rc_record_buffer *buffer, const char *kind, int signal_number,
                          const siginfo_t *info, pid_t tid) {
  char name[17] = {0};
  if (prctl(PR_GET_NAME, (unsigned long)name, 0, 0, 0) != 0) name[0] = '\0';
  int64_t scenario = -1, invocation = -1, operation = -1;
  int slot = slot_of_thread(tid);
  if (active_recorder != NULL) {
    scenario = rc_flight_recorder_scenario(active_recorder);
    invocation = rc_flight_recorder_invocation(active_recorder);
    if (slot >= 0) operation = rc_flight_recorder_operation(active_recorder, slot);
  }
  /* si_addr is meaningful only for kernel-generated faults (si_code > 0). */
  uintptr_t address = info != NULL && info->si_code > 0 ? (uintptr_t)info->si_addr : 0;

  append_string(buffer, "racecheck-crash v1 kind=");
  append_string(buffer, kind);
  append_string(buffer, " signal=");
  append_decimal(buffer, signal_number);
  append_string(buffer, " code=");
  append_decimal(buffer, info != NULL ? info->si_code : 0);
  append_string(buffer, " addr=");
  append_hex(buffer, address);
  append_string(buffer, " pid=");
  append_decimal(buffer, getpid());
  append_string(buffer, " tid=");
  append_decimal(buffer, tid);
  append_string(buffer, " thread=");
  append_escaped(buffer, name, sizeof(name) - 1);
  append_string(buffer, " scenario=");
  append_decimal(buffer, scenario);
  append_string(buffer, " invocation=");
  append_decimal(buffer, invocation);
  append_string(buffer, " slot=");
  append_decimal(buffer, slot);
  append_string(buffer, " operation=");
  append_decimal(buffer, operation);
  /* A thread-local read: async-signal-safe. It tells racecheck's own code from the subject's. */
  append_string(buffer, " mode=");
  append_decimal(buffer, rc_interposer_mode());
  append_string(buffer, " frames=");
  append_decimal(buffer, buffer->frame_count);
  append_string(buffer, "\n");
}

static void append_pc_lines(rc_record_buffer *buffer) {
  for (int frame = 0; frame < buffer->frame_count; frame++) {
    size_t line_start = buffer->length;
    append_string(buffer, "pc ");
    append_hex(buffer, buffer->pcs[frame]);
    append_string(buffer, "\n");
    line_rollback_if_full(buffer, line_start);
  }
}

/* Appends one module line per frame that dladdr can place. NOT async-signal-safe. */
static void append_module_lines(rc_record_buffer *buffer) {
  for (int frame = 0; frame < buffer->frame_count; frame++) {
    uintptr_t pc = buffer->pcs[frame];
    /* A return address may be one past the caller's last byte: look up the call. */
    uintptr_t lookup = frame == 0 || pc == 0 ? pc : pc - 1;
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1((void *)lookup, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) {
      continue;
    }
    /* The main program's link map is first and has an empty name. */
    const char *path = map->l_prev == NULL || map->l_name == NULL || map->l_name[0] == '\0'
                           ? executable_path
                           : map->l_name;
    size_t line_start = buffer->length;
    append_string(buffer, "module ");
    append_hex(buffer, pc);
    append_string(buffer, " ");
    append_hex(buffer, pc - (uintptr_t)map->l_addr);
    append_string(buffer, " ");
    append_escaped(buffer, path, PATH_MAX);
    append_string(buffer, "\n");
    line_rollback_if_full(buffer, line_start);
  }
}

/* ---- The handlers --------------------------------------------------------- */

/* Restores the default action and re-raises, so the parent sees WIFSIGNALED with `signal_number`. */
static void die_with(int signal_number, pid_t tid) {
  struct sigaction fallback;
  fallback.sa_handler = SIG_DFL;
  fallback.sa_flags = 0;
  sigemptyset(&fallback.sa_mask);
  sigaction(signal_number, &fallback, NULL);
  sigset_t unblock;
  sigemptyset(&unblock);
  sigaddset(&unblock, signal_number);
  sigprocmask(SIG_UNBLOCK, &unblock, NULL);
  syscall(SYS_tgkill, getpid(), tid, signal_number);
  /* Still alive (the signal was ignored?): a fault re-executes and dies; anything else exits. */
  if (signal_number != SIGSEGV && signal_number != SIGBUS && signal_number != SIGILL &&
      signal_number != SIGFPE) {
    _exit(128 + signal_number);
  }
}

static void crash_handler(int signal_number, siginfo_t *info, void *context) {
  pid_t tid = raw_gettid();
  pid_t expected = 0;
  if (!atomic_compare_exchange_strong_explicit(&crashing_tid, &expected, tid, memory_order_acq_rel,
                                               memory_order_acquire)) {
    /* Another thread is reporting its crash and will kill the process: wait for it. */
    for (;;) pause();
  }
  rc_record_buffer *buffer = crash_buffer;
  buffer->frame_count = collect_pcs(context, buffer->pcs, RC_MAX_FRAMES);

  int owns_writer = writer_lock(tid);
  buffer_reset(buffer);
  append_header(buffer, "crash", signal_number, info, tid);
  append_pc_lines(buffer);
  write_all(buffer->text, buffer->length);

  buffer_reset(buffer);
  append_module_lines(buffer);
  append_end(buffer);
  write_all(buffer->text, buffer->length);
  if (owns_writer) writer_unlock();

  die_with(signal_number, tid);
}

/* Claims a free stack buffer, waiting for one when more threads than buffers report at once. */
static rc_record_buffer *claim_stack_buffer(void) {
  for (;;) {
    for (int index = 0; index < RC_STACK_BUFFERS; index++) {
      int expected = 0;
      if (atomic_compare_exchange_strong_explicit(&stack_buffers[index].busy, &expected, 1,
                                                  memory_order_acquire, memory_order_relaxed)) {
        return &stack_buffers[index];
      }
    }
    raw_yield();
  }
}

static void stack_handler(int signal_number, siginfo_t *info, void *context) {
  int saved_errno = errno;
  pid_t tid = raw_gettid();
  rc_record_buffer *buffer = claim_stack_buffer();
  buffer->frame_count = collect_pcs(context, buffer->pcs, RC_MAX_FRAMES);
  buffer_reset(buffer);
  append_header(buffer, "stack", signal_number, info, tid);
  append_pc_lines(buffer);
  /* The thread lives on, so the whole record is built first and written in one go. */
  append_module_lines(buffer);
  append_end(buffer);

  int owns_writer = writer_lock(tid);
  write_all(buffer->text, buffer->length);
  if (owns_writer) writer_unlock();
  atomic_store_explicit(&buffer->busy, 0, memory_order_release);
  errno = saved_errno;
}

/* ---- Installation (not in a signal) ------------------------------------------ */

static void free_altstack(void *memory) {
  stack_t disable = {.ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0};
  sigaltstack(&disable, NULL);
  munmap(memory, RC_GUARD_SIZE + RC_ALTSTACK_SIZE);
}

static void make_altstack_key(void) {
  pthread_key_create(&altstack_key, free_altstack);
}

int rc_prepare_thread(void) {
  pthread_once(&altstack_once, make_altstack_key);
  if (pthread_getspecific(altstack_key) != NULL) return 0;
  char *memory = mmap(NULL, RC_GUARD_SIZE + RC_ALTSTACK_SIZE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (memory == MAP_FAILED) return -1;
  /* A guard page below the stack turns an overflow of the handler itself into a clean fault. */
  mprotect(memory, RC_GUARD_SIZE, PROT_NONE);
  stack_t stack = {.ss_sp = memory + RC_GUARD_SIZE, .ss_flags = 0, .ss_size = RC_ALTSTACK_SIZE};
  if (sigaltstack(&stack, NULL) != 0) {
    int saved = errno;
    munmap(memory, RC_GUARD_SIZE + RC_ALTSTACK_SIZE);
    errno = saved;
    return -1;
  }
  pthread_setspecific(altstack_key, memory);
  return 0;
}

__attribute__((noinline)) int rc_capture_current_stack(uintptr_t *pcs, int capacity) {
  unw_context_t context;
  unw_cursor_t cursor;
  if (capacity <= 0 || unw_getcontext(&context) != 0) return 0;
  if (unw_init_local(&cursor, &context) < 0) return 0;
  int count = 0;
  /* Skip this function's own frame: the first pc reported is in the caller. */
  while (count < capacity && unw_step(&cursor) > 0) {
    unw_word_t ip = 0;
    if (unw_get_reg(&cursor, UNW_REG_IP, &ip) < 0 || ip == 0) break;
    pcs[count++] = (uintptr_t)ip;
  }
  return count;
}

/* Calls everything the handlers call once, so that nothing binds or allocates in a signal. */
static void warm_up(void) {
  rc_record_buffer *buffer = crash_buffer;
  unw_context_t context;
  unw_cursor_t cursor;
  if (unw_getcontext(&context) == 0) unw_init_local2(&cursor, &context, 0);
  buffer->frame_count = rc_capture_current_stack(buffer->pcs, RC_MAX_FRAMES);
  buffer_reset(buffer);
  siginfo_t info = {0};
  append_header(buffer, "crash", 0, &info, raw_gettid());
  append_pc_lines(buffer);
  append_module_lines(buffer);
  append_end(buffer);
  buffer_reset(buffer);
  write(report_fd, buffer->text, 0);
  raw_yield();
  sigset_t empty;
  sigemptyset(&empty);
  sigprocmask(SIG_BLOCK, &empty, NULL);
}

int rc_install_crash_handler(int fd, const rc_flight_recorder *recorder) {
  if (crash_buffer == NULL) {
    size_t size = sizeof(rc_record_buffer) * (1 + RC_STACK_BUFFERS);
    void *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) return -1;
    crash_buffer = memory;
    stack_buffers = crash_buffer + 1;
  }
  report_fd = fd;
  active_recorder = recorder;
  ssize_t length = readlink("/proc/self/exe", executable_path, sizeof(executable_path) - 1);
  executable_path[length > 0 ? length : 0] = '\0';

  /* The record is the report: a core file per crashing child would only cost time and disk. */
  struct rlimit no_core = {0, 0};
  setrlimit(RLIMIT_CORE, &no_core);

  warm_up();
  if (rc_prepare_thread() != 0) return -1;

  struct sigaction action;
  action.sa_sigaction = crash_handler;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  /* A fault inside the crash handler then kills the process instead of re-entering it. */
  for (int index = 0; index < RC_CRASH_SIGNAL_COUNT; index++) {
    sigaddset(&action.sa_mask, crash_signals[index]);
  }
  sigaddset(&action.sa_mask, SIGPROF);
  /* Writing to a pipe the parent closed must fail with EPIPE, not kill with the wrong signal. */
  sigaddset(&action.sa_mask, SIGPIPE);
  for (int index = 0; index < RC_CRASH_SIGNAL_COUNT; index++) {
    if (sigaction(crash_signals[index], &action, NULL) != 0) return -1;
  }

  struct sigaction profile;
  profile.sa_sigaction = stack_handler;
  profile.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&profile.sa_mask);
  sigaddset(&profile.sa_mask, SIGPROF);
  if (sigaction(SIGPROF, &profile, NULL) != 0) return -1;
  return 0;
}
