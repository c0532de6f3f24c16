/* ipa: every completion is delivered exactly once in every mode (many calls,
 * random latencies, several callers sharing one CPU while the device runs on
 * another); IPA polls exactly when the predicted time is under the threshold
 * and blocks otherwise; the hybrid polls under it and sleeps, then polls,
 * otherwise. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <stdlib.h>

#include "../../kernels/sdk/tune_kernel.h"
#include "../../kernels/ipa/ipa.h"
#include "../check.h"

#define APPS 3
#define CALLS 3000

struct caller {
	struct ipa_slot *slot;
	int mode, index;
	uint64_t threshold, polled, expect_polled, slept, expect_slept, out_of_order;
};

static void *caller_main(void *p)
{
	struct caller *c = p;
	struct tk_rng r = { 99 + (uint64_t)c->index };
	uint32_t seq = 0;

	tk_pin(0);
	for (int i = 0; i < CALLS; i++) {
		uint64_t lat = ipa_latency(&r, IPA_LOGUNIFORM, 100, 20000);
		int how;

		ipa_submit(c->slot, ++seq, lat);
		c->expect_polled += c->mode == IPA_POLL || ((c->mode == IPA_IPA || c->mode == IPA_HYBRID) &&
							    lat < c->threshold);
		c->expect_slept += c->mode == IPA_HYBRID && lat >= c->threshold;
		how = ipa_wait(c->slot, seq, c->mode, lat, c->threshold, 0.5);
		c->polled += how == IPA_POLLED;
		c->slept += how == IPA_SLEPT;
		if (atomic_load(&c->slot->done) != seq)
			c->out_of_order++;
	}
	return NULL;
}

static void *device_main(void *p)
{
	tk_pin(1);
	ipa_device_run(p);
	return NULL;
}

int main(void)
{
	static const uint64_t thresholds[] = { 0, 5000, 1000000 };

	/* The decision itself, as a table. */
	CHECK(ipa_should_poll(999, 1000) && !ipa_should_poll(1000, 1000) && !ipa_should_poll(5, 0) &&
	      ipa_should_poll(UINT64_MAX - 1, UINT64_MAX), "poll below the threshold, block at or above it");
	for (int mode = IPA_POLL; mode <= IPA_HYBRID; mode++) {
		for (size_t ti = 0; ti < (mode == IPA_IPA || mode == IPA_HYBRID ? 3u : 1u); ti++) {
			struct ipa_slot *slots = aligned_alloc(64, sizeof(struct ipa_slot) * APPS);
			struct ipa_device dev = { slots, APPS, 0 };
			struct caller callers[APPS];
			pthread_t dt, ct[APPS];

			memset(slots, 0, sizeof(struct ipa_slot) * APPS);
			pthread_create(&dt, NULL, device_main, &dev);
			for (int a = 0; a < APPS; a++) {
				callers[a] = (struct caller){ &slots[a], mode, a, thresholds[ti], 0, 0, 0, 0, 0 };
				pthread_create(&ct[a], NULL, caller_main, &callers[a]);
			}
			for (int a = 0; a < APPS; a++)
				pthread_join(ct[a], NULL);
			atomic_store(&dev.stop, 1);
			pthread_join(dt, NULL);
			for (int a = 0; a < APPS; a++) {
				CHECK(slots[a].completions == CALLS, "mode %s: app %d got %llu completions for %d calls",
				      ipa_mode_names[mode], a, (unsigned long long)slots[a].completions, CALLS);
				CHECK(callers[a].out_of_order == 0, "mode %s: out of order", ipa_mode_names[mode]);
				CHECK(callers[a].polled == callers[a].expect_polled,
				      "mode %s threshold %llu: polled %llu, expected %llu", ipa_mode_names[mode],
				      (unsigned long long)thresholds[ti], (unsigned long long)callers[a].polled,
				      (unsigned long long)callers[a].expect_polled);
				CHECK(callers[a].slept == callers[a].expect_slept,
				      "mode %s threshold %llu: slept %llu, expected %llu", ipa_mode_names[mode],
				      (unsigned long long)thresholds[ti], (unsigned long long)callers[a].slept,
				      (unsigned long long)callers[a].expect_slept);
			}
			free(slots);
		}
	}
	return check_done("test_ipa");
}
