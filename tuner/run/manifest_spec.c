#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../base/names.h"
#include "../plan/plan.h"
#include "run.h"

char *manifest_spec_to_json(struct trial *const *todo, size_t n, long long runs, long long warmup,
			    long long timeout_s, const char *kernel_hash)
{
	const struct trial *t = todo[0];
	const struct kernel_manifest *m = t->manifest;
	const struct kernel_param *list = manifest_list_param(m);
	json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:I, s:I, s:I, s:I}", "api", RUNSPEC_API, "kernel", m->name,
			      "kernel_hash", kernel_hash, "variant", m->variants.v[t->variant], "runs", (json_int_t)runs,
			      "warmup", (json_int_t)warmup, "seed", (json_int_t)t->seed, "timeout_s",
			      (json_int_t)timeout_s);
	json_t *params = json_object(), *values = json_array();
	char *out;

	for (size_t i = 0; o && params && i < m->parameters.n; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, i);

		if (t->values[i] != PLAN_NA && p != list)
			json_object_set_new(params, p->name, manifest_value_json(p, t->values[i]));
	}
	for (size_t k = 0; list && values && manifest_point(t) != PLAN_NA && k < n; k++)
		json_array_append_new(values, manifest_value_json(list, manifest_point(todo[k])));
	/* Or the variants, when one process measures them. */
	for (size_t k = 0; !list && m->variant_field && values && k < n; k++)
		json_array_append_new(values, json_string(m->variants.v[todo[k]->variant]));
	if (!o || !params || !values) {
		json_decref(o);
		json_decref(params);
		json_decref(values);
		return NULL;
	}
	json_object_set_new(o, "params", params);
	if (json_array_size(values))
		json_object_set_new(o, "list", values);
	else
		json_decref(values);
	out = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return out;
}

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

int manifest_spec_kernel(json_t *o, char *name, size_t len, char *why, size_t whylen)
{
	const char *k = json_string_value(json_object_get(o, "kernel"));
	char bad[256];

	if (!k)
		return fail(why, whylen, "field 'kernel' is missing or not a string");
	if (names_check(k, bad, sizeof(bad)) != 0)
		return fail(why, whylen, "field 'kernel': %s", bad);
	snprintf(name, len, "%s", k);
	return 0;
}

/* A value of p from the spec: a number or a name, in p's range or choices. */
static int value_of(const struct kernel_param *p, json_t *v, long long *out, char *why, size_t len)
{
	char text[64], bad[256];

	if (json_is_integer(v))
		snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(v));
	else if (json_is_string(v) && strlen(json_string_value(v)) < sizeof(text))
		snprintf(text, sizeof(text), "%s", json_string_value(v));
	else
		return fail(why, len, "parameter '%s': not an integer or a name", p->name);
	if (manifest_param_value(p, text, out, bad, sizeof(bad)) != 0)
		return fail(why, len, "parameter '%s': %s", p->name, bad);
	if (*out == PARAM_AUTO)
		return fail(why, len, "parameter '%s': auto is the orchestrator's to resolve: send the value", p->name);
	return 0;
}

static int number(json_t *o, const char *field, long long lo, long long hi, long long *out, char *why, size_t len)
{
	json_t *v = json_object_get(o, field);

	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return fail(why, len, "field '%s' is missing or not an integer in [%lld, %lld]", field, lo, hi);
	*out = (long long)json_integer_value(v);
	return 0;
}

int manifest_spec_from_json(json_t *o, const struct kernel_manifest *m, struct manifest_run *run, char *why,
			    size_t whylen)
{
	static const char *const fields[] = { "api", "kernel", "kernel_hash", "variant", "params", "list", "runs",
					      "warmup", "seed", "timeout_s", NULL };
	const struct kernel_param *list = manifest_list_param(m);
	const char *variant = json_string_value(json_object_get(o, "variant"));
	const char *hash = json_string_value(json_object_get(o, "kernel_hash"));
	json_t *params = json_object_get(o, "params"), *values = json_object_get(o, "list");
	struct trial t;
	long long api = 0, seed = 0;
	int v;

	memset(run, 0, sizeof(*run));
	memset(&t, 0, sizeof(t));
	for (void *it = json_object_iter(o); it; it = json_object_iter_next(o, it))
		if (tune_name_index(fields, json_object_iter_key(it)) < 0)
			return fail(why, whylen, "unknown field '%.64s'", json_object_iter_key(it));
	if (number(o, "api", RUNSPEC_API, RUNSPEC_API, &api, why, whylen) ||
	    number(o, "runs", 1, 100000, &run->runs, why, whylen) ||
	    number(o, "warmup", 0, 1000, &run->warmup, why, whylen) ||
	    number(o, "seed", 0, 1LL << 62, &seed, why, whylen) ||
	    number(o, "timeout_s", 1, 86400, &run->timeout_s, why, whylen))
		return -1;
	if (!hash || strlen(hash) != 16 || strspn(hash, "0123456789abcdef") != 16)
		return fail(why, whylen, "field 'kernel_hash' is not 16 hex digits");
	snprintf(run->kernel_hash, sizeof(run->kernel_hash), "%s", hash);
	if ((v = manifest_variant(m, variant)) < 0)
		return fail(why, whylen, "field 'variant': not a variant of kernel '%s'", m->name);
	if (!json_is_object(params))
		return fail(why, whylen, "field 'params' is missing or not an object");
	t.kernel = -1;
	t.manifest = m;
	t.kernel_name = m->name;
	t.variant = v;
	t.variant_name = m->variants.v[v];
	t.seed = seed;
	t.runs = run->runs;
	t.warmup = run->warmup;
	for (void *it = json_object_iter(params); it; it = json_object_iter_next(params, it)) {
		const struct kernel_param *p = manifest_param(m, json_object_iter_key(it));

		if (!p || p == list || !manifest_param_applies(m, p, (size_t)v))
			return fail(why, whylen, "field 'params': '%.64s' is no parameter of variant '%s' here",
				    json_object_iter_key(it), m->variants.v[v]);
	}
	/* Every value given, none defaulted: the agent runs what was asked. */
	for (size_t i = 0; i < m->parameters.n; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, i);
		json_t *x = json_object_get(params, p->name);

		t.values[i] = PLAN_NA;
		if (p == list || !manifest_param_applies(m, p, (size_t)v))
			continue;
		/* A probe's parameter is given by the probe run alone. */
		if (!x && p->role == ROLE_PROBE)
			continue;
		if (!x)
			return fail(why, whylen, "field 'params': parameter '%s' is missing", p->name);
		if (value_of(p, x, &t.values[i], why, whylen) != 0)
			return -1;
	}
	if (list && manifest_param_applies(m, list, (size_t)v)) {
		size_t li = (size_t)(list - MANIFEST_PARAM(m, 0));

		if (!json_is_array(values) || !json_array_size(values) || json_array_size(values) > RUNSPEC_MAX_POINTS)
			return fail(why, whylen, "field 'list': 1 to %d values of '%s'", RUNSPEC_MAX_POINTS, list->name);
		for (size_t k = 0; k < json_array_size(values); k++) {
			run->trials[k] = t;
			if (value_of(list, json_array_get(values, k), &run->trials[k].values[li], why, whylen) != 0)
				return -1;
		}
		run->n = json_array_size(values);
	} else if (m->variant_field) {
		if (!json_is_array(values) || !json_array_size(values) || json_array_size(values) > RUNSPEC_MAX_POINTS)
			return fail(why, whylen, "field 'list': 1 to %d variants", RUNSPEC_MAX_POINTS);
		for (size_t k = 0; k < json_array_size(values); k++) {
			run->trials[k] = t;
			if ((v = manifest_variant(m, json_string_value(json_array_get(values, k)))) < 0)
				return fail(why, whylen, "field 'list': value %zu is not a variant of kernel '%s'", k + 1,
					    m->name);
			run->trials[k].variant = v;
			run->trials[k].variant_name = m->variants.v[v];
		}
		run->n = json_array_size(values);
	} else {
		if (values)
			return fail(why, whylen, "field 'list': variant '%s' has no list parameter", m->variants.v[v]);
		run->trials[0] = t;
		run->n = 1;
	}
	return 0;
}
