/*
 * The Swift runtime's exclusivity checks, which the compiler emits for every
 * access to a class's stored property, a global or an escaping closure's
 * captured variable that it cannot prove exclusive: in -O builds too, unless
 * built with -enforce-exclusivity=unchecked. Under a scheduler each one is a
 * scheduling point with the accessed address, which is how schedule mode sees
 * the plain stored state of unmodified code. Allocations tell the scheduler
 * that an address now holds another object, so that accesses to a freed object
 * and to the one at its address are not taken for a race. (Objects the compiler
 * puts on a thread's stack need no such care: no other thread's accesses can
 * share their addresses.)
 */
#include "interposer.h"

#include <stddef.h>
#include <stdint.h>

void swift_beginAccess(void *pointer, void *buffer, uintptr_t flags, void *pc);
void *swift_allocObject(const void *metadata, size_t size, size_t alignment_mask);
/* What swift_allocBox returns: the box object and the address of the value inside it. */
typedef struct rc_box_pair {
  void *object;
  void *value;
} rc_box_pair;
rc_box_pair swift_allocBox(const void *metadata);

RC_ORIGINAL(swift_beginAccess)
RC_ORIGINAL(swift_allocObject)
RC_ORIGINAL(swift_allocBox)

/* ExclusivityFlags: the low bit says modify (else read). */
enum { RC_ACCESS_MODIFY = 0x1 };

RC_COLD static void access_scheduled(void *pointer, void *buffer, uintptr_t flags, void *pc) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks != 0) {
    hooks->access(hooks->context, pointer, (flags & RC_ACCESS_MODIFY) != 0, pc);
    rc_leave_hooks();
  }
  rc_real_swift_beginAccess()(pointer, buffer, flags, pc);
}

RC_FIRST_CALL(
    void, swift_beginAccess, (void *pointer, void *buffer, uintptr_t flags, void *pc),
    (pointer, buffer, flags, pc))

/* Not sanitized: the access it shows the sanitizer is its caller's, on its caller's stack. */
RC_NOT_SANITIZED void swift_beginAccess(void *pointer, void *buffer, uintptr_t flags, void *pc) {
  /* A null pc asks the runtime to use its caller's address, which would be this function. */
  if (pc == 0) pc = __builtin_return_address(0);
  if (rc_is_subject()) return access_scheduled(pointer, buffer, flags, pc);
#if RC_SANITIZER
  /* Foundation and the runtime are not built with Thread Sanitizer: their accesses to class
   * storage (NSMutableArray's, say) reach it only through their exclusivity checks. */
  rc_sanitizer_access(pointer, (flags & RC_ACCESS_MODIFY) != 0, pc);
#endif
  RC_FORWARD(swift_beginAccess, pointer, buffer, flags, pc);
}

RC_COLD static void note_allocation(void *object, size_t size, const void *metadata) {
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks != 0) {
    hooks->allocated(hooks->context, object, size, metadata);
    rc_leave_hooks();
  }
}

void *swift_allocObject(const void *metadata, size_t size, size_t alignment_mask) {
  void *object = rc_real_swift_allocObject()(metadata, size, alignment_mask);
  if (rc_is_subject()) note_allocation(object, size, metadata);
  return object;
}

/* A `var` captured by an escaping closure lives in a box, whose value the accesses name. */
rc_box_pair swift_allocBox(const void *metadata) {
  rc_box_pair box = rc_real_swift_allocBox()(metadata);
  const rc_interposer_hooks *hooks = rc_enter_hooks();
  if (hooks != 0) {
    hooks->allocated(hooks->context, box.value, 1, 0);
    rc_leave_hooks();
  }
  return box;
}
