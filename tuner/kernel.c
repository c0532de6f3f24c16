#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* ipa.h and sched.h need it for futexes and affinity */
#endif
#include <stddef.h>

#include "../kernels/chase/chase.h"
#include "../kernels/ipa/ipa.h"
#include "../kernels/sched/sched.h"
#include "kernel.h"

static const char *const chase_sources[] = {
	"chase/chase_main.c", "chase/chase.h", "common/flags.h", "common/pin.h", "common/rng.h", "common/timing.h",
	NULL,
};
static const char *const ipa_sources[] = {
	"ipa/ipa_main.c", "ipa/ipa.h", "common/flags.h", "common/pin.h", "common/rng.h", "common/timing.h", NULL,
};
static const char *const sched_sources[] = {
	"sched/sched_main.c", "sched/sched.h", "ipa/ipa.h", "common/flags.h", "common/pin.h", "common/rng.h",
	"common/timing.h", NULL,
};
static const char *const no_flags[] = { NULL };
static const char *const ipa_link[] = { "-pthread", "-lm", NULL };

const struct kernel_info kernel_table[KERNEL_COUNT] = {
	[KERNEL_CHASE] = { "chase", "chase/chase_main.c", chase_sources, no_flags, chase_variant_names },
	[KERNEL_IPA] = { "ipa", "ipa/ipa_main.c", ipa_sources, ipa_link, ipa_mode_names },
	[KERNEL_SCHED] = { "sched", "sched/sched_main.c", sched_sources, ipa_link, sched_policy_names },
};

const char *const kernel_names[] = { "chase", "ipa", "sched", NULL };
