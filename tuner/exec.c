#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../kernels/chase/chase.h"
#include "build.h"
#include "exec.h"
#include "plan.h"
#include "progress.h"
#include "runner.h"
#include "sweep.h"
#include "version.h"

#define MAX_BUILDS 16

struct built {
	int variant, hint, rc;
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
	char cflags[1024];
	char compiler_version[256];
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
	if ((rc = store_host(st, facts, &ctx->host_id, err)) != 0)
		return rc;
	if ((rc = store_platform(st, p, &ctx->platform_id, err)) != 0)
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

	for (size_t i = 0; i < r->plan.ntrials; i++)
		json_array_append_new(keys, json_string(r->plan.trials[i].key));
	json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:s, s:s, s:b, s:o, s:o}",
			      "sweep", s->name, "kernel", sweep_kernel_names[s->kernel],
			      "variants", ints_json(&s->variants, chase_variant_names),
			      "sizes_mb", ints_json(s->sizes_mb.n ? &s->sizes_mb : &p->sizes_mb, NULL),
			      "group_sizes", ints_json(s->group_sizes.n ? &s->group_sizes : &p->group_sizes, NULL),
			      "hints", ints_json(s->hints.n ? &s->hints : &p->hints, chase_hint_names),
			      "hugepages", ints_json(s->hugepages.n ? &s->hugepages : &p->hugepages, NULL),
			      "depth", (json_int_t)s->depth, "queries", (json_int_t)s->queries,
			      "runs", (json_int_t)s->runs, "warmup", (json_int_t)s->warmup, "seed", (json_int_t)s->seed,
			      "compiler", p->compiler, "cflags", r->cflags, "pin", p->pin,
			      "cpus", ints_json(&p->cpus, NULL), "trials", keys);

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

static unsigned long long hash_text(const char *s)
{
	unsigned long long h = 0xcbf29ce484222325ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

static struct built *get_build(struct sweep_run *r, const struct trial *t)
{
	struct built *b;
	struct tune_error err;
	struct build_spec spec = { t->variant, t->hint, r->ctx->platform->compiler, &r->ctx->platform->cflags };

	for (size_t i = 0; i < r->nbuilds; i++)
		if (r->builds[i].variant == t->variant && r->builds[i].hint == t->hint)
			return &r->builds[i];
	if (r->nbuilds == MAX_BUILDS)
		return NULL;
	b = &r->builds[r->nbuilds++];
	memset(b, 0, sizeof(*b));
	b->variant = t->variant;
	b->hint = t->hint;
	b->rc = build_kernel(&spec, &b->res, &err);
	if (b->rc == 0) {
		struct store_build sb = { b->res.hash, "chase", chase_variant_names[t->variant],
					  t->hint >= 0 ? chase_hint_names[t->hint] : NULL, spec.compiler,
					  b->res.compiler_version, b->res.cflags, b->res.defines, b->res.path };

		b->rc = store_build(r->ctx->store, &sb, &b->build_id, &err);
	}
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

/* Parses the kernel's output into samples, checking that every run returned
 * the same checksum as the reference. Returns NULL on success, else the
 * reason the whole batch failed (static or in why). */
static const char *parse_output(struct sweep_run *r, const struct run_result *res, struct trial **todo, size_t n,
				struct store_sample **samples, size_t *nsamples, char *why, size_t whylen)
{
	const struct trial *t0 = todo[0];
	size_t expect = n * (size_t)(t0->runs + t0->warmup), line_no = 0;
	unsigned long long ref = 0;
	int have_ref = 0;
	char *save = NULL;
	struct tune_error err;

	*samples = calloc(expect ? expect : 1, sizeof(**samples));
	*nsamples = 0;
	if (!*samples)
		return "out of memory";
	if (store_reference_checksum(r->ctx->store, r->sweep_id, t0, &ref, &have_ref, &err) != 0) {
		snprintf(why, whylen, "%.900s", err.msg);
		return why;
	}
	for (char *line = strtok_r(res->out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		json_error_t jerr;
		json_t *o = json_loads(line, 0, &jerr);
		double g, run, ns_total, nspl, lps, cpu;
		json_t *warm = o ? json_object_get(o, "warmup") : NULL;
		json_t *sum = o ? json_object_get(o, "checksum") : NULL;
		struct store_sample *s;
		const struct trial *t = NULL;

		line_no++;
		if (!o || json_get_num(o, "group_size", &g) || json_get_num(o, "run", &run) ||
		    json_get_num(o, "ns_total", &ns_total) || json_get_num(o, "ns_per_lookup", &nspl) ||
		    json_get_num(o, "lookups_per_sec", &lps) || json_get_num(o, "cpu", &cpu) ||
		    !json_is_boolean(warm) || !json_is_integer(sum)) {
			snprintf(why, whylen, "kernel output line %zu is not a complete result%s%s", line_no,
				 o ? "" : ": ", o ? "" : jerr.text);
			json_decref(o);
			return why;
		}
		for (size_t i = 0; i < n; i++)
			if (todo[i]->group_size == (long long)g)
				t = todo[i];
		if (!t || *nsamples == expect) {
			json_decref(o);
			snprintf(why, whylen, "kernel output line %zu is for a run that was not asked for", line_no);
			return why;
		}
		s = &(*samples)[(*nsamples)++];
		s->trial = t;
		s->run_id = (long long)run;
		s->warmup = json_is_true(warm);
		s->ns_total = (long long)ns_total;
		s->ns_per_lookup = nspl;
		s->lookups_per_sec = lps;
		s->checksum = (unsigned long long)json_integer_value(sum);
		s->cpu = (int)cpu;
		s->raw_json = line;
		json_decref(o);
		if (!have_ref) {
			ref = s->checksum;
			have_ref = 1;
		} else if (s->checksum != ref) {
			snprintf(why, whylen, "checksum mismatch: got %llu, expected %llu (the variant computes a "
				 "different result: a bug in the kernel or the compiler flags)", s->checksum, ref);
			return why;
		}
	}
	if (*nsamples != expect) {
		snprintf(why, whylen, "kernel reported %zu of %zu runs", *nsamples, expect);
		return why;
	}
	return NULL;
}

static int run_batch(struct sweep_run *r, const struct batch *b, struct progress *pg, size_t *failed,
		     struct tune_error *err)
{
	const struct platform *p = r->ctx->platform;
	struct trial *todo[CHASE_MAX_GROUP + 1];
	struct store_outcome outs[CHASE_MAX_GROUP + 1];
	struct store_sample *samples = NULL;
	size_t n = 0, nsamples = 0;
	const char *reason = NULL;
	char why[1024], label[160], groups[8192], a_size[32], a_depth[32], a_q[32], a_runs[32], a_warm[32],
		a_seed[32], a_cpu[32];
	double cost = plan_batch_cost(&r->plan, b);
	int cpu = p->pin ? (int)p->cpus.v[0] : -1, rc = 0;
	struct run_result res = { 0 };
	struct built *bin;
	size_t used = 0;

	for (size_t i = 0; i < b->count; i++) {
		struct trial *t = &r->plan.trials[b->first + i];

		if (t->status != TRIAL_DONE && n < CHASE_MAX_GROUP)
			todo[n++] = t;
	}
	if (!n)
		return 0;
	plan_trial_label(todo[0], label, sizeof(label));
	if (n > 1) {
		char *g = strrchr(label, '=');

		if (g)
			snprintf(g + 1, sizeof(label) - (size_t)(g + 1 - label), "%lld..%lld", todo[0]->group_size,
				 todo[n - 1]->group_size);
	}
	progress_begin(pg, label);
	bin = get_build(r, todo[0]);
	if (!bin) {
		reason = "too many builds in one sweep";
	} else if (bin->rc) {
		reason = bin->reason;
	} else {
		char *argv[32];
		int argc = 0;

		for (size_t i = 0; i < n; i++)
			used += (size_t)snprintf(groups + used, sizeof(groups) - used, "%s%lld", i ? "," : "",
						 todo[i]->group_size);
		snprintf(a_size, sizeof(a_size), "%lld", todo[0]->size_mb);
		snprintf(a_depth, sizeof(a_depth), "%lld", todo[0]->depth);
		snprintf(a_q, sizeof(a_q), "%lld", todo[0]->queries);
		snprintf(a_runs, sizeof(a_runs), "%lld", todo[0]->runs);
		snprintf(a_warm, sizeof(a_warm), "%lld", todo[0]->warmup);
		snprintf(a_seed, sizeof(a_seed), "%lld", todo[0]->seed);
		argv[argc++] = bin->res.path;
		argv[argc++] = "--size-mb", argv[argc++] = a_size;
		argv[argc++] = "--depth", argv[argc++] = a_depth;
		argv[argc++] = "--queries", argv[argc++] = a_q;
		argv[argc++] = "--runs", argv[argc++] = a_runs;
		argv[argc++] = "--warmup", argv[argc++] = a_warm;
		argv[argc++] = "--seed", argv[argc++] = a_seed;
		argv[argc++] = "--hugepages", argv[argc++] = todo[0]->hugepages ? "on" : "off";
		argv[argc++] = "--group-size", argv[argc++] = groups;
		if (cpu >= 0) {
			snprintf(a_cpu, sizeof(a_cpu), "%d", cpu);
			argv[argc++] = "--cpu", argv[argc++] = a_cpu;
		}
		argv[argc] = NULL;
		if ((rc = runner_exec(argv, cpu, (double)r->sweep.timeout_s, r->opt->stop, &res, err)) != 0)
			return rc;
		if (res.interrupted) {
			run_result_free(&res);
			return TUNE_ERR_INTERRUPTED;
		}
		if (!res.exited || res.status != 0) {
			char desc[160];

			runner_describe(&res, (double)r->sweep.timeout_s, desc, sizeof(desc));
			snprintf(why, sizeof(why), "kernel %s%s%.*s", desc, res.errout[0] ? ": " : "",
				 (int)strcspn(res.errout, "\n"), res.errout);
			reason = why;
		} else {
			reason = parse_output(r, &res, todo, n, &samples, &nsamples, why, sizeof(why));
		}
	}
	for (size_t i = 0; i < n; i++) {
		outs[i].trial = todo[i];
		outs[i].ok = reason == NULL;
		outs[i].reason = reason;
		outs[i].build_id = bin && !bin->rc ? bin->build_id : 0;
		outs[i].cpu = cpu;
	}
	rc = store_record_batch(r->ctx->store, outs, n, samples, nsamples, err);
	free(samples);
	run_result_free(&res);
	if (rc)
		return rc;
	if (reason)
		*failed += n;
	progress_end(pg, n, cost, label, reason ? reason : "ok");
	return 0;
}

static void join_cflags(const struct conf_strs *l, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < l->n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? " " : "", l->v[i]);
}

int exec_sweep(const struct exec_context *ctx, const char *sweep_name, const struct exec_options *o,
	       struct exec_summary *sum, struct tune_error *err)
{
	struct sweep_run *r = calloc(1, sizeof(*r));
	char *spec = NULL, *env = NULL, hash[17];
	struct progress pg;
	double cost = 0;
	size_t pending = 0, failed = 0;
	int resumed = 0, rc;

	memset(sum, 0, sizeof(*sum));
	if (!r)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	r->ctx = ctx;
	r->opt = o;
	if ((rc = sweep_load(sweep_name, &r->sweep, err)) != 0)
		goto out;
	if (o->quick)
		sweep_apply_quick(&r->sweep);
	if ((rc = plan_build(ctx->platform, &r->sweep, &r->plan, err)) != 0)
		goto out;
	join_cflags(&ctx->platform->cflags, r->cflags, sizeof(r->cflags));
	if ((rc = build_compiler_version(ctx->platform->compiler, r->compiler_version, sizeof(r->compiler_version),
					 err)) != 0)
		goto out;
	spec = spec_json(r);
	env = env_json(r);
	if (!spec || !env) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		goto out;
	}
	snprintf(hash, sizeof(hash), "%016llx", hash_text(spec));
	{
		struct store_sweep ss = { r->sweep.name, ctx->platform_id, ctx->host_id, hash, spec, env, TUNE_VERSION,
					  ctx->platform->compiler, r->cflags, ctx->facts, o->quick, o->fresh };

		if ((rc = store_sweep_open(ctx->store, &ss, &r->sweep_id, &resumed, err)) != 0)
			goto out;
	}
	if ((rc = store_sweep_trials(ctx->store, r->sweep_id, &r->plan, err)) != 0)
		goto out;
	sum->trials = r->plan.ntrials;
	for (size_t i = 0; i < r->plan.nbatches; i++) {
		const struct batch *b = &r->plan.batches[i];
		size_t todo = 0;

		for (size_t j = 0; j < b->count; j++)
			todo += r->plan.trials[b->first + j].status != TRIAL_DONE;
		pending += todo;
		if (todo)
			cost += plan_batch_cost(&r->plan, b);
	}
	sum->already_done = r->plan.ntrials - pending;
	if (!pending) {
		fprintf(stderr, "tune: sweep '%s' on '%s' is already complete: %zu trials (use --fresh to measure "
				"again)\n", r->sweep.name, ctx->platform->name, r->plan.ntrials);
		rc = store_sweep_finish(ctx->store, r->sweep_id, "done", err);
		goto out;
	}
	if (resumed && sum->already_done)
		fprintf(stderr, "tune: resuming sweep '%s' on '%s': %zu of %zu trials done, %zu to run\n",
			r->sweep.name, ctx->platform->name, sum->already_done, r->plan.ntrials, pending);
	progress_init(&pg, r->sweep.name, pending, cost);
	for (size_t i = 0; i < r->plan.nbatches && !rc; i++) {
		if (o->stop && *o->stop) {
			rc = TUNE_ERR_INTERRUPTED;
			break;
		}
		rc = run_batch(r, &r->plan.batches[i], &pg, &failed, err);
	}
	if (rc == TUNE_ERR_INTERRUPTED) {
		if (pg.tty)
			fprintf(stderr, "\r\033[K");
		tune_fail(err, TUNE_ERR_INTERRUPTED, "interrupted: sweep '%s' stopped after %zu of %zu trials; "
			  "run the same command again to resume", r->sweep.name, pg.done, pending);
		store_sweep_finish(ctx->store, r->sweep_id, "interrupted", NULL);
		goto out;
	}
	if (rc)
		goto out;
	progress_finish(&pg);
	sum->measured = pg.done - failed;
	sum->failed = failed;
	rc = store_sweep_finish(ctx->store, r->sweep_id, failed ? "failed" : "done", err);
	if (!rc && failed)
		rc = tune_fail(err, TUNE_ERR_TRIALS, "sweep '%s': %zu of %zu trials failed (see the reasons above, "
			       "or in the trials table; re-run to retry them)", r->sweep.name, failed, pending);
out:
	free(spec);
	free(env);
	plan_free(&r->plan);
	sweep_free(&r->sweep);
	free(r);
	return rc;
}
