/* Pinning the calling thread to one CPU. Header-only, Linux. */
#ifndef KERNELS_COMMON_PIN_H
#define KERNELS_COMMON_PIN_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>

/* Returns 0, or -1 with errno set (EINVAL: no such CPU in the allowed set). */
static inline int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The CPU the caller runs on now, -1 when unknown. */
static inline int pin_current_cpu(void)
{
	return sched_getcpu();
}

#endif
