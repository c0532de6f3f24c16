#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

const char *kernel_choices[KERNEL_MAX_CHOICES + 1] = { NULL };

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
	size_t n = 0;

	for (int i = 0; i < nnames && n < KERNEL_MAX_CHOICES; i++)
		next[n++] = names[i];
	next[n] = NULL;
	pthread_mutex_lock(&lock);
	same = 1;
	for (size_t i = 0; same && i <= n; i++)
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
		memcpy(kernel_choices, next, (n + 1) * sizeof(next[0]));
	}
	pthread_mutex_unlock(&lock);
}
