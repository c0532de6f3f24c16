/* ipa benchmark: K app threads on the app CPUs each make M accelerator calls
 * with CPU work between them; a device thread on its own CPU completes them.
 * One JSON object per run: wall and CPU time, calls that polled and blocked,
 * and the mean time from completion to the caller noticing it.
 * --measure-wakeup N instead measures this host's futex wake-up latency,
 * across CPUs and on one CPU.
 *
 * Exit codes: 0 measured, 1 cannot pin or start threads, 2 bad flags,
 * 3 a completion was lost or delivered twice. */
#include "tune_kernel.h"

#include <inttypes.h>
#include <pthread.h>

#include "ipa.h"

#define IPA_MAX_APPS 64

struct ipa_options {
	uint64_t apps, calls, threshold_ns, lat_a, lat_b, work_ns, hybrid_pct, seed, device_cpu,
		wakeups;
	int mode, dist;
	struct tk_list app_cpus;
	struct tk_list thresholds; /* measured interleaved: run r of every T, then run r+1 */
};

struct app {
	pthread_t thread;
	const struct ipa_options *o;
	struct ipa_slot *slot;
	int cpu, index;
	pthread_barrier_t *start;
	uint64_t polled, blocked, notice_ns, checksum, cpu_ns, bad_seq, start_ns, end_ns;
};

struct device_arg {
	struct ipa_device *dev;
	int cpu;
};

static void *device_main(void *p)
{
	struct device_arg *a = p;

	if (tk_pin(a->cpu) != 0)
		fprintf(stderr, "ipa: cannot pin the device to CPU %d\n", a->cpu);
	ipa_device_run(a->dev);
	return NULL;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void *app_main(void *p)
{
	struct app *a = p;
	const struct ipa_options *o = a->o;
	struct tk_rng r = { o->seed * 1000003u + (uint64_t)a->index };
	uint32_t seq = atomic_load(&a->slot->done);

	tk_pin(a->cpu);
	pthread_barrier_wait(a->start);
	a->start_ns = tk_now_ns();
	for (uint64_t c = 0; c < o->calls; c++) {
		uint64_t lat = ipa_latency(&r, o->dist, o->lat_a, o->lat_b);

		a->checksum += lat;
		ipa_work(o->work_ns);
		ipa_submit(a->slot, ++seq, lat);
		/* The prediction is what the caller was told the call takes. */
		if (ipa_wait(a->slot, seq, o->mode, lat, o->threshold_ns, (double)o->hybrid_pct / 100.0))
			a->polled++;
		else
			a->blocked++;
		a->notice_ns += tk_now_ns() - atomic_load(&a->slot->completed_ns);
		if (atomic_load(&a->slot->done) != seq)
			a->bad_seq++;
	}
	a->cpu_ns = thread_cpu_ns();
	a->end_ns = tk_now_ns();
	return NULL;
}

/* One run; returns 0, 1 (threads), or 3 (a completion lost or doubled). */
static int run_once(const struct ipa_options *o, struct tk_run *run)
{
	struct ipa_slot *slots = aligned_alloc(64, sizeof(struct ipa_slot) * o->apps);
	struct app apps[IPA_MAX_APPS];
	struct ipa_device dev;
	struct device_arg da;
	pthread_barrier_t start;
	pthread_t device;
	uint64_t first = UINT64_MAX, last = 0, wall, polled = 0, blocked = 0, notice = 0, sum = 0, cpu = 0, bad = 0, done = 0;
	int rc = 0;

	if (!slots)
		return 1;
	memset(slots, 0, sizeof(struct ipa_slot) * o->apps);
	dev.slots = slots;
	dev.nslots = (unsigned)o->apps;
	atomic_store(&dev.stop, 0);
	da.dev = &dev;
	da.cpu = (int)o->device_cpu;
	pthread_barrier_init(&start, NULL, (unsigned)o->apps + 1);
	if (pthread_create(&device, NULL, device_main, &da) != 0) {
		free(slots);
		return 1;
	}
	for (uint64_t i = 0; i < o->apps; i++) {
		apps[i] = (struct app){ .o = o, .slot = &slots[i], .cpu = (int)o->app_cpus.v[i % o->app_cpus.n],
					.index = (int)i, .start = &start };
		if (pthread_create(&apps[i].thread, NULL, app_main, &apps[i]) != 0) {
			fprintf(stderr, "ipa: cannot start app thread %" PRIu64 "\n", i);
			exit(1);
		}
	}
	pthread_barrier_wait(&start);
	/* Wall time from the apps' own clocks: this thread may wake late. */
	for (uint64_t i = 0; i < o->apps; i++) {
		pthread_join(apps[i].thread, NULL);
		first = apps[i].start_ns < first ? apps[i].start_ns : first;
		last = apps[i].end_ns > last ? apps[i].end_ns : last;
	}
	wall = last - first;
	atomic_store(&dev.stop, 1);
	pthread_join(device, NULL);
	for (uint64_t i = 0; i < o->apps; i++) {
		polled += apps[i].polled;
		blocked += apps[i].blocked;
		notice += apps[i].notice_ns;
		sum += apps[i].checksum;
		cpu += apps[i].cpu_ns;
		bad += apps[i].bad_seq;
		done += slots[i].completions;
		if (slots[i].completions != o->calls)
			rc = 3;
	}
	if (bad)
		rc = 3;
	run->metric = (double)wall;
	run->checksum = sum;
	tk_put_str(&run->fields, "kernel", "ipa");
	tk_put_str(&run->fields, "mode", ipa_mode_names[o->mode]);
	tk_put_str(&run->fields, "dist", ipa_dist_names[o->dist]);
	tk_put_u64(&run->fields, "lat_a_ns", o->lat_a);
	tk_put_u64(&run->fields, "lat_b_ns", o->lat_b);
	tk_put_u64(&run->fields, "work_ns", o->work_ns);
	tk_put_u64(&run->fields, "apps", o->apps);
	tk_put_u64(&run->fields, "calls", o->calls);
	tk_put_u64(&run->fields, "cpu_ns", cpu);
	tk_put_u64(&run->fields, "polled", polled);
	tk_put_u64(&run->fields, "blocked", blocked);
	tk_put_u64(&run->fields, "completions", done);
	tk_put_real(&run->fields, "mean_notice_ns", (double)notice / (double)(o->apps * o->calls), 1);
	tk_put_u64(&run->fields, "device_cpu", o->device_cpu);
	if (rc == 3)
		fprintf(stderr, "ipa: %" PRIu64 " completions for %" PRIu64 " calls, %" PRIu64 " out of order: a "
			"completion was lost or delivered twice\n", done, o->apps * o->calls, bad);
	pthread_barrier_destroy(&start);
	free(slots);
	return rc;
}

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

static struct ipa_options o = {
	.mode = IPA_IPA, .thresholds = TK_LIST(30000), .apps = 2, .calls = 2000, .dist = IPA_LOGUNIFORM,
	.lat_a = 1000, .lat_b = 200000, .work_ns = 20000, .hybrid_pct = 50, .device_cpu = 1, .app_cpus = TK_LIST(0),
};

/* Checks what the flags cannot alone, pins, or measures the wake-up cost. */
static int setup(void *data, const struct tk_options *opt, char *err, size_t len)
{
	(void)data;
	o.seed = opt->seed;
	if (o.dist != IPA_FIXED && o.lat_b < o.lat_a)
		return snprintf(err, len, "option '--lat-b-ns': %" PRIu64 " is below --lat-a-ns %" PRIu64 " (give the "
				"high end)", o.lat_b, o.lat_a), TK_EXIT_USAGE;
	for (size_t i = 0; i < o.app_cpus.n; i++)
		if (o.app_cpus.v[i] == o.device_cpu)
			return snprintf(err, len, "option '--app-cpus': CPU %" PRIu64 " is the device's (give the device "
					"a CPU of its own)", o.device_cpu), TK_EXIT_USAGE;
	if (tk_pin((int)o.app_cpus.v[0]) != 0 || tk_pin((int)o.device_cpu) != 0)
		return snprintf(err, len, "cannot pin to CPUs %" PRIu64 " and %" PRIu64 " (pick CPUs this host has)",
				o.app_cpus.v[0], o.device_cpu), TK_EXIT_CANNOT;
	if (o.wakeups) {
		double cross = wakeup_ns(o.wakeups, (int)o.app_cpus.v[0], (int)o.device_cpu);
		double same = wakeup_ns(o.wakeups, (int)o.app_cpus.v[0], (int)o.app_cpus.v[0]);
		struct tk_line line = { .used = 0 };
		uint64_t cpus[2] = { o.app_cpus.v[0], o.device_cpu };

		if (cross < 0 || same < 0)
			return snprintf(err, len, "cannot start the wake-up measurement's thread"), TK_EXIT_CANNOT;
		tk_put_str(&line, "kernel", "ipa");
		tk_put_str(&line, "measure", "wakeup");
		tk_put_u64(&line, "round_trips", o.wakeups);
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
	return run_once(&o, r);
}

int main(int argc, char **argv)
{
	struct tk_flag flags[] = {
		TK_CHOICE_FLAG("mode", &o.mode, ipa_mode_names, "how callers wait"),
		TK_LIST_FLAG("threshold-ns", &o.thresholds, 0, UINT64_MAX,
			     "ipa: poll below this predicted time; a list is measured interleaved"),
		TK_U64_FLAG("apps", &o.apps, 1, IPA_MAX_APPS, "app threads"),
		TK_U64_FLAG("calls", &o.calls, 1, 100000000, "accelerator calls per app"),
		TK_CHOICE_FLAG("dist", &o.dist, ipa_dist_names, "latency distribution"),
		TK_U64_FLAG("lat-a-ns", &o.lat_a, 0, 10000000000ull, "latency (fixed), or its low end"),
		TK_U64_FLAG("lat-b-ns", &o.lat_b, 0, 10000000000ull, "latency's high end (uniform, log-uniform, bimodal)"),
		TK_U64_FLAG("work-ns", &o.work_ns, 0, 10000000000ull, "CPU work between calls"),
		TK_U64_FLAG("hybrid-pct", &o.hybrid_pct, 0, 100, "hybrid: sleep this % of the predicted time"),
		TK_LIST_FLAG("app-cpus", &o.app_cpus, 0, CPU_SETSIZE - 1, "CPUs the apps share"),
		TK_U64_FLAG("device-cpu", &o.device_cpu, 0, CPU_SETSIZE - 1, "the device thread's CPU"),
		TK_U64_FLAG("measure-wakeup", &o.wakeups, 0, 10000000, "measure the wake-up cost over N round trips instead"),
		TK_END_FLAG,
	};
	struct tk_kernel k = { .name = "ipa", .flags = flags, .list = "threshold-ns", .metric = "wall_ns",
			       .setup = setup, .run = run };

	return tk_main(&k, argc, argv);
}
