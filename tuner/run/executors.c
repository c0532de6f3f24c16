/* The three executors: here (a pinned child process), on an agent (a JSON
 * run spec over HTTP, manifest_spec.c; the agent builds and pins with its
 * own platform), and as Slurm jobs (built here, run on the node through
 * slurmrestd). Each sees a job and its own state, never the sweep. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../build/build.h"
#include "../config/config.h"
#include "../plan/plan.h"
#include "run.h"

/* A process of a command kernel's program, spawned as its job's. */
struct program_spawn {
	void *state;
	const struct exec_job *job;
	int (*spawn)(void *, char *const *, int, const struct exec_job *, struct run_result *, struct tune_error *);
};

static int spawn_program(void *ctx, char *const *argv, int cpu, struct run_result *res, struct tune_error *err)
{
	const struct program_spawn *ps = ctx;

	return ps->spawn(ps->state, argv, cpu, ps->job, res, err);
}

/* Runs job's command line with spawn (here or through Slurm): the kernel's
 * process, or a command kernel's processes. */
static int run_argv(void *state, const struct exec_job *job, struct exec_outcome *out, struct tune_error *err,
		    int (*spawn)(void *, char *const *, int, const struct exec_job *, struct run_result *,
				 struct tune_error *))
{
	struct manifest_argv *a;
	int cpu = -1, rc;

	if (job->todo[0]->manifest->command.n) {
		struct program_spawn ps = { state, job, spawn };

		out->built = 1;
		return command_run(job->todo, job->n, job->runs, job->warmup, &job->place, spawn_program, &ps, &out->run,
				   err);
	}
	if (!(a = malloc(sizeof(*a))))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (manifest_args(job->binary, job->todo, job->n, job->runs, job->warmup, &job->place, a, &cpu) != 0) {
		free(a);
		return tune_fail(err, TUNE_ERR_CONFIG, "sweep '%s': the command line of kernel '%s' is too long "
				 "(fewer list values per process)", job->label, job->todo[0]->kernel_name);
	}
	out->built = 1;
	rc = spawn(state, a->argv, cpu, job, &out->run, err);
	free(a);
	return rc;
}

/* Here: built with this host's compiler, run pinned by the runner. */
static int identify_here(void *state, const struct platform *p, const struct host_facts *facts,
			 struct exec_identity *id, struct tune_error *err)
{
	int rc;

	(void)state;
	if ((rc = build_compiler_version(p->compiler, id->compiler_version, sizeof(id->compiler_version), err)) != 0)
		return rc;
	return build_fingerprint(p, facts, id->fingerprint, err);
}

/* The kernels it builds are this tree's own. */
static int check_kernel_here(void *state, const struct kernel_manifest *m, const char *hash, struct tune_error *err)
{
	(void)state;
	(void)m;
	(void)hash;
	(void)err;
	return 0;
}

static int spawn_local(void *state, char *const *argv, int cpu, const struct exec_job *job, struct run_result *res,
		       struct tune_error *err)
{
	(void)state;
	return runner_exec(argv, cpu, (double)job->timeout_s, job->stop, res, err);
}

static int run_local(void *state, const struct exec_job *job, struct exec_outcome *out, struct tune_error *err)
{
	return run_argv(state, job, out, err, spawn_local);
}

const struct executor executor_local = { "local", identify_here, check_kernel_here, 1, 1, run_local };

/* Slurm: built here (the node shares the file system), a job bound to the CPU. */
static int spawn_slurm(void *state, char *const *argv, int cpu, const struct exec_job *job, struct run_result *res,
		       struct tune_error *err)
{
	char bind[64] = "none", name[96];
	int rc;

	if (cpu >= 0)
		snprintf(bind, sizeof(bind), "map_cpu:%d", cpu);
	snprintf(name, sizeof(name), "tune-%.80s", job->label);
	if ((rc = slurm_client_run(state, argv, bind, name, (double)job->timeout_s, job->stop, res, err)) == 0)
		res->cpu = cpu;
	return rc;
}

static int run_slurm(void *state, const struct exec_job *job, struct exec_outcome *out, struct tune_error *err)
{
	return run_argv(state, job, out, err, spawn_slurm);
}

const struct executor executor_slurm = { "slurm", identify_here, check_kernel_here, 1, 0, run_slurm };

/* An agent: its compiler, flags and fingerprint, as it said. */
static int identify_agent(void *state, const struct platform *p, const struct host_facts *facts,
			  struct exec_identity *id, struct tune_error *err)
{
	const struct agent_client *a = state;

	(void)p;
	(void)facts;
	(void)err;
	snprintf(id->compiler_version, sizeof(id->compiler_version), "%s", a->compiler_version);
	snprintf(id->cflags, sizeof(id->cflags), "%s", a->cflags);
	snprintf(id->fingerprint, sizeof(id->fingerprint), "%s", a->fingerprint);
	return 0;
}

/* An agent runs the kernel it has: the same manifest and sources, or none. */
static int check_kernel_agent(void *state, const struct kernel_manifest *m, const char *hash, struct tune_error *err)
{
	const struct agent_client *a = state;
	const char *theirs = agent_client_kernel_hash(a, m->name);

	if (theirs && !strcmp(theirs, hash))
		return 0;
	return tune_fail(err, TUNE_ERR_CONFIG, "host '%s': kernel '%s' %s (manifest and sources hash %s here%s%s%s): "
			 "copy the folder of %s there and start the agent with --kernels-dir", a->url, m->name,
			 theirs ? "differs from this host's" : "is not served there", hash, theirs ? ", " : "",
			 theirs ? theirs : "", theirs ? " there" : "", m->path);
}

static int run_agent(void *state, const struct exec_job *job, struct exec_outcome *out, struct tune_error *err)
{
	char *body = manifest_spec_to_json(job->todo, job->n, job->runs, job->warmup, job->timeout_s,
					   job->kernel_hash);
	int rc;

	if (!body)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	rc = agent_client_run(state, body, job->timeout_s, job->stop, out, err);
	free(body);
	return rc;
}

const struct executor executor_agent = { "agent", identify_agent, check_kernel_agent, 0, 0, run_agent };
