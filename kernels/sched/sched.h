/* sched: scheduling tasks over CPUs and emulated accelerators, the Meerkat
 * paper's policies (CO, AO, Fuse, Random, EFT) and its two ways to dispatch.
 *
 * A task costs c ns of real CPU work on a CPU, or c / speedup on one of A
 * accelerator instances, emulated by ipa.h's device thread on a CPU of its
 * own (an accelerator that "runs" takes no app CPU). A calling app may run a
 * task on its own CPU (the one it is pinned to) or on any accelerator.
 *
 * Inline dispatch (the paper's design): the calling thread takes the
 * scheduler lock, decides from each resource's predicted busy-until time and
 * its history-based estimate, releases the lock, then waits for the chosen
 * resource's lock, sleeping (a mutex) rather than spinning, and runs the task.
 * Worker dispatch (CEDR's design, the baseline): the app queues the task to a
 * scheduler thread, which decides and queues it to a worker thread per
 * resource, which runs it and wakes the app.
 *
 * Header-only; Linux (futex, affinity). Needs _GNU_SOURCE before the first
 * system header. The caller owns every struct it passes. */
#ifndef KERNELS_SCHED_SCHED_H
#define KERNELS_SCHED_SCHED_H

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tune_kernel.h"
#include "../ipa/ipa.h"

#define SCHED_MAX_APPS 64
#define SCHED_MAX_CPUS 64
#define SCHED_MAX_ACCELS 16
#define SCHED_MAX_RES (SCHED_MAX_CPUS + SCHED_MAX_ACCELS)

enum sched_policy { SCHED_CO, SCHED_AO, SCHED_FUSE, SCHED_RANDOM, SCHED_EFT, SCHED_POLICIES };
enum sched_dispatch { SCHED_INLINE, SCHED_WORKER };

static const char *const sched_policy_names[] __attribute__((unused)) = { "co", "ao", "fuse", "random", "eft",
									   NULL };
static const char *const sched_dispatch_names[] __attribute__((unused)) = { "inline", "worker", NULL };

struct sched_resource {
	pthread_mutex_t lock;   /* held while the resource runs a task: waiters sleep */
	int accel;              /* 0: a CPU, 1: an accelerator instance */
	int id;                 /* the CPU's number, or the accelerator's index */
	/* Under the scheduler lock: */
	uint64_t busy_until_ns; /* predicted finish of what it was given */
	uint64_t pending;       /* tasks given and not finished */
	double ns_per_unit;     /* history: observed ns per ns of CPU cost */
	uint64_t history;       /* tasks in the history */
	uint64_t tasks;         /* tasks it ran */
};

struct sched_system {
	pthread_mutex_t lock; /* the scheduler lock */
	struct sched_resource res[SCHED_MAX_RES];
	unsigned ncpus, naccels; /* res[0..ncpus) are CPUs, then accelerators */
	struct ipa_slot *slots;  /* one per accelerator instance */
	uint64_t speedup;
	int completion;          /* IPA_POLL, IPA_INTERRUPT or IPA_IPA */
	uint64_t threshold_ns;   /* IPA: poll below this predicted time */
};

/* The predicted time of a task of cost ns on r: its history, or the cost
 * itself before it has one (StarPU's history-based model, uncalibrated). */
static inline double sched_predict(const struct sched_resource *r, uint64_t cost_ns)
{
	return (r->history ? r->ns_per_unit : 1.0) * (double)cost_ns;
}

static inline double sched_finish(const struct sched_resource *r, uint64_t cost_ns, uint64_t now_ns)
{
	return (double)(r->busy_until_ns > now_ns ? r->busy_until_ns : now_ns) + sched_predict(r, cost_ns);
}

/* The policy's choice for a task of the app pinned to CPU resource own:
 * CO its CPU; AO the accelerator free first; Fuse an idle accelerator, else
 * its CPU; Random any of them; EFT the earliest predicted finish over its CPU
 * and every accelerator. Under the scheduler lock; does not change s. */
static inline unsigned sched_pick(const struct sched_system *s, int policy, unsigned own, uint64_t cost_ns,
				  uint64_t now_ns, struct tk_rng *rng)
{
	unsigned first = s->ncpus, best = own;

	if (policy == SCHED_CO || !s->naccels)
		return own;
	if (policy == SCHED_RANDOM) {
		uint64_t k = tk_rng_below(rng, s->naccels + 1u);

		return k == s->naccels ? own : first + (unsigned)k;
	}
	if (policy == SCHED_FUSE) {
		for (unsigned a = first; a < first + s->naccels; a++)
			if (!s->res[a].pending)
				return a;
		return own;
	}
	if (policy == SCHED_AO) {
		best = first;
		for (unsigned a = first + 1; a < first + s->naccels; a++)
			if (s->res[a].busy_until_ns < s->res[best].busy_until_ns)
				best = a;
		return best;
	}
	for (unsigned a = first; a < first + s->naccels; a++)
		if (sched_finish(&s->res[a], cost_ns, now_ns) < sched_finish(&s->res[best], cost_ns, now_ns))
			best = a;
	return best;
}

/* Books the task on r: under the scheduler lock. */
static inline void sched_book(struct sched_system *s, unsigned r, uint64_t cost_ns, uint64_t now_ns)
{
	struct sched_resource *x = &s->res[r];

	x->busy_until_ns = (uint64_t)sched_finish(x, cost_ns, now_ns);
	x->pending++;
	x->tasks++;
}

/* Runs a task of cost ns on r in the calling thread: takes r's lock (sleeping
 * while another task runs there), works or waits for the accelerator, then
 * feeds the history. Returns when it finished. */
static inline void sched_execute(struct sched_system *s, unsigned r, uint64_t cost_ns)
{
	struct sched_resource *x = &s->res[r];
	uint64_t t0, t1, took = 0;
	double predicted;

	pthread_mutex_lock(&s->lock);
	predicted = sched_predict(x, cost_ns);
	pthread_mutex_unlock(&s->lock);
	pthread_mutex_lock(&x->lock);
	t0 = tk_now_ns();
	if (!x->accel) {
		ipa_work(cost_ns);
	} else {
		struct ipa_slot *slot = &s->slots[x->id];
		uint32_t seq = atomic_load(&slot->done) + 1u;

		ipa_submit(slot, seq, cost_ns / (s->speedup ? s->speedup : 1));
		ipa_wait(slot, seq, s->completion, (uint64_t)predicted, s->threshold_ns, 0.5);
		/* The history is the device's time; noticing it is the completion's cost. */
		took = atomic_load(&slot->completed_ns) - t0;
	}
	t1 = tk_now_ns();
	pthread_mutex_unlock(&x->lock);
	pthread_mutex_lock(&s->lock);
	{
		double seen = (double)(x->accel ? took : t1 - t0) / (double)(cost_ns ? cost_ns : 1);

		x->ns_per_unit = x->history ? 0.75 * x->ns_per_unit + 0.25 * seen : seen;
		x->history++;
		/* Nothing else queued: the resource is free now, whatever was predicted. */
		if (--x->pending == 0)
			x->busy_until_ns = t1;
	}
	pthread_mutex_unlock(&s->lock);
}

/* One run's settings. */
struct sched_config {
	int policy, dispatch, completion;
	uint64_t threshold_ns, speedup, apps, tasks, cost_dist, cost_a_ns, cost_b_ns, seed;
	unsigned ncpus, naccels;
	int cpus[SCHED_MAX_CPUS]; /* the app CPUs: one CPU resource each */
	int device_cpu;           /* the accelerators' emulator */
};

/* What one run did. */
struct sched_result {
	uint64_t wall_ns, tasks_cpu, tasks_accel, completions, lost_or_doubled, checksum;
	uint64_t per_resource[SCHED_MAX_RES];
	double mean_overhead_ns, mean_decide_ns; /* per task */
};

/* A task in flight: one per app at a time. */
struct sched_request {
	uint64_t cost_ns, issue_ns, decided_ns, end_ns;
	unsigned own, res;
	_Atomic uint32_t done;
	uint32_t completions;
};

/* A bounded FIFO of requests (each app has at most one in flight). */
struct sched_queue {
	pthread_mutex_t m;
	pthread_cond_t c;
	struct sched_request *v[SCHED_MAX_APPS];
	unsigned head, n;
	int stop;
};

static inline void sched_queue_init(struct sched_queue *q)
{
	memset(q, 0, sizeof(*q));
	pthread_mutex_init(&q->m, NULL);
	pthread_cond_init(&q->c, NULL);
}

static inline void sched_queue_push(struct sched_queue *q, struct sched_request *r)
{
	pthread_mutex_lock(&q->m);
	q->v[(q->head + q->n++) % SCHED_MAX_APPS] = r;
	pthread_cond_signal(&q->c);
	pthread_mutex_unlock(&q->m);
}

/* The next request, or NULL once stopped and empty. */
static inline struct sched_request *sched_queue_pop(struct sched_queue *q)
{
	struct sched_request *r = NULL;

	pthread_mutex_lock(&q->m);
	while (!q->n && !q->stop)
		pthread_cond_wait(&q->c, &q->m);
	if (q->n) {
		r = q->v[q->head];
		q->head = (q->head + 1) % SCHED_MAX_APPS;
		q->n--;
	}
	pthread_mutex_unlock(&q->m);
	return r;
}

static inline void sched_queue_stop(struct sched_queue *q)
{
	pthread_mutex_lock(&q->m);
	q->stop = 1;
	pthread_cond_broadcast(&q->c);
	pthread_mutex_unlock(&q->m);
}

struct sched_run;

struct sched_app {
	pthread_t thread;
	struct sched_run *run;
	unsigned index, own;
	struct sched_request req;
	uint64_t overhead_ns, decide_ns, checksum, bad, start_ns, end_ns;
};

struct sched_worker {
	pthread_t thread;
	struct sched_run *run;
	unsigned res;
	int cpu;
};

struct sched_run {
	const struct sched_config *c;
	struct sched_system sys;
	struct ipa_device dev;
	pthread_barrier_t start;
	struct sched_queue submit;                /* worker dispatch: to the scheduler thread */
	struct sched_queue queues[SCHED_MAX_RES]; /* worker dispatch: to each resource's worker */
	struct tk_rng sched_rng;                     /* the scheduler thread's, for Random */
	struct sched_app apps[SCHED_MAX_APPS];
	struct sched_worker workers[SCHED_MAX_RES];
};

static inline void sched_done(struct sched_request *q)
{
	q->end_ns = tk_now_ns();
	q->completions++;
	atomic_store(&q->done, 1);
	ipa_futex(&q->done, FUTEX_WAKE_PRIVATE, 1);
}

static inline void *sched_device_main(void *p)
{
	struct sched_run *run = p;

	tk_pin(run->c->device_cpu);
	ipa_device_run(&run->dev);
	return NULL;
}

/* The CEDR scheduler thread: decides for each queued request. */
static inline void *sched_scheduler_main(void *p)
{
	struct sched_run *run = p;
	struct sched_request *q;

	tk_pin(run->c->cpus[0]);
	while ((q = sched_queue_pop(&run->submit)) != NULL) {
		uint64_t now = tk_now_ns();

		pthread_mutex_lock(&run->sys.lock);
		q->res = sched_pick(&run->sys, run->c->policy, q->own, q->cost_ns, now, &run->sched_rng);
		sched_book(&run->sys, q->res, q->cost_ns, now);
		pthread_mutex_unlock(&run->sys.lock);
		q->decided_ns = tk_now_ns();
		sched_queue_push(&run->queues[q->res], q);
	}
	return NULL;
}

/* A CEDR worker: runs what the scheduler queued to its resource. */
static inline void *sched_worker_main(void *p)
{
	struct sched_worker *w = p;
	struct sched_request *q;

	tk_pin(w->cpu);
	while ((q = sched_queue_pop(&w->run->queues[w->res])) != NULL) {
		sched_execute(&w->run->sys, w->res, q->cost_ns);
		sched_done(q);
	}
	return NULL;
}

static inline void *sched_app_main(void *p)
{
	struct sched_app *a = p;
	const struct sched_config *c = a->run->c;
	struct tk_rng costs = { c->seed * 1000003u + a->index }, choice = { c->seed * 7919u + a->index + 1u };
	struct sched_request *q = &a->req;

	tk_pin(c->cpus[a->own]);
	pthread_barrier_wait(&a->run->start);
	a->start_ns = tk_now_ns();
	for (uint64_t t = 0; t < c->tasks; t++) {
		uint64_t cost = ipa_latency(&costs, (int)c->cost_dist, c->cost_a_ns, c->cost_b_ns);
		uint32_t before = q->completions;

		cost = cost ? cost : 1;
		a->checksum += cost;
		q->cost_ns = cost;
		q->own = a->own;
		atomic_store(&q->done, 0);
		q->issue_ns = tk_now_ns();
		if (c->dispatch == SCHED_INLINE) {
			pthread_mutex_lock(&a->run->sys.lock);
			q->res = sched_pick(&a->run->sys, c->policy, a->own, cost, q->issue_ns, &choice);
			sched_book(&a->run->sys, q->res, cost, q->issue_ns);
			pthread_mutex_unlock(&a->run->sys.lock);
			q->decided_ns = tk_now_ns();
			sched_execute(&a->run->sys, q->res, cost);
			sched_done(q);
		} else {
			sched_queue_push(&a->run->submit, q);
			while (!atomic_load(&q->done))
				ipa_futex(&q->done, FUTEX_WAIT_PRIVATE, 0);
		}
		/* Not execution: deciding, queueing to the decision, and waking after. */
		a->overhead_ns += (q->decided_ns - q->issue_ns) + (tk_now_ns() - q->end_ns);
		a->decide_ns += q->decided_ns - q->issue_ns;
		a->bad += q->completions != before + 1u;
	}
	a->end_ns = tk_now_ns();
	return NULL;
}

/* One run of c: apps * tasks tasks. Returns 0, 1 (cannot start a thread or
 * allocate), or 3 (a task completed other than exactly once). */
static inline int sched_run(const struct sched_config *c, struct sched_result *out)
{
	struct sched_run *run = calloc(1, sizeof(*run));
	unsigned nres, nworkers = 0;
	pthread_t device, scheduler;
	uint64_t first = UINT64_MAX, last = 0, done = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!run || c->ncpus < 1 || c->ncpus > SCHED_MAX_CPUS || c->naccels > SCHED_MAX_ACCELS ||
	    c->apps < 1 || c->apps > SCHED_MAX_APPS) {
		free(run);
		return 1;
	}
	run->c = c;
	run->sched_rng.state = c->seed ^ 0x5c4edull;
	run->sys.ncpus = c->ncpus;
	run->sys.naccels = c->naccels;
	run->sys.speedup = c->speedup;
	run->sys.completion = c->completion;
	run->sys.threshold_ns = c->threshold_ns;
	pthread_mutex_init(&run->sys.lock, NULL);
	nres = c->ncpus + c->naccels;
	for (unsigned r = 0; r < nres; r++) {
		pthread_mutex_init(&run->sys.res[r].lock, NULL);
		run->sys.res[r].accel = r >= c->ncpus;
		run->sys.res[r].id = r < c->ncpus ? c->cpus[r] : (int)(r - c->ncpus);
		sched_queue_init(&run->queues[r]);
	}
	sched_queue_init(&run->submit);
	run->sys.slots = aligned_alloc(64, sizeof(struct ipa_slot) * (c->naccels ? c->naccels : 1));
	if (!run->sys.slots) {
		free(run);
		return 1;
	}
	memset(run->sys.slots, 0, sizeof(struct ipa_slot) * (c->naccels ? c->naccels : 1));
	run->dev.slots = run->sys.slots;
	run->dev.nslots = c->naccels;
	atomic_store(&run->dev.stop, 0);
	pthread_barrier_init(&run->start, NULL, (unsigned)c->apps + 1);
	if (pthread_create(&device, NULL, sched_device_main, run) != 0)
		rc = 1;
	if (!rc && c->dispatch == SCHED_WORKER) {
		if (pthread_create(&scheduler, NULL, sched_scheduler_main, run) != 0)
			rc = 1;
		/* A worker per resource, on the app CPUs: CPU r's on that CPU. */
		for (unsigned r = 0; r < nres && !rc; r++) {
			struct sched_worker *w = &run->workers[nworkers];

			w->run = run;
			w->res = r;
			w->cpu = c->cpus[c->ncpus ? r % c->ncpus : 0];
			if (pthread_create(&w->thread, NULL, sched_worker_main, w) != 0)
				rc = 1;
			else
				nworkers++;
		}
	}
	if (rc) {
		/* Threads that cannot start leave nothing to measure; the process exits. */
		free(run->sys.slots);
		return 1;
	}
	for (uint64_t i = 0; i < c->apps; i++) {
		struct sched_app *a = &run->apps[i];

		a->run = run;
		a->index = (unsigned)i;
		a->own = (unsigned)(c->ncpus ? i % c->ncpus : 0);
		if (pthread_create(&a->thread, NULL, sched_app_main, a) != 0)
			return 1;
	}
	pthread_barrier_wait(&run->start);
	/* The makespan from the apps' own clocks: this thread may wake late. */
	for (uint64_t i = 0; i < c->apps; i++) {
		pthread_join(run->apps[i].thread, NULL);
		first = run->apps[i].start_ns < first ? run->apps[i].start_ns : first;
		last = run->apps[i].end_ns > last ? run->apps[i].end_ns : last;
	}
	out->wall_ns = last - first;
	if (c->dispatch == SCHED_WORKER) {
		sched_queue_stop(&run->submit);
		pthread_join(scheduler, NULL);
		for (unsigned w = 0; w < nworkers; w++) {
			sched_queue_stop(&run->queues[run->workers[w].res]);
			pthread_join(run->workers[w].thread, NULL);
		}
	}
	atomic_store(&run->dev.stop, 1);
	pthread_join(device, NULL);
	for (uint64_t i = 0; i < c->apps; i++) {
		const struct sched_app *a = &run->apps[i];

		out->checksum += a->checksum;
		out->lost_or_doubled += a->bad;
		out->completions += a->req.completions;
		out->mean_overhead_ns += (double)a->overhead_ns;
		out->mean_decide_ns += (double)a->decide_ns;
	}
	for (unsigned r = 0; r < nres; r++) {
		out->per_resource[r] = run->sys.res[r].tasks;
		if (run->sys.res[r].accel)
			out->tasks_accel += run->sys.res[r].tasks;
		else
			out->tasks_cpu += run->sys.res[r].tasks;
		done += run->sys.res[r].tasks;
	}
	out->mean_overhead_ns /= (double)(c->apps * c->tasks);
	out->mean_decide_ns /= (double)(c->apps * c->tasks);
	if (out->lost_or_doubled || out->completions != c->apps * c->tasks || done != c->apps * c->tasks)
		rc = 3;
	pthread_barrier_destroy(&run->start);
	free(run->sys.slots);
	free(run);
	return rc;
}

#endif
