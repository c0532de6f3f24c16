/* runspec: one kernel process to run, declaratively: the kernel, its
 * compile-time choices and its run-time parameters, with no path, command
 * or flag text in it. Local runs and the agent turn it into the same command
 * line with runspec_args(); the orchestrator sends it to an agent as JSON,
 * which the agent decodes with runspec_from_json(), checking every field
 * against the kernel's ranges before anything is built or run. */
#ifndef TUNER_RUNSPEC_H
#define TUNER_RUNSPEC_H

#include <stddef.h>

#include "../../kernels/common/flags.h"
#include "../config/conf.h"

#define RUNSPEC_API 1
#define RUNSPEC_MAX_POINTS FLAGS_LIST_MAX
#define RUNSPEC_MAX_JSON 65536 /* bytes of one encoded spec: the agent refuses more */

struct run_spec {
	int kernel;           /* enum kernel_id */
	int variant;          /* chase: CHASE_VARIANT_*; ipa: its mode; sched: 0 */
	int hint;             /* chase: CHASE_HINT_*, -1 for none */
	long long points[RUNSPEC_MAX_POINTS]; /* chase: g; ipa: T (LLONG_MAX: always poll); sched: policies */
	size_t npoints;
	long long runs, warmup, seed, timeout_s;
	/* chase */
	long long size_mb, depth, queries;
	int hugepages;
	/* ipa and sched */
	long long apps;
	/* ipa */
	int dist;
	long long lat_a_ns, lat_b_ns, work_ns, calls;
	long long wakeups;    /* > 0: measure the wake-up cost over this many round trips instead */
	/* sched */
	int dispatch, cost_dist, completion;
	long long tasks, accels, speedup, cost_a_ns, cost_b_ns, threshold_ns; /* threshold: LLONG_MAX always polls */
};

/* Where a kernel runs on its host: the host's platform, resolved there. */
struct run_place {
	int pin;
	const struct conf_ints *cpus; /* the first pins chase; all are the app CPUs of ipa and sched */
	long long device_cpu;         /* the emulated accelerator's CPU */
};

/* A kernel's command line, with room for its values. */
struct runspec_argv {
	char *argv[64];
	int argc;
	char nums[24][32];
	int nnums;
	char lists[2][8192];
};

/* The command line of spec for binary; *cpu is where the runner pins the
 * process (-1: the kernel pins its own threads). */
void runspec_args(const struct run_spec *spec, const char *binary, const struct run_place *place,
		  struct runspec_argv *a, int *cpu);

/* spec as a JSON object (free() the text), or NULL when out of memory. */
char *runspec_to_json(const struct run_spec *spec);
/* Decodes and checks a spec; returns 0, or -1 with what is wrong in why
 * ("field 'size_mb': 0 is out of range [1, 1048576]"). Never trusts a length,
 * a name or a number it is given. */
int runspec_from_json(const char *text, size_t len, struct run_spec *spec, char *why, size_t whylen);

#endif
