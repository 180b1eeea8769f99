/*
 * CRaceCheckSupport: the C half of racecheck's crash capture.
 *
 * Code under test runs in a child process. This module gives that child
 *
 *   - a flight recorder: a small struct in shared memory (a memfd created by
 *     the parent and inherited by the child) that says which scenario,
 *     invocation and operations were in flight, readable by the parent after
 *     the child died;
 *   - a crash handler for SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT and SIGTRAP
 *     that writes the crashing thread's stack to a report file descriptor and
 *     re-raises the signal;
 *   - a SIGPROF handler that writes the receiving thread's stack, which the
 *     parent triggers on every thread of a hung child with rc_request_stacks.
 *
 * ---------------------------------------------------------------------------
 * Record format (version 1): text lines, ASCII, each ending in '\n'.
 *
 *   racecheck-crash v1 kind=<crash|stack> signal=<n> code=<n> addr=0x<hex>
 *       pid=<n> tid=<n> thread=<name> scenario=<n> invocation=<n> slot=<n>
 *       operation=<n> mode=<n> frames=<n>
 *   pc 0x<hex>                              (one line per frame, frames= lines)
 *   module 0x<pc> 0x<offset> <path>         (zero or one per frame, same order)
 *   end
 *
 * The header is a single line (wrapped above for reading); its fields are
 * separated by one space and always appear in this order:
 *
 *   kind        crash: written by the crash handler before the child dies;
 *               stack: written by the SIGPROF handler, the child lives on.
 *   signal      the signal number (4 SIGILL, 11 SIGSEGV, 27 SIGPROF, ...).
 *   code        siginfo's si_code (e.g. ILL_ILLOPN, SEGV_MAPERR, SI_TKILL).
 *   addr        siginfo's si_addr: the faulting address or instruction.
 *   pid, tid    the process and the kernel thread id of the reporting thread.
 *   thread      the thread's name (prctl PR_GET_NAME), percent-encoded.
 *   scenario, invocation
 *               the flight recorder's current values, -1 when unknown.
 *   slot, operation
 *               the runner-thread slot whose registered tid is this thread and
 *               the index of the operation it had in flight; -1 when none.
 *   mode        the thread's interposer mode (rc_thread_mode): 1 while it runs
 *               the scheduler's own code, 2 while it runs code under test.
 *   frames      how many pc lines follow.
 *
 * Frame 0 is the interrupted instruction itself (the faulting one for a
 * crash); frames 1... are return addresses, so a symbolizer should look up
 * (pc - 1) for them. A module line gives the path of the ELF object holding
 * the pc and the pc's offset from the object's load bias, i.e. the address
 * to hand to `llvm-symbolizer --obj=<path>`. Frames that dladdr cannot place
 * (JIT code, a wild pc) have no module line.
 *
 * Percent-encoding: in names and paths the bytes 0x00-0x20, 0x7F and '%' are
 * written as %XX (two upper-case hex digits); everything else as is.
 *
 * A crash record is written in two parts: the header and the pc lines first
 * (they need nothing but libunwind), then the module lines and "end" (they
 * need dladdr, which is not async-signal-safe and may hang or crash). A
 * record without "end" was truncated; its pc lines are still good.
 *
 * Records never interleave: each is built in a preallocated buffer and
 * written while holding a spin flag that every writer in the process takes.
 * ---------------------------------------------------------------------------
 */
#ifndef RACECHECK_CRACECHECKSUPPORT_H
#define RACECHECK_CRACECHECKSUPPORT_H

#include <spawn.h>
#include <CRaceCheckInterposer.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Flight recorder ---------------------------------------------------- */

/* Magic number at the start of the shared struct: "RCFR". */
#define RC_FLIGHT_RECORDER_MAGIC 0x52434652u
/* Layout version of the shared struct; a mismatch refuses to map. */
#define RC_FLIGHT_RECORDER_VERSION 2u
/* How many runner-thread slots the recorder has. */
#define RC_FLIGHT_RECORDER_SLOTS 16

/* The shared-memory struct; opaque here, laid out in flight_recorder.c. */
typedef struct rc_flight_recorder rc_flight_recorder;

/*
 * Creates a zeroed recorder in a new memfd and maps it (parent side).
 * Stores the memfd (close-on-exec) in *fd_out. Returns NULL and sets errno on failure.
 */
rc_flight_recorder *rc_flight_recorder_create(int *fd_out);

/* Maps the recorder behind an inherited memfd (child side); NULL and errno on failure. */
rc_flight_recorder *rc_flight_recorder_map(int fd);

/* Unmaps a recorder (does not close its fd). */
void rc_flight_recorder_unmap(rc_flight_recorder *recorder);

/* Sets the scenario and invocation about to run and clears every slot's operation. */
void rc_flight_recorder_begin_invocation(rc_flight_recorder *recorder, int64_t scenario,
                                         int64_t invocation);

/* Records the calling thread's kernel tid in `slot` (one syscall; call once per thread). */
void rc_flight_recorder_register_thread(rc_flight_recorder *recorder, int slot);

/* Marks operation `index` in flight on `slot` (a release store, no syscall). */
void rc_flight_recorder_begin_operation(rc_flight_recorder *recorder, int slot, int64_t index);

/* Marks no operation in flight on `slot`. */
void rc_flight_recorder_end_operation(rc_flight_recorder *recorder, int slot);

/* Getters the parent uses after the child died (acquire loads). */
uint32_t rc_flight_recorder_magic(const rc_flight_recorder *recorder);
int64_t rc_flight_recorder_scenario(const rc_flight_recorder *recorder);
int64_t rc_flight_recorder_invocation(const rc_flight_recorder *recorder);
int64_t rc_flight_recorder_operation(const rc_flight_recorder *recorder, int slot);
int32_t rc_flight_recorder_tid(const rc_flight_recorder *recorder, int slot);

/* The race log in the recorder: the child writes Thread Sanitizer's reports there, and the
 * parent reads them after the child died. */
rc_race_log *rc_flight_recorder_races(rc_flight_recorder *recorder);

/* ---- Crash handler (child side) ----------------------------------------- */

/*
 * Installs the crash handler (SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGABRT,
 * SIGTRAP) and the stack-dump handler (SIGPROF), writing records to
 * `report_fd`, and gives the calling thread an alternate signal stack.
 * `recorder` (may be NULL) supplies scenario, invocation, slot and operation,
 * and must stay mapped while the handlers may run. Also sets RLIMIT_CORE to 0:
 * the record is the report, and a core file per crashing child costs time.
 * Until this returns, a SIGPROF from the parent ends the process (its default
 * action). Call once, early, from one thread. Returns 0, or -1 and sets errno.
 */
int rc_install_crash_handler(int report_fd, const rc_flight_recorder *recorder);

/*
 * Gives the calling thread its own alternate signal stack, so that a stack
 * overflow on it can still be reported. Idempotent; the stack is freed when
 * the thread exits. Returns 0, or -1 and sets errno.
 */
int rc_prepare_thread(void);

/*
 * Captures the calling thread's stack (innermost first, starting at the
 * caller) into `pcs`; returns the number of frames stored, at most `capacity`.
 */
int rc_capture_current_stack(uintptr_t *pcs, int capacity);

/*
 * Writes the (mangled) names of the procedures on the calling thread's stack,
 * innermost first starting at the caller, into `buffer` as NUL-terminated
 * strings one after another; returns the number of bytes used. Not for signal
 * handlers: it reads symbol tables.
 */
int rc_current_procedure_names(char *buffer, int capacity);


/*
 * Writes the path of the image holding code address `pc` (the executable's
 * real path for the main program) into `path`, NUL-terminated, and `pc`'s
 * offset from the image's load bias into `offset`: the address to hand to
 * `llvm-symbolizer --obj=<path>`. Returns 0, or -1 when no image holds `pc`.
 */
int rc_code_image(uintptr_t pc, char *path, int capacity, uintptr_t *offset);

/*
 * Calls `each` with every name in the executable's symbol table (.symtab, local
 * symbols included) whose mangled form contains `needle`, demangled when it is a
 * Swift name, with the address of the variable it names (0 when it names no
 * variable the executable defines). Returns how many there were, or -1 when the
 * executable has no symbol table (a stripped binary).
 */
int rc_executable_symbols_containing(
    const char *needle, void (*each)(const char *name, uintptr_t address, void *context),
    void *context);

/*
 * Calls `each` with every variable of the executable's symbol table (local ones
 * included, as a C file's statics are), mangled, with its address and size.
 * Returns 0, or -1 when the executable has no symbol table.
 */
int rc_executable_objects(
    void (*each)(const char *name, uintptr_t address, uintptr_t size, void *context), void *context);

/*
 * Calls `each` with the index of every one of the `count` code `addresses` that a
 * function of the executable's symbol table (local functions included) holds, with
 * that function's mangled name and first instruction's address. Returns 0, or -1
 * when the executable has no symbol table.
 */
int rc_executable_functions_at(
    const uintptr_t *addresses, int count,
    void (*each)(int index, const char *name, uintptr_t start, void *context), void *context);

/* Whether `address` lies in the executable rather than in a shared library. */
bool rc_in_executable(const void *address);

/* The demangled form of the Swift symbol `mangled` (malloc'ed, for the caller to free), or NULL. */
char *rc_demangle(const char *mangled);

/*
 * The identity of the serial executor the Swift concurrency runtime says the
 * calling thread runs jobs for (the actor itself, for a default actor), or 0
 * when it runs none.
 */
uintptr_t rc_current_executor_identity(void);

/* ---- Parent side --------------------------------------------------------- */

/*
 * Sends SIGPROF to every thread of process `pid` (listing /proc/<pid>/task),
 * so that each writes a "kind=stack" record. Returns how many threads were
 * signalled, or -1 and sets errno when the task folder cannot be read.
 */
int rc_request_stacks(pid_t pid);

/* pipe2(fds, O_CLOEXEC), which Swift's Glibc module does not export. */
int rc_pipe_cloexec(int fds[2]);

/* posix_spawn_file_actions_addclosefrom_np: the child closes every fd >= `from`. */
int rc_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *file_actions, int from);

/* The calling thread's kernel thread id. */
pid_t rc_gettid(void);

/* Names the calling thread (at most 15 bytes are kept); 0 or an error number. */
int rc_set_thread_name(const char *name);

/*
 * The CPUs the calling thread may run on: writes up to `capacity` CPU numbers
 * to `cpus` in increasing order and returns how many there are, or -1.
 */
int rc_thread_cpus(int *cpus, int capacity);

/* Lets the calling thread run only on the `count` CPUs of `cpus`; 0 or -1. */
int rc_set_thread_cpus(const int *cpus, int count);

#ifdef __cplusplus
}
#endif

#endif
