/*
 * Each program is written once, as a macro, and expanded twice: once traced, once with
 * tracing turned off for its functions, so that the two differ in nothing but what
 * racecheck can see. The target's build settings turn tracing on (Package.swift).
 */
#include "CTracedMemoryFixtures.h"

#include <pthread.h>
#include <stddef.h>

#define TRACED
#define UNTRACED __attribute__((no_sanitize("coverage")))

#define REORDER(suffix, attributes)                                                 \
  static int reorder_a_##suffix, reorder_b_##suffix, reorder_seen_##suffix;         \
  attributes static void *reorder_set_##suffix(void *unused) {                      \
    reorder_a_##suffix = 1;                                                         \
    reorder_b_##suffix = -1;                                                        \
    return unused;                                                                  \
  }                                                                                 \
  attributes static void *reorder_check_##suffix(void *unused) {                    \
    int a = reorder_a_##suffix, b = reorder_b_##suffix;                             \
    if (!((a == 0 && b == 0) || (a == 1 && b == -1))) reorder_seen_##suffix = 1;    \
    return unused;                                                                  \
  }                                                                                 \
  attributes int rc_reorder_##suffix(void) {                                        \
    reorder_a_##suffix = reorder_b_##suffix = reorder_seen_##suffix = 0;            \
    pthread_t set, check;                                                           \
    pthread_create(&set, NULL, reorder_set_##suffix, NULL);                         \
    pthread_create(&check, NULL, reorder_check_##suffix, NULL);                     \
    pthread_join(set, NULL);                                                        \
    pthread_join(check, NULL);                                                      \
    return reorder_seen_##suffix;                                                   \
  }

#define LOCKED_COUNTER(name, suffix, attributes, second_lock)                       \
  static int name##_count_##suffix;                                                 \
  static pthread_mutex_t name##_first_##suffix = PTHREAD_MUTEX_INITIALIZER;         \
  static pthread_mutex_t name##_second_##suffix = PTHREAD_MUTEX_INITIALIZER;        \
  attributes static void *name##_add_##suffix(void *lock) {                         \
    pthread_mutex_lock(lock);                                                       \
    name##_count_##suffix = name##_count_##suffix + 1;                              \
    pthread_mutex_unlock(lock);                                                     \
    return NULL;                                                                    \
  }                                                                                 \
  attributes int rc_##name##_##suffix(void) {                                       \
    name##_count_##suffix = 0;                                                      \
    pthread_t first, second;                                                        \
    pthread_create(&first, NULL, name##_add_##suffix, &name##_first_##suffix);      \
    pthread_create(&second, NULL, name##_add_##suffix, &second_lock##_##suffix);    \
    pthread_join(first, NULL);                                                      \
    pthread_join(second, NULL);                                                     \
    return name##_count_##suffix;                                                   \
  }

static void *read_argument(void *argument) {
  volatile int value = *(int *)argument;
  (void)value;
  return NULL;
}

void rc_stack_only_creator_traced(void) {
  int arguments[2] = {1, 2};
  pthread_t threads[2];
  for (int i = 0; i < 2; i++) pthread_create(&threads[i], NULL, read_argument, &arguments[i]);
  for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
}

static void *returns(void *unused) { return unused; }

void rc_unjoined_threads(void) {
  pthread_t first, second;
  pthread_create(&first, NULL, returns, NULL);
  pthread_create(&second, NULL, returns, NULL);
}

REORDER(traced, TRACED)
REORDER(untraced, UNTRACED)
LOCKED_COUNTER(wronglock, traced, TRACED, wronglock_second)
LOCKED_COUNTER(wronglock, untraced, UNTRACED, wronglock_second)
LOCKED_COUNTER(onelock, traced, TRACED, onelock_first)
