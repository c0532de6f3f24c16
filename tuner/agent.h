/* agent: the HTTP+JSON server `tune agent` runs on a remote host. It serves
 * this host's facts (GET /v1/facts) and runs one trial batch at a time
 * (POST /v1/run) from a declarative run spec: it builds the kernel from its
 * own copy of the sources with its own platform's compiler and flags, runs
 * it pinned to its own platform's CPUs, and returns what the kernel printed.
 * It never runs a command or code it is sent. Every request needs the token
 * (compared in constant time); bodies and fields are bounded. */
#ifndef TUNER_AGENT_H
#define TUNER_AGENT_H

#include <signal.h>
#include <stddef.h>

#include "errors.h"

#define AGENT_API 1
#define AGENT_MAX_BODY 65536 /* bytes of a request body */

struct agent_options {
	const char *listen;      /* ADDR:PORT; default 127.0.0.1:7781 */
	const char *token_file;  /* required */
	const char *tls_cert, *tls_key;
	const char *platform;    /* the compiler, flags and CPUs to use; default local */
	const char *name;        /* the host name it reports; default the hostname */
	volatile sig_atomic_t *stop;
};

/* Serves until *stop is set. Returns 0, or a negative tune_err when it cannot
 * start (bad address, port in use, unreadable token or TLS files). */
int agent_serve(const struct agent_options *o, struct tune_error *err);

/* Constant-time comparison of a presented token with the expected one. */
int agent_token_equal(const char *presented, const char *expected);

/* Reads a token file: its first line, trimmed; at least 16 characters. */
int agent_read_token(const char *path, char *out, size_t len, struct tune_error *err);

#endif
