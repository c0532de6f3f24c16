/* Building a sweep's kernels once each, and starting a kernel process: here
 * (pinned), on an agent, or as a Slurm job. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/chase/chase.h"
#include "../../kernels/ipa/ipa.h"
#include "../../kernels/sched/sched.h"
#include "../base/strbuf.h"
#include "../config/config.h"
#include "../plan/plan.h"
#include "run.h"

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

struct built *exec_get_build(struct sweep_run *r, const struct trial *t)
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
	/* An agent builds with its own compiler; exec_execute() records its build. */
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

/* The run spec measuring todo[0..n) of one context, runs + warmup each. */
void exec_spec_of(const struct sweep_run *r, struct trial **todo, size_t n, long long runs, long long warmup,
		    struct run_spec *s)
{
	const struct trial *t = todo[0];
	const struct sweep *sw = &r->sweep;

	memset(s, 0, sizeof(*s));
	s->kernel = t->kernel;
	s->variant = t->kernel == KERNEL_SCHED ? 0 : t->variant;
	s->hint = t->hint;
	for (size_t i = 0; i < n && i < RUNSPEC_MAX_POINTS; i++)
		s->points[s->npoints++] = plan_trial_point(todo[i]);
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

/* Runs argv here, pinned to cpu, or as a Slurm job bound to it. */
static int run_here(struct sweep_run *r, char *const *argv, int cpu, long long timeout_s, struct run_result *res,
		    struct tune_error *err)
{
	char bind[64] = "none", name[96];

	if (!r->ctx->slurm)
		return runner_exec(argv, cpu, (double)timeout_s, r->opt->stop, res, err);
	if (cpu >= 0)
		snprintf(bind, sizeof(bind), "map_cpu:%d", cpu);
	snprintf(name, sizeof(name), "tune-%.80s", r->sweep.name);
	return slurm_client_run(r->ctx->slurm, argv, bind, name, (double)timeout_s, r->opt->stop, res, err);
}

/* What an agent answered: its build recorded once with the sweep's builds,
 * its kernel's result in res, or *reason when the build failed there. */
static int agent_answer(struct sweep_run *r, struct built *bin, struct agent_output *ao, struct run_result *res,
			const char **reason, struct tune_error *err)
{
	const struct agent_client *agent = r->ctx->agent;
	int rc;

	if (!ao->built) {
		snprintf(bin->reason, sizeof(bin->reason), "build failed on '%s': %.*s", agent->url,
			 (int)strcspn(ao->reason, "\n"), ao->reason);
		*reason = bin->reason;
		return 0;
	}
	if (!bin->build_id) {
		bin->res = ao->build;
		if ((rc = record_build(r, bin, ao->compiler, agent->url, err)) != 0) {
			run_result_free(&ao->run);
			return rc;
		}
	}
	*res = ao->run;
	return 0;
}

int exec_execute(struct sweep_run *r, struct built *bin, const struct run_spec *spec, struct run_result *res,
		 const char **reason, struct tune_error *err)
{
	struct agent_output ao;
	int rc, cpu;

	*reason = NULL;
	if (!r->ctx->agent) {
		const struct platform *p = r->ctx->platform;
		struct run_place place = { p->pin, &p->cpus, p->device_cpu };
		struct runspec_argv a;

		/* chase is pinned by the runner (or srun); ipa and sched pin their own threads. */
		runspec_args(spec, bin->res.path, &place, &a, &cpu);
		return run_here(r, a.argv, cpu, spec->timeout_s, res, err);
	}
	if ((rc = agent_client_run(r->ctx->agent, spec, r->opt->stop, &ao, err)) != 0)
		return rc;
	return agent_answer(r, bin, &ao, res, reason, err);
}

int exec_execute_manifest(struct sweep_run *r, struct built *bin, struct trial **todo, size_t n, long long runs,
			  long long warmup, struct run_result *res, const char **reason, struct tune_error *err)
{
	const struct platform *p = r->ctx->platform;
	struct agent_output ao;
	int rc;

	*reason = NULL;
	if (r->ctx->agent) {
		char *body = manifest_spec_to_json(todo, n, runs, warmup, r->sweep.timeout_s, r->kernel_hash);

		if (!body)
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		rc = agent_client_run_json(r->ctx->agent, body, r->sweep.timeout_s, r->opt->stop, &ao, err);
		free(body);
		return rc ? rc : agent_answer(r, bin, &ao, res, reason, err);
	}
	{
		struct manifest_argv *a = malloc(sizeof(*a));

		if (!a)
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		if (manifest_args(bin->res.path, todo, n, runs, warmup, a) != 0)
			rc = tune_fail(err, TUNE_ERR_CONFIG, "sweep '%s': the command line of kernel '%s' is too long "
				       "(fewer list values per process)", r->sweep.name, todo[0]->manifest->name);
		else
			rc = run_here(r, a->argv, p->pin ? (int)p->cpus.v[0] : -1, r->sweep.timeout_s, res, err);
		free(a);
	}
	return rc;
}
