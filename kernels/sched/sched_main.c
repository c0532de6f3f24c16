/* sched benchmark: K apps on the app CPUs each issue M tasks, scheduled by a
 * policy over their CPU and A emulated accelerators (sched.h), dispatched
 * inline or through a scheduler thread and workers. One JSON object per run:
 * makespan, tasks per resource, mean dispatch overhead per task. A list of
 * policies is measured interleaved, run by run.
 *
 * Exit codes: 0 measured, 1 cannot pin or start threads, 2 bad flags,
 * 3 a task completed other than exactly once. */
#include "tune_kernel.h"

#include <inttypes.h>

#include "sched.h"

static const char *const completion_names[] = { "poll", "interrupt", "ipa", NULL };

static struct sched_config c = { .apps = 4, .tasks = 200, .speedup = 4, .cost_a_ns = 20000, .cost_b_ns = 100000,
				 .threshold_ns = 30000 };
static struct tk_list policies = TK_LIST(SCHED_EFT), cpus = TK_LIST(0);
static uint64_t accels = 1, device_cpu = 1;
static int dispatch = SCHED_INLINE, dist = IPA_UNIFORM, mode = IPA_IPA;

/* Checks what the flags cannot alone and pins. */
static int setup(void *data, const struct tk_options *o, char *err, size_t len)
{
	(void)data;
	c.seed = o->seed;
	if (dist != IPA_FIXED && c.cost_b_ns < c.cost_a_ns)
		return snprintf(err, len, "option '--cost-b-ns': %" PRIu64 " is below --cost-a-ns %" PRIu64 " (give the "
				"high end)", c.cost_b_ns, c.cost_a_ns), TK_EXIT_USAGE;
	for (size_t i = 0; i < cpus.n; i++) {
		if (accels && cpus.v[i] == device_cpu)
			return snprintf(err, len, "option '--app-cpus': CPU %" PRIu64 " is the accelerators' (give the "
					"device a CPU of its own)", device_cpu), TK_EXIT_USAGE;
		for (size_t j = 0; j < i; j++)
			if (cpus.v[j] == cpus.v[i])
				return snprintf(err, len, "option '--app-cpus': CPU %" PRIu64 " is listed twice",
						cpus.v[i]), TK_EXIT_USAGE;
		if (tk_pin((int)cpus.v[i]) != 0)
			return snprintf(err, len, "cannot pin to CPU %" PRIu64 " (pick CPUs this host has)", cpus.v[i]),
			       TK_EXIT_CANNOT;
		c.cpus[i] = (int)cpus.v[i];
	}
	if (accels && tk_pin((int)device_cpu) != 0)
		return snprintf(err, len, "cannot pin to CPU %" PRIu64 " (pick CPUs this host has)", device_cpu),
		       TK_EXIT_CANNOT;
	c.ncpus = (unsigned)cpus.n;
	c.naccels = (unsigned)accels;
	c.device_cpu = (int)device_cpu;
	c.dispatch = dispatch;
	c.cost_dist = (uint64_t)dist;
	c.completion = mode;
	return 0;
}

/* One run of one policy: makespan, tasks per resource, dispatch overhead. */
static int run(void *data, struct tk_run *r)
{
	struct sched_result res;
	int rc;

	(void)data;
	c.policy = (int)r->value;
	if ((rc = sched_run(&c, &res)) == 1) {
		fprintf(stderr, "sched: cannot start threads\n");
		return rc;
	}
	if (rc == 3) {
		fprintf(stderr, "sched: %" PRIu64 " completions for %" PRIu64 " tasks (%" PRIu64 " not exactly once): a "
			"task was lost or completed twice\n", res.completions, c.apps * c.tasks, res.lost_or_doubled);
		return rc;
	}
	r->metric = (double)res.wall_ns;
	r->checksum = res.checksum;
	tk_put_str(&r->fields, "kernel", "sched");
	tk_put_str(&r->fields, "dispatch", sched_dispatch_names[c.dispatch]);
	tk_put_u64(&r->fields, "apps", c.apps);
	tk_put_u64(&r->fields, "tasks", c.tasks);
	tk_put_u64(&r->fields, "accels", c.naccels);
	tk_put_u64(&r->fields, "cpus", c.ncpus);
	tk_put_u64(&r->fields, "speedup", c.speedup);
	tk_put_str(&r->fields, "cost_dist", ipa_dist_names[c.cost_dist]);
	tk_put_u64(&r->fields, "cost_a_ns", c.cost_a_ns);
	tk_put_u64(&r->fields, "cost_b_ns", c.cost_b_ns);
	tk_put_str(&r->fields, "completion", completion_names[c.completion]);
	tk_put_u64(&r->fields, "threshold_ns", c.threshold_ns);
	tk_put_u64(&r->fields, "tasks_cpu", res.tasks_cpu);
	tk_put_u64(&r->fields, "tasks_accel", res.tasks_accel);
	tk_put_u64_array(&r->fields, "per_resource", res.per_resource, c.ncpus + c.naccels);
	tk_put_real(&r->fields, "mean_overhead_ns", res.mean_overhead_ns, 1);
	tk_put_real(&r->fields, "mean_decide_ns", res.mean_decide_ns, 1);
	tk_put_u64(&r->fields, "completions", res.completions);
	tk_put_i64(&r->fields, "device_cpu", c.device_cpu);
	return 0;
}

int main(int argc, char **argv)
{
	struct tk_flag flags[] = {
		TK_CHOICES_FLAG("policy", &policies, sched_policy_names, "scheduling policies; a list is measured interleaved"),
		TK_CHOICE_FLAG("dispatch", &dispatch, sched_dispatch_names,
			       "inline (the caller decides) or worker (a scheduler thread)"),
		TK_U64_FLAG("apps", &c.apps, 1, SCHED_MAX_APPS, "app threads"),
		TK_U64_FLAG("tasks", &c.tasks, 1, 100000000, "tasks per app"),
		TK_U64_FLAG("accels", &accels, 0, SCHED_MAX_ACCELS, "accelerator instances"),
		TK_U64_FLAG("speedup", &c.speedup, 1, 1000, "how much faster an accelerator runs a task than a CPU"),
		TK_CHOICE_FLAG("cost-dist", &dist, ipa_dist_names, "distribution of a task's CPU cost"),
		TK_U64_FLAG("cost-a-ns", &c.cost_a_ns, 1, 10000000000ull, "CPU cost (fixed), or its low end"),
		TK_U64_FLAG("cost-b-ns", &c.cost_b_ns, 1, 10000000000ull, "CPU cost's high end"),
		TK_CHOICE_FLAG("completion", &mode, completion_names, "how a caller waits for an accelerator"),
		TK_U64_FLAG("threshold-ns", &c.threshold_ns, 0, UINT64_MAX, "ipa completion: poll below this predicted time"),
		TK_LIST_FLAG("app-cpus", &cpus, 0, CPU_SETSIZE - 1, "the app CPUs, one CPU resource each"),
		TK_U64_FLAG("device-cpu", &device_cpu, 0, CPU_SETSIZE - 1, "the accelerators' emulator thread's CPU"),
		TK_END_FLAG,
	};
	struct tk_kernel k = { .name = "sched", .flags = flags, .list = "policy", .metric = "wall_ns",
			       .setup = setup, .run = run };

	return tk_main(&k, argc, argv);
}
