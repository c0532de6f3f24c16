/* agent_internal: what the agent's server (agent.c: tokens, connections,
 * deadlines, requests) and its trials (agent_trials.c: facts, decoding a
 * run spec, building and running) share. Other modules use agent.h. */
#ifndef TUNER_AGENT_INTERNAL_H
#define TUNER_AGENT_INTERNAL_H

#include <jansson.h>
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>

#include "../base/errors.h"
#include "../base/token.h"
#include "../config/config.h"
#include "agent.h"

/* One connection, with a duplicate of its socket: the deadline cuts it with
 * shutdown() on the duplicate, which can never be a descriptor MHD has
 * closed and the system has handed to someone else. */
struct conn {
	int fd;        /* ours; closed when MHD closes the connection */
	double since;  /* when its current request began to arrive */
	double opened; /* when it was accepted */
	unsigned long addr; /* the client's IPv4 address */
	int serving;   /* the request is whole: a trial's time is not the client's */
	int authed;    /* a request on it carried the token */
	int cut;
	struct conn *prev, *next;
};

struct agent {
	char token[TOKEN_MAX + 2]; /* and the newline fgets keeps */
	long long max_timeout_s;  /* the longest timeout_s a run spec may ask */
	pthread_mutex_t conns_lock;
	struct conn *conns;
	unsigned long cut;        /* connections cut at the deadline */
	unsigned long evicted;    /* connections without the token cut for a newer one */
	struct platform platform; /* resolved for this host */
	struct host_facts facts;
	char fingerprint[17], compiler_version[256], cflags[PLATFORM_MAX_CFLAGS];
	pthread_mutex_t trial;    /* one trial at a time on this host */
	json_t *kernels;          /* name -> hash of the manifest and sources, of every kernel it has */
	volatile sig_atomic_t *stop;
};

/* One request with the token: its body, bounded. */
struct request {
	char *body;
	size_t len;
	int too_big; /* it grew past the limit without saying so in Content-Length */
};

/* Answers with body (its reference taken), adding the API version. */
enum MHD_Result agent_respond(struct MHD_Connection *c, unsigned status, json_t *body);
/* Answers {"error": msg}. */
enum MHD_Result agent_fail(struct MHD_Connection *c, unsigned status, const char *msg);
/* The connection's own record (its socket), or NULL. */
struct conn *agent_conn_of(struct MHD_Connection *c);

/* GET /v1/facts: the host's facts, platform, compiler, CPUs and kernels. */
json_t *agent_facts_json(const struct agent *a);
/* POST /v1/run: decode, build, run, answer with what the kernel printed. */
enum MHD_Result agent_run_trial(struct agent *a, struct MHD_Connection *c, const struct request *rq);
/* a->kernels: every kernel of the kernel directories with its hash. */
int agent_list_kernels(struct agent *a, struct tune_error *err);

#endif
