#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "config.h"

const char *const sweep_strategy_names[] = { "grid", "random", "adaptive", "joint", NULL };

#define Q(field) offsetof(struct sweep_quick, field)
static const struct conf_key quick_keys[] = {
	{ "runs", CONF_INT, Q(runs), 1, 100000, NULL, NULL, 0, "measured runs under --quick" },
	{ "warmup", CONF_INT, Q(warmup), 0, 1000, NULL, NULL, 0, "warm-up runs under --quick" },
	{ "max_runs", CONF_INT, Q(max_runs), 1, 100000, NULL, NULL, 0, "max_runs under --quick" },
	{ "params", CONF_VALUE_MAP, Q(params), 0, 0, NULL, NULL, 0, "a manifest kernel's parameters under --quick" },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL },
};
#undef Q

#define S(field) offsetof(struct sweep, field)
const struct conf_key sweep_keys[] = {
	{ "name", CONF_STRING, S(name), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the sweep's name, as stored" },
	{ "description", CONF_STRING, S(description), 0, 0, NULL, NULL, 0, "what the sweep answers" },
	{ "kernel", CONF_ENUM, S(kernel), 0, 0, kernel_choices, NULL, CONF_REQUIRED, "kernel to measure: a shipped one or any with a manifest in the kernel directories (see 'tune kernels')" },
	{ "params", CONF_VALUE_MAP, S(params), 0, 0, NULL, NULL, 0, "the kernel's parameters and variant: name: value or [values] (default: the platform's params of the same name, else the manifest's default; every variant)" },
	{ "strategy", CONF_ENUM, S(strategy), 0, 0, sweep_strategy_names, NULL, 0, "search strategy (default grid)" },
	{ "variants", CONF_MOVED, 0, 0, 0, NULL, NULL, 0, "the variants are given in params: write params: { variant: [...] } (see 'tune kernels')" },
	{ "runs", CONF_INT, S(runs), 1, 100000, NULL, NULL, 0, "measured runs per trial (default 5)" },
	{ "warmup", CONF_INT, S(warmup), 0, 1000, NULL, NULL, 0, "warm-up runs per trial (default 2)" },
	{ "seed", CONF_INT, S(seed), 0, 1LL << 62, NULL, NULL, 0, "seed of the cycle and the queries (default 42)" },
	{ "timeout_s", CONF_INT, S(timeout_s), 1, 86400, NULL, NULL, 0, "time limit of one kernel process (default 600)" },
	{ "max_runs", CONF_INT, S(max_runs), 1, 100000, NULL, NULL, 0, "measure a batch again until each trial is settled within or outside tolerance_pct of the best (paired, 95%), up to this many runs (default: runs)" },
	{ "ci_target_pct", CONF_INT, S(ci_target_pct), 1, 100, NULL, NULL, 0, "settled too: a ratio to the best (a lone trial: its median) known to this % at 95% (default 2)" },
	{ "max_trials", CONF_INT, S(max_trials), 0, 1000000, NULL, NULL, 0, "budget of search trials per sweep; 0 = none" },
	{ "time_limit_s", CONF_INT, S(time_limit_s), 0, 30LL * 86400, NULL, NULL, 0, "budget of time per sweep; 0 = none" },
	{ "list_min", CONF_INT, S(list_min), 1, 1 << 20, NULL, NULL, 0, "adaptive and joint: the smallest value of the kernel's list parameter (default 1; within its range)" },
	{ "list_max", CONF_INT, S(list_max), 1, 1 << 20, NULL, NULL, 0, "adaptive and joint: the largest (default 1024; a larger one is taken as its range's end)" },
	{ "g_min", CONF_MOVED, 0, 0, 0, NULL, NULL, 0, "the range is the list parameter's, whatever its name: write list_min: ..." },
	{ "g_max", CONF_MOVED, 0, 0, 0, NULL, NULL, 0, "the range is the list parameter's, whatever its name: write list_max: ..." },
	{ "tolerance_pct", CONF_INT, S(tolerance_pct), 0, 50, NULL, NULL, 0, "the knee: the smallest value of the list parameter within this % of the best (default 2)" },
	{ "final_top", CONF_INT, S(final_top), 0, 16, NULL, NULL, 0, "top candidates re-measured side by side, with every other whose interval reaches the plateau (16 at most), before an optimum is recorded (default 3)" },
	{ "record_optima", CONF_BOOL, S(record_optima), 0, 0, NULL, NULL, 0, "decide and record optima (default true)" },
	{ "quick", CONF_SECTION, S(quick), 0, 0, NULL, quick_keys, 0, "overrides applied by --quick" },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL },
};
#undef S

/* A sweep's parameter its kernel does not have: what its manifest says
 * took its place, or the nearest name, or what it has (a probe's
 * parameters aside: no sweep sets them). */
static int unknown_param(const struct sweep *s, const struct conf_entry *e, struct tune_error *err)
{
	const struct kernel_manifest *m = s->manifest;
	const char *names[66], *suggestion;
	char known[1024], moved[600];
	size_t used = 0, n = 0;

	if (manifest_moved_explain(m, e->name, "params", moved, sizeof(moved)))
		return conf_fail_at(err, s->path, e->at, "key 'params': '%s' is no longer read: %s", e->name, moved);
	known[0] = '\0';
	for (size_t k = 0; k < m->parameters.n; k++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, k);

		if (p->role == ROLE_PROBE)
			continue;
		str_appendf(known, sizeof(known), &used, " %s", p->name);
		if (n < 64)
			names[n++] = p->name;
	}
	names[n++] = "variant";
	names[n] = NULL;
	if ((suggestion = tune_suggest(e->name, names)))
		return conf_fail_at(err, s->path, e->at, "key 'params': kernel '%s' has no parameter '%s' (did you mean "
				    "'%s'?)", m->name, e->name, suggestion);
	return conf_fail_at(err, s->path, e->at, "key 'params': kernel '%s' has no parameter '%s' (it has:%s, and "
			    "variant)", m->name, e->name, known);
}

/* The entries of params checked against the manifest into values (one list
 * per parameter, in the manifest's order; those not given left empty) and
 * variants. Every error names the file, line and column. */
static int resolve_params(const struct sweep *s, const struct conf_entries *params, struct conf_ints *values,
			  struct conf_ints *variants, struct tune_error *err)
{
	const struct kernel_manifest *m = s->manifest;

	for (size_t i = 0; i < params->n; i++) {
		const struct conf_entry *e = &params->v[i];
		const struct kernel_param *p = manifest_param(m, e->name);
		size_t pi = p ? (size_t)(p - MANIFEST_PARAM(m, 0)) : 0;
		int is_variant = !strcmp(e->name, "variant");

		if (!p && !is_variant)
			return unknown_param(s, e, err);
		if (p && p->role == ROLE_PROBE)
			return conf_fail_at(err, s->path, e->at, "key 'params': '%s' of kernel '%s' is set by its probe run "
					    "only, never by a sweep (remove it; its role in %s is probe)", e->name, m->name,
					    m->path);
		if (p && e->n > 1 && p->role == ROLE_FIXED)
			return conf_fail_at(err, s->path, e->at, "key 'params': '%s' is a fixed parameter of kernel '%s': "
					    "give one value (its role in %s is fixed)", e->name, m->name, m->path);
		for (size_t j = 0; j < e->n; j++) {
			const struct conf_value *v = &e->values[j];
			char why[512];
			long long x = -1;

			if (is_variant) {
				const char *suggestion = conf_strs_suggest(&m->variants, v->text);

				if ((x = manifest_variant(m, v->text)) < 0)
					return conf_fail_at(err, s->path, v->at, "key 'params': '%s' is not a variant of "
							    "kernel '%s' (%s%s%s)", v->text, m->name,
							    suggestion ? "did you mean '" : "see 'tune kernels'", suggestion ? suggestion : "",
							    suggestion ? "'?" : "");
			} else if (manifest_param_value(p, v->text, &x, why, sizeof(why)) != 0) {
				return conf_fail_at(err, s->path, v->at, "key 'params': parameter '%s': %s", e->name, why);
			}
			if (conf_ints_push(is_variant ? variants : &values[pi], x))
				return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		}
	}
	return 0;
}

/* An adaptive search (and the joint one) walks a numeric list parameter,
 * lower metric better: over every value from list_min to list_max within its
 * range unless the sweep lists them, ascending. */
static int adaptive_list(struct sweep *s, struct tune_error *err)
{
	const struct kernel_manifest *m = s->manifest;
	const struct kernel_param *list = manifest_list_param(m);
	size_t li = list ? (size_t)(list - MANIFEST_PARAM(m, 0)) : 0;
	struct conf_ints *v[2] = { list ? &s->values[li] : NULL, list ? &s->quick_values[li] : NULL };

	/* The joint search measures such a list whole in each process. */
	if (s->strategy == STRATEGY_JOINT && (!list || list->type == PARAM_CHOICE || m->metric.better != BETTER_LOWER))
		return 0;
	if (!list || list->type == PARAM_CHOICE || m->metric.better != BETTER_LOWER)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'strategy': adaptive searches a numeric list parameter "
				 "whose metric is better lower; kernel '%s' has %s (use grid or random)", s->path, m->name,
				 !list ? "no list parameter" : list->type == PARAM_CHOICE ? "a list of choices"
				 : "a metric better higher");
	for (long long x = s->list_min > list->min ? s->list_min : list->min, every = !v[0]->n;
	     every && x <= s->list_max && x <= list->max; x++)
		if (conf_ints_push(v[0], x))
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	conf_ints_sort(v[0]);
	conf_ints_sort(v[1]);
	return 0;
}

/* Where the sweep gives parameter name (line 0 when it does not). */
static struct conf_where given_at(const struct sweep *s, const char *name)
{
	struct conf_where none = { 0, 0 };

	for (size_t i = 0; i < s->params.n; i++)
		if (!strcmp(s->params.v[i].name, name))
			return s->params.v[i].at;
	return none;
}

/* The values a parameter always has (a list's reference points, ascending
 * with the others), and every value at least its at_least parameter's. */
static int bound_values(struct sweep *s, struct tune_error *err)
{
	const struct kernel_manifest *m = s->manifest;

	for (size_t i = 0; i < m->parameters.n; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, i);
		const struct kernel_param *low = p->at_least ? manifest_param(m, p->at_least) : NULL;
		struct conf_ints *lists[2] = { &s->values[i], &s->quick_values[i] };

		for (size_t l = 0; l < 2 && p->always.n; l++) {
			for (size_t k = 0; k < p->always.n && lists[l]->n; k++) {
				long long x;
				char why[256];

				if (manifest_param_value(p, p->always.v[k], &x, why, sizeof(why)) == 0 &&
				    !conf_ints_contains(lists[l], x) && conf_ints_push(lists[l], x))
					return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
			}
			conf_ints_sort(lists[l]);
		}
		for (size_t a = 0; low && a < s->values[i].n; a++) {
			const struct conf_ints *lv = &s->values[low - MANIFEST_PARAM(m, 0)];

			for (size_t b = 0; b < lv->n; b++)
				if (s->values[i].v[a] < lv->v[b])
					return conf_fail_at(err, s->path, given_at(s, p->name), "key 'params': parameter '%s': "
							    "%lld is below %s %lld (give the high end)", p->name,
							    s->values[i].v[a], low->name, lv->v[b]);
		}
	}
	return 0;
}

/* A manifest kernel's sweep: its manifest, and its values resolved. */
static int load_manifest_sweep(struct sweep *s, struct tune_error *err)
{
	size_t np;
	int rc;

	if (!(s->manifest = calloc(1, sizeof(*s->manifest))))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if ((rc = manifest_load(kernel_choices[s->kernel], s->manifest, err)) != 0)
		return rc;
	np = s->manifest->parameters.n ? s->manifest->parameters.n : 1;
	if (!(s->values = calloc(np, sizeof(*s->values))) || !(s->quick_values = calloc(np, sizeof(*s->values))) ||
	    !(s->defaulted = calloc(np, sizeof(*s->defaulted))))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if ((rc = resolve_params(s, &s->params, s->values, &s->kvariants, err)) != 0 ||
	    (rc = resolve_params(s, &s->quick.params, s->quick_values, &s->quick_kvariants, err)) != 0)
		return rc;
	if ((s->strategy == STRATEGY_ADAPTIVE || s->strategy == STRATEGY_JOINT) && (rc = adaptive_list(s, err)) != 0)
		return rc;
	/* What the sweep leaves out: every variant, each parameter's default. */
	for (size_t v = 0, every = !s->kvariants.n; every && v < s->manifest->variants.n; v++)
		if (conf_ints_push(&s->kvariants, (long long)v))
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t i = 0; i < s->manifest->parameters.n; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(s->manifest, i);
		long long x = p->type == PARAM_INT || p->type == PARAM_DURATION ? p->min : 0;
		char why[256];

		if (s->values[i].n)
			continue;
		if (p->def && manifest_param_value(p, p->def, &x, why, sizeof(why)) != 0)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: parameter '%s': default %s", s->manifest->path, p->name,
					 why);
		if (conf_ints_push(&s->values[i], x))
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		s->defaulted[i] = 1;
	}
	return bound_values(s, err);
}

int sweep_load(const char *name, struct sweep *s, struct tune_error *err)
{
	memset(s, 0, sizeof(*s));
	s->runs = 5;
	s->warmup = 2;
	s->seed = 42;
	s->timeout_s = 600;
	s->max_runs = -1;
	s->ci_target_pct = 2;
	s->list_min = 1;
	s->list_max = 1024;
	s->tolerance_pct = 2;
	s->final_top = 3;
	s->record_optima = 1;
	s->quick.runs = s->quick.warmup = s->quick.max_runs = -1;
	kernel_choices_load();
	int rc = conf_load("sweeps", "sweep", name, sweep_keys, s, kernel_key_explain, &s->path, err);

	if (rc)
		return rc;
	if ((rc = load_manifest_sweep(s, err)) != 0)
		return rc;
	if (s->list_min > s->list_max)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: list_min %lld is above list_max %lld (swap them)", s->path,
				 s->list_min, s->list_max);
	s->tolerance = (double)s->tolerance_pct / 100.0;
	return 0;
}

static void take_list(struct conf_ints *dst, struct conf_ints *src)
{
	if (!src->n)
		return;
	free(dst->v);
	*dst = *src;
	src->v = NULL;
	src->n = 0;
}

int sweep_apply_quick(struct sweep *s)
{
	int any = s->quick.runs >= 0 || s->quick.warmup >= 0 || s->quick.max_runs >= 0 || s->quick_kvariants.n;

	for (size_t i = 0; s->manifest && i < s->manifest->parameters.n; i++)
		any |= s->quick_values[i].n > 0;
	if (s->quick.runs >= 0)
		s->runs = s->quick.runs;
	if (s->quick.warmup >= 0)
		s->warmup = s->quick.warmup;
	if (s->quick.max_runs >= 0)
		s->max_runs = s->quick.max_runs;
	for (size_t i = 0; s->manifest && i < s->manifest->parameters.n; i++) {
		if (s->quick_values[i].n)
			s->defaulted[i] = 0;
		take_list(&s->values[i], &s->quick_values[i]);
	}
	take_list(&s->kvariants, &s->quick_kvariants);
	return any;
}

void sweep_free(struct sweep *s)
{
	for (size_t i = 0; s->manifest && i < s->manifest->parameters.n; i++) {
		free(s->values ? s->values[i].v : NULL);
		free(s->quick_values ? s->quick_values[i].v : NULL);
	}
	free(s->values);
	free(s->quick_values);
	free(s->defaulted);
	s->defaulted = NULL;
	free(s->kvariants.v);
	free(s->quick_kvariants.v);
	if (s->manifest)
		manifest_free(s->manifest);
	free(s->manifest);
	s->manifest = NULL;
	s->values = s->quick_values = NULL;
	conf_release(sweep_keys, s);
	free(s->path);
	s->path = NULL;
}
