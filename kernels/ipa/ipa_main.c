/* ipa benchmark: K app threads on the app CPUs each make M accelerator calls
 * with CPU work between them; a device thread on its own CPU completes them.
 * One JSON object per run: wall and CPU time, calls that polled and blocked,
 * and the mean time from completion to the caller noticing it.
 * --measure-wakeup N instead measures this host's futex wake-up latency,
 * across CPUs and on one CPU.
 *
 * Exit codes: 0 measured, 1 cannot pin or start threads, 2 bad flags,
 * 3 a completion was lost or delivered twice. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/flags.h"
#include "../common/pin.h"
#include "ipa.h"

#define IPA_MAX_APPS 64

struct ipa_options {
	uint64_t apps, calls, threshold_ns, lat_a, lat_b, work_ns, hybrid_pct, runs, warmup, seed, device_cpu,
		wakeups;
	int mode, dist;
	struct flag_list app_cpus;
	struct flag_list thresholds; /* measured interleaved: run r of every T, then run r+1 */
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

	if (pin_to_cpu(a->cpu) != 0)
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
	struct rng r = { o->seed * 1000003u + (uint64_t)a->index };
	uint32_t seq = atomic_load(&a->slot->done);

	pin_to_cpu(a->cpu);
	pthread_barrier_wait(a->start);
	a->start_ns = timing_now_ns();
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
		a->notice_ns += timing_now_ns() - atomic_load(&a->slot->completed_ns);
		if (atomic_load(&a->slot->done) != seq)
			a->bad_seq++;
	}
	a->cpu_ns = thread_cpu_ns();
	a->end_ns = timing_now_ns();
	return NULL;
}

/* One run; returns 0, 1 (threads), or 3 (a completion lost or doubled). */
static int run_once(const struct ipa_options *o, uint64_t run, int warm)
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
	printf("{\"kernel\":\"ipa\",\"mode\":\"%s\",\"threshold_ns\":%" PRIu64 ",\"dist\":\"%s\",\"lat_a_ns\":%" PRIu64
	       ",\"lat_b_ns\":%" PRIu64 ",\"work_ns\":%" PRIu64 ",\"apps\":%" PRIu64 ",\"calls\":%" PRIu64
	       ",\"run\":%" PRIu64 ",\"warmup\":%s,\"wall_ns\":%" PRIu64 ",\"cpu_ns\":%" PRIu64 ",\"polled\":%" PRIu64
	       ",\"blocked\":%" PRIu64 ",\"completions\":%" PRIu64 ",\"mean_notice_ns\":%.1f,\"checksum\":%" PRIu64
	       ",\"device_cpu\":%" PRIu64 "}\n",
	       ipa_mode_names[o->mode], o->threshold_ns, ipa_dist_names[o->dist], o->lat_a, o->lat_b, o->work_ns,
	       o->apps, o->calls, run, warm ? "true" : "false", wall, cpu, polled, blocked, done,
	       (double)notice / (double)(o->apps * o->calls), sum, o->device_cpu);
	fflush(stdout);
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

	pin_to_cpu(pp->cpu_b);
	for (uint64_t i = 1; i <= pp->n; i++) {
		uint32_t v;

		while ((v = atomic_load(&pp->ping)) != (uint32_t)i)
			ipa_futex(&pp->ping, FUTEX_WAIT_PRIVATE, v);
		pp->lat[i - 1] = timing_now_ns() - atomic_load(&pp->stamp);
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
	pin_to_cpu(cpu_a);
	for (uint64_t i = 1; i <= n; i++) {
		uint32_t v;
		struct timespec nap = { 0, 20000 }; /* let the sleeper block first */

		nanosleep(&nap, NULL);
		atomic_store(&pp.stamp, timing_now_ns());
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

int main(int argc, char **argv)
{
	struct ipa_options o;
	struct flag_spec specs[] = {
		{ "mode", FLAG_CHOICE, &o.mode, 0, 0, "how callers wait", ipa_mode_names },
		{ "threshold-ns", FLAG_U64_LIST, &o.thresholds, 0, UINT64_MAX, "ipa: poll below this predicted time; a list is measured interleaved", NULL },
		{ "apps", FLAG_U64, &o.apps, 1, IPA_MAX_APPS, "app threads", NULL },
		{ "calls", FLAG_U64, &o.calls, 1, 100000000, "accelerator calls per app", NULL },
		{ "dist", FLAG_CHOICE, &o.dist, 0, 0, "latency distribution", ipa_dist_names },
		{ "lat-a-ns", FLAG_U64, &o.lat_a, 0, 10000000000ull, "latency (fixed), or its low end", NULL },
		{ "lat-b-ns", FLAG_U64, &o.lat_b, 0, 10000000000ull, "latency's high end (uniform, log-uniform, bimodal)", NULL },
		{ "work-ns", FLAG_U64, &o.work_ns, 0, 10000000000ull, "CPU work between calls", NULL },
		{ "hybrid-pct", FLAG_U64, &o.hybrid_pct, 0, 100, "hybrid: sleep this % of the predicted time", NULL },
		{ "app-cpus", FLAG_U64_LIST, &o.app_cpus, 0, CPU_SETSIZE - 1, "CPUs the apps share", NULL },
		{ "device-cpu", FLAG_U64, &o.device_cpu, 0, CPU_SETSIZE - 1, "the device thread's CPU", NULL },
		{ "runs", FLAG_U64, &o.runs, 1, 100000, "measured runs", NULL },
		{ "warmup", FLAG_U64, &o.warmup, 0, 1000, "warm-up runs (reported, flagged)", NULL },
		{ "seed", FLAG_U64, &o.seed, 0, UINT64_MAX, "seed of the latencies", NULL },
		{ "measure-wakeup", FLAG_U64, &o.wakeups, 0, 10000000, "measure the wake-up cost over N round trips instead", NULL },
		{ NULL, FLAG_U64, NULL, 0, 0, NULL, NULL },
	};
	char err[512];
	int rc = 0;

	memset(&o, 0, sizeof(o));
	o.mode = IPA_IPA;
	o.thresholds.v[0] = 30000;
	o.thresholds.n = 1;
	o.apps = 2;
	o.calls = 2000;
	o.dist = IPA_LOGUNIFORM;
	o.lat_a = 1000;
	o.lat_b = 200000;
	o.work_ns = 20000;
	o.hybrid_pct = 50;
	o.device_cpu = 1;
	o.app_cpus.v[0] = 0;
	o.app_cpus.n = 1;
	o.runs = 5;
	o.warmup = 1;
	o.seed = 42;
	switch (flags_parse(specs, argc, argv, err, sizeof(err))) {
	case FLAGS_HELP:
		flags_usage(stdout, "ipa", specs);
		return 0;
	case FLAGS_ERROR:
		fprintf(stderr, "ipa: %s\n", err);
		return 2;
	}
	if (o.dist != IPA_FIXED && o.lat_b < o.lat_a) {
		fprintf(stderr, "ipa: option '--lat-b-ns': %" PRIu64 " is below --lat-a-ns %" PRIu64 " (give the high end)\n",
			o.lat_b, o.lat_a);
		return 2;
	}
	for (size_t i = 0; i < o.app_cpus.n; i++)
		if (o.app_cpus.v[i] == o.device_cpu) {
			fprintf(stderr, "ipa: option '--app-cpus': CPU %" PRIu64 " is the device's (give the device a CPU "
				"of its own)\n", o.device_cpu);
			return 2;
		}
	if (pin_to_cpu((int)o.app_cpus.v[0]) != 0 || pin_to_cpu((int)o.device_cpu) != 0) {
		fprintf(stderr, "ipa: cannot pin to CPUs %" PRIu64 " and %" PRIu64 " (pick CPUs this host has)\n",
			o.app_cpus.v[0], o.device_cpu);
		return 1;
	}
	if (o.wakeups) {
		double cross = wakeup_ns(o.wakeups, (int)o.app_cpus.v[0], (int)o.device_cpu);
		double same = wakeup_ns(o.wakeups, (int)o.app_cpus.v[0], (int)o.app_cpus.v[0]);

		printf("{\"kernel\":\"ipa\",\"measure\":\"wakeup\",\"round_trips\":%" PRIu64 ",\"cross_cpu_ns\":%.0f,"
		       "\"same_cpu_ns\":%.0f,\"cpus\":[%" PRIu64 ",%" PRIu64 "]}\n",
		       o.wakeups, cross, same, o.app_cpus.v[0], o.device_cpu);
		return cross < 0 || same < 0;
	}
	/* Thresholds interleaved (T1 T2 .. T1 T2 ..) so that drift hits all alike. */
	for (uint64_t r = 0; r < o.warmup + o.runs && !rc; r++)
		for (size_t t = 0; t < o.thresholds.n && !rc; t++) {
			o.threshold_ns = o.thresholds.v[t];
			rc = run_once(&o, r < o.warmup ? r : r - o.warmup, r < o.warmup);
		}
	return rc;
}
