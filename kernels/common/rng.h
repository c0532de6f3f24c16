/* splitmix64: a small, fast, seedable generator. The same seed gives the same
 * stream on every architecture, which keeps checksums comparable. */
#ifndef KERNELS_COMMON_RNG_H
#define KERNELS_COMMON_RNG_H

#include <stdint.h>

struct rng {
	uint64_t state;
};

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) for n <= 2^32 (Lemire's multiply-shift, bias < 2^-32). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return ((rng_next(r) >> 32) * n) >> 32;
}

#endif
