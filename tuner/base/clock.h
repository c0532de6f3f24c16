/* clock: the tuner's monotonic clock, for time limits, ETAs and the wall
 * time of runs (a kernel times itself with its own). */
#ifndef TUNER_CLOCK_H
#define TUNER_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline double clock_now_s(void)
{
	return (double)clock_now_ns() / 1e9;
}

#endif
