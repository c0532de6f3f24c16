/* Driving one sweep: its identity (spec, environment, fingerprint), the
 * checks of the host before and after, the search loop over rounds of
 * measurements, and the decision (decide.c); sweep.h says what goes in
 * and out. */
#include <jansson.h>
#include <errno.h>
#include <stdarg.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../base/hash.h"
#include "../base/strbuf.h"
#include "../base/version.h"
#include "../config/config.h"
#include "../measure/measure.h"
#include "../plan/plan.h"
#include "../run/run.h"
#include "../search/search.h"
#include "sweep.h"

int sweep_context_open(struct exec_context *ctx, struct store *st, struct host_facts *facts,
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
	return sweep_context_bind(ctx, st, facts, p, err);
}

int sweep_context_bind(struct exec_context *ctx, struct store *st, const struct host_facts *facts, struct platform *p,
			struct tune_error *err)
{
	char *facts_json = hostinfo_json(facts), cflags[PLATFORM_MAX_CFLAGS];
	struct store_host h = { facts->hostname, facts->arch, facts->cpu_model, facts->kernel, facts_json,
				(long long)facts->cores, (long long)facts->pus, facts->llc_bytes, facts->memory_bytes };
	struct store_platform sp = { p->name, platform_arch_names[p->arch], p->path, p->compiler, cflags };
	int rc;

	if (!facts_json)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	conf_strs_join(&p->cflags, " ", cflags, sizeof(cflags));
	rc = store_host(st, &h, &ctx->host_id, tune_msg(err));
	free(facts_json);
	if (rc || (rc = store_platform(st, &sp, &ctx->platform_id, tune_msg(err))) != 0)
		return rc;
	ctx->store = st;
	ctx->facts = facts;
	ctx->platform = p;
	return 0;
}

static json_t *ints_json(const struct conf_ints *l)
{
	json_t *a = json_array();

	for (size_t i = 0; i < l->n; i++)
		json_array_append_new(a, json_integer(l->v[i]));
	return a;
}

/* Where the results find the kernel's limit: the probe's field, the
 * parameter it is multiplied by, and the working set the probe measured
 * (the memory_mb parameter and its MiB), below which it is no limit. */
static json_t *limit_json(const struct kernel_manifest *m)
{
	json_t *o = json_pack("{s:s, s:s}", "probe", m->probe.name, "field", m->metric.limit);

	if (m->metric.limit_times)
		json_object_set_new(o, "times", json_string(m->metric.limit_times));
	if (m->probe.per)
		json_object_set_new(o, "per", json_string(m->probe.per));
	for (size_t i = 0; i < m->probe.params.n; i++) {
		const struct kernel_param *p = manifest_param(m, m->probe.params.v[i].name);
		long long v;
		char why[256];

		if (p && p->memory_mb &&
		    manifest_param_value(p, m->probe.params.v[i].values[0].text, &v, why, sizeof(why)) == 0)
			json_object_set_new(o, "memory", json_pack("{s:s, s:I}", "param", p->name, "mb", (json_int_t)v));
	}
	return o;
}

/* The sweep as planned: what makes two runs the same sweep. */
static char *spec_json(const struct sweep_run *r)
{
	const struct platform *p = r->ms.ctx->platform;
	const struct sweep *s = &r->sweep;
	json_t *keys = json_array();
	char *out;

	/* An adaptive (or joint) plan holds every g: its range says the same, shorter. */
	for (size_t i = 0; s->strategy != STRATEGY_ADAPTIVE && s->strategy != STRATEGY_JOINT && i < r->plan.ntrials; i++)
		json_array_append_new(keys, json_string(r->plan.trials[i].key));
	json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:s, s:s, s:b, s:o, s:o}",
			      "sweep", s->name, "kernel", kernel_choices[s->kernel], "runs", (json_int_t)s->runs,
			      "warmup", (json_int_t)s->warmup, "seed", (json_int_t)s->seed,
			      "compiler", p->compiler, "cflags", r->id.cflags, "pin", p->pin,
			      "cpus", ints_json(&p->cpus), "trials", keys);

	if (o) {
		const struct kernel_metric *mt = &s->manifest->metric;
		const struct kernel_param *list = manifest_list_param(s->manifest);
		json_t *fixed = json_array();

		json_object_set_new(o, "strategy", json_string(sweep_strategy_names[s->strategy]));
		json_object_set_new(o, "kernel_hash", json_string(r->kernel_hash));
		/* What the results leave out of each row: the same for all. */
		for (size_t i = 0; i < s->manifest->parameters.n; i++)
			if (MANIFEST_PARAM(s->manifest, i)->role == ROLE_FIXED)
				json_array_append_new(fixed, json_string(MANIFEST_PARAM(s->manifest, i)->name));
		json_object_set_new(o, "fixed", fixed);
		/* The charts' x axis: a numeric list parameter. */
		if (list && list->type != PARAM_CHOICE)
			json_object_set_new(o, "list", json_string(list->name));
		json_object_set_new(o, "metric", json_pack("{s:s, s:s, s:s}", "field", mt->field, "unit",
							   mt->unit ? mt->unit : "", "better",
							   metric_better_names[mt->better]));
		if (mt->limit)
			json_object_set_new(json_object_get(o, "metric"), "limit", limit_json(s->manifest));
		{
			int variant;
			long long point;

			/* Where the reports find the baseline inside the list's process. */
			if (list && manifest_baseline_as(s->manifest, &variant, &point))
				json_object_set_new(o, "baseline_as", json_pack("{s:s, s:s, s:I}", "variant",
						    s->manifest->variants.v[variant], "param", list->name, "value", (json_int_t)point));
		}
		json_object_set_new(o, "fingerprint", json_string(r->id.fingerprint));
		json_object_set_new(o, "search", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			"max_runs", (json_int_t)s->max_runs, "ci_target_pct", (json_int_t)s->ci_target_pct,
			"max_trials", (json_int_t)s->max_trials, "time_limit_s", (json_int_t)s->time_limit_s,
			"list_min", (json_int_t)s->list_min, "list_max", (json_int_t)s->list_max,
			"tolerance_pct", (json_int_t)s->tolerance_pct, "final_top", (json_int_t)s->final_top));
	}
	out = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	return out;
}

static char *env_json(const struct sweep_run *r)
{
	char *facts = hostinfo_json(r->ms.ctx->facts);
	json_t *o = facts ? json_loads(facts, 0, NULL) : NULL;
	char *out = NULL;

	free(facts);
	if (!o)
		return NULL;
	json_object_set_new(o, "compiler", json_string(r->ms.ctx->platform->compiler));
	json_object_set_new(o, "compiler_version", json_string(r->id.compiler_version));
	json_object_set_new(o, "cflags", json_string(r->id.cflags));
	json_object_set_new(o, "tune_version", json_string(TUNE_VERSION));
	out = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	return out;
}

void sweep_round_title(const struct sweep_run *r, const char *what, char *out, size_t len)
{
	char index[48] = "";

	if (r->ms.opt->nsweeps > 1)
		snprintf(index, sizeof(index), " (%zu/%zu)", r->ms.opt->sweep_index, r->ms.opt->nsweeps);
	snprintf(out, len, "%.60s%s%s%s%s%s", r->ms.opt->several_hosts ? r->ms.ctx->facts->hostname : "",
		 r->ms.opt->several_hosts ? ": " : "", r->sweep.name, index, *what ? " " : "", what);
}

void sweep_warn(struct sweep_run *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "tune: warning: sweep '%s': %s\n", r->sweep.name, msg);
	(void)store_sweep_warn(r->ms.ctx->store, r->ms.sweep_id, msg, NULL);
}

/* A warning kept until the sweep measures something: a resume that finds
 * everything measured adds none to a finished sweep. */
static void hold(struct sweep_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void hold(struct sweep_run *r, const char *fmt, ...)
{
	va_list ap;

	if (r->nheld == sizeof(r->held) / sizeof(r->held[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(r->held[r->nheld++], sizeof(r->held[0]), fmt, ap);
	va_end(ap);
}

static void flush_held(struct sweep_run *r)
{
	for (size_t i = 0; i < r->nheld; i++)
		sweep_warn(r, "%s", r->held[i]);
	r->nheld = 0;
}

/* The load average of the kernels' host now: read here when they run here,
 * else as its agent or node reported it. */
static double load_now(const struct sweep_run *r)
{
	double load;

	if (exec_executor(r->ms.ctx)->runs_here && getloadavg(&load, 1) == 1)
		return load;
	return r->ms.ctx->facts->loadavg1;
}

static int busy_load(const struct sweep_run *r, double load)
{
	return load > 0.75 * (double)r->ms.ctx->facts->pus;
}

/* A noisy host before measuring: load, or another process on the pinned CPU. */
static void check_host_noise(struct sweep_run *r, double load)
{
	const struct platform *p = r->ms.ctx->platform;
	char who[300];

	if (busy_load(r, load))
		hold(r, "load average %.2f on %d CPUs: the host is busy, timings will be noisy", load,
		     r->ms.ctx->facts->pus);
	if (p->pin && exec_executor(r->ms.ctx)->runs_here &&
	    hostinfo_busy_cpu((int)p->cpus.v[0], who, sizeof(who)) > 0)
		hold(r, "another process is running on pinned CPU %lld: %s", p->cpus.v[0], who);
}

/* While measuring: the load as each batch ended (sweeps.loadavg_max). */
static void check_load_during(struct sweep_run *r, double at_start)
{
	if (busy_load(r, r->ms.load_max) && !busy_load(r, at_start))
		sweep_warn(r, "load average rose to %.2f on %d CPUs while measuring (%.2f at the start): timings may be "
		     "noisy", r->ms.load_max, r->ms.ctx->facts->pus, at_start);
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
	stats_compute(rel, n, &st, NULL);
	if (n && st.median > 0.05)
		sweep_warn(r, "high spread: the median trial varies by %.1f%% (MAD/median); raise runs or max_runs, or "
			"quieten the host", 100.0 * st.median);
	free(rel);
}

/* A parameter given as auto (a manifest's auto_from: kernel.param) takes
 * that kernel's newest optimum of the parameter on this platform, host and
 * fingerprint (sched's completion threshold from ipa's), else its default. */
static int resolve_auto(struct sweep_run *r, struct tune_error *err)
{
	const struct kernel_manifest *m = r->sweep.manifest;

	for (size_t i = 0; m && i < m->parameters.n; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, i);
		struct conf_ints *v = &r->sweep.values[i];
		char kernel[80], why[256], text[64];
		const char *param = p->auto_from ? strchr(p->auto_from, '.') : NULL;
		long long x = 0;
		int found = 0, rc;
		size_t n = 0;

		if (!param || !conf_ints_contains(v, PARAM_AUTO))
			continue;
		snprintf(kernel, sizeof(kernel), "%.*s", (int)(param - p->auto_from), p->auto_from);
		if ((rc = store_optimum_param(r->ms.ctx->store, r->ms.ctx->platform->name, r->ms.ctx->facts->hostname,
					      r->id.fingerprint, kernel, param + 1, &x, &found, tune_msg(err))) != 0)
			return rc;
		if (!found && manifest_param_value(p, p->def ? p->def : "0", &x, why, sizeof(why)) != 0)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: parameter '%s': default %s", m->path, p->name, why);
		/* auto becomes the value, once. */
		for (size_t k = 0; k < v->n; k++)
			if (v->v[k] != PARAM_AUTO || !conf_ints_contains(v, x))
				v->v[n++] = v->v[k] == PARAM_AUTO ? x : v->v[k];
		v->n = n;
		manifest_param_text(p, x, text, sizeof(text));
		fprintf(stderr, "tune: sweep '%s': %s auto is %s (%s %s on this host%s)\n", r->sweep.name, p->name, text,
			found ? "the optimum of kernel" : "no optimum of kernel", kernel, found ? "" : " yet: the default");
	}
	return 0;
}

/* The kernel's views (its manifest's views: file), made in the database
 * before the sweep records anything, so that they read it as it comes. */
static int make_views(struct sweep_run *r, struct tune_error *err)
{
	const struct kernel_manifest *m = r->sweep.manifest;
	char path[4200];
	char *sql;
	int rc;

	if (!m->views)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", m->dir, m->views);
	if (!(sql = paths_read_file(path, 1 << 20)))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'views': cannot read '%s': %s (at most 1 MiB)", m->path,
				 path, strerror(errno));
	rc = store_kernel_views(r->ms.ctx->store, m->name, path, sql, tune_msg(err));
	free(sql);
	return rc;
}

/* What a joint search's race left, said when it changes (*racing: how
 * many raced, 0 before the first round): the contexts still racing. */
static void say_race(const struct sweep_run *r, const struct search *s, size_t *racing)
{
	const struct plan *pl = &r->plan;
	size_t now = 0;

	for (size_t b = 0; b < pl->nbatches; b++)
		now += search_racing(s, b);
	if (s->strategy != STRATEGY_JOINT || now == *racing || !*racing) {
		*racing = now;
		return;
	}
	fprintf(stderr, "tune: sweep '%s': %zu of the %zu contexts in the race go%s on, by the medians of this round",
		r->sweep.name, now, *racing, now == 1 ? "es" : "");
	for (size_t b = 0, said = 0; b < pl->nbatches; b++)
		if (search_racing(s, b)) {
			const struct batch *bt = &pl->batches[b];
			struct trial *ends[2] = { &pl->trials[bt->first], &pl->trials[bt->first + bt->count - 1] };
			char label[200];

			/* Labelled as its processes are: the list by its ends. */
			plan_batch_label(ends, 2, label, sizeof(label));
			fprintf(stderr, "%s %s", said++ ? ";" : ":", label);
		}
	fputc('\n', stderr);
	*racing = now;
}

/* The search's state into the sweep's row, for a resume. */
static int save_search(struct sweep_run *r, const struct search *s, struct tune_error *err)
{
	char *st = search_state_json(s);
	int rc = st ? store_sweep_save_state(r->ms.ctx->store, r->ms.sweep_id, st, tune_msg(err)) : 0;

	free(st);
	return rc;
}

int sweep_drive(const struct exec_context *ctx, const char *sweep_name, const struct exec_options *o,
		 struct sweep_summary *sum, struct tune_error *err)
{
	struct sweep_run *r = calloc(1, sizeof(*r));
	char *spec = NULL, *env = NULL, *state = NULL, hash[17], machine[STORE_HOLDER_MAX];
	struct search search = { 0 };
	struct trial **all = NULL, **round = NULL;
	size_t measured_before = 0, racing = 0;
	int resumed = 0, rc, rounds = 0;
	double load_at_start = -1;

	memset(sum, 0, sizeof(*sum));
	if (!r)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	r->ms.ctx = ctx;
	r->ms.opt = o;
	r->ms.sweep = &r->sweep;
	r->ms.kernel_hash = r->kernel_hash;
	r->ms.builds = (struct exec_builds){ .ctx = ctx, .stop = o->stop };
	r->t0 = tk_now_s();
	r->ms.load_max = -1;
	if ((rc = sweep_load(sweep_name, &r->sweep, err)) != 0)
		goto out;
	if (o->quick && !sweep_apply_quick(&r->sweep))
		fprintf(stderr, "tune: sweep '%s' has no quick: section: --quick measures it with its full settings\n",
			r->sweep.name);
	if ((rc = platform_param_values(ctx->platform, &r->sweep, err)) != 0)
		goto out;
	r->ms.builds.kernel = r->sweep.manifest;
	conf_strs_join(&ctx->platform->cflags, " ", r->id.cflags, sizeof(r->id.cflags));
	if ((rc = exec_identify(ctx, &r->id, err)) != 0 ||
	    (rc = build_manifest_hash(r->sweep.manifest, r->kernel_hash, err)) != 0 ||
	    (rc = exec_check_kernel(ctx, r->sweep.manifest, r->kernel_hash, err)) != 0 ||
	    (rc = resolve_auto(r, err)) != 0 || (rc = make_views(r, err)) != 0 ||
	    (rc = plan_build(ctx->platform, &r->sweep, &r->plan, err)) != 0)
		goto out;
	if (r->sweep.manifest->device_cpu_flag && ctx->platform->device_cpu < 0) {
		rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: sweep '%s' needs two CPUs, one for kernel %s's device thread "
			       "(the emulated accelerator), but this host has one (run it on a host with two or more)",
			       r->sweep.path, r->sweep.name, r->sweep.manifest->name);
		goto out;
	}
	for (size_t k = 0; k < r->sweep.manifest->constraints.n; k++) {
		char line[1600];

		plan_constraint_line(&r->plan, r->sweep.manifest, k, line, sizeof(line));
		fprintf(stderr, "tune: sweep '%s': %s\n", r->sweep.name, line);
	}
	spec = spec_json(r);
	env = env_json(r);
	all = calloc(r->plan.ntrials, sizeof(struct trial *));
	round = calloc(r->plan.ntrials + SEARCH_ANCHORS * r->plan.nbatches, sizeof(struct trial *));
	if (!spec || !env || !all || !round) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		goto out;
	}
	snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)hash_str(HASH_INIT, spec));
	load_at_start = load_now(r);
	hostinfo_machine(machine, sizeof(machine));
	{
		struct store_sweep ss = { r->sweep.name, ctx->platform_id, ctx->host_id, hash, spec, env, TUNE_VERSION,
					  ctx->platform->compiler, r->id.cflags, r->id.fingerprint,
					  sweep_strategy_names[r->sweep.strategy], r->sweep.manifest->baseline, ctx->facts->governor,
					  ctx->facts->thp, machine, load_at_start, o->quick, o->fresh };

		if ((rc = store_sweep_open(ctx->store, &ss, &r->ms.sweep_id, &resumed, tune_msg(err))) != 0)
			goto out;
	}
	for (size_t i = 0; i < r->plan.ntrials; i++)
		all[i] = &r->plan.trials[i];
	/* Grid trials are all stored up front; a search stores what it picks. */
	if ((rc = measure_store_trials(ctx->store, r->ms.sweep_id, all, r->plan.ntrials,
				     r->sweep.strategy == STRATEGY_GRID, err)) != 0 ||
	    (rc = measure_trial_stats(ctx->store, all, r->plan.ntrials, err)) != 0 ||
	    (rc = store_sweep_state(ctx->store, r->ms.sweep_id, &state, tune_msg(err))) != 0)
		goto out;
	for (size_t i = 0; i < r->plan.ntrials; i++)
		measured_before += r->plan.trials[i].status == TRIAL_DONE;
	sum->trials = r->plan.ntrials;
	sum->already_done = measured_before;
	/* Anchors an interrupted run stored but never measured are picked anew. */
	if ((rc = search_init(&search, &r->sweep, &r->plan, state, err)) != 0 ||
	    (rc = store_sweep_drop_pending(ctx->store, r->ms.sweep_id, trial_phase_names[PHASE_ANCHOR], tune_msg(err))) != 0 ||
	    (rc = measure_store_trials(ctx->store, r->ms.sweep_id, search.anchors, search.nanchors, 0, err)) != 0 ||
	    (rc = measure_trial_stats(ctx->store, search.anchors, search.nanchors, err)) != 0)
		goto out;
	if (resumed && measured_before)
		fprintf(stderr, "tune: resuming sweep '%s' on '%s' (%s): %zu trials already measured\n", r->sweep.name,
			ctx->platform->name, sweep_strategy_names[r->sweep.strategy], measured_before);
	check_host_noise(r, load_at_start);
	if (!(resumed && measured_before == r->plan.ntrials))
		rc = sweep_probe(r, err);
	if (!rc && (r->sweep.strategy == STRATEGY_ADAPTIVE || r->sweep.strategy == STRATEGY_JOINT))
		rc = sweep_probe_starts(ctx->store, ctx->host_id, r->sweep.manifest, &search, tune_msg(err));
	while (!rc) {
		size_t todo = search_next(&search, round, r->plan.ntrials);
		char title[200], round_name[24];

		say_race(r, &search, &racing);
		/* The search's last word (a joint race's last cut) is kept too. */
		if (!todo) {
			rc = save_search(r, &search, err);
			break;
		}
		rounds++;
		snprintf(round_name, sizeof(round_name), "round %d", rounds);
		sweep_round_title(r, r->sweep.strategy == STRATEGY_GRID ? "" : round_name, title, sizeof(title));
		if ((rc = measure_trials(&r->ms, round, todo, title, err)) != 0)
			break;
		if (r->ms.batches)
			flush_held(r);
		if ((rc = save_search(r, &search, err)) != 0)
			break;
		if (r->sweep.time_limit_s > 0 && tk_now_s() - r->t0 > (double)r->sweep.time_limit_s) {
			sweep_warn(r, "time budget of %lld s reached after %d rounds; deciding on what is measured",
			     r->sweep.time_limit_s, rounds);
			break;
		}
	}
	if (!rc && search.budget_hit && rounds)
		sweep_warn(r, "trial budget of %lld reached; deciding on what is measured", r->sweep.max_trials);
	/* A finished sweep that measured nothing now keeps its decision, and its time. */
	if (!rc && r->sweep.record_optima && !(resumed == STORE_REOPENED_DONE && !rounds && !r->ms.batches)) {
		search_score(&search);
		search_mark_raced_out(&search);
		rc = sweep_decide(r, search.drift, err);
	}
	if (rc == TUNE_ERR_INTERRUPTED) {
		fprintf(stderr, "%s", isatty(STDERR_FILENO) ? "\r\033[K" : "");
		tune_fail(err, TUNE_ERR_INTERRUPTED, "interrupted: sweep '%s' stopped; what was measured is kept, "
			  "run the same command again to resume", r->sweep.name);
		store_sweep_finish(ctx->store, r->ms.sweep_id, "interrupted", NULL);
		goto out;
	}
	if (rc)
		goto out;
	if (!rounds && !r->ms.failed)
		fprintf(stderr, "tune: sweep '%s' on '%s' is already complete: %zu trials (use --fresh to measure "
				"again)\n", r->sweep.name, ctx->platform->name, measured_before);
	if (r->ms.batches) {
		flush_held(r);
		check_spread(r);
		check_load_during(r, load_at_start);
	}
	for (size_t i = 0; i < r->plan.ntrials; i++)
		sum->measured += r->plan.trials[i].status == TRIAL_DONE;
	sum->measured -= measured_before;
	sum->failed = r->ms.failed;
	rc = store_sweep_finish(ctx->store, r->ms.sweep_id, r->ms.failed ? "failed" : "done", tune_msg(err));
	if (!rc && r->ms.failed)
		rc = tune_fail(err, TUNE_ERR_TRIALS, "sweep '%s': %zu trials failed (see the reasons above, or in the "
			       "trials table; re-run to retry them)", r->sweep.name, r->ms.failed);
out:
	/* Whatever the outcome, the sweep is no longer this process's to measure. */
	if (r->ms.sweep_id)
		store_sweep_release(ctx->store, r->sweep.name, ctx->platform_id, ctx->host_id, NULL);
	search_free(&search);
	free(spec);
	free(env);
	free(state);
	free(all);
	free(round);
	plan_free(&r->plan);
	sweep_free(&r->sweep);
	free(r);
	return rc;
}
