/* What the tuner and the kernels each hold a copy of, because a kernel's
 * folder holds its sources whole: the seeded generator draws the same
 * stream, and the list limit of one process is the same number. */
#include <stdint.h>

#include "../../kernels/common/flags.h"
#include "../../kernels/common/rng.h"
#include "../../tuner/base/clock.h"
#include "../../tuner/base/prng.h"
#include "../../tuner/run/run.h"
#include "../check.h"

int main(void)
{
	static const uint64_t seeds[] = { 0, 1, 42, 2026, 0xffffffffffffffffull };
	uint64_t t0 = clock_now_ns();

	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		struct rng k = { seeds[s] };
		struct prng t = { seeds[s] };
		int same = 1;

		for (int i = 0; i < 1000; i++)
			same &= rng_next(&k) == prng_next(&t) && rng_below(&k, 1000u + (uint64_t)i) ==
								    prng_below(&t, 1000u + (uint64_t)i);
		CHECK(same, "seed %llu: the tuner's stream is the kernels'", (unsigned long long)seeds[s]);
	}
	CHECK(RUN_LIST_MAX == FLAGS_LIST_MAX, "the list limit: tuner %d, kernels %d", RUN_LIST_MAX, FLAGS_LIST_MAX);
	CHECK(clock_now_ns() >= t0, "the clock runs forward");
	return check_done("twins");
}
