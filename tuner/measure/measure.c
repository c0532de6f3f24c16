/* Turning kernel processes' output into recorded samples: each line decoded
 * as the kernel's manifest says, checked against the
 * reference checksum, gathered over repeated runs until the intervals are
 * tight, and recorded a batch per transaction. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../config/config.h"
#include "../plan/plan.h"
#include "../run/run.h"
#include "../base/names.h"
#include "measure.h"

int measure_json_number(json_t *o, const char *key, double *out)
{
	json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

/* Samples of one batch, gathered over its kernel runs, recorded together. */
struct gathered {
	struct store_sample *v;
	size_t n, cap;
	char **outputs; /* each kernel run's stdout: the samples' raw_json point into it */
	size_t nout;
	int cpu;        /* where the executor pinned the last kernel run, -1: none */
	double load;    /* the highest load average as its kernel runs ended; < 0: unknown */
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
		n += g->v[i].trial_id == t->id && g->v[i].warmup == warmup;
	return n;
}

/* Parses one kernel run's output into g, numbering runs after those already
 * gathered, and checks every checksum against the reference. Returns NULL, or
 * why the batch failed. */
static const char *parse_output(struct measure_session *r, char *out, struct trial **todo, size_t n, long long runs,
				long long warmup, struct gathered *g, char *why, size_t whylen)
{
	size_t expect = n * (size_t)(runs + warmup), got = 0, line_no = 0;
	unsigned long long ref = 0;
	int have_ref = 0;
	char *save = NULL;
	struct tune_error err;

	struct store_trial row;

	measure_trial_row(todo[0], &row);
	if (store_reference_checksum(r->ctx->store, r->sweep_id, &row, &ref, &have_ref, err.msg) != 0) {
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
		struct manifest_line v;
		char bad[256] = "";
		json_t *warm = o ? json_object_get(o, TK_FIELD_WARMUP) : NULL;
		struct store_sample *s;
		const struct trial *t = NULL;

		line_no++;
		if (o && manifest_sample(r->sweep->manifest, todo[0], o, &v, bad, sizeof(bad)) == MANIFEST_OUT_OF_RANGE) {
			snprintf(why, whylen, "kernel output line %zu: %s", line_no, bad);
			json_decref(o);
			return why;
		}
		if (!o || bad[0] || !json_is_boolean(warm)) {
			snprintf(why, whylen, "kernel output line %zu is not a complete result: %s", line_no,
				 !o ? jerr.text : bad[0] ? bad : "field 'warmup' is missing or not true or false");
			json_decref(o);
			return why;
		}
		for (size_t i = 0; i < n; i++)
			if (plan_trial_point(todo[i]) == v.point)
				t = todo[i];
		if (!t || got == expect) {
			json_decref(o);
			snprintf(why, whylen, "kernel output line %zu is for a run that was not asked for", line_no);
			return why;
		}
		s = &g->v[g->n];
		s->trial_id = t->id;
		s->warmup = json_is_true(warm);
		s->run_id = (long long)count_of(g, t, s->warmup);
		s->ns_total = (long long)v.total;
		s->ns_per_lookup = v.metric;
		s->lookups_per_sec = v.rate;
		s->checksum = v.check;
		s->cpu = (int)v.cpu;
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
				 r->sweep->manifest->correctness ? r->sweep->manifest->correctness : "checksum", s->checksum, ref);
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
		if (g->v[i].trial_id == t->id && !g->v[i].warmup)
			v[n++] = g->v[i].ns_per_lookup;
	stats_compute(v, n, out, flags);
	for (size_t i = 0, k = 0; i < g->n; i++)
		if (g->v[i].trial_id == t->id && !g->v[i].warmup)
			g->v[i].outlier = flags[k++];
out:
	free(v);
	free(flags);
}

/* Whether the runs gathered for todo[0..n) settle the batch (settle.c). */
static int batch_settled(const struct measure_session *r, const struct gathered *g, struct trial **todo, size_t n,
			 size_t runs)
{
	double *all = calloc(n * runs > 0 ? n * runs : 1, sizeof(*all));
	const double *x[MAX_BATCH];
	int settled;

	if (!all)
		return 1;
	for (size_t i = 0; i < n; i++)
		x[i] = all + i * runs;
	for (size_t s = 0; s < g->n; s++)
		for (size_t i = 0; i < n; i++)
			if (g->v[s].trial_id == todo[i]->id && !g->v[s].warmup && g->v[s].run_id >= 0 &&
			    (size_t)g->v[s].run_id < runs)
				all[i * runs + (size_t)g->v[s].run_id] = g->v[s].ns_per_lookup;
	settled = measure_settled(x, n, runs, r->sweep->manifest->metric.better == BETTER_HIGHER, r->sweep->tolerance,
				  (double)r->sweep->ci_target_pct / 100.0);
	free(all);
	return settled;
}

/* Runs the kernel once for todo[0..n) (one context), runs + warmup each. */
static const char *run_kernel(struct measure_session *r, struct built *bin, struct trial **todo, size_t n, long long runs,
			      long long warmup, struct gathered *g, char *why, size_t whylen, int *rc,
			      struct tune_error *err)
{
	char **outs;
	struct run_result res;
	const char *reason = NULL;
	uint64_t t0;
	struct exec_job job = { .todo = todo, .n = n, .runs = runs, .warmup = warmup, .timeout_s = r->sweep->timeout_s,
				.label = r->sweep->name, .kernel_hash = r->kernel_hash };

	t0 = tk_now_ns();
	*rc = exec_execute(&r->builds, bin, &job, &res, &reason, err);
	if (*rc != 0)
		return *rc == TUNE_ERR_INTERRUPTED ? "interrupted" : "cannot run";
	if (reason)
		return reason;
	r->measure_ns += (long long)(tk_now_ns() - t0);
	if (res.interrupted) {
		*rc = TUNE_ERR_INTERRUPTED;
		run_result_free(&res);
		return "interrupted";
	}
	g->cpu = res.cpu;
	if (res.loadavg1 > g->load)
		g->load = res.loadavg1;
	if (!runner_succeeded(&res)) {
		char desc[160];

		runner_describe(&res, (double)r->sweep->timeout_s, desc, sizeof(desc));
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
static int run_trials(struct measure_session *r, struct trial **todo, size_t n, struct progress *pg, struct tune_error *err)
{
	const struct sweep *sw = r->sweep;
	struct store_outcome outs[MAX_BATCH];
	struct stats stats[MAX_BATCH];
	struct gathered g = { .cpu = -1, .load = -1 };
	const char *reason = NULL;
	char why[1024], label[160], shown[4200];
	long long max_runs = sw->max_runs > sw->runs && !todo[0]->once ? sw->max_runs : sw->runs;
	struct built *bin;
	int rc = 0;
	double cost = plan_cost(todo, n);

	plan_batch_label(todo, n, label, sizeof(label));
	progress_begin(pg, label);
	bin = exec_get_build(&r->builds, todo[0]);
	if (!bin)
		reason = "too many builds in one sweep";
	else if (bin->rc)
		reason = bin->reason;
	else
		reason = run_kernel(r, bin, todo, n, sw->runs, sw->warmup, &g, why, sizeof(why), &rc, err);
	/* Adaptive repetitions: more runs while a trial's standing is open. */
	while (!reason && !rc) {
		long long done_runs = (long long)count_of(&g, todo[0], 0);
		long long more = sw->runs < max_runs - done_runs ? sw->runs : max_runs - done_runs;

		if (more <= 0 || batch_settled(r, &g, todo, n, (size_t)done_runs))
			break;
		/* The whole batch runs again, so its group sizes stay interleaved. */
		reason = run_kernel(r, bin, todo, n, more, 1, &g, why, sizeof(why), &rc, err);
	}
	if (rc) {
		gathered_free(&g);
		return rc;
	}
	/* A kernel's or compiler's words are shown and stored as text: no
	 * terminal sequence of theirs reaches a terminal later. */
	if (reason)
		reason = (names_show(reason, 1, shown, sizeof(shown)), shown);
	for (size_t i = 0; i < n; i++) {
		outs[i].trial_id = todo[i]->id;
		outs[i].ok = reason == NULL;
		outs[i].reason = reason;
		outs[i].build_id = bin && !bin->rc ? bin->build_id : 0;
		outs[i].cpu = g.cpu;
		memset(&stats[i], 0, sizeof(stats[i]));
		if (!reason)
			trial_stats(&g, todo[i], &stats[i]);
		outs[i].summary = measure_summary(&stats[i]);
	}
	{
		struct store_batch_meta meta = { r->sweep_id, r->measure_ns, g.load };

		rc = store_record_batch(r->ctx->store, outs, n, g.v, g.n, &meta, tune_msg(err));
		r->measure_ns = 0;
	}
	gathered_free(&g);
	if (rc)
		return rc;
	r->batches++;
	if (g.load > r->load_max)
		r->load_max = g.load;
	for (size_t i = 0; i < n; i++) {
		todo[i]->status = reason ? TRIAL_FAILED : TRIAL_DONE;
		if (!reason) {
			todo[i]->stats = stats[i];
			todo[i]->batch = todo[0]->id;
		}
	}
	if (reason)
		r->failed += n;
	progress_end(pg, n, cost, label, reason ? reason : "ok");
	return 0;
}

size_t measure_process_end(struct trial *const *ts, size_t i, size_t n)
{
	size_t j = i + 1;

	while (j < n && j - i < MAX_BATCH && plan_same_process(ts[j], ts[i]))
		j++;
	return j < n ? j : n;
}

double measure_cost(struct trial *const *ts, size_t n)
{
	double cost = 0;

	for (size_t i = 0, j; i < n; i = j) {
		j = measure_process_end(ts, i, n);
		cost += plan_cost(ts + i, j - i);
	}
	return cost;
}

/* Measures the given trials, a context at a time (consecutive trials of one
 * context share a kernel process). */
int measure_trials(struct measure_session *r, struct trial **ts, size_t n, const char *title, struct tune_error *err)
{
	struct progress pg;
	struct trial *todo[MAX_BATCH];
	int rc = 0;

	progress_init(&pg, title, n, measure_cost(ts, n));
	for (size_t i = 0, j; i < n && !rc; i = j) {
		size_t m = 0;

		if (r->opt->stop && *r->opt->stop) {
			rc = TUNE_ERR_INTERRUPTED;
			break;
		}
		for (j = measure_process_end(ts, i, n); i + m < j; m++)
			todo[m] = ts[i + m];
		if ((rc = measure_store_trials(r->ctx->store, r->sweep_id, todo, m, 1, err)) != 0)
			break;
		/* Those a previous run finished are not measured again: their
		 * statistics (and batch) are read back instead. */
		{
			size_t k = 0;

			for (size_t a = 0; a < m && !rc; a++)
				if (todo[a]->status != TRIAL_DONE)
					todo[k++] = todo[a];
				else
					rc = measure_trial_stats(r->ctx->store, &todo[a], 1, err);
			m = k;
		}
		if (m && !rc)
			rc = run_trials(r, todo, m, &pg, err);
	}
	progress_finish(&pg);
	return rc;
}
