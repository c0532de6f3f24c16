#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../kernels/chase/chase.h"
#include "../base/strbuf.h"
#include "../config/config.h"
#include "run.h"

static void arg_num(struct runspec_argv *a, const char *flag, long long v)
{
	snprintf(a->nums[a->nnums], sizeof(a->nums[0]), "%lld", v);
	a->argv[a->argc++] = (char *)flag;
	a->argv[a->argc++] = a->nums[a->nnums++];
}

static void arg_text(struct runspec_argv *a, const char *flag, const char *v)
{
	a->argv[a->argc++] = (char *)flag;
	a->argv[a->argc++] = (char *)v;
}

/* "1,2,4" of the points. */
static char *list_of(char *out, size_t len, const struct run_spec *s)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < s->npoints; i++)
		str_appendf(out, len, &used, "%s%lld", i ? "," : "", s->points[i]);
	return out;
}

void runspec_args(const struct run_spec *s, const char *binary, const struct run_place *place,
		  struct runspec_argv *a, int *cpu)
{
	memset(a, 0, sizeof(*a));
	a->argv[a->argc++] = (char *)binary;
	*cpu = place->pin ? (int)place->cpus->v[0] : -1;
	arg_num(a, "--runs", s->runs);
	arg_num(a, "--warmup", s->warmup);
	arg_num(a, "--seed", s->seed);
	arg_num(a, "--size-mb", s->size_mb);
	arg_num(a, "--depth", s->depth);
	arg_num(a, "--queries", s->queries);
	arg_text(a, "--hugepages", s->hugepages ? "on" : "off");
	if (*cpu >= 0)
		arg_num(a, "--cpu", *cpu);
	arg_text(a, "--group-size", list_of(a->lists[0], sizeof(a->lists[0]), s));
	a->argv[a->argc] = NULL;
}

char *runspec_to_json(const struct run_spec *s)
{
	const struct kernel_info *k = &kernel_table[s->kernel];
	json_t *o = json_pack("{s:i, s:s, s:I, s:I, s:I, s:I}", "api", RUNSPEC_API, "kernel", k->name, "runs",
			      (json_int_t)s->runs, "warmup", (json_int_t)s->warmup, "seed", (json_int_t)s->seed,
			      "timeout_s", (json_int_t)s->timeout_s);
	json_t *pts = json_array();
	char *out;

	if (!o || !pts) {
		json_decref(o);
		json_decref(pts);
		return NULL;
	}
	for (size_t i = 0; i < s->npoints; i++)
		json_array_append_new(pts, json_integer(s->points[i]));
	json_object_set_new(o, "points", pts);
	json_object_set_new(o, "variant", json_string(chase_variant_names[s->variant]));
	json_object_set_new(o, "hint", s->hint >= 0 ? json_string(chase_hint_names[s->hint]) : json_null());
	json_object_set_new(o, "size_mb", json_integer(s->size_mb));
	json_object_set_new(o, "depth", json_integer(s->depth));
	json_object_set_new(o, "queries", json_integer(s->queries));
	json_object_set_new(o, "hugepages", json_boolean(s->hugepages));
	out = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return out;
}

/* Decoding: every field named, typed and ranged; the first problem wins. */
struct decoder {
	json_t *o;
	char *why;
	size_t whylen;
	int bad;
};

static void fail(struct decoder *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct decoder *d, const char *fmt, ...)
{
	va_list ap;

	if (d->bad)
		return;
	d->bad = 1;
	va_start(ap, fmt);
	vsnprintf(d->why, d->whylen, fmt, ap);
	va_end(ap);
}

static long long get_int(struct decoder *d, const char *field, long long lo, long long hi)
{
	json_t *v = json_object_get(d->o, field);
	long long x;

	if (!json_is_integer(v)) {
		fail(d, "field '%s' is missing or not an integer", field);
		return lo;
	}
	x = (long long)json_integer_value(v);
	if (x < lo || x > hi)
		fail(d, "field '%s': %lld is out of range [%lld, %lld]", field, x, lo, hi);
	return x < lo || x > hi ? lo : x;
}

/* The index of value v of field among names (allow_null: null gives -1). */
static int name_of(struct decoder *d, const char *field, json_t *v, const char *const *names, int allow_null)
{
	int i = tune_name_index(names, json_string_value(v));

	if (allow_null && json_is_null(v))
		return -1;
	if (i >= 0)
		return i;
	if (!d->bad) {
		size_t used = 0;

		str_appendf(d->why, d->whylen, &used, "field '%s' must be one of", field);
		for (int i = 0; names[i]; i++)
			str_appendf(d->why, d->whylen, &used, " %s", names[i]);
		d->bad = 1;
	}
	return 0;
}

static int get_name(struct decoder *d, const char *field, const char *const *names, int allow_null)
{
	return name_of(d, field, json_object_get(d->o, field), names, allow_null);
}

static void get_points(struct decoder *d, struct run_spec *s, long long lo, long long hi)
{
	json_t *a = json_object_get(d->o, "points"), *v;
	size_t i;

	if (!json_is_array(a) || json_array_size(a) < 1 || json_array_size(a) > RUNSPEC_MAX_POINTS) {
		fail(d, "field 'points' must be a list of 1 to %d values", RUNSPEC_MAX_POINTS);
		return;
	}
	json_array_foreach(a, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
			fail(d, "field 'points': every value must be an integer in [%lld, %lld]", lo, hi);
			return;
		}
		s->points[i] = (long long)json_integer_value(v);
	}
	s->npoints = json_array_size(a);
}

/* Every field of the object is one of the kernel's: an agent never ignores
 * what it is sent (a compiler, flags or a binary would otherwise pass). */
static void check_fields(struct decoder *d, int kernel)
{
	static const char *const common[] = { "api", "kernel", "runs", "warmup", "seed", "timeout_s", "points", NULL };
	static const char *const chase[] = { "variant", "hint", "size_mb", "depth", "queries", "hugepages", NULL };
	const char *const *own = chase;
	const char *key;
	json_t *v;

	json_object_foreach(d->o, key, v) {
		(void)v;
		if (tune_name_index(common, key) < 0 && tune_name_index(own, key) < 0) {
			fail(d, "unknown field '%.64s' in a %s run spec (a run spec names no compiler, flags, path or "
			     "command: the agent builds and runs with its own)", key, kernel_names[kernel]);
			return;
		}
	}
}

int runspec_from_json(const char *text, size_t len, struct run_spec *s, char *why, size_t whylen)
{
	json_error_t jerr;
	struct decoder d = { NULL, why, whylen, 0 };

	memset(s, 0, sizeof(*s));
	s->hint = -1;
	if (len > RUNSPEC_MAX_JSON) {
		snprintf(why, whylen, "the spec is %zu bytes, over the limit of %d", len, RUNSPEC_MAX_JSON);
		return -1;
	}
	/* Bounded nesting: a spec is one flat object. */
	d.o = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!d.o) {
		snprintf(why, whylen, "malformed JSON at line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
		return -1;
	}
	if (!json_is_object(d.o)) {
		snprintf(why, whylen, "the spec must be a JSON object");
		json_decref(d.o);
		return -1;
	}
	get_int(&d, "api", RUNSPEC_API, RUNSPEC_API);
	s->kernel = get_name(&d, "kernel", kernel_names, 0);
	s->runs = get_int(&d, "runs", 1, 100000);
	s->warmup = get_int(&d, "warmup", 0, 1000);
	s->seed = get_int(&d, "seed", 0, LLONG_MAX);
	s->timeout_s = get_int(&d, "timeout_s", 1, 86400);
	if (!d.bad) {
		s->variant = get_name(&d, "variant", chase_variant_names, 0);
		s->hint = get_name(&d, "hint", chase_hint_names, 1);
		s->size_mb = get_int(&d, "size_mb", 1, 1 << 20);
		s->depth = get_int(&d, "depth", 0, 4096);
		s->queries = get_int(&d, "queries", 1, 10000000000LL);
		if (!json_is_boolean(json_object_get(d.o, "hugepages")))
			fail(&d, "field 'hugepages' must be true or false");
		s->hugepages = json_is_true(json_object_get(d.o, "hugepages"));
		get_points(&d, s, 1, CHASE_MAX_GROUP);
	}
	if (!d.bad)
		check_fields(&d, s->kernel);
	json_decref(d.o);
	return d.bad ? -1 : 0;
}
