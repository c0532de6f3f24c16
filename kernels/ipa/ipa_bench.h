/* The ipa benchmark's run, shared by the kernels measuring completion
 * policies (ipa: one policy, T as a list; ipa_hybrid: every policy in one
 * process): K app threads on the app CPUs each make M accelerator calls with
 * CPU work between them; a device thread on its own CPU completes them. A
 * run's line: wall and CPU time, calls that polled, blocked and slept, and
 * the mean time from completion to the caller noticing it.
 *
 * Header-only, for a kernel's main (after tune_kernel.h). */
#ifndef KERNELS_IPA_IPA_BENCH_H
#define KERNELS_IPA_IPA_BENCH_H

#include <inttypes.h>
#include <pthread.h>
#include <sys/prctl.h>

#include "ipa.h"

#define IPA_MAX_APPS 64

/* A run's workload and how its callers wait (mode, threshold_ns, hybrid_pct). */
struct ipa_options {
	uint64_t apps, calls, threshold_ns, lat_a, lat_b, work_ns, hybrid_pct, seed, device_cpu;
	int mode, dist;
	struct tk_list app_cpus;
	const char *kernel; /* its name, in the lines and messages */
};

struct ipa_bench_app {
	pthread_t thread;
	const struct ipa_options *o;
	struct ipa_slot *slot;
	int cpu, index;
	pthread_barrier_t *start;
	uint64_t polled, blocked, slept, notice_ns, checksum, cpu_ns, bad_seq, start_ns, end_ns;
};

struct ipa_bench_device {
	struct ipa_device *dev;
	int cpu;
};

static inline void *ipa_bench_device_main(void *p)
{
	struct ipa_bench_device *a = p;

	if (tk_pin(a->cpu) != 0)
		fprintf(stderr, "ipa: cannot pin the device to CPU %d\n", a->cpu);
	ipa_device_run(a->dev);
	return NULL;
}

static inline uint64_t ipa_bench_thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline void *ipa_bench_app_main(void *p)
{
	struct ipa_bench_app *a = p;
	const struct ipa_options *o = a->o;
	struct tk_rng r = { o->seed * 1000003u + (uint64_t)a->index };
	uint32_t seq = atomic_load(&a->slot->done);

	tk_pin(a->cpu);
	/* A hybrid's sleep ends when asked, not up to 50 us late (the default
	 * slack), as the kernel's hybrid polling sleeps on an hrtimer. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	pthread_barrier_wait(a->start);
	a->start_ns = tk_now_ns();
	for (uint64_t c = 0; c < o->calls; c++) {
		uint64_t lat = ipa_latency(&r, o->dist, o->lat_a, o->lat_b);

		a->checksum += lat;
		ipa_work(o->work_ns);
		ipa_submit(a->slot, ++seq, lat);
		/* The prediction is what the caller was told the call takes. */
		switch (ipa_wait(a->slot, seq, o->mode, lat, o->threshold_ns, (double)o->hybrid_pct / 100.0)) {
		case IPA_POLLED:
			a->polled++;
			break;
		case IPA_SLEPT:
			a->slept++;
			break;
		default:
			a->blocked++;
		}
		a->notice_ns += tk_now_ns() - atomic_load(&a->slot->completed_ns);
		if (atomic_load(&a->slot->done) != seq)
			a->bad_seq++;
	}
	a->cpu_ns = ipa_bench_thread_cpu_ns();
	a->end_ns = tk_now_ns();
	return NULL;
}

/* One run; returns 0, 1 (threads), or 3 (a completion lost or doubled). */
static inline int ipa_bench_run(const struct ipa_options *o, struct tk_run *run)
{
	struct ipa_slot *slots = aligned_alloc(64, sizeof(struct ipa_slot) * o->apps);
	struct ipa_bench_app apps[IPA_MAX_APPS];
	struct ipa_device dev;
	struct ipa_bench_device da;
	pthread_barrier_t start;
	pthread_t device;
	uint64_t first = UINT64_MAX, last = 0, wall, polled = 0, blocked = 0, slept = 0, notice = 0, sum = 0, cpu = 0, bad = 0, done = 0;
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
	if (pthread_create(&device, NULL, ipa_bench_device_main, &da) != 0) {
		free(slots);
		return 1;
	}
	for (uint64_t i = 0; i < o->apps; i++) {
		apps[i] = (struct ipa_bench_app){ .o = o, .slot = &slots[i], .cpu = (int)o->app_cpus.v[i % o->app_cpus.n],
					.index = (int)i, .start = &start };
		if (pthread_create(&apps[i].thread, NULL, ipa_bench_app_main, &apps[i]) != 0) {
			fprintf(stderr, "%s: cannot start app thread %" PRIu64 "\n", o->kernel, i);
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
		slept += apps[i].slept;
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
	tk_put_str(&run->fields, "kernel", o->kernel);
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
	tk_put_u64(&run->fields, "slept", slept);
	tk_put_u64(&run->fields, "completions", done);
	tk_put_real(&run->fields, "mean_notice_ns", (double)notice / (double)(o->apps * o->calls), 1);
	tk_put_u64(&run->fields, "device_cpu", o->device_cpu);
	if (rc == 3)
		fprintf(stderr, "%s: %" PRIu64 " completions for %" PRIu64 " calls, %" PRIu64 " out of order: a "
			"completion was lost or delivered twice\n", o->kernel, done, o->apps * o->calls, bad);
	pthread_barrier_destroy(&start);
	free(slots);
	return rc;
}

/* What the flags cannot check alone, then pinning; 0 or a TK_EXIT_ code with err. */
static inline int ipa_bench_check(const struct ipa_options *o, char *err, size_t len)
{
	if (o->dist != IPA_FIXED && o->lat_b < o->lat_a)
		return snprintf(err, len, "option '--lat-b-ns': %" PRIu64 " is below --lat-a-ns %" PRIu64 " (give the "
				"high end)", o->lat_b, o->lat_a), TK_EXIT_USAGE;
	for (size_t i = 0; i < o->app_cpus.n; i++)
		if (o->app_cpus.v[i] == o->device_cpu)
			return snprintf(err, len, "option '--app-cpus': CPU %" PRIu64 " is the device's (give the device "
					"a CPU of its own)", o->device_cpu), TK_EXIT_USAGE;
	if (tk_pin((int)o->app_cpus.v[0]) != 0 || tk_pin((int)o->device_cpu) != 0)
		return snprintf(err, len, "cannot pin to CPUs %" PRIu64 " and %" PRIu64 " (pick CPUs this host has)",
				o->app_cpus.v[0], o->device_cpu), TK_EXIT_CANNOT;
	return 0;
}

/* The workload's flags, one table for every kernel of this header. */
#define IPA_BENCH_FLAGS(o)                                                                                            \
	TK_U64_FLAG("apps", &(o).apps, 1, IPA_MAX_APPS, "app threads"),                                                \
	TK_U64_FLAG("calls", &(o).calls, 1, 100000000, "accelerator calls per app"),                                   \
	TK_CHOICE_FLAG("dist", &(o).dist, ipa_dist_names, "latency distribution"),                                     \
	TK_U64_FLAG("lat-a-ns", &(o).lat_a, 0, 10000000000ull, "latency (fixed), or its low end"),                      \
	TK_U64_FLAG("lat-b-ns", &(o).lat_b, 0, 10000000000ull, "latency's high end (uniform, log-uniform, bimodal)"),   \
	TK_U64_FLAG("work-ns", &(o).work_ns, 0, 10000000000ull, "CPU work between calls"),                              \
	TK_U64_FLAG("hybrid-pct", &(o).hybrid_pct, 0, 100, "hybrid: above the threshold, sleep this % of the "          \
		    "predicted time, then poll"),                                                                        \
	TK_LIST_FLAG("app-cpus", &(o).app_cpus, 0, CPU_SETSIZE - 1, "CPUs the apps share"),                             \
	TK_U64_FLAG("device-cpu", &(o).device_cpu, 0, CPU_SETSIZE - 1, "the device thread's CPU")

/* The defaults of the workload's flags. */
#define IPA_BENCH_DEFAULTS                                                                                            \
	.apps = 2, .calls = 2000, .dist = IPA_LOGUNIFORM, .lat_a = 1000, .lat_b = 200000, .work_ns = 20000,           \
	.hybrid_pct = 50, .device_cpu = 1, .app_cpus = TK_LIST(0)

#endif
