/* runner: runs a program as a child process, pinned to one CPU, with a time
 * limit, collecting its stdout and stderr. No shell is involved: argv is
 * passed to execvp as it is. */
#ifndef TUNER_RUNNER_H
#define TUNER_RUNNER_H

#include <signal.h>
#include <stddef.h>

#include "errors.h"

/* One past the highest CPU number a platform can name (cpus: 0..4095). */
#define RUNNER_MAX_CPU 4096

/* The most of a child's stdout kept (a kernel printing more is broken): out
 * holds at most this many bytes, the rest is read and dropped. */
#define RUNNER_MAX_OUT (64u << 20)

struct run_result {
	char *out;       /* stdout, NUL-terminated; free() it */
	size_t out_len;
	char *errout;    /* stderr, NUL-terminated, bounded; free() it */
	int exited;      /* exited normally, with status below */
	int status;
	int signo;       /* killed by this signal */
	int timed_out;
	int interrupted; /* stopped because *stop was set */
	int unreadable;  /* it exited 0, but what it printed could not be read (a command kernel's metric) */
	double lingered_s; /* how long its output stayed open after it exited (a process it started held it) */
	int cpu;         /* the CPU it was pinned to; -1: none (or it pins its own threads) */
	double loadavg1; /* the host's 1-minute load average as it ended; < 0: unknown */
};

/* cpu < 0: not pinned. stop: polled; when set the child is killed. Returns 0
 * when the child ran (whatever its status), or TUNE_ERR_SYSTEM. The child
 * and every descendant end with it: its process group is killed, and tune,
 * their subreaper, kills any that left the group (setsid) once it ends. */
int runner_exec(char *const argv[], int cpu, double timeout_s, volatile sig_atomic_t *stop,
		struct run_result *res, struct tune_error *err);
void run_result_free(struct run_result *res);
/* It exited with status 0, within its time and not stopped (a child that
 * exits 0 but leaves a descendant holding its output times out). */
int runner_succeeded(const struct run_result *res);

/* "exit status 2", "killed by signal 11 (Segmentation fault)", "timed out after 10 s" */
void runner_describe(const struct run_result *res, double timeout_s, char *out, size_t len);

#endif
