/* tune kernel check NAME: a kernel built and run on tiny parameters, as
 * tune runs it (the same trials, defines and command lines), and its output
 * held to the protocol line by line (tune help protocol): each problem one
 * message saying what to fix. Nothing is recorded. */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../base/runner.h"
#include "../base/strbuf.h"
#include "../build/build.h"
#include "../plan/plan.h"
#include "../run/run.h"
#include "cli.h"

#define CHECK_RUNS 2
#define CHECK_WARMUP 1
#define CHECK_LIST_MAX 5
#define CHECK_SEED 42
#define CHECK_LINGER_S 1.0 /* output open this long after the kernel's exit: something it started holds it */

#define CHECK_ISSUES_MAX 32

/* A problem, said once with where it was first seen and how often. */
struct issue {
	char text[640];
	char where[192];
	size_t count;
};

struct checker {
	const struct kernel_manifest *m;
	const struct platform *p;
	double timeout_s;
	const struct kernel_param *list;
	long long values[PLAN_MAX_PARAMS];   /* the tiny parameters */
	long long points[CHECK_LIST_MAX];    /* the list's values */
	size_t npoints;
	int have_ref;                        /* the baseline's checksum, once seen */
	unsigned long long ref;
	struct issue issues[CHECK_ISSUES_MAX];
	size_t nissues, dropped, lines, processes;
	size_t checked, zero_checks;         /* lines with a checksum, and those where it is 0 */
};

static void problem(struct checker *c, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Counts a problem at where ("interleaved g=16, output line 3"); the same
 * text again is counted, not said again. */
static void problem(struct checker *c, const char *where, const char *fmt, ...)
{
	char text[sizeof(c->issues[0].text)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < c->nissues; i++)
		if (!strcmp(c->issues[i].text, text)) {
			c->issues[i].count++;
			return;
		}
	if (c->nissues == CHECK_ISSUES_MAX) {
		c->dropped++;
		return;
	}
	snprintf(c->issues[c->nissues].text, sizeof(text), "%s", text);
	snprintf(c->issues[c->nissues].where, sizeof(c->issues[0].where), "%s", where);
	c->issues[c->nissues++].count = 1;
}

/* The value of p its default text gives; min (or the first choice) without one. */
static long long default_value(const struct kernel_param *p)
{
	long long v;
	char why[256];

	if (p->def && manifest_param_value(p, p->def, &v, why, sizeof(why)) == 0)
		return v;
	return p->type == PARAM_CHOICE || p->type == PARAM_BOOL ? 0 : p->min;
}

/* Tiny parameters: the defaults, with a working set of at most 1 MiB and at
 * most 1000 units of the metric a run; the list's default, its references
 * (always:), its smallest and its largest value. */
static void tiny(struct checker *c)
{
	for (size_t i = 0; i < c->m->parameters.n; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(c->m, i);
		long long v = default_value(p);

		if (p->memory_mb && v > 1)
			v = p->min > 1 ? p->min : 1;
		if (c->m->metric.count && !strcmp(c->m->metric.count, p->name) && v > 1000)
			v = p->min > 1000 ? p->min : 1000;
		c->values[i] = v;
		if (p != c->list)
			continue;
		c->points[c->npoints++] = v;
		/* Then its references, its smallest and its largest value (another choice). */
		for (size_t k = 0; k < p->always.n + 2 && c->npoints < CHECK_LIST_MAX; k++) {
			int other = p->type == PARAM_CHOICE || p->type == PARAM_BOOL;
			long long w = other ? (k == p->always.n ? (v ? 0 : 1) : (long long)p->choices.n - 1)
				      : k == p->always.n ? p->min : p->max;
			char why[256];
			int seen = 0;

			if (k < p->always.n && manifest_param_value(p, p->always.v[k], &w, why, sizeof(why)) != 0)
				continue;
			for (size_t j = 0; j < c->npoints; j++)
				seen |= c->points[j] == w;
			if (!seen)
				c->points[c->npoints++] = w;
		}
	}
}

/* "g=16", "policy=eft": what tells a process's trials apart, for messages. */
static void point_text(const struct checker *c, const struct trial *t, char *out, size_t len)
{
	char text[64];

	if (c->list && t->values[c->list - MANIFEST_PARAM(c->m, 0)] != PLAN_NA) {
		manifest_param_text(c->list, t->values[c->list - MANIFEST_PARAM(c->m, 0)], text, sizeof(text));
		snprintf(out, len, "%s %s=%s", t->variant_name, c->list->name, text);
	} else {
		snprintf(out, len, "%s", t->variant_name);
	}
}

/* The first field the manifest reads that o lacks, or NULL. */
static const char *absent_field(const struct checker *c, json_t *o)
{
	const struct kernel_metric *mt = &c->m->metric;
	const char *want[8] = { c->list ? c->list->name : c->m->variant_field, mt->field, mt->total, mt->rate,
				c->m->correctness, TK_FIELD_WARMUP, TK_FIELD_RUN, NULL };

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]) - 1; i++)
		if (want[i] && !json_object_get(o, want[i]))
			return want[i];
	for (size_t i = 0; i < mt->per.n; i++)
		if (!json_object_get(o, mt->per.v[i]))
			return mt->per.v[i];
	return NULL;
}

/* Where an absent field is named, and what the line has instead: a key
 * like it, or all its keys. */
static void suggestion(json_t *o, const char *field, char *out, size_t len)
{
	const char *keys[64], *key, *close;
	size_t n = 0, used = 0;
	json_t *v;

	out[0] = '\0';
	if (!field)
		return;
	json_object_foreach(o, key, v)
		if (n < sizeof(keys) / sizeof(keys[0]) - 1)
			keys[n++] = key;
	keys[n] = NULL;
	if ((close = tune_suggest(field, keys))) {
		str_appendf(out, len, &used, " (the line has '%s': the kernel's name and the manifest's must be one, "
			    "kernel.yaml's or the kernel's to change)", close);
		return;
	}
	str_appendf(out, len, &used, " (kernel.yaml names '%s'; the line has", field);
	for (size_t i = 0; i < n; i++)
		str_appendf(out, len, &used, "%s %s", i ? "," : "", keys[i]);
	str_appendf(out, len, &used, ")");
}

/* One line of a process (label) measuring todo[0..n): checked, counted in
 * seen. Returns 0, or -1 when the line cannot be read as the manifest says. */
static int check_line(struct checker *c, const char *label, struct trial **todo, size_t n, char *line, size_t no,
		      unsigned char (*seen)[2][CHECK_RUNS + CHECK_WARMUP], int is_baseline_group)
{
	json_error_t jerr;
	json_t *o = json_loads(line, 0, &jerr), *warm, *run;
	struct manifest_line v;
	char why[512] = "", advice[400], where[256], value[128];
	size_t k;

	snprintf(where, sizeof(where), "%s, output line %zu", label, no);
	if (!json_is_object(o)) {
		problem(c, where, "not a JSON object (%s): print one object a line on standard output, and messages "
			"on standard error", o ? "another JSON value" : jerr.text);
		json_decref(o);
		return -1;
	}
	warm = json_object_get(o, TK_FIELD_WARMUP);
	run = json_object_get(o, TK_FIELD_RUN);
	if (manifest_sample(c->m, todo[0], o, &v, why, sizeof(why)) != 0 || !json_is_boolean(warm) ||
	    !json_is_integer(run) || json_integer_value(run) < 0) {
		suggestion(o, absent_field(c, o), advice, sizeof(advice));
		problem(c, where, "%s%s", why[0] ? why : !json_is_boolean(warm) ? "field 'warmup' is missing or not "
			"true or false" : "field 'run' is missing or not a whole number from 0", advice);
		json_decref(o);
		return -1;
	}
	for (k = 0; k < n && plan_trial_point(todo[k]) != v.point; k++)
		;
	if (k < n)
		point_text(c, todo[k], value, sizeof(value));
	if (k == n) {
		problem(c, where, "a value that was not asked for: report each value given on the command line, as given");
	} else if (json_integer_value(run) >= (json_is_true(warm) ? CHECK_WARMUP : CHECK_RUNS)) {
		problem(c, where, "%s run %lld: %d %s runs were asked for (runs count from 0, the warm-ups apart)", value,
			(long long)json_integer_value(run), json_is_true(warm) ? CHECK_WARMUP : CHECK_RUNS,
			json_is_true(warm) ? "warm-up" : "measured");
	} else if (seen[k][json_is_true(warm)][json_integer_value(run)]++) {
		problem(c, where, "%s %s %lld is reported twice", value, json_is_true(warm) ? "warm-up" : "run",
			(long long)json_integer_value(run));
	} else if (c->m->correctness) {
		/* A checksum that is 0 on every line was never set (said at the end). */
		c->checked++;
		c->zero_checks += v.check == 0;
		if (is_baseline_group && !c->have_ref && manifest_is_baseline(todo[k])) {
			c->ref = v.check;
			c->have_ref = 1;
		} else if (c->have_ref && v.check != c->ref) {
			problem(c, where, "%s %llu differs from the baseline's %llu: every variant and list value must "
				"compute the same result from the same --seed", c->m->correctness, v.check, c->ref);
		}
	}
	json_decref(o);
	return 0;
}

/* The runs of todo[0..n) not reported. */
static void check_missing(struct checker *c, struct trial **todo, size_t n,
			  unsigned char (*seen)[2][CHECK_RUNS + CHECK_WARMUP])
{
	for (size_t k = 0; k < n; k++) {
		size_t got = 0;
		char label[128];

		for (int w = 0; w < 2; w++)
			for (int r = 0; r < (w ? CHECK_WARMUP : CHECK_RUNS); r++)
				got += seen[k][w][r] != 0;
		if (got == CHECK_RUNS + CHECK_WARMUP)
			continue;
		point_text(c, todo[k], label, sizeof(label));
		if (!got)
			problem(c, label, "never reported: each list value given needs a line in every run");
		else
			problem(c, label, "%zu of %d runs reported (%d warm-up, %d measured): each list value given needs "
				"a line in every run", got, CHECK_RUNS + CHECK_WARMUP, CHECK_WARMUP, CHECK_RUNS);
	}
}

/* The last lines of what the kernel said on standard error, without the
 * line break that ends them. */
static const char *tail_of(const char *s, char *out, size_t len)
{
	size_t n = strlen(s);

	snprintf(out, len, "%s", n > 600 ? s + n - 600 : s);
	for (n = strlen(out); n && (out[n - 1] == '\n' || out[n - 1] == ' '); n--)
		out[n - 1] = '\0';
	return out;
}

/* A process of a command kernel's program, within the check's time. */
static int spawn_program(void *ctx, char *const *argv, int cpu, struct run_result *res, struct tune_error *err)
{
	const struct checker *c = ctx;

	return runner_exec(argv, cpu, c->timeout_s, NULL, res, err);
}

/* Builds, runs and checks the process measuring todo[0..n). */
static int check_process(struct checker *c, struct trial **todo, size_t n, int is_baseline_group,
			 struct tune_error *err)
{
	struct strbuf defines = STRBUF_INIT;
	struct build_result built;
	struct build_spec spec = { c->m, todo[0]->variant, NULL, NULL, c->p->compiler, &c->p->cflags, NULL };
	struct run_place place = { c->p->pin, &c->p->cpus, c->p->device_cpu };
	struct manifest_argv args;
	struct run_result res;
	struct tune_error berr;
	unsigned char seen[RUN_LIST_MAX][2][CHECK_RUNS + CHECK_WARMUP];
	char label[192], *save = NULL;
	size_t no = 0;
	int cpu, rc, unreadable = 0;

	args.argc = 0; /* a command kernel's processes have argvs of their own */
	manifest_defines(todo[0], &defines);
	manifest_build_label(todo[0], label, sizeof(label));
	spec.defines = strbuf_str(&defines);
	spec.label = label;
	rc = build_kernel(&spec, &built, &berr);
	strbuf_release(&defines);
	if (rc == TUNE_ERR_INTERRUPTED)
		return tune_fail(err, rc, "%s", berr.msg);
	if (rc) {
		problem(c, label, "does not build: %s", berr.msg);
		return 0;
	}
	if (c->m->command.n)
		rc = command_run(todo, n, CHECK_RUNS, CHECK_WARMUP, &place, spawn_program, c, &res, err);
	else if (manifest_args(built.path, todo, n, CHECK_RUNS, CHECK_WARMUP, &place, &args, &cpu) != 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: the command line of %s does not fit", c->m->name, label);
	else
		rc = runner_exec(args.argv, cpu, c->timeout_s, NULL, &res, err);
	if (rc)
		return rc;
	c->processes++;
	memset(seen, 0, sizeof(seen));
	for (char *line = strtok_r(res.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		no++;
		c->lines++;
		unreadable |= check_line(c, label, todo, n, line, no, seen, is_baseline_group) != 0;
	}
	if (res.exited && res.status == 0 && res.timed_out)
		problem(c, label, "output after exit: it exited, but a process it started still held its standard "
			"output %.0f s later (end what it starts before it exits)", c->timeout_s);
	else if (res.lingered_s > CHECK_LINGER_S)
		problem(c, label, "output after exit: it exited, but a process it started held its standard output "
			"%.1f s longer (end what it starts before it exits)", res.lingered_s);
	else if (res.timed_out)
		problem(c, label, "a run on tiny parameters took longer than %.0f s and was killed (make a run shorter, "
			"or give --timeout)", c->timeout_s);
	else if (!runner_succeeded(&res)) {
		char why[128], tail[640], command[1024] = "";
		size_t used = 0;

		runner_describe(&res, c->timeout_s, why, sizeof(why));
		/* How to run it again (a compiled kernel's binary and flags). */
		for (int i = 0; !c->m->command.n && i < args.argc; i++)
			str_appendf(command, sizeof(command), &used, "%s%s", i ? " " : "; run it: ", args.argv[i]);
		problem(c, label, "the kernel failed (%s): %s%s", why, res.errout[0] ? tail_of(res.errout, tail,
			sizeof(tail)) : "it said nothing on standard error (say why there)", command);
	}
	/* A line that cannot be read is one problem, not also a missing run. */
	if (runner_succeeded(&res) && !unreadable)
		check_missing(c, todo, n, seen);
	run_result_free(&res);
	return 0;
}

/* The trials of one process: variant v at each list value (every variant,
 * for a kernel that measures them all in one process). */
static int process_of(struct checker *c, int v, struct trial *trials, struct trial **todo, size_t *n)
{
	const struct kernel_manifest *m = c->m;
	size_t li = c->list ? (size_t)(c->list - MANIFEST_PARAM(m, 0)) : 0;
	long long values[PLAN_MAX_PARAMS];

	memcpy(values, c->values, sizeof(values));
	*n = 0;
	if (m->variant_field) {
		for (size_t k = 0; k < m->variants.n && k < RUN_LIST_MAX; k++, (*n)++)
			if (manifest_trial(m, (int)k, values, CHECK_SEED, CHECK_RUNS, CHECK_WARMUP, &trials[*n]) != 0)
				return -1;
	} else if (c->list && manifest_param_applies(m, c->list, (size_t)v)) {
		for (size_t k = 0; k < c->npoints; k++, (*n)++) {
			values[li] = c->points[k];
			if (manifest_trial(m, v, values, CHECK_SEED, CHECK_RUNS, CHECK_WARMUP, &trials[*n]) != 0)
				return -1;
		}
	} else if (manifest_trial(m, v, values, CHECK_SEED, CHECK_RUNS, CHECK_WARMUP, &trials[(*n)++]) != 0) {
		return -1;
	}
	for (size_t k = 0; k < *n; k++)
		todo[k] = &trials[k];
	return 0;
}

int kernel_check(const struct kernel_manifest *m, const struct platform *p, double timeout_s,
		 struct tune_error *err)
{
	struct checker c = { .m = m, .p = p, .timeout_s = timeout_s, .list = manifest_list_param(m) };
	struct trial trials[RUN_LIST_MAX], *todo[RUN_LIST_MAX];
	int base = manifest_variant(m, m->baseline), rc = 0;
	size_t n, groups = m->variant_field ? 1 : m->variants.n;

	tiny(&c);
	/* The baseline first: its checksum is what the others must give. */
	for (size_t g = 0; g < groups && !rc; g++) {
		int v = g == 0 ? base : (int)g - ((int)g <= base);

		if (process_of(&c, v, trials, todo, &n) != 0)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: the parameters of its trials are too long to store",
					 m->name);
		if (n)
			rc = check_process(&c, todo, n, g == 0, err);
	}
	if (rc)
		return rc;
	if (c.checked && c.zero_checks == c.checked)
		problem(&c, m->baseline, "%s is 0 on every line: set it to what the run computed (in the SDK: "
			"r->checksum, a sum of its results), so that a variant computing something else is caught and "
			"the compiler cannot drop the work", m->correctness);
	for (size_t i = 0; i < c.nissues; i++) {
		char times[64] = "";

		if (c.issues[i].count > 1)
			snprintf(times, sizeof(times), " (%zu times; where the first was)", c.issues[i].count);
		fprintf(stderr, "%s: %s: %s%s\n", m->name, c.issues[i].where, c.issues[i].text, times);
	}
	if (c.nissues)
		return tune_fail(err, TUNE_ERR_TRIALS, "kernel check: %s: %zu problem%s (above)%s", m->name,
				 c.nissues + c.dropped, c.nissues + c.dropped == 1 ? "" : "s",
				 c.dropped ? ", the first shown" : "");
	printf("%s: speaks the protocol: %zu variant%s in %zu %s (%d warm-up and %d measured runs each), %zu "
	       "lines, every list value in every run%s\n", m->name, m->variants.n, m->variants.n == 1 ? "" : "s",
	       c.processes, m->command.n ? (c.processes == 1 ? "batch of processes" : "batches of processes") :
	       c.processes == 1 ? "process" : "processes", CHECK_WARMUP, CHECK_RUNS, c.lines,
	       m->correctness ? ", every checksum the baseline's" : "");
	return 0;
}
