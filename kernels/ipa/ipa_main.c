/* ipa benchmark: one completion policy (--mode) over the workload of
 * ipa_bench.h, its threshold T a list measured interleaved run by run.
 * --measure-wakeup N instead measures this host's futex wake-up latency,
 * across CPUs and on one CPU.
 *
 * Exit codes: 0 measured, 1 cannot pin or start threads, 2 bad flags,
 * 3 a completion was lost or delivered twice. */
#include "tune_kernel.h"

#include "ipa_bench.h"

/* Futex wake-up latency: a waker on CPU a stamps the time and wakes a
 * sleeper on CPU b, which stamps when it runs; ping-pong keeps one in flight. */
struct pingpong {
	_Atomic uint32_t ping, pong;
	_Atomic uint64_t stamp;
	uint64_t n, *lat;
	int cpu_a, cpu_b;
};

static void *sleeper(void *p)
{
	struct pingpong *pp = p;

	tk_pin(pp->cpu_b);
	for (uint64_t i = 1; i <= pp->n; i++) {
		uint32_t v;

		while ((v = atomic_load(&pp->ping)) != (uint32_t)i)
			ipa_futex(&pp->ping, FUTEX_WAIT_PRIVATE, v);
		pp->lat[i - 1] = tk_now_ns() - atomic_load(&pp->stamp);
		atomic_store(&pp->pong, (uint32_t)i);
		ipa_futex(&pp->pong, FUTEX_WAKE_PRIVATE, 1);
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static double wakeup_ns(uint64_t n, int cpu_a, int cpu_b)
{
	struct pingpong pp = { .n = n, .cpu_a = cpu_a, .cpu_b = cpu_b };
	pthread_t t;
	double med;

	pp.lat = calloc(n, sizeof(*pp.lat));
	if (!pp.lat || pthread_create(&t, NULL, sleeper, &pp) != 0)
		return -1;
	tk_pin(cpu_a);
	for (uint64_t i = 1; i <= n; i++) {
		uint32_t v;
		struct timespec nap = { 0, 20000 }; /* let the sleeper block first */

		nanosleep(&nap, NULL);
		atomic_store(&pp.stamp, tk_now_ns());
		atomic_store(&pp.ping, (uint32_t)i);
		ipa_futex(&pp.ping, FUTEX_WAKE_PRIVATE, 1);
		while ((v = atomic_load(&pp.pong)) != (uint32_t)i)
			ipa_futex(&pp.pong, FUTEX_WAIT_PRIVATE, v);
	}
	pthread_join(t, NULL);
	qsort(pp.lat, n, sizeof(*pp.lat), cmp_u64);
	{
		uint64_t mid = n / 2;

		med = (double)pp.lat[mid];
	}
	free(pp.lat);
	return med;
}

static struct ipa_options o = { .mode = IPA_IPA, .kernel = "ipa", IPA_BENCH_DEFAULTS };
static struct tk_list thresholds = TK_LIST(30000); /* measured interleaved: run r of every T, then run r+1 */
static uint64_t wakeups;

/* Checks what the flags cannot alone, pins, or measures the wake-up cost. */
static int setup(void *data, const struct tk_options *opt, char *err, size_t len)
{
	int rc;

	(void)data;
	o.seed = opt->seed;
	if ((rc = ipa_bench_check(&o, err, len)) != 0)
		return rc;
	if (wakeups) {
		double cross = wakeup_ns(wakeups, (int)o.app_cpus.v[0], (int)o.device_cpu);
		double same = wakeup_ns(wakeups, (int)o.app_cpus.v[0], (int)o.app_cpus.v[0]);
		struct tk_line line = { .used = 0 };
		uint64_t cpus[2] = { o.app_cpus.v[0], o.device_cpu };

		if (cross < 0 || same < 0)
			return snprintf(err, len, "cannot start the wake-up measurement's thread"), TK_EXIT_CANNOT;
		tk_put_str(&line, "kernel", "ipa");
		tk_put_str(&line, "measure", "wakeup");
		tk_put_u64(&line, "round_trips", wakeups);
		tk_put_real(&line, "cross_cpu_ns", cross, 0);
		tk_put_real(&line, "same_cpu_ns", same, 0);
		tk_put_u64_array(&line, "cpus", cpus, 2);
		return tk_line_print(&line, "ipa") ? TK_EXIT_CANNOT : TK_DONE;
	}
	return 0;
}

static int run(void *data, struct tk_run *r)
{
	(void)data;
	o.threshold_ns = r->value;
	return ipa_bench_run(&o, r);
}

int main(int argc, char **argv)
{
	struct tk_flag flags[] = {
		TK_CHOICE_FLAG("mode", &o.mode, ipa_mode_names, "how callers wait"),
		TK_LIST_FLAG("threshold-ns", &thresholds, 0, UINT64_MAX,
			     "ipa, hybrid: poll below this predicted time; a list is measured interleaved"),
		IPA_BENCH_FLAGS(o),
		TK_U64_FLAG("measure-wakeup", &wakeups, 0, 10000000, "measure the wake-up cost over N round trips instead"),
		TK_END_FLAG,
	};
	struct tk_kernel k = { .name = "ipa", .flags = flags, .list = "threshold-ns", .metric = "wall_ns",
			       .setup = setup, .run = run };

	return tk_main(&k, argc, argv);
}
