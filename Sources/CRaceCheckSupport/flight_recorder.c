/*
 * The flight recorder: a fixed-size struct in a memfd shared by the parent
 * and the child, so that the parent can read what was in flight after the
 * child died, however it died.
 *
 * Writers (the child's runner threads) use relaxed or release stores and no
 * syscalls: the worker sets these around every operation, so they must cost
 * nanoseconds. Each slot sits on its own cache line so that runner threads
 * writing their own slots do not slow each other down.
 */
#include "CRaceCheckSupport.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct rc_flight_slot {
  _Atomic int64_t operation; /* index of the operation in flight, -1 when none */
  _Atomic int32_t tid;       /* kernel tid of the thread registered here, 0 when none */
  char padding[64 - sizeof(int64_t) - sizeof(int32_t)];
} rc_flight_slot;

struct rc_flight_recorder {
  _Atomic uint32_t magic;
  uint32_t version;
  uint32_t size; /* sizeof(rc_flight_recorder), checked when mapping */
  uint32_t slot_count;
  _Atomic int64_t scenario;
  _Atomic int64_t invocation;
  char padding[64 - 4 * sizeof(uint32_t) - 2 * sizeof(int64_t)];
  rc_flight_slot slots[RC_FLIGHT_RECORDER_SLOTS];
  /* Thread Sanitizer's race reports the child took (see CRaceCheckSanitizer.h). */
  rc_race_log races;
};

_Static_assert(sizeof(rc_flight_slot) == 64, "a slot fills one cache line");
_Static_assert(offsetof(rc_flight_recorder, slots) == 64, "slots start on a cache line");

static int valid_slot(int slot) {
  return slot >= 0 && slot < RC_FLIGHT_RECORDER_SLOTS;
}

rc_flight_recorder *rc_flight_recorder_create(int *fd_out) {
  int fd = memfd_create("racecheck-flight-recorder", MFD_CLOEXEC);
  if (fd < 0) return NULL;
  if (ftruncate(fd, sizeof(rc_flight_recorder)) != 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return NULL;
  }
  void *memory = mmap(NULL, sizeof(rc_flight_recorder), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED) {
    int saved = errno;
    close(fd);
    errno = saved;
    return NULL;
  }
  rc_flight_recorder *recorder = memory; /* ftruncate zero-filled it */
  recorder->version = RC_FLIGHT_RECORDER_VERSION;
  recorder->size = sizeof(rc_flight_recorder);
  recorder->slot_count = RC_FLIGHT_RECORDER_SLOTS;
  atomic_store_explicit(&recorder->scenario, -1, memory_order_relaxed);
  atomic_store_explicit(&recorder->invocation, -1, memory_order_relaxed);
  for (int slot = 0; slot < RC_FLIGHT_RECORDER_SLOTS; slot++) {
    atomic_store_explicit(&recorder->slots[slot].operation, -1, memory_order_relaxed);
    atomic_store_explicit(&recorder->slots[slot].tid, 0, memory_order_relaxed);
  }
  /* The magic goes last, so a reader that sees it sees an initialized struct. */
  atomic_store_explicit(&recorder->magic, RC_FLIGHT_RECORDER_MAGIC, memory_order_release);
  *fd_out = fd;
  return recorder;
}

rc_flight_recorder *rc_flight_recorder_map(int fd) {
  struct stat status;
  if (fstat(fd, &status) != 0) return NULL;
  if ((size_t)status.st_size < sizeof(rc_flight_recorder)) {
    errno = EINVAL;
    return NULL;
  }
  void *memory = mmap(NULL, sizeof(rc_flight_recorder), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED) return NULL;
  rc_flight_recorder *recorder = memory;
  if (atomic_load_explicit(&recorder->magic, memory_order_acquire) != RC_FLIGHT_RECORDER_MAGIC ||
      recorder->version != RC_FLIGHT_RECORDER_VERSION ||
      recorder->size != sizeof(rc_flight_recorder) ||
      recorder->slot_count != RC_FLIGHT_RECORDER_SLOTS) {
    munmap(memory, sizeof(rc_flight_recorder));
    errno = EPROTO;
    return NULL;
  }
  return recorder;
}

void rc_flight_recorder_unmap(rc_flight_recorder *recorder) {
  if (recorder != NULL) munmap(recorder, sizeof(rc_flight_recorder));
}

void rc_flight_recorder_begin_invocation(rc_flight_recorder *recorder, int64_t scenario,
                                         int64_t invocation) {
  for (int slot = 0; slot < RC_FLIGHT_RECORDER_SLOTS; slot++) {
    atomic_store_explicit(&recorder->slots[slot].operation, -1, memory_order_relaxed);
  }
  atomic_store_explicit(&recorder->scenario, scenario, memory_order_relaxed);
  atomic_store_explicit(&recorder->invocation, invocation, memory_order_release);
}

void rc_flight_recorder_register_thread(rc_flight_recorder *recorder, int slot) {
  if (!valid_slot(slot)) return;
  atomic_store_explicit(&recorder->slots[slot].tid, (int32_t)syscall(SYS_gettid),
                        memory_order_release);
}

void rc_flight_recorder_begin_operation(rc_flight_recorder *recorder, int slot, int64_t index) {
  if (!valid_slot(slot)) return;
  atomic_store_explicit(&recorder->slots[slot].operation, index, memory_order_release);
}

void rc_flight_recorder_end_operation(rc_flight_recorder *recorder, int slot) {
  if (!valid_slot(slot)) return;
  atomic_store_explicit(&recorder->slots[slot].operation, -1, memory_order_release);
}

uint32_t rc_flight_recorder_magic(const rc_flight_recorder *recorder) {
  return atomic_load_explicit(&((rc_flight_recorder *)recorder)->magic, memory_order_acquire);
}

int64_t rc_flight_recorder_scenario(const rc_flight_recorder *recorder) {
  return atomic_load_explicit(&((rc_flight_recorder *)recorder)->scenario, memory_order_acquire);
}

int64_t rc_flight_recorder_invocation(const rc_flight_recorder *recorder) {
  return atomic_load_explicit(&((rc_flight_recorder *)recorder)->invocation, memory_order_acquire);
}

int64_t rc_flight_recorder_operation(const rc_flight_recorder *recorder, int slot) {
  if (!valid_slot(slot)) return -1;
  return atomic_load_explicit(&((rc_flight_recorder *)recorder)->slots[slot].operation,
                              memory_order_acquire);
}

rc_race_log *rc_flight_recorder_races(rc_flight_recorder *recorder) { return &recorder->races; }

int32_t rc_flight_recorder_tid(const rc_flight_recorder *recorder, int slot) {
  if (!valid_slot(slot)) return 0;
  return atomic_load_explicit(&((rc_flight_recorder *)recorder)->slots[slot].tid,
                              memory_order_acquire);
}
