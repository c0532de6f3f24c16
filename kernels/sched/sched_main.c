/* sched benchmark: K apps on the app CPUs each issue M tasks, scheduled by a
 * policy over their CPU and A emulated accelerators (sched.h), dispatched
 * inline or through a scheduler thread and workers. One JSON object per run:
 * makespan, tasks per resource, mean dispatch overhead per task. A list of
 * policies is measured interleaved, run by run.
 *
 * Exit codes: 0 measured, 1 cannot pin or start threads, 2 bad flags,
 * 3 a task completed other than exactly once. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>
#include <stdio.h>

#include "../common/flags.h"
#include "sched.h"

static const char *const completion_names[] = { "poll", "interrupt", "ipa", NULL };

static void print_run(const struct sched_config *c, const struct sched_result *r, uint64_t run, int warm)
{
	printf("{\"kernel\":\"sched\",\"policy\":\"%s\",\"dispatch\":\"%s\",\"apps\":%" PRIu64 ",\"tasks\":%" PRIu64
	       ",\"accels\":%u,\"cpus\":%u,\"speedup\":%" PRIu64 ",\"cost_dist\":\"%s\",\"cost_a_ns\":%" PRIu64
	       ",\"cost_b_ns\":%" PRIu64 ",\"completion\":\"%s\",\"threshold_ns\":%" PRIu64 ",\"run\":%" PRIu64
	       ",\"warmup\":%s,\"wall_ns\":%" PRIu64 ",\"tasks_cpu\":%" PRIu64 ",\"tasks_accel\":%" PRIu64
	       ",\"per_resource\":[",
	       sched_policy_names[c->policy], sched_dispatch_names[c->dispatch], c->apps, c->tasks, c->naccels, c->ncpus,
	       c->speedup, ipa_dist_names[c->cost_dist], c->cost_a_ns, c->cost_b_ns, completion_names[c->completion],
	       c->threshold_ns, run, warm ? "true" : "false", r->wall_ns, r->tasks_cpu, r->tasks_accel);
	for (unsigned i = 0; i < c->ncpus + c->naccels; i++)
		printf("%s%" PRIu64, i ? "," : "", r->per_resource[i]);
	printf("],\"mean_overhead_ns\":%.1f,\"mean_decide_ns\":%.1f,\"completions\":%" PRIu64 ",\"checksum\":%" PRIu64
	       ",\"device_cpu\":%d}\n",
	       r->mean_overhead_ns, r->mean_decide_ns, r->completions, r->checksum, c->device_cpu);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct sched_config c;
	struct flag_list policies, cpus;
	uint64_t accels = 1, device_cpu = 1, runs = 5, warmup = 1;
	int dispatch = SCHED_INLINE, dist = IPA_UNIFORM, mode = IPA_IPA;
	struct flag_spec specs[] = {
		{ "policy", FLAG_CHOICE_LIST, &policies, 0, 0, "scheduling policies; a list is measured interleaved", sched_policy_names },
		{ "dispatch", FLAG_CHOICE, &dispatch, 0, 0, "inline (the caller decides) or worker (a scheduler thread)", sched_dispatch_names },
		{ "apps", FLAG_U64, &c.apps, 1, SCHED_MAX_APPS, "app threads", NULL },
		{ "tasks", FLAG_U64, &c.tasks, 1, 100000000, "tasks per app", NULL },
		{ "accels", FLAG_U64, &accels, 0, SCHED_MAX_ACCELS, "accelerator instances", NULL },
		{ "speedup", FLAG_U64, &c.speedup, 1, 1000, "how much faster an accelerator runs a task than a CPU", NULL },
		{ "cost-dist", FLAG_CHOICE, &dist, 0, 0, "distribution of a task's CPU cost", ipa_dist_names },
		{ "cost-a-ns", FLAG_U64, &c.cost_a_ns, 1, 10000000000ull, "CPU cost (fixed), or its low end", NULL },
		{ "cost-b-ns", FLAG_U64, &c.cost_b_ns, 1, 10000000000ull, "CPU cost's high end", NULL },
		{ "completion", FLAG_CHOICE, &mode, 0, 0, "how a caller waits for an accelerator", completion_names },
		{ "threshold-ns", FLAG_U64, &c.threshold_ns, 0, UINT64_MAX, "ipa completion: poll below this predicted time", NULL },
		{ "app-cpus", FLAG_U64_LIST, &cpus, 0, CPU_SETSIZE - 1, "the app CPUs, one CPU resource each", NULL },
		{ "device-cpu", FLAG_U64, &device_cpu, 0, CPU_SETSIZE - 1, "the accelerators' emulator thread's CPU", NULL },
		{ "runs", FLAG_U64, &runs, 1, 100000, "measured runs", NULL },
		{ "warmup", FLAG_U64, &warmup, 0, 1000, "warm-up runs (reported, flagged)", NULL },
		{ "seed", FLAG_U64, &c.seed, 0, UINT64_MAX, "seed of the costs and of random", NULL },
		{ NULL, FLAG_U64, NULL, 0, 0, NULL, NULL },
	};
	char err[512];
	int rc = 0;

	memset(&c, 0, sizeof(c));
	memset(&policies, 0, sizeof(policies));
	memset(&cpus, 0, sizeof(cpus));
	policies.v[0] = SCHED_EFT;
	policies.n = 1;
	cpus.n = 1;
	c.apps = 4;
	c.tasks = 200;
	c.speedup = 4;
	c.cost_a_ns = 20000;
	c.cost_b_ns = 100000;
	c.threshold_ns = 30000;
	c.seed = 42;
	switch (flags_parse(specs, argc, argv, err, sizeof(err))) {
	case FLAGS_HELP:
		flags_usage(stdout, "sched", specs);
		return 0;
	case FLAGS_ERROR:
		fprintf(stderr, "sched: %s\n", err);
		return 2;
	}
	if (dist != IPA_FIXED && c.cost_b_ns < c.cost_a_ns) {
		fprintf(stderr, "sched: option '--cost-b-ns': %" PRIu64 " is below --cost-a-ns %" PRIu64 " (give the high "
			"end)\n", c.cost_b_ns, c.cost_a_ns);
		return 2;
	}
	for (size_t i = 0; i < cpus.n; i++) {
		if (accels && cpus.v[i] == device_cpu) {
			fprintf(stderr, "sched: option '--app-cpus': CPU %" PRIu64 " is the accelerators' (give the "
				"device a CPU of its own)\n", device_cpu);
			return 2;
		}
		for (size_t j = 0; j < i; j++)
			if (cpus.v[j] == cpus.v[i]) {
				fprintf(stderr, "sched: option '--app-cpus': CPU %" PRIu64 " is listed twice\n", cpus.v[i]);
				return 2;
			}
		if (pin_to_cpu((int)cpus.v[i]) != 0) {
			fprintf(stderr, "sched: cannot pin to CPU %" PRIu64 " (pick CPUs this host has)\n", cpus.v[i]);
			return 1;
		}
		c.cpus[i] = (int)cpus.v[i];
	}
	if (accels && pin_to_cpu((int)device_cpu) != 0) {
		fprintf(stderr, "sched: cannot pin to CPU %" PRIu64 " (pick CPUs this host has)\n", device_cpu);
		return 1;
	}
	c.ncpus = (unsigned)cpus.n;
	c.naccels = (unsigned)accels;
	c.device_cpu = (int)device_cpu;
	c.dispatch = dispatch;
	c.cost_dist = (uint64_t)dist;
	c.completion = mode;
	/* Policies interleaved (P1 P2 .. P1 P2 ..) so that drift hits all alike. */
	for (uint64_t r = 0; r < warmup + runs && !rc; r++)
		for (size_t p = 0; p < policies.n && !rc; p++) {
			struct sched_result res;

			c.policy = (int)policies.v[p];
			rc = sched_run(&c, &res);
			if (rc == 1) {
				fprintf(stderr, "sched: cannot start threads\n");
				break;
			}
			print_run(&c, &res, r < warmup ? r : r - warmup, r < warmup);
			if (rc == 3)
				fprintf(stderr, "sched: %" PRIu64 " completions for %" PRIu64 " tasks (%" PRIu64 " not exactly "
					"once): a task was lost or completed twice\n", res.completions, c.apps * c.tasks,
					res.lost_or_doubled);
		}
	return rc;
}
