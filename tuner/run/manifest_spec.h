/* manifest_spec: a manifest kernel's kernel process as a declarative run
 * spec for an agent, and back. Like runspec.h for the shipped kernels, it
 * carries no path, command or flag text: the kernel's name and the hash of
 * its manifest and sources (the agent must hold the same), the variant, each
 * parameter's value by name, the list's values, runs, warm-ups, seed and
 * time limit. The agent decodes it against its own copy of the manifest:
 * every field known, every value in its parameter's range or choices. */
#ifndef TUNER_MANIFEST_SPEC_H
#define TUNER_MANIFEST_SPEC_H

#include <jansson.h>

#include "../config/manifest.h"
#include "../plan/plan.h"
#include "runspec.h"

/* The spec of the process measuring todo[0..n) (one process's trials). NULL
 * when out of memory; free() it. */
char *manifest_spec_to_json(struct trial *const *todo, size_t n, long long runs, long long warmup,
			    long long timeout_s, const char *kernel_hash);

/* What an agent runs, decoded. */
struct manifest_run {
	struct trial trials[RUNSPEC_MAX_POINTS]; /* one per list value */
	size_t n;
	long long runs, warmup, timeout_s;
	char kernel_hash[17];
};

/* The kernel named by spec o (a JSON object), checked as a name, into name. */
int manifest_spec_kernel(json_t *o, char *name, size_t len, char *why, size_t whylen);
/* Decodes o against m into run; 0, or -1 with the first problem in why. */
int manifest_spec_from_json(json_t *o, const struct kernel_manifest *m, struct manifest_run *run, char *why,
			    size_t whylen);

#endif
