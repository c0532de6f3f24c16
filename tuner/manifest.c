#include <dirent.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "manifest.h"
#include "paths.h"
#include "strbuf.h"

#define M(field) offsetof(struct kernel_manifest, field)
const struct conf_key manifest_keys[] = {
	{ "name", CONF_STRING, M(name), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the kernel's name, as a sweep's kernel key gives it; its folder's name" },
	{ "description", CONF_STRING, M(description), 0, 0, NULL, NULL, 0, "one line about the kernel" },
	{ "main", CONF_STRING, M(main), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_RELPATH, "the file compiled, relative to the kernels directory (its benchmark main)" },
	{ "sources", CONF_STRING_LIST, M(sources), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_RELPATH, "every file main includes, main first, relative to the kernels directory: the build cache's hash covers them" },
	{ "link_flags", CONF_STRING_LIST, M(link_flags), 0, 1024, NULL, NULL, 0, "flags after the sources, e.g. [-pthread, -lm]" },
	{ "variants", CONF_STRING_LIST, M(variants), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the variants, as stored with the trials" },
	{ "baseline", CONF_STRING, M(baseline), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the variant the others are compared with" },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL },
};
#undef M

static int listed(const struct conf_strs *l, const char *v)
{
	for (size_t i = 0; v && i < l->n; i++)
		if (!strcmp(l->v[i], v))
			return 1;
	return 0;
}

int manifest_load(const char *name, struct kernel_manifest *m, struct tune_error *err)
{
	char kdir[2048], path[4200], known[1024] = "";
	char **names = NULL;
	struct stat st;
	int n, rc;

	memset(m, 0, sizeof(*m));
	paths_kernels_dir(kdir, sizeof(kdir));
	snprintf(path, sizeof(path), "%s/%s/kernel.yaml", kdir, name);
	if (stat(path, &st) != 0) {
		size_t used = 0;

		n = manifest_names(&names);
		for (int i = 0; i < n; i++) {
			str_appendf(known, sizeof(known), &used, "%s%s", i ? ", " : "", names[i]);
			free(names[i]);
		}
		free(names);
		return tune_fail(err, TUNE_ERR_CONFIG, "kernel '%s' not found: no file '%s' (kernels there: %s; set "
				 "TUNE_KERNELS_DIR or TUNE_HOME)", name, path, known[0] ? known : "none");
	}
	if ((rc = conf_load("kernels", "kernel", path, manifest_keys, m, &m->path, err)) != 0)
		return rc;
	if (strcmp(m->name, name) != 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'name': '%s' is not its folder's name '%s' (rename one)",
				 m->path, m->name, name);
	if (!m->sources.n || strcmp(m->sources.v[0], m->main) != 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'sources': the first source must be main, '%s' (list "
				 "everything main includes after it)", m->path, m->main);
	if (!listed(&m->variants, m->baseline))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'baseline': '%s' is not one of the variants", m->path,
				 m->baseline);
	return 0;
}

void manifest_free(struct kernel_manifest *m)
{
	conf_release(manifest_keys, m);
	free(m->path);
	m->path = NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int manifest_names(char ***names)
{
	char kdir[2048], path[4200];
	DIR *d;
	struct dirent *e;
	char **v = NULL;
	int n = 0;

	*names = NULL;
	paths_kernels_dir(kdir, sizeof(kdir));
	if (!(d = opendir(kdir)))
		return -1;
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		char **nv;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/kernel.yaml", kdir, e->d_name);
		if (stat(path, &st) != 0 || !(nv = realloc(v, (size_t)(n + 1) * sizeof(*v))))
			continue;
		v = nv;
		if ((v[n] = strdup(e->d_name)) != NULL)
			n++;
	}
	closedir(d);
	if (n > 1)
		qsort(v, (size_t)n, sizeof(*v), by_name);
	*names = v;
	return n;
}
