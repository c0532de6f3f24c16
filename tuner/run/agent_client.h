/* agent_client: the orchestrator's side of `tune agent`, over libcurl. It
 * reads a host's facts and runs a run spec there, with time-outs and
 * retries with back-off; a host that stops answering is reported as
 * TUNE_ERR_HOST, and the caller leaves its trials pending. */
#ifndef TUNER_AGENT_CLIENT_H
#define TUNER_AGENT_CLIENT_H

#include <signal.h>

#include "../base/token.h"
#include "../build/build.h"
#include "../base/errors.h"
#include "../config/hostinfo.h"
#include "../base/runner.h"
#include "runspec.h"

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

/* What POST /v1/run answered. built 0: the build failed, reason says why. */
struct agent_output {
	int built;
	char reason[2048];
	struct build_result build; /* path empty: it is the agent's */
	char compiler[256];
	struct run_result run;     /* out and errout: free with run_result_free() */
};

/* Reads the token and the host's facts. TUNE_ERR_HOST when it does not
 * answer or its facts are refused (a host name that is not a name...);
 * TUNE_ERR_CONFIG for a bad URL, token file or a refused token, or plain
 * http:// off loopback with require_tls (without it, a warning). */
int agent_client_open(struct agent_client *c, const char *url, const char *token_file, const char *ca_file,
		      int require_tls, struct tune_error *err);
/* Runs spec on the host, waiting while it is busy with another trial. */
int agent_client_run(struct agent_client *c, const struct run_spec *spec, volatile sig_atomic_t *stop,
		     struct agent_output *out, struct tune_error *err);
/* The same with a spec already encoded (a manifest kernel's, manifest_spec.h)
 * whose kernel may run for timeout_s. */
int agent_client_run_json(struct agent_client *c, const char *body, long long timeout_s, volatile sig_atomic_t *stop,
			  struct agent_output *out, struct tune_error *err);
/* The hash of kernel name on the host, or NULL when it has none. */
const char *agent_client_kernel_hash(const struct agent_client *c, const char *name);

#endif
