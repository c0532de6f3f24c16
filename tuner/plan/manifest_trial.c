#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "plan.h"

/* The planner's walk over the values: one index per parameter. */
struct walk {
	const struct sweep *s;
	const struct platform *p;
	struct plan *pl;
	size_t cap;
	size_t idx[PLAN_MAX_PARAMS];
	long long skipped[16]; /* memory values said to be too large, each once */
	size_t nskipped;
	struct plan_usage use;  /* which values the constraints leave in */
};

static const struct kernel_param *param_at(const struct kernel_manifest *m, size_t i)
{
	return MANIFEST_PARAM(m, i);
}

/* Advances the indices of the parameters of role (those that apply to v)
 * like an odometer; 0 when every combination was visited. */
static int next_combination(struct walk *w, int role, size_t v)
{
	const struct kernel_manifest *m = w->s->manifest;

	for (size_t i = m->parameters.n; i-- > 0;) {
		const struct kernel_param *p = param_at(m, i);

		if (p->role != role || !manifest_param_applies(m, p, v))
			continue;
		if (++w->idx[i] < w->s->values[i].n)
			return 1;
		w->idx[i] = 0;
	}
	return 0;
}

static void reset(struct walk *w, int role)
{
	for (size_t i = 0; i < w->s->manifest->parameters.n; i++)
		if (param_at(w->s->manifest, i)->role == role)
			w->idx[i] = 0;
}

long long manifest_memory_mb(const struct trial *t)
{
	long long mb = 0;

	for (size_t i = 0; i < t->manifest->parameters.n; i++)
		if (param_at(t->manifest, i)->memory_mb && t->values[i] != PLAN_NA && t->values[i] > mb)
			mb = t->values[i];
	return mb;
}

/* The value of t's parameter named name, or def when it has none (no such
 * parameter, or it does not apply to t's variant). */
static long long value_of(const struct trial *t, const char *name, long long def)
{
	const struct kernel_param *p = name ? manifest_param(t->manifest, name) : NULL;
	long long v = p ? t->values[p - param_at(t->manifest, 0)] : PLAN_NA;

	return v == PLAN_NA ? def : v;
}

long long manifest_metric_units(const struct trial *t)
{
	long long n = value_of(t, t->manifest->metric.count, 1);

	return n > 0 ? n : 1;
}

long long manifest_work(const struct trial *t)
{
	long long steps = value_of(t, t->manifest->metric.limit_times, 1);

	return manifest_metric_units(t) * (steps > 0 ? steps : 1);
}

/* t's key, context and stored parameters, from its variant and
 * values: 0, -1 out of memory, 1 too long to store. */
static int describe(struct trial *t)
{
	const struct kernel_manifest *m = t->manifest;
	size_t used = 0, cused = 0;
	json_t *o;
	char *text;

	t->key[0] = t->context[0] = '\0';
	t->list_value = 1;
	str_appendf(t->key, sizeof(t->key), &used, "%s", m->variants.v[t->variant]);
	for (size_t i = 0; i < m->parameters.n; i++) {
		const struct kernel_param *p = param_at(m, i);
		char text[64];

		if (t->values[i] == PLAN_NA)
			continue;
		/* The search walks a numeric list, whatever its name. */
		if (p->role == ROLE_LIST && p->type != PARAM_CHOICE)
			t->list_value = t->values[i];
		manifest_param_text(p, t->values[i], text, sizeof(text));
		str_appendf(t->key, sizeof(t->key), &used, "/%s=%s", p->name, text);
		if (p->role == ROLE_CONTEXT)
			str_appendf(t->context, sizeof(t->context), &cused, "%s%s=%s", cused ? " " : "", p->name, text);
	}
	str_appendf(t->key, sizeof(t->key), &used, "/r%lld+%lld", t->runs, t->warmup);
	t->kernel_name = m->name;
	t->variant_name = m->variants.v[t->variant];
	o = manifest_params_json(t);
	text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (!text)
		return -1;
	snprintf(t->params, sizeof(t->params), "%s", text);
	if (strlen(text) + 1 > sizeof(t->params))
		used = sizeof(t->key);
	free(text);
	return used + 1 >= sizeof(t->key) || cused + 1 >= sizeof(t->context);
}

int manifest_trial(const struct kernel_manifest *m, int variant, const long long *values, long long seed,
		   long long runs, long long warmup, struct trial *t)
{
	memset(t, 0, sizeof(*t));
	t->manifest = m;
	t->variant = variant;
	t->seed = seed;
	t->runs = runs;
	t->warmup = warmup;
	for (size_t i = 0; i < m->parameters.n; i++) {
		const struct kernel_param *p = param_at(m, i);

		if (!manifest_param_applies(m, p, (size_t)variant) || p->role == ROLE_PROBE)
			t->values[i] = PLAN_NA;
		else
			t->values[i] = values[i];
	}
	return describe(t);
}

/* The trial of variant v at the walk's indices, list value l. */
static int make_trial(struct walk *w, size_t v, size_t l, struct trial *t, struct tune_error *err)
{
	const struct sweep *s = w->s;
	const struct kernel_manifest *m = s->manifest;
	long long values[PLAN_MAX_PARAMS];
	int rc;

	for (size_t i = 0; i < m->parameters.n; i++)
		values[i] = s->values[i].n ? s->values[i].v[param_at(m, i)->role == ROLE_LIST ? l : w->idx[i]] : PLAN_NA;
	rc = manifest_trial(m, (int)s->kvariants.v[v], values, s->seed, s->runs, s->warmup, t);
	t->kernel = s->kernel;
	if (rc < 0)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (rc)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: sweep '%s': the parameters of a trial of kernel '%s' are "
				 "too long to store (shorten the names or values)", s->path, s->name, m->name);
	return 0;
}

int manifest_trial_at(const struct trial *src, long long point, int phase, const char *suffix, struct trial *out)
{
	const struct kernel_param *list = manifest_list_param(src->manifest);
	long long *value = list ? &out->values[list - param_at(src->manifest, 0)] : NULL;

	plan_copy_trial(src, phase, suffix, out);
	if (!value || *value == PLAN_NA)
		return -1;
	*value = point;
	if (describe(out) != 0 || !manifest_trial_allowed(out))
		return -1;
	snprintf(out->key + strlen(out->key), sizeof(out->key) - strlen(out->key), "/%s", suffix);
	return 0;
}

/* Is t over half the platform's memory by a memory_mb value? Says so once
 * per value. */
static int too_large(struct walk *w, const struct trial *t)
{
	const struct kernel_manifest *m = t->manifest;

	for (size_t i = 0; i < m->parameters.n; i++) {
		const struct kernel_param *p = param_at(m, i);
		long long v = t->values[i];
		int said = 0;

		if (!p->memory_mb || v == PLAN_NA || v * 2 <= w->p->usable_memory_mb)
			continue;
		for (size_t k = 0; k < w->nskipped; k++)
			said |= w->skipped[k] == v;
		if (!said) {
			fprintf(stderr, "tune: skipping %s=%lld in sweep '%s': more than half of the %lld MB memory of "
					"platform '%s' on this host\n", p->name, v, w->s->name, w->p->usable_memory_mb,
				w->p->name);
			w->pl->skipped_sizes++;
			if (w->nskipped < sizeof(w->skipped) / sizeof(w->skipped[0]))
				w->skipped[w->nskipped++] = v;
		}
		return 1;
	}
	return 0;
}

/* One batch: the trials of variants order[0..nv) (one, or all of them when
 * one process measures the variants) over the list's nl values. */
static int plan_batch(struct walk *w, const size_t *order, size_t nv, size_t nl, struct tune_error *err)
{
	size_t first = w->pl->ntrials;
	int rc;

	for (size_t k = 0; k < nv; k++)
		for (size_t l = 0; l < nl; l++) {
			const struct kernel_param *list = manifest_list_param(w->s->manifest);
			size_t at[PLAN_MAX_PARAMS];
			struct trial t;

			if ((rc = make_trial(w, order[k], l, &t, err)) != 0)
				return rc;
			memcpy(at, w->idx, sizeof(at));
			if (list)
				at[list - param_at(w->s->manifest, 0)] = l;
			/* A list's value a constraint excludes leaves this process's list only. */
			if (!plan_admit(w->pl, &w->use, w->s, at, order[k], &t) || too_large(w, &t))
				continue;
			if (plan_add_trial(w->pl, &w->cap, &t))
				return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		}
	if (w->pl->ntrials > first && plan_add_batch(w->pl, first, w->pl->ntrials - first))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	return 0;
}

/* Every variant, baseline first, and every combination of the searched
 * values; one batch per combination over the list's values, or over the
 * variants when the kernel measures them in one process. */
static int plan_context(struct walk *w, struct tune_error *err)
{
	const struct sweep *s = w->s;
	const struct kernel_manifest *m = s->manifest;
	const struct kernel_param *list = manifest_list_param(m);
	size_t li = list ? (size_t)(list - param_at(m, 0)) : 0;
	size_t order[64] = { 0 }, nv = 0;
	int rc;

	for (size_t v = 0; v < s->kvariants.n && nv < 64; v++)
		if (!strcmp(m->variants.v[s->kvariants.v[v]], m->baseline))
			order[nv++] = v;
	for (size_t v = 0; v < s->kvariants.n && nv < 64; v++)
		if (strcmp(m->variants.v[s->kvariants.v[v]], m->baseline) != 0)
			order[nv++] = v;
	if (m->variant_field) {
		/* Its parameters apply to every variant (the manifest's check). */
		reset(w, ROLE_SEARCHED);
		do
			rc = plan_batch(w, order, nv, 1, err);
		while (!rc && next_combination(w, ROLE_SEARCHED, (size_t)-1));
		return rc;
	}
	for (size_t k = 0; k < nv; k++) {
		size_t kv = (size_t)s->kvariants.v[order[k]];
		size_t nl = list && manifest_param_applies(m, list, kv) ? s->values[li].n : 1;

		reset(w, ROLE_SEARCHED);
		do
			rc = plan_batch(w, order + k, 1, nl, err);
		while (!rc && next_combination(w, ROLE_SEARCHED, kv));
		if (rc)
			return rc;
	}
	return 0;
}

int manifest_plan(const struct platform *p, const struct sweep *s, struct plan *pl, struct tune_error *err)
{
	struct walk w = { s, p, pl, 0, { 0 }, { 0 }, 0, { 0 } };
	int rc = 0;

	memset(pl, 0, sizeof(*pl));
	if (s->manifest->parameters.n > PLAN_MAX_PARAMS)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: kernel '%s' has %zu parameters; tune takes at most %d",
				 s->manifest->path, s->manifest->name, s->manifest->parameters.n, PLAN_MAX_PARAMS);
	if (plan_usage_init(&w.use, s) != 0)
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	/* Contexts apply to every variant: their odometer runs over all. */
	while (!rc) {
		rc = plan_context(&w, err);
		if (rc || !next_combination(&w, ROLE_CONTEXT, (size_t)-1))
			break;
	}
	if (!rc)
		rc = plan_check_usage(pl, &w.use, p, s, err);
	plan_usage_free(&w.use);
	if (!rc && !pl->ntrials)
		rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: sweep '%s' has no trial to run on platform '%s' (every value "
			       "of a memory parameter is over half its memory)", s->path, s->name, p->name);
	if (rc)
		plan_free(pl);
	return rc;
}

int manifest_same_process(const struct trial *a, const struct trial *b)
{
	const struct kernel_manifest *m = a->manifest;

	if (!m || m != b->manifest || (a->variant != b->variant && !m->variant_field))
		return 0;
	for (size_t i = 0; i < m->parameters.n; i++)
		if (param_at(m, i)->role != ROLE_LIST && a->values[i] != b->values[i])
			return 0;
	return 1;
}

int manifest_same_decision(const struct trial *a, const struct trial *b)
{
	return a->manifest == b->manifest && !strcmp(a->context, b->context);
}

long long manifest_point(const struct trial *t)
{
	const struct kernel_param *list = manifest_list_param(t->manifest);

	if (list)
		return t->values[list - param_at(t->manifest, 0)];
	return t->manifest->variant_field ? t->variant : PLAN_NA;
}

int manifest_is_baseline(const struct trial *t)
{
	int variant;
	long long point;

	if (t->variant == manifest_variant(t->manifest, t->manifest->baseline))
		return 1;
	return manifest_baseline_as(t->manifest, &variant, &point) && t->variant == variant &&
	       manifest_point(t) == point;
}

int manifest_better(const struct kernel_manifest *m, double a, double b)
{
	return stats_better(m->metric.better == BETTER_HIGHER, a, b);
}

static int number(json_t *o, const char *field, double *out)
{
	json_t *v = json_object_get(o, field);

	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

/* A line's list value: the list parameter's field, or the variant's name
 * where one process measures several variants. */
static int line_point(const struct kernel_manifest *m, const struct trial *t, json_t *o, long long *point, char *why,
		      size_t len)
{
	const struct kernel_param *list = manifest_list_param(m);
	char why2[256];

	*point = PLAN_NA;
	if (list && plan_trial_point(t) != PLAN_NA) {
		json_t *v = json_object_get(o, list->name);

		if (json_is_integer(v) && list->type != PARAM_CHOICE)
			*point = (long long)json_integer_value(v);
		else if (json_is_string(v) && manifest_param_value(list, json_string_value(v), point, why2,
								    sizeof(why2)) != 0)
			*point = PLAN_NA;
		if (*point == PLAN_NA) {
			snprintf(why, len, "field '%s' (the list parameter) is missing or not one of its values", list->name);
			return -1;
		}
	} else if (!list && m->variant_field) {
		*point = manifest_variant(m, json_string_value(json_object_get(o, m->variant_field)));
		if (*point < 0) {
			snprintf(why, len, "field '%s' (the variant) is missing or not one of the variants", m->variant_field);
			return -1;
		}
	}
	return 0;
}

int manifest_sample(const struct kernel_manifest *m, const struct trial *t, json_t *o, struct manifest_line *out,
		    char *why, size_t len)
{
	memset(out, 0, sizeof(*out));
	if (line_point(m, t, o, &out->point, why, len) != 0)
		return -1;
	if (number(o, m->metric.field, &out->metric)) {
		snprintf(why, len, "field '%s' (the metric) is missing or not a number", m->metric.field);
		return -1;
	}
	for (size_t i = 0; i < m->metric.per.n; i++) {
		double d;

		if (number(o, m->metric.per.v[i], &d) || d <= 0) {
			snprintf(why, len, "field '%s' (the metric is per it) is missing or not above 0",
				 m->metric.per.v[i]);
			return -1;
		}
		out->metric /= d;
	}
	if (!isfinite(out->metric) || (m->metric.range == RANGE_POSITIVE && out->metric <= 0) ||
	    (m->metric.range == RANGE_NONNEGATIVE && out->metric < 0)) {
		snprintf(why, len, "field '%s' (the metric) is %g, outside its range: %s%s", m->metric.field, out->metric,
			 m->metric.range == RANGE_POSITIVE ? "above 0 and finite" :
			 m->metric.range == RANGE_NONNEGATIVE ? "0 or above, and finite" : "finite",
			 m->metric.range == RANGE_POSITIVE ? " (a manifest may widen it: metric: { range: nonnegative } or "
			 "{ range: any })" : m->metric.range == RANGE_NONNEGATIVE ? " (metric: { range: any } takes any "
			 "finite value)" : "");
		return MANIFEST_OUT_OF_RANGE;
	}
	if (m->metric.total && number(o, m->metric.total, &out->total)) {
		snprintf(why, len, "field '%s' (the run's whole time) is missing or not a number", m->metric.total);
		return -1;
	}
	if (m->metric.rate && number(o, m->metric.rate, &out->rate)) {
		snprintf(why, len, "field '%s' (the rate) is missing or not a number", m->metric.rate);
		return -1;
	}
	if (!m->metric.rate)
		out->rate = out->metric > 0 ? 1e9 / out->metric : 0;
	if (m->correctness) {
		json_t *c = json_object_get(o, m->correctness);

		if (!json_is_integer(c)) {
			snprintf(why, len, "field '%s' (the correctness check) is missing or not an integer",
				 m->correctness);
			return -1;
		}
		out->check = (unsigned long long)json_integer_value(c);
	}
	if (number(o, TK_FIELD_CPU, &out->cpu))
		out->cpu = -1;
	return 0;
}

void manifest_label(const struct trial *t, const struct trial *last, char *out, size_t len)
{
	const struct kernel_manifest *m = t->manifest;
	size_t used = 0;

	str_appendf(out, len, &used, "%s %s", m->name, m->variants.v[t->variant]);
	if (m->variant_field && last->variant != t->variant)
		str_appendf(out, len, &used, "..%s", m->variants.v[last->variant]);
	for (size_t i = 0; i < m->parameters.n; i++) {
		const struct kernel_param *p = param_at(m, i);
		char text[64];

		if (p->role == ROLE_FIXED || t->values[i] == PLAN_NA)
			continue;
		manifest_param_text(p, t->values[i], text, sizeof(text));
		str_appendf(out, len, &used, " %s=%s", p->name, text);
		if (last->values[i] != t->values[i]) {
			manifest_param_text(p, last->values[i], text, sizeof(text));
			str_appendf(out, len, &used, "..%s", text);
		}
	}
}

json_t *manifest_value_json(const struct kernel_param *p, long long value)
{
	char text[64];

	if (p->type != PARAM_CHOICE && p->type != PARAM_BOOL)
		return json_integer(value);
	manifest_param_text(p, value, text, sizeof(text));
	return json_string(text);
}

json_t *manifest_params_json(const struct trial *t)
{
	const struct kernel_manifest *m = t->manifest;
	json_t *o = json_object();

	json_object_set_new(o, "variant", json_string(m->variants.v[t->variant]));
	for (size_t i = 0; i < m->parameters.n; i++)
		if (t->values[i] != PLAN_NA)
			json_object_set_new(o, param_at(m, i)->name, manifest_value_json(param_at(m, i), t->values[i]));
	return o;
}

static void export_value(json_t *o, const char *name, long long value, const char *text, const char *role)
{
	json_object_set_new(o, name, json_pack("{s:I, s:s, s:s}", "value", (json_int_t)value, "text", text, "role",
					       role));
}

json_t *manifest_exports_json(const struct trial *t)
{
	const struct kernel_manifest *m = t->manifest;
	json_t *o = json_object();

	for (size_t i = 0; o && i < m->parameters.n; i++) {
		const struct kernel_param *p = param_at(m, i);
		char text[64];

		if (p->role != ROLE_CONTEXT || t->values[i] == PLAN_NA)
			continue;
		manifest_param_text(p, t->values[i], text, sizeof(text));
		export_value(o, p->name, t->values[i], text, "context");
	}
	if (o && manifest_exported(m, "variant", ROLE_SEARCHED))
		export_value(o, "variant", t->variant, m->variants.v[t->variant], "export");
	for (size_t i = 0; o && i < m->parameters.n; i++) {
		const struct kernel_param *p = param_at(m, i);
		char text[64];

		if (p->role == ROLE_CONTEXT || !manifest_exported(m, p->name, p->role))
			continue;
		/* Every context's row has every exported name, so the header's
		 * tables line up; one the chosen variant does not use has no value. */
		if (t->values[i] == PLAN_NA) {
			json_object_set_new(o, p->name, json_pack("{s:i, s:n, s:s}", "value", -1, "text", "role", "export"));
			continue;
		}
		manifest_param_text(p, t->values[i], text, sizeof(text));
		export_value(o, p->name, t->values[i], text, "export");
	}
	return o;
}
