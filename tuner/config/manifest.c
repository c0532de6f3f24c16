#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../../store/store.h"
#include "../base/names.h"
#include "../base/strbuf.h"
#include "config.h"

const char *const param_type_names[] = { "int", "choice", "bool", "duration", NULL };
const char *const param_role_names[] = { "fixed", "context", "searched", "list", "probe", NULL };
const char *const param_knee_names[] = { "smallest", "none", NULL };
const char *const metric_better_names[] = { "lower", "higher", NULL };
const char *const metric_range_names[] = { "positive", "nonnegative", "any", NULL };

#define P(field) offsetof(struct kernel_param, field)
static const struct conf_key param_keys[] = {
	{ "name", CONF_STRING, P(name), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the parameter's name, as a sweep's params and the results give it" },
	{ "help", CONF_STRING, P(help), 0, 0, NULL, NULL, 0, "what it means" },
	{ "type", CONF_ENUM, P(type), 0, 0, param_type_names, NULL, CONF_REQUIRED, "int, choice, bool, or duration (an int in ns)" },
	{ "min", CONF_INT, P(min), LLONG_MIN + 1, LLONG_MAX - 1, NULL, NULL, 0, "int and duration: the smallest value" },
	{ "max", CONF_INT, P(max), LLONG_MIN + 1, LLONG_MAX - 1, NULL, NULL, 0, "int and duration: the largest value" },
	{ "choices", CONF_STRING_LIST, P(choices), 0, 0, NULL, NULL, CONF_NAME, "choice: the values" },
	{ "default", CONF_STRING, P(def), 0, 0, NULL, NULL, 0, "the value when a sweep gives none (default: min, the first choice, off)" },
	{ "define", CONF_STRING, P(define), 0, 0, NULL, NULL, 0, "compile time: passed as -D<define>=<value> (a choice as its index)" },
	{ "flag", CONF_STRING, P(flag), 0, 0, NULL, NULL, 0, "run time: passed as <flag> <value>; a list's values joined by commas" },
	{ "role", CONF_ENUM, P(role), 0, 0, param_role_names, NULL, 0, "fixed (default), context (decided apart), searched, list (searched in one process), or probe (set by the probe run only)" },
	{ "variants", CONF_STRING_LIST, P(variants), 0, 0, NULL, NULL, CONF_NAME, "the variants it applies to (default all)" },
	{ "knee", CONF_ENUM, P(knee), 0, 0, param_knee_names, NULL, 0, "a numeric list: smallest (default; the smallest value within tolerance of the best is chosen) or none (the fastest is)" },
	{ "memory_mb", CONF_BOOL, P(memory_mb), 0, 0, NULL, NULL, 0, "int: the value is memory in MiB the kernel takes; values over half the host's are skipped (and refused by agents)" },
	{ "inf", CONF_BOOL, P(inf), 0, 0, NULL, NULL, 0, "duration: also takes inf (never), passed as the largest 64-bit integer" },
	{ "always", CONF_STRING_LIST, P(always), 0, 0, NULL, NULL, 0, "a list: values measured whatever a sweep lists, e.g. [0, inf] as reference points" },
	{ "auto_from", CONF_STRING, P(auto_from), 0, 0, NULL, NULL, 0, "kernel.parameter: a sweep's value auto is that kernel's optimum's value on the host, else the default (sched's threshold from ipa's)" },
	{ "column", CONF_MOVED, 0, 0, 0, NULL, NULL, 0, "remove it: a parameter fills no column of the trials, its value is in their params (JSON); a view of the kernel's views: file reads it as json_extract(params, '$.<name>'), as tune's own kernels/chase/views.sql does" },
	{ "at_least", CONF_STRING, P(at_least), 0, 0, NULL, NULL, CONF_NAME, "int or duration: the parameter its value must not be below (it is a range's high end)" },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL },
};
#undef P

#define T(field) offsetof(struct kernel_metric, field)
static const struct conf_key metric_keys[] = {
	{ "field", CONF_STRING, T(field), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the field of the kernel's JSON line" },
	{ "unit", CONF_STRING, T(unit), 0, 0, NULL, NULL, CONF_NAME, "its unit, e.g. ns" },
	{ "better", CONF_ENUM, T(better), 0, 0, metric_better_names, NULL, 0, "lower (default) or higher" },
	{ "range", CONF_ENUM, T(range), 0, 0, metric_range_names, NULL, 0, "the values it may take, always finite: positive (default), nonnegative or any; a run reporting another fails" },
	{ "per", CONF_STRING_LIST, T(per), 0, 0, NULL, NULL, CONF_NAME, "fields the value is divided by, e.g. [apps, calls]" },
	{ "total", CONF_STRING, T(total), 0, 0, NULL, NULL, CONF_NAME, "the field holding a run's whole time in ns, stored with the sample" },
	{ "rate", CONF_STRING, T(rate), 0, 0, NULL, NULL, CONF_NAME, "the field holding operations per second (default: 1e9 / the metric)" },
	{ "limit", CONF_STRING, T(limit), 0, 0, NULL, NULL, CONF_NAME, "a field of the probe: the best the metric can be on the host, which results set each optimum against" },
	{ "limit_times", CONF_STRING, T(limit_times), 0, 0, NULL, NULL, CONF_NAME, "a parameter the limit is multiplied by (the probe measures one step of it; a unit is that many steps of work)" },
	{ "count", CONF_STRING, T(count), 0, 0, NULL, NULL, CONF_NAME, "an int parameter counting the metric's units in one run (ns per lookup: the lookups): a run takes the metric times it, which estimates of a sweep's time count" },
	{ "json", CONF_STRING, T(json), 0, 0, NULL, NULL, 0, "a command kernel: where the metric is in its program's JSON output, a path of keys and array indices (jobs.0.read.iops)" },
	{ "regex", CONF_STRING, T(regex), 0, 0, NULL, NULL, 0, "a command kernel: a POSIX extended regular expression over its program's output whose first group is the metric ('copied, ([0-9.]+) s')" },
	{ "output", CONF_ENUM, T(output), 0, 0, metric_output_names, NULL, 0, "a command kernel: the output the metric is read from, stdout (default) or stderr" },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL },
};
#undef T

#define R(field) offsetof(struct kernel_probe, field)
static const struct conf_key probe_keys[] = {
	{ "name", CONF_STRING, R(name), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "what it measures, as stored with the host" },
	{ "help", CONF_STRING, R(help), 0, 0, NULL, NULL, 0, "what it means" },
	{ "params", CONF_VALUE_MAP, R(params), 0, 0, NULL, NULL, 0, "parameter: value for the probe run (over the sweep's)" },
	{ "fields", CONF_STRING_LIST, R(fields), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the numbers of its output line stored with the host" },
	{ "llc", CONF_STRING, R(llc), 0, 0, NULL, NULL, CONF_NAME, "a field measuring where the last-level cache ends, MiB: a size hwloc reports 8x larger or smaller is replaced by it, and said" },
	{ "start", CONF_STRING_LIST, R(start), 0, 0, NULL, NULL, CONF_NAME, "two fields bounding where the list parameter's best should lie (chase's Little's law bounds on g): an adaptive search probes there first, going further only from an edge" },
	{ "per", CONF_STRING, R(per), 0, 0, NULL, NULL, CONF_NAME, "a parameter the probe runs once per value of, as the sweep measures them (chase's hugepages); its fields are stored as field/param=value" },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL },
};
#undef R

#define M(field) offsetof(struct kernel_manifest, field)
const struct conf_key manifest_keys[] = {
	{ "name", CONF_STRING, M(name), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the kernel's name, as a sweep's kernel key gives it; its folder's name" },
	{ "description", CONF_STRING, M(description), 0, 0, NULL, NULL, 0, "one line about the kernel" },
	{ "main", CONF_STRING, M(main), 0, 0, NULL, NULL, CONF_RELPATH, "the file compiled, relative to the kernels directory (its benchmark main); or command" },
	{ "sources", CONF_STRING_LIST, M(sources), 0, 0, NULL, NULL, CONF_RELPATH, "every file main includes, main first, relative to the kernels directory: the build cache's hash covers them (a command kernel: files it reads)" },
	{ "command", CONF_STRING_LIST, M(command), 0, 0, NULL, NULL, 0, "instead of main: a program tune does not build, as its argv ([fio, --iodepth={iodepth}, ...]; never a shell string), {name} a parameter's value or {variant}; each run is one process, its metric read from its output (metric: json or regex)" },
	{ "version_flag", CONF_STRING, M(version_flag), 0, 0, NULL, NULL, 0, "a command kernel: the flag that makes its program print its version (--version), which enters the kernel's hash: another version is another kernel" },
	{ "link_flags", CONF_STRING_LIST, M(link_flags), 0, 1024, NULL, NULL, 0, "flags after the sources, e.g. [-pthread, -lm]" },
	{ "variants", CONF_STRING_LIST, M(variants), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the variants, as stored with the trials" },
	{ "baseline", CONF_STRING, M(baseline), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the variant the others are compared with" },
	{ "baseline_as", CONF_VALUE_MAP, M(baseline_as), 0, 0, NULL, NULL, 0, "{variant: V, <list parameter>: X}: V at X behaves as the baseline (ipa at threshold_ns 0 blocks on every call), so the gain over the baseline is measured in the list's own process" },
	{ "variant_define", CONF_STRING, M(variant_define), 0, 0, NULL, NULL, 0, "the variant reaches the compiler as -D<variant_define>=<its index>" },
	{ "variant_flag", CONF_STRING, M(variant_flag), 0, 0, NULL, NULL, 0, "or the kernel at run time as <variant_flag> <its name>" },
	{ "variant_field", CONF_STRING, M(variant_field), 0, 0, NULL, NULL, CONF_NAME, "the output field naming each line's variant, for a kernel whose one process measures several variants" },
	{ "cpu_flag", CONF_STRING, M(cpu_flag), 0, 0, NULL, NULL, 0, "run time: <cpu_flag> <the CPU the runner pins the kernel to>" },
	{ "app_cpus_flag", CONF_STRING, M(app_cpus_flag), 0, 0, NULL, NULL, 0, "run time, for a kernel that pins its own threads: <app_cpus_flag> <the platform's cpus, joined by commas>" },
	{ "device_cpu_flag", CONF_STRING, M(device_cpu_flag), 0, 0, NULL, NULL, 0, "run time, for a kernel with a device thread: <device_cpu_flag> <the platform's device_cpu>; a host with one CPU does not run it" },
	{ "parameters", CONF_SECTION_LIST, M(parameters), 0, sizeof(struct kernel_param), NULL, param_keys, 0, "the parameters, each a mapping:" },
	{ "metric", CONF_SECTION, M(metric), 0, 0, NULL, metric_keys, CONF_REQUIRED, "what is measured:" },
	{ "correctness", CONF_STRING, M(correctness), 0, 0, NULL, NULL, CONF_NAME, "a field every run must report equal to the baseline's (a checksum)" },
	{ "constraints", CONF_TEXT_LIST, M(constraints), 0, 0, NULL, NULL, 0, "conditions a trial's values must meet, each a string: engine != psync or iodepth == 1, block % tile == 0 (integers, parameters, variant, a choice's values by name, on/off, + - * / %, == != < <= > >=, and, or, not, parentheses; one naming a parameter the variant does not take holds; x / 0 breaks it); trials breaking one are never measured" },
	{ "exports", CONF_STRING_LIST, M(exports), 0, 0, NULL, NULL, CONF_NAME, "what the header gives per context: parameters, or variant (default: the searched ones)" },
	{ "report", CONF_MOVED, 0, 0, 0, NULL, NULL, 0, "remove it: every kernel's report is the same: the generic tables, chart and header block, or the views its views: file declares in their place (README: Reports as data)" },
	{ "moved", CONF_VALUE_MAP, M(moved), 0, 0, NULL, NULL, 0, "keys of sweeps and platforms written before the kernel's parameters were, each to the parameters (or variant) that took its place: { sizes_mb: size_mb }; such a key then gets a message saying what to write" },
	{ "views", CONF_STRING, M(views), 0, 0, NULL, NULL, CONF_RELPATH, "a file of SQL views of its results, relative to the kernels directory: only CREATE VIEW <name>_... AS SELECT statements, made in the database when a sweep of the kernel runs" },
	{ "probe", CONF_SECTION, M(probe), 0, 0, NULL, probe_keys, 0, "a run measuring the host before a sweep, its fields stored with the host:" },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL },
};
#undef M

/* The flags every kernel takes from the tuner itself. */
static const char *const reserved_flags[] = { TK_FLAG_RUNS, TK_FLAG_WARMUP, TK_FLAG_SEED, NULL };

static int listed(const struct conf_strs *l, const char *v)
{
	for (size_t i = 0; v && i < l->n; i++)
		if (!strcmp(l->v[i], v))
			return 1;
	return 0;
}

static int is_identifier(const char *s)
{
	if (!s || !(isalpha((unsigned char)*s) || *s == '_') || strlen(s) > 64)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

static int is_flag(const char *s)
{
	if (!s || strncmp(s, "--", 2) != 0 || !isalnum((unsigned char)s[2]) || strlen(s) > 64)
		return 0;
	for (s += 2; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-')
			return 0;
	return 1;
}

int manifest_variant(const struct kernel_manifest *m, const char *name)
{
	for (size_t i = 0; name && i < m->variants.n; i++)
		if (!strcmp(m->variants.v[i], name))
			return (int)i;
	return -1;
}

const struct kernel_param *manifest_param(const struct kernel_manifest *m, const char *name)
{
	for (size_t i = 0; i < m->parameters.n; i++)
		if (!strcmp(MANIFEST_PARAM(m, i)->name, name))
			return MANIFEST_PARAM(m, i);
	return NULL;
}

const struct kernel_param *manifest_list_param(const struct kernel_manifest *m)
{
	for (size_t i = 0; i < m->parameters.n; i++)
		if (MANIFEST_PARAM(m, i)->role == ROLE_LIST)
			return MANIFEST_PARAM(m, i);
	return NULL;
}

int manifest_exported(const struct kernel_manifest *m, const char *name, int role)
{
	if (!m->exports.n)
		return !strcmp(name, "variant") || role == ROLE_SEARCHED || role == ROLE_LIST;
	return listed(&m->exports, name);
}

int manifest_param_applies(const struct kernel_manifest *m, const struct kernel_param *p, size_t v)
{
	return !p->variants.n || (v < m->variants.n && listed(&p->variants, m->variants.v[v]));
}

/* The flags saying where a kernel runs: each a flag of its own, taken by
 * no parameter, the variant or another of them. */
static int check_place_flags(const struct kernel_manifest *m, struct tune_error *err)
{
	const char *keys[] = { "cpu_flag", "app_cpus_flag", "device_cpu_flag" };
	const char *flags[] = { m->cpu_flag, m->app_cpus_flag, m->device_cpu_flag };

	for (size_t k = 0; k < 3; k++) {
		const char *f = flags[k], *taken = NULL;

		if (!f)
			continue;
		if (!is_flag(f) || tune_name_index(reserved_flags, f) >= 0)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key '%s': '%.64s' is not a flag of its own (write "
					 "--lower-case-words; --runs, --warmup and --seed are the tuner's)", m->path,
					 keys[k], f);
		for (size_t j = 0; j < k; j++)
			if (flags[j] && !strcmp(flags[j], f))
				taken = keys[j];
		if (m->variant_flag && !strcmp(m->variant_flag, f))
			taken = "variant_flag";
		for (size_t i = 0; !taken && i < m->parameters.n; i++)
			if (MANIFEST_PARAM(m, i)->flag && !strcmp(MANIFEST_PARAM(m, i)->flag, f))
				taken = MANIFEST_PARAM(m, i)->name;
		if (taken)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key '%s': '%.64s' is also %s's flag (give each its "
					 "own)", m->path, keys[k], f, taken);
	}
	return 0;
}

/* One parameter against its kind and against those before it. */
static int check_param(const struct kernel_manifest *m, size_t i, struct tune_error *err)
{
	struct kernel_param *p = MANIFEST_PARAM(m, i);
	char why[512];
	long long v;

	if (!strcmp(p->name, "variant"))
		return conf_fail_at(err, m->path, p->at, "parameter 'variant': the name is the variants' own (rename it)");
	for (size_t j = 0; j < i; j++) {
		const struct kernel_param *q = MANIFEST_PARAM(m, j);

		if (!strcmp(q->name, p->name))
			return conf_fail_at(err, m->path, p->at, "parameter '%s' is declared twice (first on line %zu; "
					    "keep one)", p->name, q->at.line);
		if ((p->flag && q->flag && !strcmp(p->flag, q->flag)) ||
		    (p->define && q->define && !strcmp(p->define, q->define)))
			return conf_fail_at(err, m->path, p->at, "parameter '%s': its %s is also parameter '%s''s (give "
					    "each its own)", p->name, p->flag ? "flag" : "define", q->name);
		if (p->role == ROLE_LIST && q->role == ROLE_LIST)
			return conf_fail_at(err, m->path, p->at, "parameter '%s': '%s' is already the list parameter "
					    "(one kernel process measures one list)", p->name, q->name);
	}
	/* A command kernel's parameter may reach its program as {name} alone. */
	if (!p->define == !p->flag && !(m->command.n && !p->define && command_uses(m, p->name)))
		return conf_fail_at(err, m->path, p->at, "parameter '%s': give it either 'define' (compile time) or "
				    "'flag' (run time)%s", p->name, m->command.n ? ", or use it as {name} in command" : "");
	if (p->define && !is_identifier(p->define))
		return conf_fail_at(err, m->path, p->at, "parameter '%s': define '%.64s' is not a C identifier (letters, "
				    "digits, '_', at most 64)", p->name, p->define);
	if (p->flag && (!is_flag(p->flag) || tune_name_index(reserved_flags, p->flag) >= 0))
		return conf_fail_at(err, m->path, p->at, "parameter '%s': flag '%.64s' is not a flag of its own (write "
				    "--lower-case-words; --runs, --warmup and --seed are the tuner's)", p->name, p->flag);
	if (p->role == ROLE_LIST && !p->flag && !m->command.n)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': a list is measured in one process, so it "
				    "needs a 'flag', not a 'define'", p->name);
	if (p->role == ROLE_PROBE && !p->flag)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': the probe runs the sweep's build, so a probe "
				    "parameter needs a 'flag', not a 'define'", p->name);
	if (p->role == ROLE_LIST && p->type != PARAM_INT && p->type != PARAM_DURATION && p->type != PARAM_CHOICE)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': a list is an int, duration or choice", p->name);
	if ((p->type == PARAM_INT || p->type == PARAM_DURATION) && (p->min > p->max || (!p->min && !p->max)))
		return conf_fail_at(err, m->path, p->at, "parameter '%s': give its range with 'min' and 'max' (min <= "
				    "max)", p->name);
	if (p->memory_mb && p->type != PARAM_INT)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': memory_mb is for an int (MiB)", p->name);
	if (p->type == PARAM_CHOICE && !p->choices.n)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': a choice needs 'choices'", p->name);
	if (p->type != PARAM_CHOICE && p->choices.n)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': 'choices' is for a choice (type: choice)",
				    p->name);
	if (p->role == ROLE_CONTEXT && p->variants.n)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': a context applies to every variant (remove "
				    "'variants', or make it searched)", p->name);
	for (size_t k = 0; k < p->variants.n; k++)
		if (!listed(&m->variants, p->variants.v[k]))
			return conf_fail_at(err, m->path, p->at, "parameter '%s': variant '%s' is not one of the "
					    "kernel's variants", p->name, p->variants.v[k]);
	if (p->def && manifest_param_value(p, p->def, &v, why, sizeof(why)) != 0)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': default %s", p->name, why);
	if (p->inf && p->type != PARAM_DURATION)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': inf is for a duration", p->name);
	if (p->auto_from && (p->type == PARAM_CHOICE || p->type == PARAM_BOOL || !strchr(p->auto_from, '.') ||
			     names_check(p->auto_from, why, sizeof(why)) != 0))
		return conf_fail_at(err, m->path, p->at, "parameter '%s': auto_from '%.64s' is not kernel.parameter "
				    "of an int or duration", p->name, p->auto_from);
	if (p->always.n && p->role != ROLE_LIST)
		return conf_fail_at(err, m->path, p->at, "parameter '%s': 'always' is for the list parameter (role: "
				    "list)", p->name);
	for (size_t k = 0; k < p->always.n; k++)
		if (manifest_param_value(p, p->always.v[k], &v, why, sizeof(why)) != 0)
			return conf_fail_at(err, m->path, p->at, "parameter '%s': always: %s", p->name, why);
	return 0;
}

/* at_least names another numeric parameter, declared before it. */
static int check_at_least(const struct kernel_manifest *m, const struct kernel_param *p, struct tune_error *err)
{
	const struct kernel_param *low = p->at_least ? manifest_param(m, p->at_least) : NULL;

	if (!p->at_least)
		return 0;
	if (!low || low >= p || (low->type != PARAM_INT && low->type != PARAM_DURATION) ||
	    (p->type != PARAM_INT && p->type != PARAM_DURATION))
		return conf_fail_at(err, m->path, p->at, "parameter '%s': at_least '%s' is not a numeric parameter "
				    "declared before it", p->name, p->at_least);
	return 0;
}

/* baseline_as: a variant other than the baseline, and one value of the
 * list parameter. Fills *variant and *point when given. */
static int baseline_as(const struct kernel_manifest *m, int *variant, long long *point, struct tune_error *err)
{
	const struct kernel_param *list = manifest_list_param(m);
	int have_variant = 0, have_point = 0;
	char why[512];

	for (size_t i = 0; i < m->baseline_as.n; i++) {
		const struct conf_entry *e = &m->baseline_as.v[i];

		if (e->n != 1)
			return conf_fail_at(err, m->path, e->at, "key 'baseline_as': '%s' takes one value", e->name);
		if (!strcmp(e->name, "variant")) {
			*variant = manifest_variant(m, e->values[0].text);
			if (*variant < 0 || !strcmp(e->values[0].text, m->baseline))
				return conf_fail_at(err, m->path, e->values[0].at, "key 'baseline_as': variant '%.64s' is not "
						    "a variant other than the baseline", e->values[0].text);
			have_variant = 1;
		} else if (list && !strcmp(e->name, list->name)) {
			if (manifest_param_value(list, e->values[0].text, point, why, sizeof(why)) != 0)
				return conf_fail_at(err, m->path, e->values[0].at, "key 'baseline_as': parameter '%s': %s",
						    e->name, why);
			have_point = 1;
		} else {
			return conf_fail_at(err, m->path, e->at, "key 'baseline_as': '%.64s' is not 'variant' or the list "
					    "parameter%s%s", e->name, list ? " " : " (the kernel has none)", list ? list->name : "");
		}
	}
	if (m->baseline_as.n && !list)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'baseline_as': the kernel has no list parameter for it to "
				 "give a value of (remove it)", m->path);
	if (m->baseline_as.n && (!have_variant || !have_point))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'baseline_as': give 'variant' and '%s'", m->path,
				 list->name);
	return 0;
}

int manifest_baseline_as(const struct kernel_manifest *m, int *variant, long long *point)
{
	struct tune_error err;

	*variant = -1;
	*point = 0;
	if (!m->baseline_as.n || baseline_as(m, variant, point, &err) != 0) {
		*variant = -1;
		return 0;
	}
	return 1;
}

/* The probe's params are parameters with a value each, its fields names. */
static int check_probe(const struct kernel_manifest *m, struct tune_error *err)
{
	char why[512];
	long long v;

	for (size_t i = 0; m->probe.name && i < m->probe.params.n; i++) {
		const struct conf_entry *e = &m->probe.params.v[i];
		const struct kernel_param *p = manifest_param(m, e->name);

		if (!p || e->n != 1)
			return conf_fail_at(err, m->path, e->at, "key 'probe.params': '%s' %s", e->name,
					    !p ? "is not a parameter of the kernel" : "takes one value");
		if (manifest_param_value(p, e->values[0].text, &v, why, sizeof(why)) != 0)
			return conf_fail_at(err, m->path, e->values[0].at, "key 'probe.params': parameter '%s': %s",
					    e->name, why);
	}
	if (m->probe.per) {
		const struct kernel_param *p = manifest_param(m, m->probe.per);

		if (!p || p->role == ROLE_PROBE || p->memory_mb)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'probe.per': '%s' is not a parameter a sweep sets "
					 "(nor a working set, which the probe's params fix)", m->path, m->probe.per);
		for (size_t i = 0; i < m->probe.params.n; i++)
			if (!strcmp(m->probe.params.v[i].name, m->probe.per))
				return conf_fail_at(err, m->path, m->probe.params.v[i].at, "key 'probe.params': '%s' is "
						    "the probe's 'per' parameter, which takes the sweep's values: remove "
						    "it from params", m->probe.per);
	}
	if (m->probe.start.n && (m->probe.start.n != 2 || !listed(&m->probe.fields, m->probe.start.v[0]) ||
				 !listed(&m->probe.fields, m->probe.start.v[1]) || !manifest_list_param(m)))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'probe.start': give two of the probe's fields, the low "
				 "and high bound of the list parameter's best%s", m->path,
				 manifest_list_param(m) ? "" : " (the kernel has no list parameter)");
	if (m->probe.llc && !listed(&m->probe.fields, m->probe.llc))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'probe.llc': '%s' is not one of the probe's fields", m->path,
				 m->probe.llc);
	if (m->metric.limit && (!m->probe.name || !listed(&m->probe.fields, m->metric.limit)))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'metric.limit': '%s' is not one of the probe's fields "
				 "(list it in probe.fields, or remove the limit)", m->path, m->metric.limit);
	if (m->metric.limit_times && !manifest_param(m, m->metric.limit_times))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'metric.limit_times': '%s' is not a parameter of the "
				 "kernel", m->path, m->metric.limit_times);
	if (m->metric.count && (!manifest_param(m, m->metric.count) ||
				manifest_param(m, m->metric.count)->type != PARAM_INT))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'metric.count': '%s' is not an int parameter of the "
				 "kernel (name the parameter counting the metric's units in a run, or remove the key)",
				 m->path, m->metric.count);
	return 0;
}

/* One process measures every variant: they share one command line. */
static int check_variant_list(const struct kernel_manifest *m, struct tune_error *err)
{
	if (!m->variant_flag)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'variant_field': one process measures several variants "
				 "only when they reach it at run time (give 'variant_flag', not 'variant_define')", m->path);
	for (size_t i = 0; i < m->parameters.n; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, i);

		if (p->role == ROLE_LIST)
			return conf_fail_at(err, m->path, p->at, "parameter '%s': with 'variant_field' the variants are "
					    "the list one process measures (make it searched)", p->name);
		if (p->variants.n)
			return conf_fail_at(err, m->path, p->at, "parameter '%s': with 'variant_field' every parameter "
					    "applies to every variant (one process runs them all; drop 'variants')",
					    p->name);
	}
	return 0;
}

static int check_manifest(const struct kernel_manifest *m, const char *name, struct tune_error *err)
{
	int rc;

	if (strcmp(m->name, name) != 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'name': '%s' is not its folder's name '%s' (rename one)",
				 m->path, m->name, name);
	if (store_kernel_name_reserved(m->name))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'name': '%s' is reserved: its views would be named like "
				 "tune's own %s (rename the kernel and its folder)", m->path, m->name,
				 store_kernel_name_reserved(m->name));
	if ((rc = manifest_check_command(m, err)) != 0)
		return rc;
	if (!m->command.n && (!m->sources.n || strcmp(m->sources.v[0], m->main) != 0))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'sources': the first source must be main, '%s' (list "
				 "everything main includes after it; paths are relative to the folder holding the kernel's "
				 "folder: %s/main.c)", m->path, m->main, m->name);
	if (!listed(&m->variants, m->baseline))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'baseline': '%s' is not one of the variants", m->path,
				 m->baseline);
	if (m->variant_define && m->variant_flag)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: keys 'variant_define' and 'variant_flag': give one", m->path);
	if (m->variant_define && !is_identifier(m->variant_define))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'variant_define': '%.64s' is not a C identifier", m->path,
				 m->variant_define);
	if (m->variant_flag && (!is_flag(m->variant_flag) || tune_name_index(reserved_flags, m->variant_flag) >= 0))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'variant_flag': '%.64s' is not a flag of its own (write "
				 "--lower-case-words)", m->path, m->variant_flag);
	for (size_t i = 0; i < m->parameters.n; i++)
		if ((rc = check_param(m, i, err)) != 0 || (rc = check_at_least(m, MANIFEST_PARAM(m, i), err)) != 0)
			return rc;
	if ((rc = check_probe(m, err)) != 0 || (rc = check_place_flags(m, err)) != 0 ||
	    (rc = manifest_check_moved(m, err)) != 0)
		return rc;
	{
		int variant;
		long long point;

		if ((rc = baseline_as(m, &variant, &point, err)) != 0)
			return rc;
	}
	if (m->variant_field && (rc = check_variant_list(m, err)) != 0)
		return rc;
	for (size_t i = 0; i < m->exports.n; i++)
		if (strcmp(m->exports.v[i], "variant") != 0 && !manifest_param(m, m->exports.v[i]))
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'exports': '%s' is not a parameter (or variant)",
					 m->path, m->exports.v[i]);
	return 0;
}

/* The checks, then the constraints parsed against the parameters checked. */
static int finish(struct kernel_manifest *m, const char *name, struct tune_error *err)
{
	int rc = check_manifest(m, name, err);

	return rc ? rc : constraints_compile(m, err);
}

/* The first kernel directory holding <name>/kernel.yaml, into path and dir. */
static int find_manifest(const char *name, char *path, size_t len, char *dir, size_t dlen)
{
	const char *dirs[PATHS_MAX_KERNEL_DIRS + 2];
	size_t n = paths_kernels_dirs(dirs, sizeof(dirs) / sizeof(dirs[0]));
	struct stat st;

	for (size_t i = 0; i < n; i++) {
		snprintf(path, len, "%s/%s/kernel.yaml", dirs[i], name);
		snprintf(dir, dlen, "%s", dirs[i]);
		if (stat(path, &st) == 0)
			return 0;
	}
	return -1;
}

int manifest_load(const char *name, struct kernel_manifest *m, struct tune_error *err)
{
	char path[4200], dir[4096], known[1024] = "", where[2048] = "";
	const char *dirs[PATHS_MAX_KERNEL_DIRS + 2];
	char **names = NULL;
	int n;

	memset(m, 0, sizeof(*m));
	if (find_manifest(name, path, sizeof(path), dir, sizeof(dir)) != 0) {
		size_t used = 0, wused = 0, nd = paths_kernels_dirs(dirs, sizeof(dirs) / sizeof(dirs[0]));

		n = manifest_names(&names);
		for (int i = 0; i < n; i++) {
			str_appendf(known, sizeof(known), &used, "%s%s", i ? ", " : "", names[i]);
			free(names[i]);
		}
		free(names);
		for (size_t i = 0; i < nd; i++)
			str_appendf(where, sizeof(where), &wused, "%s%s", i ? ", " : "", dirs[i]);
		return tune_fail(err, TUNE_ERR_CONFIG, "kernel '%s' not found: no %s/kernel.yaml in %s (kernels there: "
				 "%s; add a folder with --kernels-dir, a platform's kernels_dir or TUNE_KERNELS_DIR)",
				 name, name, where, known[0] ? known : "none");
	}
	return manifest_load_in(dir, name, m, err);
}

int manifest_load_in(const char *dir, const char *name, struct kernel_manifest *m, struct tune_error *err)
{
	char path[4200];
	int rc;

	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "%s/%s/kernel.yaml", dir, name);
	if (!(m->dir = strdup(dir)))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if ((rc = conf_load("kernels", "kernel", path, manifest_keys, m, NULL, &m->path, err)) != 0)
		return rc;
	return finish(m, name, err);
}

int manifest_decode(const char *path, const struct ynode *root, const char *name, struct kernel_manifest *m,
		    struct tune_error *err)
{
	int rc;

	memset(m, 0, sizeof(*m));
	if (!(m->path = strdup(path)))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if ((rc = conf_decode(path, root, manifest_keys, m, "kernel", err)) != 0)
		return rc;
	return finish(m, name, err);
}

void manifest_free(struct kernel_manifest *m)
{
	constraints_free(m);
	conf_release(manifest_keys, m);
	free(m->path);
	free(m->dir);
	m->path = m->dir = NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int manifest_names(char ***names)
{
	const char *dirs[PATHS_MAX_KERNEL_DIRS + 2];

	return manifest_names_in(dirs, paths_kernels_dirs(dirs, sizeof(dirs) / sizeof(dirs[0])), names);
}

int manifest_names_in(const char *const *dirs, size_t nd, char ***names)
{
	char path[4200];
	char **v = NULL;
	int n = 0;

	*names = NULL;
	for (size_t k = 0; k < nd; k++) {
		DIR *d = opendir(dirs[k]);
		struct dirent *e;

		while (d && (e = readdir(d)) != NULL) {
			struct stat st;
			char **nv;
			int seen = 0;

			if (e->d_name[0] == '.')
				continue;
			for (int i = 0; i < n && !seen; i++)
				seen = !strcmp(v[i], e->d_name);
			snprintf(path, sizeof(path), "%s/%s/kernel.yaml", dirs[k], e->d_name);
			if (seen || stat(path, &st) != 0 || !(nv = realloc(v, (size_t)(n + 1) * sizeof(*v))))
				continue;
			v = nv;
			if ((v[n] = strdup(e->d_name)) != NULL)
				n++;
		}
		if (d)
			closedir(d);
	}
	if (n > 1)
		qsort(v, (size_t)n, sizeof(*v), by_name);
	*names = v;
	return n;
}
