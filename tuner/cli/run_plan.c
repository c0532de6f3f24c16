/* The plan of a run on a platform nobody named: `tune run chase-g` alone
 * would measure for minutes on the default platform's working sets, so it
 * says first what it would measure and how long that took here the last
 * time, and measures only when a terminal answers yes, or with --yes. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "../../store/store.h"
#include "../base/duration.h"
#include "../config/config.h"
#include "../measure/measure.h"
#include "../plan/plan.h"
#include "cli.h"

const char *const cmd_default_platform = "local";

/* The distinct contexts (what one optimum is decided for) among the
 * trials: a batch's trials share theirs. */
static size_t count_contexts(const struct plan *pl)
{
	size_t n = 0;

	for (size_t b = 0; b < pl->nbatches; b++) {
		const char *c = pl->trials[pl->batches[b].first].context;
		size_t a = 0;

		while (a < b && strcmp(pl->trials[pl->batches[a].first].context, c) != 0)
			a++;
		n += a == b;
	}
	return n;
}

/* The grid's time in kernels at rate ns per operation (plan_cost()'s),
 * its processes costed as a run measures them; -1 when out of memory. */
static double grid_seconds(const struct plan *pl, double ns)
{
	struct trial **all = malloc((pl->ntrials ? pl->ntrials : 1) * sizeof(struct trial *));
	double ops;

	if (!all)
		return -1;
	for (size_t i = 0; i < pl->ntrials; i++)
		all[i] = &pl->trials[i];
	ops = measure_cost(all, pl->ntrials);
	free(all);
	return ops * ns / 1e9;
}

/* How long the sweep would take here, into out: its kernels' time the last
 * time it ran here; else, for a grid, its operations at the rate its kernel
 * has had on this host. Returns the seconds, -1 when unknown. */
static double sweep_seconds(const struct sweep *sw, const struct plan *pl, const struct platform *p,
			    const struct cmd_options *o, struct store *st, const char *hostname, char *out, size_t len)
{
	struct tune_error err;
	double seconds = -1, ns = -1;
	char when[16];

	if (st && store_sweep_last_kernel_s(st, sw->name, p->name, hostname, o->quick, &seconds, tune_msg(&err)))
		seconds = -1;
	if (seconds >= 0) {
		duration_format(seconds, when, sizeof(when));
		snprintf(out, len, "its kernels took %s the last time here", when);
		return seconds;
	}
	if (sw->strategy == STRATEGY_GRID && st &&
	    store_kernel_ns_per_op(st, sw->manifest->name, hostname, &ns, tune_msg(&err)) == 0 && ns > 0 &&
	    (seconds = grid_seconds(pl, ns)) >= 0) {
		duration_format(seconds, when, sizeof(when));
		snprintf(out, len, "roughly %s in kernels, at the rate %s has had on this host", when,
			 sw->manifest->name);
		return seconds;
	}
	snprintf(out, len, "never finished on this host%s", sw->strategy == STRATEGY_GRID ? "" : ": a search takes "
		 "what it needs");
	return -1;
}

/* One sweep's line of the plan; *seconds its kernels' time here, as
 * sweep_seconds() tells it. The plan's heading comes before the first line
 * (*headed), not before a sweep's error. */
static int plan_line(const struct platform *p, const char *name, const struct cmd_options *o, struct store *st,
		     const char *hostname, int *headed, double *seconds, struct tune_error *err)
{
	struct sweep sw = { 0 };
	struct plan pl = { 0 };
	long long largest_mb = 0;
	int rc, full = 0;

	*seconds = -1;
	if ((rc = sweep_load(name, &sw, err)) == 0) {
		if (o->quick)
			full = !sweep_apply_quick(&sw);
		if ((rc = platform_param_values(p, &sw, err)) == 0)
			rc = plan_build(p, &sw, &pl, err);
	}
	if (!rc) {
		size_t contexts = count_contexts(&pl);
		char sets[48] = "", time[160];

		for (size_t i = 0; i < pl.ntrials; i++)
			if (manifest_memory_mb(&pl.trials[i]) > largest_mb)
				largest_mb = manifest_memory_mb(&pl.trials[i]);
		if (largest_mb)
			snprintf(sets, sizeof(sets), ", working sets up to %lld MB", largest_mb);
		*seconds = sweep_seconds(&sw, &pl, p, o, st, hostname, time, sizeof(time));
		if (!*headed)
			fprintf(stderr, "tune: no platform named: this would measure on '%s' (%s), this host%s:\n",
				p->name, p->path, o->quick ? ", quick settings" : "");
		*headed = 1;
		fprintf(stderr, "  %-14s %s%zu %s, %zu context%s%s; %s%s\n", sw.name,
			sw.strategy == STRATEGY_GRID ? "" : "a search over ", pl.ntrials,
			sw.strategy == STRATEGY_GRID ? "trials" : "candidates", contexts, contexts == 1 ? "" : "s", sets,
			time, full ? " (no quick: section: its full settings)" : "");
		for (size_t k = 0; k < sw.manifest->constraints.n; k++) {
			char line[1600];

			plan_constraint_line(&pl, sw.manifest, k, line, sizeof(line));
			fprintf(stderr, "  %-14s %s\n", "", line);
		}
	}
	plan_free(&pl);
	sweep_free(&sw);
	return rc;
}

/* The plan of the sweeps (all the platform's when nsweeps is 0) on this host. */
static int print_plan(const struct platform *p, char *const *sweeps, size_t nsweeps, const struct cmd_options *o,
		      const char *hostname, struct tune_error *err)
{
	struct store *st = NULL;
	double total = 0, seconds;
	int unknown = 0, headed = 0, rc = 0;
	char when[16];

	if (!nsweeps) {
		sweeps = p->sweeps.v;
		nsweeps = p->sweeps.n;
	}
	/* The last times are read where a database exists; none is created. */
	if (access(o->db, F_OK) == 0 && store_open_readonly(o->db, &st, NULL, tune_msg(err)) != 0)
		st = NULL;
	for (size_t k = 0; k < nsweeps && !rc; k++) {
		rc = plan_line(p, sweeps[k], o, st, hostname, &headed, &seconds, err);
		if (seconds < 0)
			unknown = 1;
		else
			total += seconds;
	}
	store_close(st);
	if (!rc && nsweeps > 1 && !unknown) {
		duration_format(total, when, sizeof(when));
		fprintf(stderr, "  in all, about %s in kernels\n", when);
	}
	return rc;
}

/* A yes on the terminal: the word y or yes, in any case, alone on its line. */
static int answered_yes(void)
{
	char line[32];
	size_t i = 0, end, len;

	fprintf(stderr, "tune: measure it? [y/N] ");
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin))
		return 0;
	while (line[i] && isspace((unsigned char)line[i]))
		i++;
	for (end = i; line[end] && !isspace((unsigned char)line[end]);)
		end++;
	len = end - i;
	while (line[end] && isspace((unsigned char)line[end]))
		end++;
	return !line[end] && ((len == 1 && tolower((unsigned char)line[i]) == 'y') ||
			      (len == 3 && !strncasecmp(line + i, "yes", 3)));
}

int cmd_confirm_plan(const char *prefix, const char *call, char *const *sweeps, size_t nsweeps,
		     const struct cmd_options *o, struct tune_error *err)
{
	struct host_facts facts;
	struct platform p;
	int rc;

	memset(&p, 0, sizeof(p));
	if ((rc = hostinfo_read(&facts, err)) != 0 || (rc = platform_load(cmd_default_platform, &p, err)) != 0 ||
	    (rc = platform_resolve(&p, &facts, err)) != 0 ||
	    (rc = print_plan(&p, sweeps, nsweeps, o, facts.hostname, err)) != 0)
		goto out;
	if (o->yes)
		fprintf(stderr, "tune: measuring it (asked not to ask)\n");
	else if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
		rc = tune_fail(err, TUNE_ERR_USAGE, "%swhich platform? (%s --platform P: a name in platforms/, such as "
			       "local, or a YAML file; or --yes to measure the plan above)", prefix, call);
	else if (!answered_yes())
		rc = tune_fail(err, TUNE_ERR_USAGE, "nothing measured (name the platform to go without this question: "
			       "--platform %s)", p.name);
out:
	platform_free(&p);
	return rc;
}
