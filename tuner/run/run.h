/* run: one kernel process, wherever it runs. In: trials of one batch and
 * their build. Out: the process's output (struct run_result). A process is
 * described by a declarative run spec (manifest_spec) and run by an executor (struct executor, executors.c):
 * here (a pinned child), on an agent (over HTTP, the agent_client) or as a
 * Slurm job (the slurm_client), each saying who builds, checking a kernel's
 * hash and reporting where it pinned the process. struct exec_builds holds
 * what one sweep built; exec_execute() is the one call, and it never asks
 * which executor. */
#ifndef TUNER_RUN_STAGE_H
#define TUNER_RUN_STAGE_H

#include <jansson.h>
#include <signal.h>
#include <stddef.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../../store/store.h"
#include "../base/errors.h"
#include "../base/runner.h"
#include "../base/token.h"
#include "../build/build.h"
#include "../config/config.h"
#include "../plan/plan.h"

/* The store reports into tune_msg(err) with the tuner's codes. */
_Static_assert(sizeof(((struct tune_error *)0)->msg) == STORE_MSG_MAX, "store messages fit a tune_error");
_Static_assert((int)STORE_ERR_DB == (int)TUNE_ERR_STORE && (int)STORE_ERR_SYSTEM == (int)TUNE_ERR_SYSTEM &&
		       (int)STORE_ERR_BUSY == (int)TUNE_ERR_BUSY,
	       "store codes are tune_err codes");

/* The version of the run spec an agent takes (manifest_spec.c), and the
 * most it reads of one. */
#define RUNSPEC_API 1
/* The most list values one kernel process takes: the protocol's. */
#define RUN_LIST_MAX TK_LIST_MAX
#define RUNSPEC_MAX_POINTS RUN_LIST_MAX
#define RUNSPEC_MAX_JSON 65536 /* bytes of one encoded spec: the agent refuses more */

/* manifest_spec.c: a kernel process as a declarative run spec for an agent,
 * and back. It carries no path, command or flag text: the kernel's name and the hash of
 * its manifest and sources (the agent must hold the same), the variant, each
 * parameter's value by name, the list's values, runs, warm-ups, seed and
 * time limit. The agent decodes it against its own copy of the manifest:
 * every field known, every value in its parameter's range or choices. */
/* The spec of the process measuring todo[0..n) (one process's trials). NULL
 * when out of memory; free() it. */
char *manifest_spec_to_json(struct trial *const *todo, size_t n, long long runs, long long warmup,
			    long long timeout_s, const char *kernel_hash);

/* command_run.c: a command kernel's batch todo[0..n) (manifest key
 * command), runs + warmup each, one process of its program per run and
 * trial, started by spawn(ctx, argv, cpu, ...) as runner_exec would; into
 * out as one kernel process of the protocol would have printed it, failed
 * (with the program's reason and stderr's tail on one line) at the first
 * process that fails or whose metric cannot be read. 0, or a negative
 * tune_err when spawning failed. */
int command_run(struct trial *const *todo, size_t n, long long runs, long long warmup, const struct run_place *place,
		int (*spawn)(void *ctx, char *const *argv, int cpu, struct run_result *res, struct tune_error *err),
		void *ctx, struct run_result *out, struct tune_error *err);

/* What an agent runs, decoded. */
struct manifest_run {
	struct trial trials[RUNSPEC_MAX_POINTS]; /* one per list value */
	size_t n;
	long long runs, warmup, timeout_s;
	char kernel_hash[17];
};

/* The kernel named by spec o (a JSON object), checked as a name, into name. */
int manifest_spec_kernel(json_t *o, char *name, size_t len, char *why, size_t whylen);
/* Decodes o against m into run; 0, or -1 with the first problem in why. */
int manifest_spec_from_json(json_t *o, const struct kernel_manifest *m, struct manifest_run *run, char *why,
			    size_t whylen);

/* agent_client.c: the orchestrator's side of `tune agent`, over libcurl. It
 * reads a host's facts and runs a run spec there, with time-outs and
 * retries with back-off; a host that stops answering is reported as
 * TUNE_ERR_HOST, and the caller leaves its trials pending. */
struct agent_client {
	char url[512];             /* http://host:port, no trailing slash */
	char token[TOKEN_MAX + 2];
	char ca_file[1024];        /* https: the CA to trust; empty: the system's */
	/* From GET /v1/facts: */
	struct host_facts facts;
	char platform[64], fingerprint[17], compiler[256], compiler_version[256], cflags[PLATFORM_MAX_CFLAGS];
	long long cpus[64];
	size_t ncpus;
	long long device_cpu;
	int pin;
	/* The kernels it has (its manifests, with --kernels-dir its own too):
	 * name and the hash of the manifest and sources (build_manifest_hash). */
	struct agent_kernel {
		char name[65], hash[17];
	} kernels[64];
	size_t nkernels;
};

/* What an executor's run gave: the kernel's result, and where the host
 * builds (builds_here 0), what it built or why it could not. */
struct exec_outcome {
	struct run_result run;     /* out and errout: free with run_result_free() */
	int built;                 /* 0: the build failed there, reason says why */
	char reason[2048];
	struct build_result build; /* path empty: it is the host's */
	char compiler[256];
	char where[512];           /* the host that built it */
};

/* Reads the token and the host's facts. TUNE_ERR_HOST when it does not
 * answer or its facts are refused (a host name that is not a name...);
 * TUNE_ERR_CONFIG for a bad URL, token file or a refused token, or plain
 * http:// off loopback with require_tls (without it, a warning). */
int agent_client_open(struct agent_client *c, const char *url, const char *token_file, const char *ca_file,
		      int require_tls, struct tune_error *err);
/* Runs an encoded run spec (manifest_spec_to_json())
 * whose kernel may run for timeout_s on the host, waiting while it is busy
 * with another trial. */
int agent_client_run(struct agent_client *c, const char *body, long long timeout_s, volatile sig_atomic_t *stop,
		     struct exec_outcome *out, struct tune_error *err);
/* The hash of kernel name on the host, or NULL when it has none. */
const char *agent_client_kernel_hash(const struct agent_client *c, const char *name);

/* slurm_client.c: trials as Slurm batch jobs through slurmrestd (REST API
 * v0.0.38). A job takes its node whole ("exclusive"), runs the kernel under
 * srun with SLURM_CPU_BIND pinning it, and writes the kernel's JSON lines to
 * its output file in the shared directory, which is read back when the job
 * ends. Job states are polled; Ctrl-C cancels the job. */
#define SLURM_API "v0.0.38"

struct slurm_client {
	char url[512], user[128], partition[128], shared_dir[1024];
	char token[4096];
	char node[256];       /* the node this client's jobs go to */
	int node_cpus;
	char tune_path[4096]; /* this tune, for `tune facts` on a node (a shared file system) */
	long long jobs;       /* submitted, for the tests and the note */
};

/* Reads the token and checks that slurmrestd answers and takes it. */
int slurm_client_open(struct slurm_client *c, const struct platform_slurm *cfg, int require_tls, struct tune_error *err);
/* The nodes of the partition (or cfg->nodes), up to max; names[i] holds 256. */
int slurm_client_nodes(struct slurm_client *c, const struct platform_slurm *cfg, char (*names)[256], size_t max,
		       size_t *n, struct tune_error *err);
/* Runs argv as a job on c->node, pinned by bind ("map_cpu:3", or "none" for
 * kernels that pin their own threads), and waits for it: res as the runner
 * gives it. A job that fails or is cancelled is a result with its reason in
 * errout; an error is returned only when slurmrestd fails. */
int slurm_client_run(struct slurm_client *c, char *const argv[], const char *bind, const char *name,
		     double timeout_s, volatile sig_atomic_t *stop, struct run_result *res, struct tune_error *err);
/* The node's facts, from a `tune facts` job on it. */
int slurm_client_facts(struct slurm_client *c, struct host_facts *facts, struct tune_error *err);

/* execute.c: a sweep's kernel processes, wherever they run (here, on an
 * agent, or as Slurm jobs): what was built for them, and the execution of
 * one process either way. measure/ turns the processes' output into
 * samples, and sweep/ drives the rounds and the decision. */
struct exec_options {
	int quick;                    /* apply the sweep's quick: overrides */
	int fresh;                    /* measure again instead of resuming */
	volatile sig_atomic_t *stop;  /* set by a signal: stop after the batch */
	int several_hosts;            /* others run at once: name the host, log lines only */
	size_t sweep_index, nsweeps;  /* this sweep is the sweep_index-th (from 1) of the run's nsweeps */
};

struct executor;

/* Where the kernels run: here, on an agent, or as Slurm jobs on a node. The
 * sweep, search and store code holds the executor and does not ask which. */
struct exec_context {
	const struct executor *executor; /* NULL: here */
	void *executor_state;         /* the executor's own: an agent_client, a slurm_client */
	struct store *store;
	const struct host_facts *facts;
	long long host_id;
	struct platform *platform;
	long long platform_id;
};

#define MAX_BUILDS 16
/* Group sizes one kernel process measures: the kernel's list limit. */
#define MAX_BATCH RUN_LIST_MAX

struct built {
	int variant, rc;        /* its variant (0 when chosen at run time) */
	char defines[1024];     /* what tells the builds apart */
	long long build_id;
	struct build_result res;
	char reason[512];
};

/* The builds of one sweep's kernel, each made (or found) once. */
struct exec_builds {
	const struct exec_context *ctx;
	const struct kernel_manifest *kernel;
	volatile sig_atomic_t *stop;
	struct built v[MAX_BUILDS];
	size_t n;
};

/* The build of t's variant (and defines), made or found once per sweep;
 * NULL when the sweep has too many. An agent builds its own: then only the
 * slot, which exec_execute() fills. */
struct built *exec_get_build(struct exec_builds *b, const struct trial *t);
/* One kernel process, as data: the trials of one process. Each executor
 * turns it into what it sends: a command line here and on Slurm, a JSON
 * spec to an agent. */
struct exec_job {
	struct trial **todo;         /* todo[0..n), runs + warmup each */
	size_t n;
	long long runs, warmup, timeout_s;
	const char *label;           /* what the process is for (a Slurm job's name): the sweep */
	const char *kernel_hash;     /* of the kernel's manifest and sources, for a host that builds */
	/* Set by exec_execute(): */
	const char *binary;          /* the build here */
	struct run_place place;      /* where to pin it: the platform's */
	volatile sig_atomic_t *stop;
};

/* What identifies the builds an executor's host makes. */
struct exec_identity {
	char compiler_version[256];
	char cflags[PLATFORM_MAX_CFLAGS];
	char fingerprint[17];
};

/* An executor: how kernels are built and run somewhere. Each call takes
 * the executor's own state (exec_context.executor_state), never the sweep. */
struct executor {
	const char *name;
	/* The compiler version, flags and fingerprint of the builds on the
	 * host of platform p (cflags holds the platform's on the way in). */
	int (*identify)(void *state, const struct platform *p, const struct host_facts *facts,
			struct exec_identity *id, struct tune_error *err);
	/* 0 when the host runs manifest kernel m as hashed here (hash); else
	 * an error naming the host and the kernel. */
	int (*check_kernel)(void *state, const struct kernel_manifest *m, const char *hash, struct tune_error *err);
	/* Builds are made here (1), or by the host as it runs them (0). */
	int builds_here;
	/* The kernels run on this machine: its load is theirs. */
	int runs_here;
	/* Runs job; see exec_execute(). */
	int (*run)(void *state, const struct exec_job *job, struct exec_outcome *out, struct tune_error *err);
};
extern const struct executor executor_local, executor_agent, executor_slurm;

/* The context's executor (here, when it names none). */
const struct executor *exec_executor(const struct exec_context *ctx);
/* The context's executor's identify() and check_kernel(), with its state. */
int exec_identify(const struct exec_context *ctx, struct exec_identity *id, struct tune_error *err);
int exec_check_kernel(const struct exec_context *ctx, const struct kernel_manifest *m, const char *hash,
		      struct tune_error *err);
/* Runs job with binary bin where the context's executor runs kernels: the
 * kernel's result in res. Returns 0, or a tune_err that stops the sweep;
 * *reason is set when the build failed on the host. */
int exec_execute(struct exec_builds *b, struct built *bin, struct exec_job *job, struct run_result *res,
		 const char **reason, struct tune_error *err);

#endif
