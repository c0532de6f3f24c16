/* ipa: a synthetic accelerator (the Meerkat paper's SA) with programmable
 * latency, and the ways a caller can wait for it: poll a completion flag,
 * block until the device wakes it (the "interrupt": a futex), IPA (poll when
 * the predicted time is under a threshold, block otherwise: Algorithm 1,
 * lines 31-37), or hybrid (poll below the threshold; above it, sleep a
 * fraction f of the predicted time, then poll: Linux's hybrid polling sleeps
 * f = 1/2 of the expected time on every call).
 *
 * A device thread, pinned to its own CPU, completes each slot's call when its
 * deadline passes: it publishes the call's sequence number in the slot's
 * done word and wakes the caller if it is blocked there. One call per slot is
 * outstanding at a time; each is completed exactly once.
 *
 * Header-only; Linux (futex). Needs _GNU_SOURCE before the first system
 * header. Ownership: the caller owns the slots and the device struct. */
#ifndef KERNELS_IPA_IPA_H
#define KERNELS_IPA_IPA_H

#include <linux/futex.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tune_protocol.h"

enum ipa_mode { IPA_POLL, IPA_INTERRUPT, IPA_IPA, IPA_HYBRID };
enum ipa_dist { IPA_FIXED, IPA_UNIFORM, IPA_LOGUNIFORM, IPA_BIMODAL };

static const char *const ipa_mode_names[] __attribute__((unused)) = { "poll", "interrupt", "ipa", "hybrid", NULL };
static const char *const ipa_dist_names[] __attribute__((unused)) = { "fixed", "uniform", "log-uniform", "bimodal",
								     NULL };

struct ipa_slot {
	_Alignas(64) _Atomic uint32_t done; /* sequence number of the last completed call */
	_Atomic uint32_t waiting;           /* the caller is blocked on done */
	_Atomic uint32_t submitted;         /* sequence number of the outstanding call */
	_Atomic uint64_t deadline_ns;       /* when the device completes it */
	_Atomic uint64_t completed_ns;      /* when the device did */
	uint64_t completions;               /* the device's count, for the exactly-once check */
};

struct ipa_device {
	struct ipa_slot *slots;
	unsigned nslots;
	_Atomic int stop;
};

static inline void ipa_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

static inline long ipa_futex(_Atomic uint32_t *word, int op, uint32_t val)
{
	return syscall(SYS_futex, (uint32_t *)word, op, val, NULL, NULL, 0);
}

/* The device loop: returns when stop is set. Completion is a release store
 * of the sequence number, then a wake-up if the caller said it sleeps; the
 * caller sets waiting before it checks done, so no wake-up is lost. */
static inline void ipa_device_run(struct ipa_device *d)
{
	while (!atomic_load_explicit(&d->stop, memory_order_relaxed)) {
		uint64_t now = tk_now_ns();

		for (unsigned i = 0; i < d->nslots; i++) {
			struct ipa_slot *s = &d->slots[i];
			uint32_t sub = atomic_load_explicit(&s->submitted, memory_order_acquire);

			/* Outstanding: submitted but not done (only this thread writes done). */
			if (sub == atomic_load_explicit(&s->done, memory_order_relaxed) ||
			    now < atomic_load_explicit(&s->deadline_ns, memory_order_relaxed))
				continue;
			atomic_store_explicit(&s->completed_ns, now, memory_order_relaxed);
			s->completions++;
			atomic_store(&s->done, sub);
			if (atomic_load(&s->waiting))
				ipa_futex(&s->done, FUTEX_WAKE_PRIVATE, 1);
		}
		ipa_cpu_relax();
	}
}

/* Submits call seq (seq != the slot's done) to finish latency_ns from now. */
static inline void ipa_submit(struct ipa_slot *s, uint32_t seq, uint64_t latency_ns)
{
	atomic_store_explicit(&s->deadline_ns, tk_now_ns() + latency_ns, memory_order_relaxed);
	atomic_store_explicit(&s->submitted, seq, memory_order_release);
}

static inline void ipa_wait_poll(struct ipa_slot *s, uint32_t seq)
{
	while (atomic_load_explicit(&s->done, memory_order_acquire) != seq)
		ipa_cpu_relax();
}

static inline void ipa_wait_block(struct ipa_slot *s, uint32_t seq)
{
	uint32_t v;

	atomic_store(&s->waiting, 1);
	while ((v = atomic_load(&s->done)) != seq)
		ipa_futex(&s->done, FUTEX_WAIT_PRIVATE, v);
	atomic_store(&s->waiting, 0);
}

/* IPA's decision: poll when the predicted time is under the threshold. */
static inline int ipa_should_poll(uint64_t predicted_ns, uint64_t threshold_ns)
{
	return predicted_ns < threshold_ns;
}

/* How a call was waited for, as ipa_wait() returns it. */
enum ipa_waited { IPA_BLOCKED, IPA_POLLED, IPA_SLEPT };

/* Waits for call seq in mode: IPA_POLLED, IPA_BLOCKED, or IPA_SLEPT (the
 * hybrid slept sleep_fraction of the predicted time, then polled). */
static inline int ipa_wait(struct ipa_slot *s, uint32_t seq, int mode, uint64_t predicted_ns, uint64_t threshold_ns,
			   double sleep_fraction)
{
	switch (mode) {
	case IPA_POLL:
		ipa_wait_poll(s, seq);
		return IPA_POLLED;
	case IPA_INTERRUPT:
		ipa_wait_block(s, seq);
		return IPA_BLOCKED;
	case IPA_IPA:
		if (ipa_should_poll(predicted_ns, threshold_ns)) {
			ipa_wait_poll(s, seq);
			return IPA_POLLED;
		}
		ipa_wait_block(s, seq);
		return IPA_BLOCKED;
	default: {
		/* The CPU is given up for the part of the wait that is surely
		 * idle, and the rest polled, so the wake-up is never paid. */
		uint64_t nap = (uint64_t)((double)predicted_ns * sleep_fraction);
		struct timespec ts = { (time_t)(nap / 1000000000u), (long)(nap % 1000000000u) };

		if (ipa_should_poll(predicted_ns, threshold_ns)) {
			ipa_wait_poll(s, seq);
			return IPA_POLLED;
		}
		if (nap)
			nanosleep(&ts, NULL);
		ipa_wait_poll(s, seq);
		return IPA_SLEPT;
	}
	}
}

/* A latency from the distribution: fixed at a; uniform in [a, b]; log-uniform
 * in [a, b]; bimodal: a or b with probability 1/2. */
static inline uint64_t ipa_latency(struct tk_rng *r, int dist, uint64_t a, uint64_t b)
{
	double u = (double)(tk_rng_next(r) >> 11) / 9007199254740992.0;

	switch (dist) {
	case IPA_UNIFORM:
		return a + (uint64_t)(u * (double)(b - a));
	case IPA_LOGUNIFORM:
		return (uint64_t)exp(log((double)(a ? a : 1)) + u * (log((double)(b ? b : 1)) - log((double)(a ? a : 1))));
	case IPA_BIMODAL:
		return u < 0.5 ? a : b;
	default:
		return a;
	}
}

/* CPU work of ns on this thread's own clock: it takes longer when the CPU is
 * shared, which is what makes blocking worth it. */
static inline uint64_t ipa_work(uint64_t ns)
{
	struct timespec t;
	uint64_t start, acc = 0x9e3779b9u;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	start = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
	for (;;) {
		for (int i = 0; i < 64; i++)
			acc = acc * 6364136223846793005ull + 1442695040888963407ull;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
		if ((uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec - start >= ns)
			return acc;
	}
}

#endif
