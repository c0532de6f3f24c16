#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* ipa.h and sched.h need it for futexes and affinity */
#endif
#include <stddef.h>

#include "../kernels/chase/chase.h"
#include "../kernels/ipa/ipa.h"
#include "../kernels/sched/sched.h"
#include "kernel.h"

const struct kernel_info kernel_table[KERNEL_COUNT] = {
	[KERNEL_CHASE] = { "chase", chase_variant_names },
	[KERNEL_IPA] = { "ipa", ipa_mode_names },
	[KERNEL_SCHED] = { "sched", sched_policy_names },
};

const char *const kernel_names[] = { "chase", "ipa", "sched", NULL };
