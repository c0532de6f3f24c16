#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/chase/chase.h"
#include "config.h"

const struct kernel_info kernel_table[KERNEL_COUNT] = {
	[KERNEL_CHASE] = { "chase", chase_variant_names },
};

const char *const kernel_names[] = { "chase", NULL };

const char *kernel_choices[KERNEL_MAX_CHOICES + 1] = { "chase", NULL };

/* Sweeps of several hosts are loaded on as many threads: the table is
 * written under a lock, and only when the kernels found changed, so a
 * thread reading it never sees it rewritten under it. */
void kernel_choices_load(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char **found;
	static int nfound;
	const char *next[KERNEL_MAX_CHOICES + 1];
	char **names = NULL;
	int nnames = manifest_names(&names), same;
	size_t n = KERNEL_COUNT;

	for (int i = 0; i < nnames && n < KERNEL_MAX_CHOICES; i++) {
		int builtin = 0;

		for (size_t k = 0; k < KERNEL_COUNT; k++)
			builtin |= !strcmp(kernel_names[k], names[i]);
		if (!builtin)
			next[n++] = names[i];
	}
	next[n] = NULL;
	pthread_mutex_lock(&lock);
	same = 1;
	for (size_t i = KERNEL_COUNT; same && i <= n; i++)
		same = next[i] && kernel_choices[i] ? !strcmp(next[i], kernel_choices[i]) : next[i] == kernel_choices[i];
	if (same) {
		for (int i = 0; i < nnames; i++)
			free(names[i]);
		free(names);
	} else {
		for (int i = 0; i < nfound; i++)
			free(found[i]);
		free(found);
		found = names;
		nfound = nnames;
		memcpy(&kernel_choices[KERNEL_COUNT], &next[KERNEL_COUNT], (n + 1 - KERNEL_COUNT) * sizeof(next[0]));
	}
	pthread_mutex_unlock(&lock);
}
