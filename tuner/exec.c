#include <jansson.h>
#include <stdarg.h>
#include <unistd.h>
#include <math.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/common/timing.h"
#include "../kernels/chase/chase.h"
#include "../kernels/ipa/ipa.h"
#include "../kernels/sched/sched.h"
#include "../kernels/common/flags.h"
#include "../kernels/common/rng.h"
#include "agent_client.h"
#include "build.h"
#include "exec.h"
#include "hash.h"
#include "kernel.h"
#include "manifest_trial.h"
#include "plan.h"
#include "progress.h"
#include "runner.h"
#include "runspec.h"
#include "search.h"
#include "slurm_client.h"
#include "sweep.h"
#include "version.h"

#define MAX_BUILDS 16
/* Group sizes one kernel process measures: the kernel's list limit. */
#define MAX_BATCH FLAGS_LIST_MAX

struct built {
	int kernel, variant, hint, rc;
	char defines[1024];     /* a manifest kernel's: what tells its builds apart */
	long long build_id;
	struct build_result res;
	char reason[512];
};

struct sweep_run {
	const struct exec_context *ctx;
	const struct exec_options *opt;
	struct sweep sweep;
	struct plan plan;
	long long sweep_id;
	struct built builds[MAX_BUILDS];
	size_t nbuilds;
	char cflags[PLATFORM_MAX_CFLAGS];
	char compiler_version[256];
	char fingerprint[17];
	char kernel_hash[17];   /* a manifest kernel's manifest and sources */
	double t0;              /* for time_limit_s */
	long long measure_ns;   /* in kernels, not yet recorded */
	size_t failed;
};

int exec_context_open(struct exec_context *ctx, struct store *st, struct host_facts *facts,
		      struct platform *p, const char *platform_name, struct tune_error *err)
{
	int rc;

	memset(ctx, 0, sizeof(*ctx));
	if ((rc = hostinfo_read(facts, err)) != 0)
		return rc;
	if ((rc = platform_load(platform_name, p, err)) != 0)
		return rc;
	if ((rc = platform_resolve(p, facts, err)) != 0)
		return rc;
	return exec_context_bind(ctx, st, facts, p, err);
}

int exec_context_bind(struct exec_context *ctx, struct store *st, const struct host_facts *facts, struct platform *p,
		      struct tune_error *err)
{
	int rc;

	if ((rc = store_host(st, facts, &ctx->host_id, err)) != 0 ||
	    (rc = store_platform(st, p, &ctx->platform_id, err)) != 0)
		return rc;
	ctx->store = st;
	ctx->facts = facts;
	ctx->platform = p;
	return 0;
}

static json_t *ints_json(const struct conf_ints *l, const char *const *names)
{
	json_t *a = json_array();

	for (size_t i = 0; i < l->n; i++)
		json_array_append_new(a, names ? json_string(names[l->v[i]]) : json_integer(l->v[i]));
	return a;
}

/* The sweep as planned: what makes two runs the same sweep. */
static char *spec_json(const struct sweep_run *r)
{
	const struct platform *p = r->ctx->platform;
	const struct sweep *s = &r->sweep;
	json_t *keys = json_array();
	char *out;

	/* An adaptive plan holds every g: its range says the same, shorter. */
	for (size_t i = 0; s->strategy != STRATEGY_ADAPTIVE && i < r->plan.ntrials; i++)
		json_array_append_new(keys, json_string(r->plan.trials[i].key));
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:s, s:s, s:b, s:o, s:o}",
			      "sweep", s->name, "kernel", kernel_choices[s->kernel],
			      "variants", ints_json(&s->variants, chase_variant_names),
			      "sizes_mb", ints_json(s->sizes_mb.n ? &s->sizes_mb : &p->sizes_mb, NULL),
			      "group_sizes", ints_json(s->group_sizes.n ? &s->group_sizes : &p->group_sizes, NULL),
			      "hints", ints_json(s->hints.n ? &s->hints : &p->hints, chase_hint_names),
			      "hugepages", ints_json(s->hugepages.n ? &s->hugepages : &p->hugepages, NULL),
			      "depth", (json_int_t)s->depth, "queries", (json_int_t)s->queries,
			      "runs", (json_int_t)s->runs, "warmup", (json_int_t)s->warmup, "seed", (json_int_t)s->seed,
			      "compiler", p->compiler, "cflags", r->cflags, "pin", p->pin,
			      "cpus", ints_json(&p->cpus, NULL), "trials", keys);

	if (o) {
		json_object_set_new(o, "strategy", json_string(sweep_strategy_names[s->strategy]));
		if (s->manifest) {
			const struct kernel_metric *mt = &s->manifest->metric;

			json_t *fixed = json_array();

			json_object_set_new(o, "kernel_hash", json_string(r->kernel_hash));
			/* What the results leave out of each row: the same for all. */
			for (size_t i = 0; i < s->manifest->parameters.n; i++)
				if (MANIFEST_PARAM(s->manifest, i)->role == ROLE_FIXED)
					json_array_append_new(fixed, json_string(MANIFEST_PARAM(s->manifest, i)->name));
			json_object_set_new(o, "fixed", fixed);
			json_object_set_new(o, "metric", json_pack("{s:s, s:s, s:s}", "field", mt->field, "unit",
								   mt->unit ? mt->unit : "", "better",
								   metric_better_names[mt->better]));
		}
		if (s->kernel == KERNEL_IPA)
			json_object_set_new(o, "ipa", json_pack("{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:o}",
				"dist", ipa_dist_names[s->ipa.dist], "lat_a_ns", (json_int_t)s->ipa.lat_a_ns,
				"lat_b_ns", (json_int_t)s->ipa.lat_b_ns, "work_ns", (json_int_t)s->ipa.work_ns,
				"apps", (json_int_t)s->ipa.apps, "calls", (json_int_t)s->ipa.calls,
				"device_cpu", (json_int_t)p->device_cpu, "thresholds_ns", ints_json(&s->thresholds_ns, NULL)));
		if (s->kernel == KERNEL_SCHED)
			json_object_set_new(o, "sched", json_pack("{s:I, s:I, s:I}", "tasks", (json_int_t)s->sched.tasks,
				"accels", (json_int_t)s->sched.accels, "device_cpu", (json_int_t)p->device_cpu));
		json_object_set_new(o, "fingerprint", json_string(r->fingerprint));
		json_object_set_new(o, "search", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			"max_runs", (json_int_t)s->max_runs, "ci_target_pct", (json_int_t)s->ci_target_pct,
			"max_trials", (json_int_t)s->max_trials, "time_limit_s", (json_int_t)s->time_limit_s,
			"g_min", (json_int_t)s->g_min, "g_max", (json_int_t)s->g_max,
			"tolerance_pct", (json_int_t)s->tolerance_pct, "final_top", (json_int_t)s->final_top));
	}
	out = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return out;
}

static char *env_json(const struct sweep_run *r)
{
	char *facts = hostinfo_json(r->ctx->facts);
	json_t *o = facts ? json_loads(facts, 0, NULL) : NULL;
	char *out = NULL;

	free(facts);
	if (!o)
		return NULL;
	json_object_set_new(o, "compiler", json_string(r->ctx->platform->compiler));
	json_object_set_new(o, "compiler_version", json_string(r->compiler_version));
	json_object_set_new(o, "cflags", json_string(r->cflags));
	json_object_set_new(o, "tune_version", json_string(TUNE_VERSION));
	out = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	return out;
}

/* Records b's build (made here, or by an agent at where) with the sweep's builds. */
static int record_build(struct sweep_run *r, struct built *b, const char *compiler, const char *where,
			struct tune_error *err)
{
	const struct kernel_manifest *m = r->sweep.manifest;
	const struct kernel_info *k = m ? NULL : &kernel_table[b->kernel];
	struct store_build sb = { b->res.hash, m ? m->name : k->name,
				  m ? m->variants.v[b->variant] : b->kernel == KERNEL_CHASE ? chase_variant_names[b->variant]
											 : k->name,
				  b->hint >= 0 ? chase_hint_names[b->hint] : NULL, compiler, b->res.compiler_version,
				  b->res.cflags, b->res.defines, where };

	return store_build(r->ctx->store, &sb, &b->build_id, err);
}

static struct built *get_build(struct sweep_run *r, const struct trial *t)
{
	struct built *b;
	struct tune_error err;
	struct build_spec spec = { t->kernel, t->variant, t->hint, r->ctx->platform->compiler,
				   &r->ctx->platform->cflags, r->opt->stop, t->manifest, NULL };
	struct strbuf defines = STRBUF_INIT;

	/* Only chase compiles its variants apart; the others choose at run time. */
	if (t->kernel != KERNEL_CHASE && !t->manifest)
		spec.variant = 0;
	if (t->manifest) {
		manifest_defines(t, &defines);
		if (defines.oom || defines.len >= sizeof(b->defines)) {
			strbuf_release(&defines);
			return NULL;
		}
	}
	for (size_t i = 0; i < r->nbuilds; i++)
		if (r->builds[i].kernel == t->kernel && r->builds[i].variant == spec.variant &&
		    r->builds[i].hint == t->hint && !strcmp(r->builds[i].defines, strbuf_str(&defines))) {
			strbuf_release(&defines);
			return &r->builds[i];
		}
	if (r->nbuilds == MAX_BUILDS) {
		strbuf_release(&defines);
		return NULL;
	}
	b = &r->builds[r->nbuilds++];
	memset(b, 0, sizeof(*b));
	b->kernel = t->kernel;
	b->variant = spec.variant;
	b->hint = t->hint;
	snprintf(b->defines, sizeof(b->defines), "%s", strbuf_str(&defines));
	strbuf_release(&defines);
	spec.defines = b->defines;
	/* An agent builds with its own compiler; execute() records its build. */
	if (r->ctx->agent)
		return b;
	b->rc = build_kernel(&spec, &b->res, &err);
	if (b->rc == 0)
		b->rc = record_build(r, b, spec.compiler, b->res.path, &err);
	if (b->rc) {
		fprintf(stderr, "tune: %s\n", err.msg);
		snprintf(b->reason, sizeof(b->reason), "build failed: %.*s", (int)strcspn(err.msg, "\n"), err.msg);
	}
	return b;
}

static int json_get_num(json_t *o, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

/* What tells a batch's trials apart in the kernel's output: g, T, or the policy. */
static long long trial_point(const struct trial *t)
{
	if (t->manifest)
		return manifest_point(t);
	return t->kernel == KERNEL_IPA ? t->threshold_ns : t->kernel == KERNEL_SCHED ? t->variant : t->group_size;
}

/* One output line's values. chase reports ns per lookup; ipa and sched
 * report the run's wall time (sched: the makespan), stored as ns per call or
 * task so that the statistics and the rankings read the same for all.
 * Returns 0, or -1 when a field is missing. */
static int sample_values(int kernel, json_t *o, long long *point, double *ns_total, double *per_op, double *ops_s,
			 double *cpu)
{
	double v, apps, each;

	if (kernel != KERNEL_CHASE) {
		/* ipa tells its runs apart by T, sched by the policy. */
		json_t *thr = json_object_get(o, "threshold_ns");

		*point = kernel == KERNEL_IPA ? (json_is_integer(thr) ? (long long)json_integer_value(thr) : -1)
			 : tune_name_index(sched_policy_names, json_string_value(json_object_get(o, "policy")));
		if (*point < 0 || json_get_num(o, "run", &v) || json_get_num(o, "wall_ns", ns_total) ||
		    json_get_num(o, "apps", &apps) || json_get_num(o, kernel == KERNEL_IPA ? "calls" : "tasks", &each) ||
		    apps * each <= 0 || *ns_total <= 0)
			return -1;
		*per_op = *ns_total / (apps * each);
		*ops_s = 1e9 / *per_op;
		*cpu = -1; /* the apps and the device each pin themselves */
		return 0;
	}
	if (json_get_num(o, "group_size", &v) || json_get_num(o, "run", ns_total) ||
	    json_get_num(o, "ns_total", ns_total) || json_get_num(o, "ns_per_lookup", per_op) ||
	    json_get_num(o, "lookups_per_sec", ops_s) || json_get_num(o, "cpu", cpu))
		return -1;
	*point = (long long)v;
	return 0;
}

/* Samples of one batch, gathered over its kernel runs, recorded together. */
struct gathered {
	struct store_sample *v;
	size_t n, cap;
	char **outputs; /* each kernel run's stdout: the samples' raw_json point into it */
	size_t nout;
};

static void gathered_free(struct gathered *g)
{
	for (size_t i = 0; i < g->nout; i++)
		free(g->outputs[i]);
	free(g->outputs);
	free(g->v);
	memset(g, 0, sizeof(*g));
}

static size_t count_of(const struct gathered *g, const struct trial *t, int warmup)
{
	size_t n = 0;

	for (size_t i = 0; i < g->n; i++)
		n += g->v[i].trial == t && g->v[i].warmup == warmup;
	return n;
}

/* Parses one kernel run's output into g, numbering runs after those already
 * gathered, and checks every checksum against the reference. Returns NULL, or
 * why the batch failed. */
static const char *parse_output(struct sweep_run *r, char *out, struct trial **todo, size_t n, long long runs,
				long long warmup, struct gathered *g, char *why, size_t whylen)
{
	size_t expect = n * (size_t)(runs + warmup), got = 0, line_no = 0;
	unsigned long long ref = 0;
	int have_ref = 0;
	char *save = NULL;
	struct tune_error err;

	if (store_reference_checksum(r->ctx->store, r->sweep_id, todo[0], &ref, &have_ref, &err) != 0) {
		snprintf(why, whylen, "%.900s", err.msg);
		return why;
	}
	if (!have_ref && g->n) {
		ref = g->v[0].checksum;
		have_ref = 1;
	}
	if (g->n + expect > g->cap) {
		size_t cap = g->n + expect + 16;
		struct store_sample *nv = realloc(g->v, cap * sizeof(*nv));

		if (!nv)
			return "out of memory";
		g->v = nv;
		g->cap = cap;
	}
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_error_t jerr;
		json_t *o = json_loads(line, 0, &jerr);
		double ns_total = 0, nspl, lps, cpu;
		unsigned long long check = 0;
		char bad[256] = "";
		long long point;
		json_t *warm = o ? json_object_get(o, "warmup") : NULL;
		json_t *sum = o ? json_object_get(o, "checksum") : NULL;
		struct store_sample *s;
		const struct trial *t = NULL;

		line_no++;
		if (o && todo[0]->manifest) {
			/* A manifest kernel says which fields hold what. */
			if (manifest_sample(todo[0], o, &point, &nspl, &check, &cpu, bad, sizeof(bad)) == 0)
				lps = nspl > 0 ? 1e9 / nspl : 0;
		} else if (o && sample_values(todo[0]->kernel, o, &point, &ns_total, &nspl, &lps, &cpu) == 0 &&
			   json_is_integer(sum)) {
			check = (unsigned long long)json_integer_value(sum);
		} else if (o) {
			snprintf(bad, sizeof(bad), "a field is missing");
		}
		if (!o || bad[0] || !json_is_boolean(warm)) {
			snprintf(why, whylen, "kernel output line %zu is not a complete result: %s", line_no,
				 !o ? jerr.text : bad[0] ? bad : "field 'warmup' is missing or not true or false");
			json_decref(o);
			return why;
		}
		for (size_t i = 0; i < n; i++)
			if (trial_point(todo[i]) == point)
				t = todo[i];
		if (!t || got == expect) {
			json_decref(o);
			snprintf(why, whylen, "kernel output line %zu is for a run that was not asked for", line_no);
			return why;
		}
		s = &g->v[g->n];
		s->trial = t;
		s->warmup = json_is_true(warm);
		s->run_id = (long long)count_of(g, t, s->warmup);
		s->ns_total = (long long)ns_total;
		s->ns_per_lookup = nspl;
		s->lookups_per_sec = lps;
		s->checksum = check;
		s->cpu = (int)cpu;
		s->outlier = 0;
		s->raw_json = line;
		json_decref(o);
		g->n++;
		got++;
		if (!have_ref) {
			ref = s->checksum;
			have_ref = 1;
		} else if (s->checksum != ref) {
			snprintf(why, whylen, "%s mismatch: got %llu, expected %llu (the variant computes a "
				 "different result: a bug in the kernel or the compiler flags)",
				 todo[0]->manifest ? todo[0]->manifest->correctness : "checksum", s->checksum, ref);
			return why;
		}
	}
	if (got != expect) {
		snprintf(why, whylen, "kernel reported %zu of %zu runs", got, expect);
		return why;
	}
	return NULL;
}

/* Statistics of t's measured runs in g; flags its outliers there. */
static void trial_stats(struct gathered *g, const struct trial *t, struct stats *out)
{
	double *v = malloc((g->n ? g->n : 1) * sizeof(*v));
	unsigned char *flags = malloc(g->n ? g->n : 1);
	size_t n = 0;

	memset(out, 0, sizeof(*out));
	if (!v || !flags)
		goto out;
	for (size_t i = 0; i < g->n; i++)
		if (g->v[i].trial == t && !g->v[i].warmup)
			v[n++] = g->v[i].ns_per_lookup;
	stats_compute(v, n, (uint64_t)t->id, out, flags);
	for (size_t i = 0, k = 0; i < g->n; i++)
		if (g->v[i].trial == t && !g->v[i].warmup)
			g->v[i].outlier = flags[k++];
out:
	free(v);
	free(flags);
}

/* The run spec measuring todo[0..n) of one context, runs + warmup each. */
static void spec_of(const struct sweep_run *r, struct trial **todo, size_t n, long long runs, long long warmup,
		    struct run_spec *s)
{
	const struct trial *t = todo[0];
	const struct sweep *sw = &r->sweep;

	memset(s, 0, sizeof(*s));
	s->kernel = t->kernel;
	s->variant = t->kernel == KERNEL_SCHED ? 0 : t->variant;
	s->hint = t->hint;
	for (size_t i = 0; i < n && i < RUNSPEC_MAX_POINTS; i++)
		s->points[s->npoints++] = trial_point(todo[i]);
	s->runs = runs;
	s->warmup = warmup;
	s->seed = t->seed;
	s->timeout_s = sw->timeout_s;
	s->size_mb = t->size_mb;
	s->depth = t->depth;
	s->queries = t->queries;
	s->hugepages = t->hugepages;
	if (t->kernel == KERNEL_IPA) {
		s->dist = sw->ipa.dist;
		s->lat_a_ns = sw->ipa.lat_a_ns;
		s->lat_b_ns = sw->ipa.lat_b_ns;
		s->work_ns = sw->ipa.work_ns;
		s->apps = sw->ipa.apps;
		s->calls = sw->ipa.calls;
	} else if (t->kernel == KERNEL_SCHED) {
		s->dispatch = t->dispatch;
		s->cost_dist = sw->sched.cost_dist;
		s->completion = sw->sched.completion;
		s->apps = t->apps;
		s->tasks = sw->sched.tasks;
		s->accels = sw->sched.accels;
		s->speedup = t->speedup;
		s->cost_a_ns = sw->sched.cost_a_ns;
		s->cost_b_ns = sw->sched.cost_b_ns;
		s->threshold_ns = t->threshold_ns;
	}
}

/* Runs spec here (bin built) or on the context's agent: the kernel's
 * result in res. Returns 0, or a tune_err that stops the sweep (the host is
 * down, interrupted, cannot start a process). *reason is set when the build
 * failed on the agent. */
static int execute(struct sweep_run *r, struct built *bin, const struct run_spec *spec, struct run_result *res,
		   const char **reason, struct tune_error *err)
{
	struct agent_client *agent = r->ctx->agent;
	struct agent_output ao;
	int rc, cpu;

	*reason = NULL;
	if (!agent) {
		const struct platform *p = r->ctx->platform;
		struct run_place place = { p->pin, &p->cpus, p->device_cpu };
		struct runspec_argv a;
		char bind[64] = "none", name[96];

		runspec_args(spec, bin->res.path, &place, &a, &cpu);
		if (!r->ctx->slurm)
			return runner_exec(a.argv, cpu, (double)spec->timeout_s, r->opt->stop, res, err);
		/* srun pins chase; ipa and sched pin their own threads. */
		if (cpu >= 0)
			snprintf(bind, sizeof(bind), "map_cpu:%d", cpu);
		snprintf(name, sizeof(name), "tune-%.80s", r->sweep.name);
		return slurm_client_run(r->ctx->slurm, a.argv, bind, name, (double)spec->timeout_s, r->opt->stop, res,
					err);
	}
	if ((rc = agent_client_run(agent, spec, r->opt->stop, &ao, err)) != 0)
		return rc;
	if (!ao.built) {
		snprintf(bin->reason, sizeof(bin->reason), "build failed on '%s': %.*s", agent->url,
			 (int)strcspn(ao.reason, "\n"), ao.reason);
		*reason = bin->reason;
		return 0;
	}
	/* The agent's build, recorded once with this sweep's builds. */
	if (!bin->build_id) {
		bin->res = ao.build;
		if ((rc = record_build(r, bin, ao.compiler, agent->url, err)) != 0) {
			run_result_free(&ao.run);
			return rc;
		}
	}
	*res = ao.run;
	return 0;
}

/* A manifest kernel's process for todo[0..n), here or as a Slurm job. */
static int execute_manifest(struct sweep_run *r, const struct built *bin, struct trial **todo, size_t n,
			    long long runs, long long warmup, struct run_result *res, struct tune_error *err)
{
	const struct platform *p = r->ctx->platform;
	struct manifest_argv *a = malloc(sizeof(*a));
	int cpu = p->pin ? (int)p->cpus.v[0] : -1, rc;
	char bind[64] = "none", name[96];

	if (!a)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (manifest_args(bin->res.path, todo, n, runs, warmup, a) != 0) {
		free(a);
		return tune_fail(err, TUNE_ERR_CONFIG, "sweep '%s': the command line of kernel '%s' is too long (fewer "
				 "list values per process)", r->sweep.name, todo[0]->manifest->name);
	}
	if (!r->ctx->slurm) {
		rc = runner_exec(a->argv, cpu, (double)r->sweep.timeout_s, r->opt->stop, res, err);
	} else {
		if (cpu >= 0)
			snprintf(bind, sizeof(bind), "map_cpu:%d", cpu);
		snprintf(name, sizeof(name), "tune-%.80s", r->sweep.name);
		rc = slurm_client_run(r->ctx->slurm, a->argv, bind, name, (double)r->sweep.timeout_s, r->opt->stop, res,
				      err);
	}
	free(a);
	return rc;
}

/* Runs the kernel once for todo[0..n) (one context), runs + warmup each. */
static const char *run_kernel(struct sweep_run *r, struct built *bin, struct trial **todo, size_t n, long long runs,
			      long long warmup, struct gathered *g, char *why, size_t whylen, int *rc,
			      struct tune_error *err)
{
	struct run_spec spec;
	char **outs;
	struct run_result res;
	const char *reason = NULL;
	uint64_t t0;

	spec_of(r, todo, n, runs, warmup, &spec);
	t0 = timing_now_ns();
	if (todo[0]->manifest)
		*rc = execute_manifest(r, bin, todo, n, runs, warmup, &res, err);
	else
		*rc = execute(r, bin, &spec, &res, &reason, err);
	if (*rc != 0)
		return *rc == TUNE_ERR_INTERRUPTED ? "interrupted" : "cannot run";
	if (reason)
		return reason;
	r->measure_ns += (long long)(timing_now_ns() - t0);
	if (res.interrupted) {
		*rc = TUNE_ERR_INTERRUPTED;
		run_result_free(&res);
		return "interrupted";
	}
	if (!res.exited || res.status != 0) {
		char desc[160];

		runner_describe(&res, (double)r->sweep.timeout_s, desc, sizeof(desc));
		snprintf(why, whylen, "kernel %s%s%.*s", desc, res.errout[0] ? ": " : "",
			 (int)strcspn(res.errout, "\n"), res.errout);
		run_result_free(&res);
		return why;
	}
	outs = realloc(g->outputs, (g->nout + 1) * sizeof(*outs));
	if (!outs) {
		run_result_free(&res);
		return "out of memory";
	}
	g->outputs = outs;
	g->outputs[g->nout++] = res.out;
	res.out = NULL;
	reason = parse_output(r, g->outputs[g->nout - 1], todo, n, runs, warmup, g, why, whylen);
	run_result_free(&res);
	return reason;
}

/* Measures todo[0..n), trials of one context, in one transaction: a first
 * kernel run for all, then more runs for those whose interval is not yet
 * tight (up to max_runs). */
static int run_trials(struct sweep_run *r, struct trial **todo, size_t n, struct progress *pg, struct tune_error *err)
{
	const struct sweep *sw = &r->sweep;
	struct store_outcome outs[CHASE_MAX_GROUP + 1];
	struct gathered g = { 0 };
	const char *reason = NULL;
	char why[1024], label[160];
	long long max_runs = sw->max_runs > sw->runs ? sw->max_runs : sw->runs;
	struct built *bin;
	int rc = 0;
	double cost = plan_cost(todo, n);

	plan_trial_label(todo[0], label, sizeof(label));
	if (n > 1) {
		char *eq = strrchr(label, '='), last[160], first[64];

		plan_trial_label(todo[n - 1], last, sizeof(last));
		if (eq && strrchr(last, '=')) {
			snprintf(first, sizeof(first), "%s", eq + 1);
			first[strcspn(first, " ")] = '\0';
			snprintf(eq + 1, sizeof(label) - (size_t)(eq + 1 - label), "%.40s..%.40s", first,
				 strrchr(last, '=') + 1);
		}
	}
	progress_begin(pg, label);
	bin = get_build(r, todo[0]);
	if (!bin)
		reason = "too many builds in one sweep";
	else if (bin->rc)
		reason = bin->reason;
	else
		reason = run_kernel(r, bin, todo, n, sw->runs, sw->warmup, &g, why, sizeof(why), &rc, err);
	/* Adaptive repetitions: more runs while the interval is too wide to rank. */
	while (!reason && !rc) {
		long long done_runs = (long long)count_of(&g, todo[0], 0);
		long long more = sw->runs < max_runs - done_runs ? sw->runs : max_runs - done_runs;
		int loose = 0;

		for (size_t i = 0; i < n && more > 0 && !loose; i++) {
			struct stats st;

			trial_stats(&g, todo[i], &st);
			loose = stats_rel_halfwidth(&st) * 100.0 > (double)sw->ci_target_pct;
		}
		if (!loose)
			break;
		/* The whole batch runs again, so its group sizes stay interleaved. */
		reason = run_kernel(r, bin, todo, n, more, 1, &g, why, sizeof(why), &rc, err);
	}
	if (rc) {
		gathered_free(&g);
		return rc;
	}
	for (size_t i = 0; i < n; i++) {
		outs[i].trial = todo[i];
		outs[i].ok = reason == NULL;
		outs[i].reason = reason;
		outs[i].build_id = bin && !bin->rc ? bin->build_id : 0;
		outs[i].cpu = r->ctx->platform->pin && (todo[i]->kernel == KERNEL_CHASE || todo[i]->manifest)
				      ? (int)r->ctx->platform->cpus.v[0] : -1;
		if (!reason)
			trial_stats(&g, todo[i], &outs[i].stats);
		else
			memset(&outs[i].stats, 0, sizeof(outs[i].stats));
	}
	{
		struct store_batch_meta meta = { r->sweep_id, r->measure_ns };

		rc = store_record_batch(r->ctx->store, outs, n, g.v, g.n, &meta, err);
		r->measure_ns = 0;
	}
	gathered_free(&g);
	if (rc)
		return rc;
	for (size_t i = 0; i < n && !reason; i++)
		todo[i]->stats = outs[i].stats;
	if (reason)
		r->failed += n;
	progress_end(pg, n, cost, label, reason ? reason : "ok");
	return 0;
}

static void warn(struct sweep_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A warning goes to stderr and into the sweep's row, for `tune results`. */
static void warn(struct sweep_run *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "tune: warning: sweep '%s': %s\n", r->sweep.name, msg);
	(void)store_sweep_warn(r->ctx->store, r->sweep_id, msg, NULL);
}

/* A noisy host before measuring: load, or another process on the pinned CPU. */
static void check_host_noise(struct sweep_run *r)
{
	const struct platform *p = r->ctx->platform;
	const struct host_facts *f = r->ctx->facts;
	char who[300];

	if (f->loadavg1 > 0.75 * (double)f->pus)
		warn(r, "load average %.2f on %d CPUs: the host is busy, timings will be noisy", f->loadavg1, f->pus);
	if (p->pin && hostinfo_busy_cpu((int)p->cpus.v[0], who, sizeof(who)) > 0)
		warn(r, "another process is running on pinned CPU %lld: %s", p->cpus.v[0], who);
}

/* After measuring: a typical relative spread above 5% makes rankings weak. */
static void check_spread(struct sweep_run *r)
{
	double *rel = malloc((r->plan.ntrials ? r->plan.ntrials : 1) * sizeof(*rel));
	size_t n = 0;
	struct stats st;

	if (!rel)
		return;
	for (size_t i = 0; i < r->plan.ntrials; i++)
		if (r->plan.trials[i].stats.n && r->plan.trials[i].stats.median > 0)
			rel[n++] = r->plan.trials[i].stats.mad / r->plan.trials[i].stats.median;
	stats_compute(rel, n, 1, &st, NULL);
	if (n && st.median > 0.05)
		warn(r, "high spread: the median trial varies by %.1f%% (MAD/median); raise runs or max_runs, or "
			"quieten the host", 100.0 * st.median);
	free(rel);
}

/* The ipa kernel's ping-pong: this host's wake-up cost, a host fact that
 * `tune results` sets against the chosen threshold. A failure only warns. */
static void measure_wakeup(struct sweep_run *r)
{
	const struct platform *p = r->ctx->platform;
	struct built *bin = get_build(r, &r->plan.trials[0]);
	struct run_spec spec;
	struct run_result res;
	struct tune_error err;
	const char *reason = NULL;
	json_t *o = NULL;
	double cross, same;

	if (!bin || bin->rc)
		return;
	memset(&spec, 0, sizeof(spec));
	spec.kernel = KERNEL_IPA;
	spec.variant = IPA_IPA;
	spec.hint = -1;
	spec.wakeups = 2000;
	spec.runs = 1;
	spec.timeout_s = 60;
	spec.apps = spec.calls = 1;
	spec.points[spec.npoints++] = 0;
	if (execute(r, bin, &spec, &res, &reason, &err) != 0) {
		warn(r, "cannot measure the wake-up cost: %s", err.msg);
		return;
	}
	if (reason) {
		warn(r, "cannot measure the wake-up cost: %s", reason);
		return;
	}
	if (res.exited && res.status == 0)
		o = json_loads(res.out, 0, NULL);
	if (!o || json_get_num(o, "cross_cpu_ns", &cross) || json_get_num(o, "same_cpu_ns", &same))
		warn(r, "cannot measure the wake-up cost: the kernel said '%.200s'", res.errout[0] ? res.errout : res.out);
	else if (store_host_wakeup(r->ctx->store, r->ctx->host_id, cross, same, &err) != 0)
		fprintf(stderr, "tune: %s\n", err.msg);
	else
		fprintf(stderr, "tune: wake-up cost on '%s': %.1f us across CPUs %lld and %lld, %.1f us on one CPU\n",
			r->ctx->facts->hostname, cross / 1000.0, p->device_cpu, p->cpus.v[0], same / 1000.0);
	json_decref(o);
	run_result_free(&res);
}

/* Trials one kernel process measures together: chase's g of one variant,
 * hint and size; ipa's thresholds; sched's policies at one point. */
static int same_context(const struct trial *a, const struct trial *b)
{
	if (a->kernel != b->kernel)
		return 0;
	if (a->manifest)
		return manifest_same_process(a, b);
	if (a->kernel == KERNEL_SCHED)
		return a->apps == b->apps && a->speedup == b->speedup && a->dispatch == b->dispatch;
	return a->variant == b->variant && a->hint == b->hint && a->size_mb == b->size_mb &&
	       a->hugepages == b->hugepages;
}

/* Trials an optimum is chosen among: chase's of one working set, every ipa
 * threshold, sched's policies and dispatches at one (speedup, apps). */
static int same_decision(const struct trial *a, const struct trial *b)
{
	if (a->manifest)
		return manifest_same_decision(a, b);
	if (a->kernel == KERNEL_SCHED)
		return a->speedup == b->speedup && a->apps == b->apps;
	return a->size_mb == b->size_mb;
}

/* sched's classes, as the paper's Fig. 10 reads them: an accelerator about
 * as fast as a CPU, moderately faster, much faster; one app, a few, many. */
static void sched_class(const struct platform *p, const struct trial *t, char *out, size_t len)
{
	long long cpus = (long long)p->cpus.n;

	snprintf(out, len, "%s/%s", t->speedup < 2 ? "cpu-like" : t->speedup <= 10 ? "moderate" : "fast",
		 t->apps == 1 ? "single" : t->apps <= 2 * cpus ? "few" : "many");
}

/* Measures the given trials, a context at a time (consecutive trials of one
 * context share a kernel process). */
static int measure(struct sweep_run *r, struct trial **ts, size_t n, const char *title, struct tune_error *err)
{
	struct progress pg;
	struct trial *todo[CHASE_MAX_GROUP + 1];
	double cost = 0;
	int rc = 0;

	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && j - i < MAX_BATCH && same_context(ts[j], ts[i]))
			j++;
		cost += plan_cost(ts + i, j - i);
		i = j;
	}
	progress_init(&pg, title, n, cost);
	for (size_t i = 0; i < n && !rc;) {
		size_t m = 0;

		if (r->opt->stop && *r->opt->stop)
			return TUNE_ERR_INTERRUPTED;
		while (i < n && m < MAX_BATCH && (!m || same_context(ts[i], todo[0])))
			todo[m++] = ts[i++];
		if ((rc = store_sweep_trials(r->ctx->store, r->sweep_id, todo, m, 1, err)) != 0)
			return rc;
		/* Those a previous run finished are not measured again. */
		{
			size_t k = 0;

			for (size_t a = 0; a < m; a++)
				if (todo[a]->status != TRIAL_DONE)
					todo[k++] = todo[a];
			m = k;
		}
		if (m)
			rc = run_trials(r, todo, m, &pg, err);
	}
	if (!rc && pg.done)
		progress_finish(&pg);
	return rc;
}

static int by_median(const void *x, const void *y)
{
	const struct trial *a = *(struct trial *const *)x, *b = *(struct trial *const *)y;

	return (a->stats.median > b->stats.median) - (a->stats.median < b->stats.median);
}

static const char *size_class(const struct platform *p, long long size_mb)
{
	long long kb = size_mb * 1024;

	if (p->llc_kb > 0 && kb * 2 <= p->llc_kb)
		return "cache";
	if (p->llc_kb > 0 && kb <= 2 * p->llc_kb)
		return "llc";
	return "dram";
}

/* The smallest g of best's context within tolerance of best, among cand;
 * ipa and sched have no knee: the fastest T or policy is the choice. */
static struct trial *knee_of(struct trial **cand, size_t n, const struct trial *best, double tolerance)
{
	struct trial *k = (struct trial *)best;
	const struct kernel_manifest *m = best->manifest;

	/* A manifest kernel's knee: the smallest list value within tolerance,
	 * when the list is a number (fewer in flight, same speed). */
	if (m) {
		const struct kernel_param *list = manifest_list_param(m);

		if (!list || list->type == PARAM_CHOICE || manifest_point(best) == PLAN_NA)
			return k;
		for (size_t i = 0; i < n; i++)
			if (manifest_same_process(cand[i], best) &&
			    !manifest_better(m, best->stats.median, m->metric.better == BETTER_HIGHER
					     ? cand[i]->stats.median / (1.0 - tolerance)
					     : cand[i]->stats.median / (1.0 + tolerance)) &&
			    manifest_point(cand[i]) < manifest_point(k))
				k = cand[i];
		return k;
	}
	if (best->kernel != KERNEL_CHASE)
		return k;
	for (size_t i = 0; i < n; i++)
		if (same_context(cand[i], best) && cand[i]->stats.median <= best->stats.median * (1.0 + tolerance) &&
		    cand[i]->group_size < k->group_size)
			k = cand[i];
	return k;
}

/* A manifest kernel's optimum: its context, every parameter of the knee,
 * the runner-up's likewise. */
static int record_manifest_optimum(struct sweep_run *r, const struct trial *knee, const struct trial *best,
				   const struct trial *runner, long long trials, struct tune_error *err)
{
	const struct kernel_manifest *m = knee->manifest;
	json_t *params = manifest_params_json(knee), *ru = runner ? manifest_params_json(runner) : NULL;
	json_t *exports = manifest_exports_json(knee);
	char *params_text = NULL, *runner_text = NULL, *exports_text = NULL;
	long long point = manifest_point(knee), best_point = manifest_point(best);
	int rc;

	if (ru) {
		json_object_set_new(ru, "median", json_real(runner->stats.median));
		json_object_set_new(ru, "ci_low", json_real(runner->stats.ci_low));
		json_object_set_new(ru, "ci_high", json_real(runner->stats.ci_high));
	}
	params_text = params ? json_dumps(params, JSON_COMPACT) : NULL;
	runner_text = ru ? json_dumps(ru, JSON_COMPACT) : NULL;
	exports_text = exports ? json_dumps(exports, JSON_COMPACT) : NULL;
	json_decref(params);
	json_decref(ru);
	json_decref(exports);
	if (!params_text || !exports_text || (runner && !runner_text)) {
		free(params_text);
		free(runner_text);
		free(exports_text);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	{
		struct store_optimum o = { r->ctx->platform->name, r->ctx->facts->hostname, r->fingerprint, m->name,
					   knee->context[0] ? knee->context : "-", m->variants.v[knee->variant], NULL,
					   runner_text, 0, point == PLAN_NA ? 0 : point,
					   best_point == PLAN_NA ? 0 : best_point, trials, r->sweep_id, -1, 0, knee->stats,
					   0, 0, NULL, knee->context, params_text, exports_text };

		rc = store_optimum(r->ctx->store, &o, err);
	}
	free(params_text);
	free(runner_text);
	free(exports_text);
	return rc;
}

/* Records the optimum of a decision: knee, the fastest and the runner-up. */
static int record_optimum(struct sweep_run *r, const struct trial *knee, const struct trial *best,
			  const struct trial *runner, long long trials, struct tune_error *err)
{
	char runner_json[512] = "", cls[48];
	const struct kernel_info *k = &kernel_table[knee->kernel];

	if (knee->manifest)
		return record_manifest_optimum(r, knee, best, runner, trials, err);
	if (knee->kernel == KERNEL_SCHED)
		sched_class(r->ctx->platform, knee, cls, sizeof(cls));
	else
		snprintf(cls, sizeof(cls), "%s", knee->kernel == KERNEL_IPA ? "-"
			 : size_class(r->ctx->platform, knee->size_mb));
	struct store_optimum o = { r->ctx->platform->name, r->ctx->facts->hostname, r->fingerprint,
				   k->name, cls,
				   k->variant_names[knee->variant],
				   knee->hint >= 0 ? chase_hint_names[knee->hint] : NULL, NULL,
				   knee->size_mb, knee->group_size, best->group_size,
				   trials, r->sweep_id,
				   knee->kernel == KERNEL_IPA ? knee->threshold_ns : -1,
				   knee->hugepages, knee->stats, 0, 0, NULL, NULL, NULL, NULL };

	if (knee->kernel == KERNEL_SCHED) {
		o.threshold_ns = knee->threshold_ns == CONF_INF_VALUE ? -1 : knee->threshold_ns;
		o.speedup = knee->speedup;
		o.apps = knee->apps;
		o.dispatch = sched_dispatch_names[knee->dispatch];
	}
	if (runner && knee->kernel == KERNEL_SCHED) {
		snprintf(runner_json, sizeof(runner_json),
			 "{\"policy\":\"%s\",\"dispatch\":\"%s\",\"median\":%.4f,\"ci_low\":%.4f,"
			 "\"ci_high\":%.4f}", sched_policy_names[runner->variant],
			 sched_dispatch_names[runner->dispatch], runner->stats.median, runner->stats.ci_low,
			 runner->stats.ci_high);
		o.runner_up = runner_json;
	} else if (runner && knee->kernel == KERNEL_IPA) {
		snprintf(runner_json, sizeof(runner_json),
			 "{\"threshold_ns\":%lld,\"median\":%.4f,\"ci_low\":%.4f,\"ci_high\":%.4f}",
			 runner->threshold_ns, runner->stats.median, runner->stats.ci_low,
			 runner->stats.ci_high);
		o.runner_up = runner_json;
	} else if (runner) {
		snprintf(runner_json, sizeof(runner_json),
			 "{\"variant\":\"%s\",\"hint\":\"%s\",\"group_size\":%lld,\"hugepages\":%d,"
			 "\"median\":%.4f,\"ci_low\":%.4f,\"ci_high\":%.4f}",
			 chase_variant_names[runner->variant],
			 runner->hint >= 0 ? chase_hint_names[runner->hint] : "none", runner->group_size,
			 runner->hugepages, runner->stats.median, runner->stats.ci_low,
			 runner->stats.ci_high);
		o.runner_up = runner_json;
	}
	return store_optimum(r->ctx->store, &o, err);
}

/* cand[0..n) best first by the metric. */
static void rank(struct trial **cand, size_t n)
{
	qsort(cand, n, sizeof(struct trial *), by_median);
	if (n && cand[0]->manifest && cand[0]->manifest->metric.better == BETTER_HIGHER)
		for (size_t i = 0; i < n / 2; i++) {
			struct trial *t = cand[i];

			cand[i] = cand[n - 1 - i];
			cand[n - 1 - i] = t;
		}
}

/* For each working set: re-measure the top candidates side by side in a
 * random order, then record the optimum (the knee of the best context). */
static int decide(struct sweep_run *r, struct tune_error *err)
{
	const struct sweep *sw = &r->sweep;
	struct trial **cand = calloc(r->plan.ntrials + 1, sizeof(struct trial *));
	struct trial *finals = calloc((size_t)sw->final_top + 2, sizeof(*finals));
	struct rng rng = { (uint64_t)sw->seed ^ 0x66696e616cull };
	char final_title[80];
	int rc = 0;

	if (!cand || !finals) {
		free(cand);
		free(finals);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	for (size_t i = 0; i < r->plan.ntrials && !rc; i++) {
		const struct trial *first = &r->plan.trials[i];
		size_t n = 0, nf = 0, measured = 0;
		struct trial *best, *knee, *runner = NULL, *fin[18];
		int seen = 0;

		for (size_t j = 0; j < i; j++)
			seen |= same_decision(&r->plan.trials[j], first);
		if (seen)
			continue;
		for (size_t j = i; j < r->plan.ntrials; j++)
			if (same_decision(&r->plan.trials[j], first) && r->plan.trials[j].stats.n)
				cand[n++] = &r->plan.trials[j];
		measured = n;
		if (!n)
			continue;
		rank(cand, n);
		knee = knee_of(cand, n, cand[0], sw->tolerance);
		if (sw->final_top > 0) {
			/* The top candidates and the knee, each once. */
			for (size_t k = 0; k < n && nf < (size_t)sw->final_top; k++)
				fin[nf++] = cand[k];
			if (knee != cand[0] && (nf < 2 || knee != fin[1]) && (nf < 3 || knee != fin[2]))
				fin[nf++] = knee;
			for (size_t k = 0; k < nf; k++) {
				finals[k] = *fin[k];
				finals[k].id = 0;
				finals[k].status = TRIAL_PENDING;
				finals[k].phase = PHASE_FINAL;
				memset(&finals[k].stats, 0, sizeof(finals[k].stats));
				snprintf(finals[k].key, sizeof(finals[k].key), "%.300s/final", fin[k]->key);
				fin[k] = &finals[k];
			}
			/* A random order, kept together by context so each is one process. */
			for (size_t k = nf; k > 1; k--) {
				size_t j = (size_t)rng_below(&rng, k);
				struct trial *t = fin[k - 1];

				fin[k - 1] = fin[j];
				fin[j] = t;
			}
			{
				struct trial *grouped[18] = { NULL };
				size_t g = 0;

				for (size_t a = 0; a < nf; a++) {
					int emitted = 0;

					for (size_t b = 0; b < a; b++)
						emitted |= same_context(fin[b], fin[a]);
					for (size_t b = a; b < nf && !emitted; b++)
						if (same_context(fin[b], fin[a]))
							grouped[g++] = fin[b];
				}
				memcpy(fin, grouped, nf * sizeof(struct trial *));
			}
			if ((rc = store_sweep_trials(r->ctx->store, r->sweep_id, fin, nf, 1, err)) != 0 ||
			    (rc = store_trial_stats(r->ctx->store, fin, nf, err)) != 0)
				break;
			snprintf(final_title, sizeof(final_title), "%.60s%sfinal", r->opt->several_hosts ?
				 r->ctx->facts->hostname : "", r->opt->several_hosts ? ": " : "");
			if ((rc = measure(r, fin, nf, final_title, err)) != 0)
				break;
			n = 0;
			for (size_t k = 0; k < nf; k++)
				if (fin[k]->stats.n)
					cand[n++] = fin[k];
			if (!n)
				continue;
			rank(cand, n);
			knee = knee_of(cand, n, cand[0], sw->tolerance);
		}
		best = cand[0];
		for (size_t k = 0; k < n; k++)
			if (cand[k] != knee) {
				runner = cand[k];
				break;
			}
		rc = record_optimum(r, knee, best, runner, (long long)measured + (long long)n * (sw->final_top > 0), err);
	}
	free(cand);
	free(finals);
	return rc;
}

int exec_fingerprint(const struct platform *p, const struct host_facts *facts, char out[17], struct tune_error *err)
{
	char version[256], cflags[PLATFORM_MAX_CFLAGS], sources[17], extra[PLATFORM_MAX_CFLAGS + 512];
	int rc;

	conf_strs_join(&p->cflags, " ", cflags, sizeof(cflags));
	if ((rc = build_compiler_version(p->compiler, version, sizeof(version), err)) != 0 ||
	    (rc = build_sources_hash(sources, err)) != 0)
		return rc;
	snprintf(extra, sizeof(extra), "%s|%s|%s|%s", p->compiler, version, cflags, sources);
	hostinfo_fingerprint(facts, extra, out);
	return 0;
}

/* sched's ipa completion with threshold auto: the IPA optimum of this
 * platform, host and fingerprint, else a wake-up's worth (30 us). */
static int resolve_threshold(struct sweep_run *r, struct tune_error *err)
{
	struct sweep_sched *w = &r->sweep.sched;
	int found = 0, rc;

	if (r->sweep.kernel != KERNEL_SCHED || w->threshold_ns != CONF_AUTO_VALUE)
		return 0;
	w->threshold_ns = 30000;
	if ((rc = store_ipa_threshold(r->ctx->store, r->ctx->platform->name, r->ctx->facts->hostname, r->fingerprint,
				      &w->threshold_ns, &found, err)) != 0)
		return rc;
	if (w->completion == IPA_IPA)
		fprintf(stderr, "tune: sweep '%s': accelerator completions poll below %lld ns (%s)\n", r->sweep.name,
			w->threshold_ns, found ? "the IPA optimum of this host" : "no IPA optimum yet: the default");
	return 0;
}

int exec_sweep(const struct exec_context *ctx, const char *sweep_name, const struct exec_options *o,
	       struct exec_summary *sum, struct tune_error *err)
{
	struct sweep_run *r = calloc(1, sizeof(*r));
	char *spec = NULL, *env = NULL, *state = NULL, hash[17];
	struct search search = { 0 };
	struct trial **all = NULL, **round = NULL;
	size_t *idx = NULL, measured_before = 0;
	int resumed = 0, rc, rounds = 0;

	memset(sum, 0, sizeof(*sum));
	if (!r)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	r->ctx = ctx;
	r->opt = o;
	r->t0 = timing_now_s();
	if ((rc = sweep_load(sweep_name, &r->sweep, err)) != 0)
		goto out;
	if (o->quick)
		sweep_apply_quick(&r->sweep);
	conf_strs_join(&ctx->platform->cflags, " ", r->cflags, sizeof(r->cflags));
	if (ctx->agent) {
		snprintf(r->compiler_version, sizeof(r->compiler_version), "%s", ctx->agent->compiler_version);
		snprintf(r->cflags, sizeof(r->cflags), "%s", ctx->agent->cflags);
		snprintf(r->fingerprint, sizeof(r->fingerprint), "%s", ctx->agent->fingerprint);
	}
	if ((!ctx->agent && ((rc = build_compiler_version(ctx->platform->compiler, r->compiler_version,
							  sizeof(r->compiler_version), err)) != 0 ||
			     (rc = exec_fingerprint(ctx->platform, ctx->facts, r->fingerprint, err)) != 0)) ||
	    (r->sweep.manifest && (rc = build_manifest_hash(r->sweep.manifest, r->kernel_hash, err)) != 0) ||
	    (rc = resolve_threshold(r, err)) != 0 ||
	    (rc = plan_build(ctx->platform, &r->sweep, &r->plan, err)) != 0)
		goto out;
	if (r->sweep.manifest && ctx->agent) {
		rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: sweep '%s': kernel '%s' is described by its manifest alone, and "
			       "agents serve the shipped kernels only: run it here or on a Slurm platform", r->sweep.path,
			       r->sweep.name, r->sweep.manifest->name);
		goto out;
	}
	if ((r->sweep.kernel == KERNEL_IPA || (r->sweep.kernel == KERNEL_SCHED && r->sweep.sched.accels)) &&
	    ctx->platform->device_cpu < 0) {
		rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: sweep '%s' needs two CPUs, one for the emulated accelerator, "
			       "but this host has one (run it on a host with two or more)", r->sweep.path, r->sweep.name);
		goto out;
	}
	spec = spec_json(r);
	env = env_json(r);
	all = calloc(r->plan.ntrials, sizeof(struct trial *));
	round = calloc(r->plan.ntrials, sizeof(struct trial *));
	idx = calloc(r->plan.ntrials, sizeof(*idx));
	if (!spec || !env || !all || !round || !idx) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		goto out;
	}
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)hash_str(HASH_INIT, spec));
	{
		struct store_sweep ss = { r->sweep.name, ctx->platform_id, ctx->host_id, hash, spec, env, TUNE_VERSION,
					  ctx->platform->compiler, r->cflags, r->fingerprint,
					  sweep_strategy_names[r->sweep.strategy], ctx->facts, o->quick, o->fresh };

		if ((rc = store_sweep_open(ctx->store, &ss, &r->sweep_id, &resumed, err)) != 0)
			goto out;
	}
	for (size_t i = 0; i < r->plan.ntrials; i++)
		all[i] = &r->plan.trials[i];
	/* Grid trials are all stored up front; a search stores what it picks. */
	if ((rc = store_sweep_trials(ctx->store, r->sweep_id, all, r->plan.ntrials,
				     r->sweep.strategy == STRATEGY_GRID, err)) != 0 ||
	    (rc = store_trial_stats(ctx->store, all, r->plan.ntrials, err)) != 0 ||
	    (rc = store_sweep_state(ctx->store, r->sweep_id, &state, err)) != 0)
		goto out;
	for (size_t i = 0; i < r->plan.ntrials; i++)
		measured_before += r->plan.trials[i].status == TRIAL_DONE;
	sum->trials = r->plan.ntrials;
	sum->already_done = measured_before;
	if ((rc = search_init(&search, &r->sweep, &r->plan, state, err)) != 0)
		goto out;
	if (resumed && measured_before)
		fprintf(stderr, "tune: resuming sweep '%s' on '%s' (%s): %zu trials already measured\n", r->sweep.name,
			ctx->platform->name, sweep_strategy_names[r->sweep.strategy], measured_before);
	check_host_noise(r);
	if (r->sweep.kernel == KERNEL_IPA && !(resumed && measured_before == r->plan.ntrials))
		measure_wakeup(r);
	for (;;) {
		size_t n = search_next(&search, idx, r->plan.ntrials), todo = 0;
		char title[160], *st;

		if (!n)
			break;
		for (size_t k = 0; k < n; k++)
			round[todo++] = &r->plan.trials[idx[k]];
		rounds++;
		if (r->sweep.strategy == STRATEGY_GRID)
			snprintf(title, sizeof(title), "%.60s%s%s", o->several_hosts ? ctx->facts->hostname : "",
				 o->several_hosts ? ": " : "", r->sweep.name);
		else
			snprintf(title, sizeof(title), "%.60s%s%s round %d", o->several_hosts ? ctx->facts->hostname : "",
				 o->several_hosts ? ": " : "", r->sweep.name, rounds);
		if ((rc = measure(r, round, todo, title, err)) != 0)
			break;
		if ((st = search_state_json(&search)) != NULL) {
			rc = store_sweep_save_state(ctx->store, r->sweep_id, st, err);
			free(st);
			if (rc)
				break;
		}
		if (r->sweep.time_limit_s > 0 && timing_now_s() - r->t0 > (double)r->sweep.time_limit_s) {
			warn(r, "time budget of %lld s reached after %d rounds; deciding on what is measured",
			     r->sweep.time_limit_s, rounds);
			break;
		}
	}
	if (!rc && search.budget_hit)
		warn(r, "trial budget of %lld reached; deciding on what is measured", r->sweep.max_trials);
	if (!rc && r->sweep.record_optima)
		rc = decide(r, err);
	if (rc == TUNE_ERR_INTERRUPTED) {
		fprintf(stderr, "%s", isatty(STDERR_FILENO) ? "\r\033[K" : "");
		tune_fail(err, TUNE_ERR_INTERRUPTED, "interrupted: sweep '%s' stopped; what was measured is kept, "
			  "run the same command again to resume", r->sweep.name);
		store_sweep_finish(ctx->store, r->sweep_id, "interrupted", NULL);
		goto out;
	}
	if (rc)
		goto out;
	if (!rounds && !r->failed)
		fprintf(stderr, "tune: sweep '%s' on '%s' is already complete: %zu trials (use --fresh to measure "
				"again)\n", r->sweep.name, ctx->platform->name, measured_before);
	check_spread(r);
	for (size_t i = 0; i < r->plan.ntrials; i++)
		sum->measured += r->plan.trials[i].status == TRIAL_DONE;
	sum->measured -= measured_before;
	sum->failed = r->failed;
	rc = store_sweep_finish(ctx->store, r->sweep_id, r->failed ? "failed" : "done", err);
	if (!rc && r->failed)
		rc = tune_fail(err, TUNE_ERR_TRIALS, "sweep '%s': %zu trials failed (see the reasons above, or in the "
			       "trials table; re-run to retry them)", r->sweep.name, r->failed);
out:
	/* Whatever the outcome, the sweep is no longer this process's to measure. */
	if (r->sweep_id)
		store_sweep_release(ctx->store, r->sweep.name, ctx->platform_id, ctx->host_id, NULL);
	search_free(&search);
	free(spec);
	free(env);
	free(state);
	free(all);
	free(round);
	free(idx);
	plan_free(&r->plan);
	sweep_free(&r->sweep);
	free(r);
	return rc;
}
