/* tune kernels: the kernels of the kernels directory, from their manifests
 * (see manifest.h); a bad manifest is shown with its error, and exit 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "manifest.h"
#include "paths.h"

static void list(const char *label, const struct conf_strs *l, const char *mark)
{
	printf("  %-11s", label);
	for (size_t i = 0; i < l->n; i++)
		printf("%s%s%s", i ? ", " : "", l->v[i], mark && !strcmp(l->v[i], mark) ? " (baseline)" : "");
	printf("%s\n", l->n ? "" : "-");
}

int cmd_kernels(int argc, char **argv, struct tune_error *err)
{
	char kdir[2048], **names = NULL;
	int n, bad = 0;
	struct tune_error first;

	if (argc > 1)
		return tune_fail(err, TUNE_ERR_USAGE, "kernels: unexpected argument '%s' (see 'tune help kernels')",
				 argv[1]);
	paths_kernels_dir(kdir, sizeof(kdir));
	if ((n = manifest_names(&names)) < 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "kernels: cannot read the kernels directory '%s' (set "
				 "TUNE_KERNELS_DIR or TUNE_HOME)", kdir);
	printf("kernels in %s:\n", kdir);
	for (int i = 0; i < n; i++) {
		struct kernel_manifest m;
		struct tune_error merr;

		if (manifest_load(names[i], &m, &merr) != 0) {
			printf("\n%s\n  error: %s\n", names[i], merr.msg);
			if (!bad++)
				first = merr;
		} else {
			printf("\n%s  %s\n", m.name, m.description ? m.description : "");
			list("variants:", &m.variants, m.baseline);
			printf("  %-11s%s\n", "main:", m.main);
			list("sources:", &m.sources, NULL);
			list("links:", &m.link_flags, NULL);
			printf("  %-11s%s\n", "manifest:", m.path);
		}
		manifest_free(&m);
		free(names[i]);
	}
	free(names);
	if (bad)
		return tune_fail(err, TUNE_ERR_CONFIG, "%d kernel manifest%s with errors; the first: %s", bad,
				 bad == 1 ? "" : "s", first.msg);
	return 0;
}
