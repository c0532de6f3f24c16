/* tune kernels: the kernels of the kernel directories, from their manifests
 * (see manifest.h); a bad manifest is shown with its error, and exit 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "cli.h"

static void list(const char *label, const struct conf_strs *l, const char *mark)
{
	printf("  %-13s", label);
	for (size_t i = 0; i < l->n; i++)
		printf("%s%s%s", i ? ", " : "", l->v[i], mark && !strcmp(l->v[i], mark) ? " (baseline)" : "");
	printf("%s\n", l->n ? "" : "-");
}

/* "int 1..1024 = 8, --group-size, list, for interleaved" */
static void param(const struct kernel_param *p)
{
	printf("    %-14s %s", p->name, param_type_names[p->type]);
	if (p->type == PARAM_INT || p->type == PARAM_DURATION)
		printf(" %lld..%lld", p->min, p->max);
	for (size_t i = 0; i < p->choices.n; i++)
		printf("%s%s", i ? "|" : " ", p->choices.v[i]);
	if (p->def)
		printf(" = %s", p->def);
	if (p->define || p->flag)
		printf(", %s %s", p->define ? "-D" : "flag", p->define ? p->define : p->flag);
	else
		printf(", {%s}", p->name);
	printf(", %s", param_role_names[p->role]);
	for (size_t i = 0; i < p->variants.n; i++)
		printf("%s%s", i ? ", " : ", for ", p->variants.v[i]);
	if (p->inf)
		printf(", takes inf");
	for (size_t i = 0; i < p->always.n; i++)
		printf("%s%s", i ? ", " : ", always ", p->always.v[i]);
	if (p->at_least)
		printf(", at least %s", p->at_least);
	if (p->auto_from)
		printf(", auto from %s", p->auto_from);
	printf("%s%s\n", p->help ? ": " : "", p->help ? p->help : "");
}

static void show(const struct kernel_manifest *m)
{
	printf("\n%s  %s\n", m->name, m->description ? m->description : "");
	list("variants:", &m->variants, m->baseline);
	printf("  %-13s%s %s (%s is better)", "metric:", m->metric.field, m->metric.unit ? m->metric.unit : "",
	       metric_better_names[m->metric.better]);
	for (size_t i = 0; i < m->metric.per.n; i++)
		printf("%s%s", i ? " x " : ", per ", m->metric.per.v[i]);
	printf("\n  %-13s%s\n", "correctness:", m->correctness ? m->correctness : "-");
	if (m->app_cpus_flag || m->device_cpu_flag)
		printf("  %-13sits own threads pinned: the platform's CPUs (flag %s), a device CPU (flag %s)\n", "runs on:",
		       m->app_cpus_flag ? m->app_cpus_flag : "-", m->device_cpu_flag ? m->device_cpu_flag : "-");
	else
		printf("  %-13spinned to the platform's first CPU%s%s\n", "runs on:", m->cpu_flag ? ", told by flag " : "",
		       m->cpu_flag ? m->cpu_flag : "");
	printf("  %-13s\n", "parameters:");
	for (size_t i = 0; i < m->parameters.n; i++)
		param(MANIFEST_PARAM(m, i));
	/* What a sweep may combine: a trial breaking one is never made. */
	for (size_t k = 0; k < m->constraints.n; k++)
		printf("  %-13s%s\n", k ? "" : "constraints:", m->constraints.v[k].text);
	if (m->exports.n) {
		list("exports:", &m->exports, NULL);
	} else {
		/* What the header gives when the manifest names nothing. */
		printf("  %-13svariant", "exports:");
		for (size_t i = 0; i < m->parameters.n; i++)
			if (manifest_exported(m, MANIFEST_PARAM(m, i)->name, MANIFEST_PARAM(m, i)->role))
				printf(", %s", MANIFEST_PARAM(m, i)->name);
		printf(" (by default: the variant and the searched and list parameters)\n");
	}
	/* Keys of older sweeps and platforms, and what replaced each. */
	for (size_t k = 0; k < m->moved.n; k++) {
		printf("  %-13s%s: now", k ? "" : "moved:", m->moved.v[k].name);
		for (size_t v = 0; v < m->moved.v[k].n; v++)
			printf("%s %s", v ? "," : "", m->moved.v[k].values[v].text);
		printf("%s\n", k ? "" : " (a key of older sweeps and platforms: write params: { ... })");
	}
	if (m->probe.name) {
		printf("  %-13s%s, before a sweep measures: ", "probe:", m->probe.name);
		for (size_t i = 0; i < m->probe.fields.n; i++)
			printf("%s%s", i ? ", " : "", m->probe.fields.v[i]);
		printf(" stored with the host%s%s\n", m->probe.help ? ": " : "", m->probe.help ? m->probe.help : "");
	}
	if (m->views)
		printf("  %-13s%s (made in the database by its sweeps)\n", "views:", m->views);
	if (m->command.n) {
		list("command:", &m->command, NULL);
		printf("  %-13s%s\n", "version:", m->version_flag ? m->version_flag : "-");
		printf("  %-13s%s %s\n", "metric from:", m->metric.json ? "json" : "regex",
		       m->metric.json ? m->metric.json : m->metric.regex);
	} else {
		printf("  %-13s%s\n", "main:", m->main);
		list("links:", &m->link_flags, NULL);
	}
	list("sources:", &m->sources, NULL);
	printf("  %-13s%s\n", "manifest:", m->path);
}

int cmd_kernels(int argc, char **argv, struct tune_error *err)
{
	const char *dirs[PATHS_MAX_KERNEL_DIRS + 2];
	char **names = NULL;
	int n, bad = 0, rc;
	size_t nd;
	struct tune_error first;
	struct cmd_options o;

	if ((rc = cmd_parse_options("kernels", argc, argv, &o, err)) != 0)
		return rc;
	nd = paths_kernels_dirs(dirs, sizeof(dirs) / sizeof(dirs[0]));
	n = manifest_names(&names);
	printf("kernels in");
	for (size_t i = 0; i < nd; i++)
		printf(" %s%s", dirs[i], i + 1 < nd ? "," : ":\n");
	if (!n)
		return tune_fail(err, TUNE_ERR_CONFIG, "kernels: no kernel manifest in these folders (set TUNE_HOME to "
				 "tune's source tree, or give --kernels-dir)");
	for (int i = 0; i < n; i++) {
		struct kernel_manifest m;
		struct tune_error merr;

		if (manifest_load(names[i], &m, &merr) != 0) {
			printf("\n%s\n  error: %s\n", names[i], merr.msg);
			if (!bad++)
				first = merr;
		} else {
			show(&m);
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
