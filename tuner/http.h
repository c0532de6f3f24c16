/* http: one HTTP request over libcurl with time-outs and retries with
 * back-off, shared by the agent client and the Slurm client. */
#ifndef TUNER_HTTP_H
#define TUNER_HTTP_H

#include <signal.h>

#include "errors.h"

struct http_request {
	const char *method;          /* "GET", "POST", "DELETE" */
	const char *url;
	const char *const *headers;  /* "Name: value", NULL-terminated */
	const char *body;            /* POST body, or NULL */
	const char *ca_file;         /* https: the CA to trust; NULL or "": the system's */
	double timeout_s;            /* of one attempt */
	int wait_busy;               /* 503 means busy: wait a second and ask again, up to timeout_s */
	volatile sig_atomic_t *stop; /* polled while waiting */
};

/* Returns 0 with the status and the body (NUL-terminated; free() it),
 * TUNE_ERR_HOST when the server does not answer after retries (what names
 * it in the message: "host 'http://...'"), TUNE_ERR_CONFIG for a URL curl cannot use, TUNE_ERR_INTERRUPTED. */
int http_call(const struct http_request *rq, const char *what, long *status, char **body, struct tune_error *err);

#endif
