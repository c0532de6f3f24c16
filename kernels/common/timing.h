/* Monotonic nanosecond clock for kernel measurements. Header-only. */
#ifndef KERNELS_COMMON_TIMING_H
#define KERNELS_COMMON_TIMING_H

#include <stdint.h>
#include <time.h>

static inline uint64_t timing_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The same clock in seconds, for time limits and ETAs. */
static inline double timing_now_s(void)
{
	return (double)timing_now_ns() / 1e9;
}

#endif
