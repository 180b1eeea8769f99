/*
 * CPU affinity of the calling thread: cpu_set_t and its macros need
 * _GNU_SOURCE, which Swift's Glibc module is not built with.
 */
#include "CRaceCheckSupport.h"

#include <sched.h>

int rc_thread_cpus(int *cpus, int capacity) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
  int count = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
    if (!CPU_ISSET(cpu, &set)) continue;
    if (count < capacity) cpus[count] = cpu;
    count++;
  }
  return count;
}

int rc_set_thread_cpus(const int *cpus, int count) {
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int index = 0; index < count; index++) {
    if (cpus[index] >= 0 && cpus[index] < CPU_SETSIZE) CPU_SET(cpus[index], &set);
  }
  /* On Linux, pid 0 names the calling thread, not the whole process. */
  return sched_setaffinity(0, sizeof(set), &set) == 0 ? 0 : -1;
}
