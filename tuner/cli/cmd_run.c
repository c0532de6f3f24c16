/* tune run SWEEP --platform P: one sweep; also the engine of `tune --platform`.
 * A platform with several hosts runs its sweeps on all of them at once, a
 * thread and a database connection per host; each host runs one trial at a
 * time. A host that stops answering leaves its trials pending. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../base/duration.h"
#include "../base/signals.h"
#include "../measure/measure.h"
#include "../run/run.h"
#include "../sweep/sweep.h"
#include "cli.h"

struct host_run {
	pthread_t thread;
	const char *host;          /* "local", an agent URL, or a Slurm node */
	const struct slurm_client *slurm; /* a Slurm platform's client, host being the node */
	const char *platform;
	char *const *sweeps;
	size_t nsweeps;
	const struct cmd_options *o;
	volatile sig_atomic_t *stop;
	int rc, failed, started, several;
	struct tune_error err;
};

/* The context of a remote host: its facts and its agent's CPUs. */
static int open_remote(struct exec_context *ctx, struct store *st, struct agent_client *agent, struct platform *p,
		       const char *url, struct tune_error *err)
{
	int rc;

	memset(ctx, 0, sizeof(*ctx));
	if ((rc = agent_client_open(agent, url, p->token_file, p->ca_file, p->require_tls, err)) != 0)
		return rc;
	agent->facts.last_core_pu = (int)agent->cpus[0];
	if ((rc = platform_resolve(p, &agent->facts, err)) != 0)
		return rc;
	/* The agent pins with its own platform: say what it uses. */
	p->cpus.n = 0;
	for (size_t i = 0; i < agent->ncpus; i++)
		if (conf_ints_push(&p->cpus, agent->cpus[i]))
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	p->device_cpu = agent->device_cpu;
	p->pin = agent->pin;
	ctx->executor = &executor_agent;
	ctx->executor_state = agent;
	return sweep_context_bind(ctx, st, &agent->facts, p, err);
}

/* The context of a Slurm node: its facts from a job on it. */
static int open_node(struct exec_context *ctx, struct store *st, struct slurm_client *c, struct host_facts *facts,
		     struct platform *p, struct tune_error *err)
{
	int rc;

	memset(ctx, 0, sizeof(*ctx));
	if ((rc = slurm_client_facts(c, facts, err)) != 0)
		return rc;
	c->node_cpus = facts->pus;
	if ((rc = platform_resolve(p, facts, err)) != 0)
		return rc;
	ctx->executor = &executor_slurm;
	ctx->executor_state = c;
	return sweep_context_bind(ctx, st, facts, p, err);
}

/* The time in kernels each sweep of the run took the last time it ran on
 * this platform and host (-1: never finished there), read once at the
 * start of the run. */
static double *last_times(struct store *st, const char *platform, const char *hostname, const struct host_run *h)
{
	double *last = malloc(h->nsweeps * sizeof(*last));
	struct tune_error err;

	for (size_t k = 0; last && k < h->nsweeps; k++) {
		struct sweep sw = { 0 };

		last[k] = -1;
		/* Stored by its name, which a sweep given as a file says inside. */
		if (sweep_load(h->sweeps[k], &sw, &err) == 0 &&
		    store_sweep_last_kernel_s(st, sw.name, platform, hostname, h->o->quick, &last[k],
					      tune_msg(&err)) != 0)
			last[k] = -1;
		sweep_free(&sw);
	}
	return last;
}

/* The rest of the run from sweep i on, from the sweeps' last times: said
 * once in a line and counted down on the progress line; unknown when one of
 * them never finished here. */
static void run_estimate(const struct host_run *h, const double *last, size_t i)
{
	double left = 0;
	char when[16];

	for (size_t k = i; k < h->nsweeps; k++) {
		if (!last || last[k] < 0) {
			progress_run_end(0);
			return;
		}
		left += last[k];
	}
	progress_run_end(tk_now_s() + left);
	duration_format(left, when, sizeof(when));
	fprintf(stderr, "tune: sweep %zu of %zu (%s): about %s left in the run (its sweeps' time in kernels the last "
		"time they ran)\n", i + 1, h->nsweeps, h->sweeps[i], when);
}

static void *run_host(void *arg)
{
	struct host_run *h = arg;
	struct exec_options eo = { h->o->quick, h->o->fresh, h->stop, h->several, 0, 0 };
	struct store *st = NULL;
	struct host_facts facts;
	struct agent_client agent;
	struct slurm_client slurm;
	struct platform p;
	struct exec_context ctx;
	double *last = NULL;

	memset(&p, 0, sizeof(p));
	if ((h->rc = store_open(h->o->db, &st, h->err.msg)) != 0)
		goto out;
	if (h->slurm) {
		slurm = *h->slurm;
		snprintf(slurm.node, sizeof(slurm.node), "%s", h->host);
		if ((h->rc = platform_load(h->platform, &p, &h->err)) == 0)
			h->rc = open_node(&ctx, st, &slurm, &facts, &p, &h->err);
	} else if (!strcmp(h->host, "local")) {
		h->rc = sweep_context_open(&ctx, st, &facts, &p, h->platform, &h->err);
	} else if ((h->rc = platform_load(h->platform, &p, &h->err)) == 0) {
		p.require_tls |= h->o->require_tls;
		h->rc = open_remote(&ctx, st, &agent, &p, h->host, &h->err);
	}
	if (h->rc)
		goto out;
	if (!h->nsweeps) {
		h->sweeps = p.sweeps.v;
		h->nsweeps = p.sweeps.n;
	}
	if (!h->nsweeps) {
		h->rc = tune_fail(&h->err, TUNE_ERR_CONFIG, "%s: platform '%s' lists no sweeps (add 'sweeps: "
				  "[chase-sizes, chase-g]', or name one: tune run SWEEP --platform %s)", p.path, p.name,
				  p.name);
		goto out;
	}
	if (h->nsweeps > 1 && !h->several)
		last = last_times(st, p.name, ctx.facts->hostname, h);
	for (size_t i = 0; i < h->nsweeps; i++) {
		struct sweep_summary sum;
		struct tune_error serr;
		int rc;

		eo.sweep_index = i + 1;
		eo.nsweeps = h->nsweeps;
		if (h->nsweeps > 1 && !h->several)
			run_estimate(h, last, i);
		rc = sweep_drive(&ctx, h->sweeps[i], &eo, &sum, &serr);

		if (rc == TUNE_ERR_TRIALS) {
			/* Later sweeps still run; the exit code says some trials failed. */
			fprintf(stderr, "tune: %s\n", serr.msg);
			h->failed = 1;
			continue;
		}
		if (rc) {
			h->rc = rc;
			h->err = serr;
			goto out;
		}
	}
	if (h->failed)
		h->rc = tune_fail(&h->err, TUNE_ERR_TRIALS, "some trials failed on platform '%s' (their reasons are "
				  "above)", p.name);
out:
	free(last);
	platform_free(&p);
	store_close(st);
	return NULL;
}

int cmd_run_sweeps(const char *platform, char *const *sweeps, size_t nsweeps, const struct cmd_options *o,
		   struct tune_error *err)
{
	static char *const local_only[] = { "local" };
	volatile sig_atomic_t *stop = signals_install();
	struct platform p;
	struct host_run *runs = NULL;
	char *const *hosts = local_only;
	size_t nhosts = 1;
	struct slurm_client slurm;
	char nodes[256][256], *node_names[256];
	int rc;

	memset(&p, 0, sizeof(p));
	if ((rc = platform_load(platform, &p, err)) != 0)
		goto out;
	p.require_tls |= o->require_tls;
	if (p.hosts.n) {
		hosts = p.hosts.v;
		nhosts = p.hosts.n;
	}
	/* A Slurm platform's hosts are the nodes of its partition. */
	if (p.executor == EXECUTOR_SLURM) {
		if ((rc = slurm_client_open(&slurm, &p.slurm, p.require_tls, err)) != 0 ||
		    (rc = slurm_client_nodes(&slurm, &p.slurm, nodes, 256, &nhosts, err)) != 0)
			goto out;
		for (size_t i = 0; i < nhosts; i++)
			node_names[i] = nodes[i];
		hosts = node_names;
	}
	if (!(runs = calloc(nhosts ? nhosts : 1, sizeof(*runs)))) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nhosts; i++)
		runs[i] = (struct host_run){ .host = hosts[i], .slurm = p.executor == EXECUTOR_SLURM ? &slurm : NULL,
					     .platform = platform, .sweeps = sweeps,
					     .nsweeps = nsweeps, .o = o, .stop = stop, .several = nhosts > 1 };
	if (nhosts > 1)
		progress_plain();
	/* One host runs here; several run at once, a thread each. */
	if (nhosts == 1) {
		run_host(&runs[0]);
	} else {
		for (size_t i = 0; i < nhosts; i++) {
			runs[i].started = pthread_create(&runs[i].thread, NULL, run_host, &runs[i]) == 0;
			if (!runs[i].started)
				runs[i].rc = tune_fail(&runs[i].err, TUNE_ERR_SYSTEM, "cannot start a thread for host "
						       "'%s'", hosts[i]);
		}
		for (size_t i = 0; i < nhosts; i++)
			if (runs[i].started)
				pthread_join(runs[i].thread, NULL);
	}
	/* The worst outcome decides the exit code; every host's error is shown. */
	for (size_t i = 0; i < nhosts; i++) {
		if (!runs[i].rc)
			continue;
		if (nhosts > 1 && runs[i].rc != TUNE_ERR_TRIALS)
			fprintf(stderr, "tune: host '%s': %s\n", hosts[i], runs[i].err.msg);
		if (!rc || rc == TUNE_ERR_TRIALS) {
			rc = runs[i].rc;
			*err = runs[i].err;
		}
	}
	if (rc && nhosts > 1 && rc != TUNE_ERR_TRIALS && rc != TUNE_ERR_INTERRUPTED)
		tune_fail(err, rc, "%s", "some hosts did not finish (see above); what they measured is kept, run the "
			  "same command to resume");
out:
	free(runs);
	platform_free(&p);
	return rc;
}

int cmd_run(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	int rc;

	if ((rc = cmd_parse_options("run", argc, argv, &o, err)) != 0)
		return rc;
	if (o.nargs < 1)
		return tune_fail(err, TUNE_ERR_USAGE, "run: which sweep? (tune run SWEEP --platform P; sweeps are "
				 "in sweeps/, e.g. chase-g)");
	/* A sweep measures for minutes on the platform's working sets: on one the
	 * user did not name only once its plan is confirmed. */
	if (!o.nplatforms) {
		char call[160];

		snprintf(call, sizeof(call), "tune run %s%s", o.args[0], o.nargs > 1 ? " ..." : "");
		if ((rc = cmd_confirm_plan("run: ", call, o.args, (size_t)o.nargs, &o, err)) != 0)
			return rc;
		o.platforms[o.nplatforms++] = cmd_default_platform;
	}
	return cmd_run_sweeps(o.platforms[0], o.args, (size_t)o.nargs, &o, err);
}
