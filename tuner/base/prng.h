/* prng: the tuner's seeded generator (splitmix64), for the random strategy,
 * rotations and resampling: the same seed gives the same choices on every
 * host, so a resumed or replayed sweep draws what it drew. It is the
 * kernels' own (kernels/common/rng.h), which test_twins checks stream for
 * stream: a kernel folder holds its sources whole, the tuner its own. */
#ifndef TUNER_PRNG_H
#define TUNER_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t state;
};

static inline uint64_t prng_next(struct prng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) for n <= 2^32 (Lemire's multiply-shift, bias < 2^-32). */
static inline uint64_t prng_below(struct prng *r, uint64_t n)
{
	return ((prng_next(r) >> 32) * n) >> 32;
}

#endif
