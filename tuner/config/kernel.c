#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* ipa.h and sched.h need it for futexes and affinity */
#endif
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/chase/chase.h"
#include "../../kernels/ipa/ipa.h"
#include "../../kernels/sched/sched.h"
#include "config.h"

const struct kernel_info kernel_table[KERNEL_COUNT] = {
	[KERNEL_CHASE] = { "chase", chase_variant_names },
	[KERNEL_IPA] = { "ipa", ipa_mode_names },
	[KERNEL_SCHED] = { "sched", sched_policy_names },
};

const char *const kernel_names[] = { "chase", "ipa", "sched", NULL };

const char *kernel_choices[KERNEL_MAX_CHOICES + 1] = { "chase", "ipa", "sched", NULL };

void kernel_choices_load(void)
{
	static char **found;
	static int nfound;
	size_t n = KERNEL_COUNT;

	for (int i = 0; i < nfound; i++)
		free(found[i]);
	free(found);
	nfound = manifest_names(&found);
	for (int i = 0; i < nfound && n < KERNEL_MAX_CHOICES; i++) {
		int builtin = 0;

		for (size_t k = 0; k < KERNEL_COUNT; k++)
			builtin |= !strcmp(kernel_names[k], found[i]);
		if (!builtin)
			kernel_choices[n++] = found[i];
	}
	kernel_choices[n] = NULL;
}
