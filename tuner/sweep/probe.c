/* A kernel's probe (its manifest's probe:), run before a sweep measures:
 * what it says of the host is stored with the host. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "../base/strbuf.h"
#include "../config/config.h"
#include "../measure/measure.h"
#include "../plan/plan.h"
#include "../run/run.h"
#include "../search/search.h"
#include "sweep.h"

/* Values of the 'per' parameter probed, at most. */
#define PROBE_MAX_RUNS 8

/* The trial the kernel's probe runs: the first trial's values, the
 * probe's over them, one list value. */
static int probe_trial(const struct kernel_manifest *m, const struct trial *first, struct trial *t)
{
	*t = *first;
	for (size_t i = 0; i < m->probe.params.n; i++) {
		const struct conf_entry *e = &m->probe.params.v[i];
		const struct kernel_param *p = manifest_param(m, e->name);
		char why[256];

		if (!p || manifest_param_value(p, e->values[0].text, &t->values[p - MANIFEST_PARAM(m, 0)], why,
					       sizeof(why)) != 0)
			return -1;
	}
	return 0;
}

/* Whether a probe over a working set (a memory_mb parameter it sets)
 * speaks of trial t: t's working sets are at least the probe's (chase's
 * limits, measured over 512 MiB, hold from there). */
static int probe_speaks_of(const struct kernel_manifest *m, const struct trial *probe, const struct trial *t)
{
	for (size_t i = 0; i < m->parameters.n; i++)
		if (MANIFEST_PARAM(m, i)->memory_mb && probe->values[i] != PLAN_NA &&
		    (t->values[i] == PLAN_NA || t->values[i] < probe->values[i]))
			return 0;
	return 1;
}

/* Whether the probe says anything of this sweep: of one of its trials. */
static int probe_applies(const struct sweep_run *r, const struct trial *probe)
{
	for (size_t k = 0; k < r->plan.ntrials; k++)
		if (probe_speaks_of(r->sweep.manifest, probe, &r->plan.trials[k]))
			return 1;
	return 0;
}

/* How far from a measured last-level cache hwloc's may be before it is
 * taken for wrong (the measured edge is within a factor of 2 or so). */
#define PROBE_LLC_FACTOR 8.0

/* A probe's measure of the last-level cache (mb) against what hwloc
 * reported, which a platform with llc_kb: auto classes sizes by: an
 * implausible one (a VM may report 508 MB) is replaced for this run, in the
 * sweep's host facts too, and said. */
static void check_llc(struct sweep_run *r, double mb)
{
	struct platform *p = r->ms.ctx->platform;
	long long hw_kb = r->ms.ctx->facts->llc_bytes >> 10, kb = (long long)(mb * 1024);
	char msg[160];

	if (mb <= 0 || hw_kb <= 0 || p->llc_kb != hw_kb ||
	    ((double)hw_kb <= PROBE_LLC_FACTOR * (double)kb && (double)kb <= PROBE_LLC_FACTOR * (double)hw_kb))
		return;
	sweep_warn(r, "hwloc reports a %lld MiB last-level cache, but a dependent chain leaves the cache at about "
		    "%.0f MiB: sizes are classed by the measured %.0f MiB (set llc_kb in the platform to choose)",
		    hw_kb >> 10, mb, mb);
	p->llc_kb = kb;
	if (store_sweep_env_set(r->ms.ctx->store, r->ms.sweep_id, "llc_bytes", kb << 10, msg) != 0 ||
	    store_sweep_env_set(r->ms.ctx->store, r->ms.sweep_id, "llc_bytes_hwloc", hw_kb << 10, msg) != 0)
		fprintf(stderr, "tune: %s\n", msg);
}

/* The kernel's probe on trial t: its fields stored with the host, each
 * name followed by suffix ("/hugepages=on" for a probe run per value). */
static int probe_once(struct sweep_run *r, struct trial *t, const char *suffix, struct tune_error *out)
{
	const struct kernel_manifest *m = r->sweep.manifest;
	struct trial *todo[1] = { t };
	struct built *bin;
	struct exec_job job = { .todo = todo, .n = 1, .runs = 1, .warmup = 0, .timeout_s = 60, .label = r->sweep.name,
				.kernel_hash = r->kernel_hash };
	struct run_result res;
	struct tune_error err;
	const char *reason = NULL;
	json_t *o = NULL;
	char said[512], name[160];
	size_t used = 0;
	int rc;

	/* "'limits' (hugepages=on)" in messages. */
	snprintf(name, sizeof(name), "'%s'%s%s%s", m->probe.name, *suffix ? " (" : "", *suffix ? suffix + 1 : "",
		 *suffix ? ")" : "");
	if (!(bin = exec_get_build(&r->ms.builds, t)) || bin->rc)
		return 0;
	if ((rc = exec_execute(&r->ms.builds, bin, &job, &res, &reason, &err)) != 0) {
		if (rc == TUNE_ERR_HOST || rc == TUNE_ERR_INTERRUPTED) {
			*out = err;
			return rc;
		}
		sweep_warn(r, "cannot run probe %s: %s", name, err.msg);
		return 0;
	}
	if (reason) {
		sweep_warn(r, "cannot run probe %s: %s", name, reason);
		return 0;
	}
	if (runner_succeeded(&res))
		o = json_loads(res.out, JSON_DISABLE_EOF_CHECK, NULL);
	said[0] = '\0';
	for (size_t i = 0; i < m->probe.fields.n; i++) {
		char field[160];
		double v;

		if (!o || measure_json_number(o, m->probe.fields.v[i], &v)) {
			sweep_warn(r, "probe %s did not say %s: the kernel said '%.200s'", name,
			     m->probe.fields.v[i], res.errout[0] ? res.errout : res.out);
			break;
		}
		snprintf(field, sizeof(field), "%s%s", m->probe.fields.v[i], suffix);
		if (store_host_probe(r->ms.ctx->store, r->ms.ctx->host_id, m->name, m->probe.name, field, v, err.msg) != 0) {
			fprintf(stderr, "tune: %s\n", err.msg);
			break;
		}
		str_appendf(said, sizeof(said), &used, "%s %s %.4g", i ? "," : "", m->probe.fields.v[i], v);
		if (m->probe.llc && !strcmp(m->probe.fields.v[i], m->probe.llc))
			check_llc(r, v);
	}
	if (used)
		fprintf(stderr, "tune: probe %s of kernel %s on '%s':%s\n", name, m->name,
			r->ms.ctx->facts->hostname, said);
	json_decref(o);
	run_result_free(&res);
	return 0;
}

/* "/hugepages=on": what follows the fields' names of a probe run per value
 * of its 'per' parameter, for trial t's value ("" without one). */
static void per_suffix(const struct kernel_manifest *m, const struct trial *t, char *out, size_t len)
{
	const struct kernel_param *per = m->probe.per ? manifest_param(m, m->probe.per) : NULL;
	char text[64];

	out[0] = '\0';
	if (!per || t->values[per - MANIFEST_PARAM(m, 0)] == PLAN_NA)
		return;
	manifest_param_text(per, t->values[per - MANIFEST_PARAM(m, 0)], text, sizeof(text));
	snprintf(out, len, "/%s=%s", per->name, text);
}

int sweep_probe_starts(struct store *st, long long host_id, const struct kernel_manifest *m, struct search *s,
			char *msg)
{
	const struct plan *pl = s->plan;
	char said[300] = "";

	for (size_t b = 0; m->probe.start.n == 2 && b < pl->nbatches; b++) {
		const struct trial *first = &pl->trials[pl->batches[b].first];
		struct trial probe;
		char suffix[96], field[2][160];
		double v[2];
		int found[2] = { 0, 0 }, rc;

		if (probe_trial(m, first, &probe) != 0 || !probe_speaks_of(m, &probe, first))
			continue;
		per_suffix(m, first, suffix, sizeof(suffix));
		for (int k = 0; k < 2; k++) {
			snprintf(field[k], sizeof(field[k]), "%s%s", m->probe.start.v[k], suffix);
			if ((rc = store_host_probe_value(st, host_id, m->name, m->probe.name, field[k], &v[k], &found[k],
							 msg)) != 0)
				return rc;
		}
		if (found[0] && found[1] && v[0] >= 1 && v[0] <= v[1]) {
			char line[300];

			s->ctx[b].start_lo = (long long)v[0];
			s->ctx[b].start_hi = (long long)(v[1] + 0.5);
			snprintf(line, sizeof(line), "tune: %s %s%s: the probe puts the best %s within [%lld, %lld]; the "
				 "search looks there first\n", m->name, first->context, suffix,
				 manifest_list_param(m)->name, s->ctx[b].start_lo, s->ctx[b].start_hi);
			if (strcmp(line, said) != 0)
				fputs(line, stderr);
			snprintf(said, sizeof(said), "%s", line);
		}
	}
	return 0;
}

/* The kernel's probe, before it measures: what it says of this host is
 * stored with the host (ipa's wake-up cost, which `tune results` sets
 * against the chosen threshold), once, or once per value the sweep
 * measures of the probe's 'per' parameter (chase's limits with and without
 * huge pages). A failure only warns, but a host that stopped answering or an
 * interrupt stops the sweep (0 or that error). */
int sweep_probe(struct sweep_run *r, struct tune_error *out)
{
	const struct kernel_manifest *m = r->sweep.manifest;
	const struct kernel_param *per = m->probe.per ? manifest_param(m, m->probe.per) : NULL;
	long long seen[PROBE_MAX_RUNS];
	size_t nseen = 0;
	int rc = 0;

	for (size_t k = 0; m->probe.name && k < r->plan.ntrials && !rc; k++) {
		const struct trial *first = &r->plan.trials[k];
		char suffix[96] = "";
		struct trial t;
		int again = 0;

		if (per) {
			long long v = first->values[per - MANIFEST_PARAM(m, 0)];

			for (size_t i = 0; i < nseen; i++)
				again |= seen[i] == v;
			if (again || v == PLAN_NA || nseen == PROBE_MAX_RUNS)
				continue;
			seen[nseen++] = v;
			per_suffix(m, first, suffix, sizeof(suffix));
		} else if (k > 0) {
			break;
		}
		if (probe_trial(m, first, &t) == 0 && probe_applies(r, &t))
			rc = probe_once(r, &t, suffix, out);
	}
	return rc;
}
