/* agent: the HTTP+JSON server `tune agent` runs on a remote host. It serves
 * this host's facts (GET /v1/facts) and runs one trial batch at a time
 * (POST /v1/run) from a declarative run spec: it builds the kernel from its
 * own copy of the sources with its own platform's compiler and flags, runs
 * it pinned to its own platform's CPUs, and returns what the kernel printed.
 * It never runs a command or code it is sent. Every request needs the token
 * (compared in constant time): a request without it, or with a body over
 * the limit, is answered as soon as its headers are read and closed. A
 * request must arrive whole within AGENT_REQUEST_DEADLINE_S. Connections
 * that have not shown the token are capped per client address and in all:
 * past a cap the oldest of them is cut, so slow strangers, even on the
 * orchestrator's own address, never keep its requests out. A run spec's fields are all known,
 * bounded, and checked against this host (memory, --max-timeout); a trial
 * whose client hangs up is stopped. */
#ifndef TUNER_AGENT_H
#define TUNER_AGENT_H

#include <signal.h>
#include <stddef.h>

#include "../base/errors.h"

#define AGENT_API 1
#define AGENT_MAX_BODY 65536 /* bytes of a request body */
#define AGENT_REQUEST_DEADLINE_S 10 /* to send a whole request (headers and body), and to stay idle */
#define AGENT_MAX_CONNECTIONS 256    /* threads, in all */
#define AGENT_MAX_UNAUTHENTICATED 64 /* connections that have not shown the token */
#define AGENT_MAX_PER_CLIENT 8       /* of those, from one address */
#define AGENT_DEFAULT_MAX_TIMEOUT_S 3600 /* the longest trial a run spec may ask for */

struct agent_options {
	const char *listen;      /* ADDR:PORT; default 127.0.0.1:7781 */
	const char *token_file;  /* required */
	const char *tls_cert, *tls_key;
	const char *platform;    /* the compiler, flags and CPUs to use; default local */
	const char *name;        /* the host name it reports; default the hostname */
	long long max_timeout_s; /* the longest timeout_s a run spec may ask; <= 0: the default */
	volatile sig_atomic_t *stop;
};

/* Serves until *stop is set. Returns 0, or a negative tune_err when it cannot
 * start (bad address, port in use, unreadable token or TLS files). */
int agent_serve(const struct agent_options *o, struct tune_error *err);

#endif
