/*
 * The plain loads and stores of C code built with SanitizerCoverage's load and store
 * tracing (-fsanitize-coverage=func,trace-pc,trace-loads,trace-stores), which calls one of these
 * before each. Under a scheduler each one outside the calling thread's own stack is a
 * scheduling point with its address, as an exclusivity check is for Swift code: without
 * them a C program's globals and heap change between points the scheduler never sees,
 * and two plain stores cannot be told apart from one.
 *
 * They are points, not race checks: C code is often written with races its author knows
 * to be benign, and Thread Sanitizer reports the ones that are not. Accesses to the
 * thread's own stack are no points, since no other thread shares them.
 */
#include "interposer.h"

#include <pthread.h>
#include <stdint.h>

/* The calling thread's stack, found on its first traced access. */
static RC_THREAD_LOCAL uintptr_t stack_low, stack_high;

RC_NOT_SANITIZED static bool on_own_stack(const void *address) {
  if (stack_high == 0) {
    pthread_attr_t attributes;
    void *low = 0;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return false;
    pthread_attr_getstack(&attributes, &low, &size);
    pthread_attr_destroy(&attributes);
    stack_low = (uintptr_t)low;
    stack_high = (uintptr_t)low + size;
  }
  return (uintptr_t)address >= stack_low && (uintptr_t)address < stack_high;
}

/* A stack access still goes to the scheduler, as no point: a function whose every access is
 * to its own stack (a `main` that starts and joins threads) is traced all the same. */
RC_COLD RC_NOT_SANITIZED static void traced(const void *address, bool modify, const void *pc) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks == 0) return;
  hooks->traced_access(hooks->context, on_own_stack(address) ? 0 : address, modify, pc);
  rc_leave_hooks();
}

#define RC_TRACED_ACCESS(name, type, modify)                                   \
  RC_NOT_SANITIZED void name(type *address) {                                  \
    if (rc_is_subject()) traced(address, modify, __builtin_return_address(0)); \
  }

/* The entry of a function built with tracing (`trace-pc` at the `func` level): no point, but
 * the scheduler learns that the function is traced though it may touch no memory at all. */
RC_NOT_SANITIZED void __sanitizer_cov_trace_pc(void) {
  if (rc_is_subject()) traced(0, false, __builtin_return_address(0));
}

RC_TRACED_ACCESS(__sanitizer_cov_load1, uint8_t, false)
RC_TRACED_ACCESS(__sanitizer_cov_load2, uint16_t, false)
RC_TRACED_ACCESS(__sanitizer_cov_load4, uint32_t, false)
RC_TRACED_ACCESS(__sanitizer_cov_load8, uint64_t, false)
RC_TRACED_ACCESS(__sanitizer_cov_load16, __int128, false)
RC_TRACED_ACCESS(__sanitizer_cov_store1, uint8_t, true)
RC_TRACED_ACCESS(__sanitizer_cov_store2, uint16_t, true)
RC_TRACED_ACCESS(__sanitizer_cov_store4, uint32_t, true)
RC_TRACED_ACCESS(__sanitizer_cov_store8, uint64_t, true)
RC_TRACED_ACCESS(__sanitizer_cov_store16, __int128, true)
