/* slurm_client: trials as Slurm batch jobs through slurmrestd (REST API
 * v0.0.38). A job takes its node whole ("exclusive"), runs the kernel under
 * srun with SLURM_CPU_BIND pinning it, and writes the kernel's JSON lines to
 * its output file in the shared directory, which is read back when the job
 * ends. Job states are polled; Ctrl-C cancels the job. */
#ifndef TUNER_SLURM_CLIENT_H
#define TUNER_SLURM_CLIENT_H

#include <signal.h>

#include "../base/errors.h"
#include "../config/hostinfo.h"
#include "../config/platform.h"
#include "../base/runner.h"

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

#endif
