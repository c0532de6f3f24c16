/* The three executors: here (a pinned child process), on an agent (a JSON
 * run spec over HTTP, manifest_spec.c; the agent builds and pins with its
 * own platform), and
 * as Slurm jobs (built here, run on the node through slurmrestd). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../build/build.h"
#include "../config/config.h"
#include "../plan/plan.h"
#include "run.h"

/* The command line of job for the binary bin, and the CPU the runner (or
 * srun) pins it to (-1: the kernel pins its own threads). *argv points into
 * the storage it returns (free() it), or NULL when out of memory or the
 * values do not fit (*why says which). */
static void *job_argv(const struct sweep_run *r, const struct built *bin, const struct exec_job *job, char ***argv,
		      int *cpu, const char **why)
{
	const struct platform *p = r->ctx->platform;
	struct run_place place = { p->pin, &p->cpus, p->device_cpu };

	struct manifest_argv *a = malloc(sizeof(*a));

	*why = "out of memory";
	if (a && manifest_args(bin->res.path, job->todo, job->n, job->runs, job->warmup, &place, a, cpu) != 0) {
		*why = "too long";
		free(a);
		return NULL;
	}
	if (a)
		*argv = a->argv;
	return a;
}

/* Runs job's command line with run (here or through Slurm). */
static int run_argv(struct sweep_run *r, struct built *bin, const struct exec_job *job, struct run_result *res,
		    struct tune_error *err,
		    int (*run)(struct sweep_run *, char *const *, int, const struct exec_job *, struct run_result *,
			       struct tune_error *))
{
	char **argv = NULL;
	const char *why;
	int cpu = -1, rc;
	void *storage = job_argv(r, bin, job, &argv, &cpu, &why);

	if (!storage && !strcmp(why, "too long"))
		return tune_fail(err, TUNE_ERR_CONFIG, "sweep '%s': the command line of kernel '%s' is too long "
				 "(fewer list values per process)", r->sweep.name, r->sweep.manifest->name);
	if (!storage)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	rc = run(r, argv, cpu, job, res, err);
	free(storage);
	return rc;
}

/* Here: built with this host's compiler, run pinned by the runner. */
static int identify_here(struct sweep_run *r, struct tune_error *err)
{
	int rc;

	if ((rc = build_compiler_version(r->ctx->platform->compiler, r->compiler_version, sizeof(r->compiler_version),
					 err)) != 0)
		return rc;
	return build_fingerprint(r->ctx->platform, r->ctx->facts, r->fingerprint, err);
}

/* The kernels it builds are this tree's own. */
static int check_kernel_here(const struct sweep_run *r, struct tune_error *err)
{
	(void)r;
	(void)err;
	return 0;
}

static int spawn_local(struct sweep_run *r, char *const *argv, int cpu, const struct exec_job *job,
		       struct run_result *res, struct tune_error *err)
{
	return runner_exec(argv, cpu, (double)job->timeout_s, r->opt->stop, res, err);
}

static int run_local(struct sweep_run *r, struct built *bin, const struct exec_job *job, struct run_result *res,
		     const char **reason, struct tune_error *err)
{
	(void)reason;
	return run_argv(r, bin, job, res, err, spawn_local);
}

const struct executor executor_local = { "local", identify_here, check_kernel_here, 1, run_local };

/* Slurm: built here (the node shares the file system), a job bound to the CPU. */
static int spawn_slurm(struct sweep_run *r, char *const *argv, int cpu, const struct exec_job *job,
		       struct run_result *res, struct tune_error *err)
{
	char bind[64] = "none", name[96];
	int rc;

	if (cpu >= 0)
		snprintf(bind, sizeof(bind), "map_cpu:%d", cpu);
	snprintf(name, sizeof(name), "tune-%.80s", r->sweep.name);
	if ((rc = slurm_client_run(r->ctx->slurm, argv, bind, name, (double)job->timeout_s, r->opt->stop, res, err)) == 0)
		res->cpu = cpu;
	return rc;
}

static int run_slurm(struct sweep_run *r, struct built *bin, const struct exec_job *job, struct run_result *res,
		     const char **reason, struct tune_error *err)
{
	(void)reason;
	return run_argv(r, bin, job, res, err, spawn_slurm);
}

const struct executor executor_slurm = { "slurm", identify_here, check_kernel_here, 1, run_slurm };

/* An agent: its compiler, flags and fingerprint, as it said. */
static int identify_agent(struct sweep_run *r, struct tune_error *err)
{
	const struct agent_client *a = r->ctx->agent;

	(void)err;
	snprintf(r->compiler_version, sizeof(r->compiler_version), "%s", a->compiler_version);
	snprintf(r->cflags, sizeof(r->cflags), "%s", a->cflags);
	snprintf(r->fingerprint, sizeof(r->fingerprint), "%s", a->fingerprint);
	return 0;
}

/* An agent runs the kernel it has: the same manifest and sources, or none. */
static int check_kernel_agent(const struct sweep_run *r, struct tune_error *err)
{
	const struct kernel_manifest *m = r->sweep.manifest;
	const char *theirs = agent_client_kernel_hash(r->ctx->agent, m->name);

	if (theirs && !strcmp(theirs, r->kernel_hash))
		return 0;
	return tune_fail(err, TUNE_ERR_CONFIG, "host '%s': kernel '%s' %s (manifest and sources hash %s here%s%s%s): "
			 "copy the folder of %s there and start the agent with --kernels-dir", r->ctx->agent->url,
			 m->name, theirs ? "differs from this host's" : "is not served there", r->kernel_hash,
			 theirs ? ", " : "", theirs ? theirs : "", theirs ? " there" : "", m->path);
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
		if ((rc = exec_record_build(r, bin, ao->compiler, agent->url, err)) != 0) {
			run_result_free(&ao->run);
			return rc;
		}
	}
	*res = ao->run;
	return 0;
}

static int run_agent(struct sweep_run *r, struct built *bin, const struct exec_job *job, struct run_result *res,
		     const char **reason, struct tune_error *err)
{
	struct agent_output ao;
	char *body = manifest_spec_to_json(job->todo, job->n, job->runs, job->warmup, job->timeout_s, r->kernel_hash);
	int rc;

	if (!body)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	rc = agent_client_run(r->ctx->agent, body, job->timeout_s, r->opt->stop, &ao, err);
	free(body);
	return rc ? rc : agent_answer(r, bin, &ao, res, reason, err);
}

const struct executor executor_agent = { "agent", identify_agent, check_kernel_agent, 0, run_agent };
