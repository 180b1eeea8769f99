/*
 * Small C programs in the style of SCTBench's plain-memory cases, each built twice:
 * with SanitizerCoverage's load and store tracing, which makes every plain load and store
 * a scheduling point, and without it (`_untraced`), where racecheck sees only their
 * pthread calls. Each creates its own threads, joins them and reports what it saw; each
 * resets its globals first, as a program's start would.
 */
#ifndef CTRACED_MEMORY_FIXTURES_H
#define CTRACED_MEMORY_FIXTURES_H

/* One thread stores a = 1, then b = -1, to plain globals; another reads both. Returns 1
 * when the reader saw a state that neither "before both" nor "after both" is: it read
 * between the two stores. Buggy: no lock orders the stores against the reads. */
int rc_reorder_traced(void);
int rc_reorder_untraced(void);

/* Two threads add 1 to a global counter, each under a lock of its own. Returns the final
 * count: 2, or 1 when one read the count before the other stored it. Buggy: the locks
 * differ, so nothing excludes the two updates. */
int rc_wronglock_traced(void);
int rc_wronglock_untraced(void);

/* The fixed twin of wronglock: both threads take the same lock. Always returns 2. */
int rc_onelock_traced(void);

/* Starts two threads, each reading an argument on the creator's stack, and joins them: the
 * creator touches nothing but its own stack. Correct. */
void rc_stack_only_creator_traced(void);

/* Starts two threads that return at once and joins neither, as a program that ends with
 * `return 0` from main does (SCTBench's micro programs). */
void rc_unjoined_threads(void);

#endif
