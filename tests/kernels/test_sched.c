/* sched: the policies' choices in constructed cases (EFT the earliest
 * predicted finish, AO never a CPU, CO never an accelerator, Fuse an idle
 * accelerator first), and every task completed exactly once under every
 * policy and both dispatch modes, with the same tasks (checksum) for all. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdlib.h>
#include <unistd.h>

#include "../../kernels/sched/sched.h"
#include "../check.h"

/* Two CPUs (0, 1) and three accelerators (2, 3, 4), no history. */
static void system_of(struct sched_system *s)
{
	memset(s, 0, sizeof(*s));
	s->ncpus = 2;
	s->naccels = 3;
	for (unsigned r = 0; r < 5; r++)
		s->res[r].accel = r >= 2;
}

static void learn(struct sched_resource *r, double ns_per_unit)
{
	r->ns_per_unit = ns_per_unit;
	r->history = 10;
}

static void choices(void)
{
	struct sched_system s;
	struct tk_rng rng = { 1 };
	const uint64_t now = 1000000, cost = 10000;

	system_of(&s);
	/* EFT: every resource free; accelerator 3 learned to be 4x faster. */
	learn(&s.res[0], 1.0);
	learn(&s.res[2], 0.5);
	learn(&s.res[3], 0.25);
	learn(&s.res[4], 0.5);
	CHECK(sched_pick(&s, SCHED_EFT, 0, cost, now, &rng) == 3, "eft: the fastest free resource");
	/* The fastest is busy for longer than the others take. */
	s.res[3].busy_until_ns = now + 20000;
	CHECK(sched_pick(&s, SCHED_EFT, 0, cost, now, &rng) == 2, "eft: a slower accelerator that finishes first");
	s.res[2].busy_until_ns = s.res[4].busy_until_ns = now + 50000;
	CHECK(sched_pick(&s, SCHED_EFT, 0, cost, now, &rng) == 0, "eft: the own CPU when it finishes first");
	CHECK(sched_pick(&s, SCHED_EFT, 1, cost, now, &rng) == 1, "eft: only the caller's own CPU is a candidate");
	/* Busy-until in the past counts as now. */
	s.res[3].busy_until_ns = 5;
	CHECK(sched_pick(&s, SCHED_EFT, 0, cost, now, &rng) == 3, "eft: an accelerator free since long ago");
	/* A tie stays on the own CPU. */
	system_of(&s);
	CHECK(sched_pick(&s, SCHED_EFT, 1, cost, now, &rng) == 1, "eft: a tie keeps the task on its CPU");

	/* CO and AO. */
	system_of(&s);
	s.res[2].busy_until_ns = now + 900;
	s.res[3].busy_until_ns = now + 300;
	s.res[4].busy_until_ns = now + 600;
	CHECK(sched_pick(&s, SCHED_CO, 1, cost, now, &rng) == 1, "co: the own CPU");
	CHECK(sched_pick(&s, SCHED_AO, 0, cost, now, &rng) == 3, "ao: the accelerator free first");
	/* Fuse: an idle accelerator, else the CPU. */
	s.res[2].pending = s.res[3].pending = 1;
	CHECK(sched_pick(&s, SCHED_FUSE, 0, cost, now, &rng) == 4, "fuse: the idle accelerator");
	s.res[4].pending = 2;
	CHECK(sched_pick(&s, SCHED_FUSE, 1, cost, now, &rng) == 1, "fuse: the CPU when every accelerator is busy");
	/* Random: the own CPU or an accelerator, each of them sometimes. */
	{
		unsigned seen[5] = { 0 };

		for (int i = 0; i < 4000; i++)
			seen[sched_pick(&s, SCHED_RANDOM, 1, cost, now, &rng)]++;
		CHECK(!seen[0] && seen[1] && seen[2] && seen[3] && seen[4], "random: own CPU %u, other CPU %u, accels %u %u %u",
		      seen[1], seen[0], seen[2], seen[3], seen[4]);
	}
	/* Booking moves busy-until by the prediction. */
	system_of(&s);
	learn(&s.res[2], 0.5);
	sched_book(&s, 2, cost, now);
	CHECK(s.res[2].busy_until_ns == now + cost / 2 && s.res[2].pending == 1 && s.res[2].tasks == 1,
	      "book: busy until now + the predicted time");
	sched_book(&s, 2, cost, now);
	CHECK(s.res[2].busy_until_ns == now + cost, "book: queued behind what it was given");
}

static void exactly_once(void)
{
	uint64_t checksum = 0;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		fprintf(stderr, "test_sched: one CPU: the device needs its own, runs skipped\n");
		return;
	}
	for (int d = SCHED_INLINE; d <= SCHED_WORKER; d++)
		for (int p = 0; p < SCHED_POLICIES; p++)
			for (int comp = IPA_POLL; comp <= IPA_IPA; comp++) {
				struct sched_config c = { .policy = p, .dispatch = d, .completion = comp,
							  .threshold_ns = 8000, .speedup = 4, .apps = 5, .tasks = 300,
							  .cost_dist = IPA_LOGUNIFORM, .cost_a_ns = 500, .cost_b_ns = 20000,
							  .seed = 3, .ncpus = 1, .naccels = 2, .cpus = { 0 }, .device_cpu = 1 };
				struct sched_result r;
				int rc = sched_run(&c, &r);

				CHECK(rc == 0, "%s %s completion %d: rc %d", sched_policy_names[p], sched_dispatch_names[d],
				      comp, rc);
				CHECK(r.completions == 1500 && r.lost_or_doubled == 0 && r.tasks_cpu + r.tasks_accel == 1500,
				      "%s %s: %llu completions, %llu not exactly once, %llu + %llu tasks",
				      sched_policy_names[p], sched_dispatch_names[d], (unsigned long long)r.completions,
				      (unsigned long long)r.lost_or_doubled, (unsigned long long)r.tasks_cpu,
				      (unsigned long long)r.tasks_accel);
				CHECK(p != SCHED_AO || r.tasks_cpu == 0, "ao ran %llu tasks on a CPU",
				      (unsigned long long)r.tasks_cpu);
				CHECK(p != SCHED_CO || r.tasks_accel == 0, "co ran %llu tasks on an accelerator",
				      (unsigned long long)r.tasks_accel);
				CHECK(r.per_resource[1] + r.per_resource[2] == r.tasks_accel, "per-resource counts add up");
				if (!checksum)
					checksum = r.checksum;
				CHECK(r.checksum == checksum, "%s %s: the same tasks for every policy",
				      sched_policy_names[p], sched_dispatch_names[d]);
				CHECK(r.wall_ns > 0 && r.mean_overhead_ns >= 0, "a makespan and an overhead");
			}
}

int main(void)
{
	choices();
	exactly_once();
	return check_done("test_sched");
}
