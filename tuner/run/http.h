/* http: one HTTP request over libcurl with time-outs and retries with
 * back-off, shared by the agent client and the Slurm client. */
#ifndef TUNER_HTTP_H
#define TUNER_HTTP_H

#include <signal.h>

#include "../base/errors.h"

struct http_request {
	const char *method;          /* "GET", "POST", "DELETE" */
	const char *url;
	const char *const *headers;  /* "Name: value", NULL-terminated */
	const char *body;            /* POST body, or NULL */
	const char *ca_file;         /* https: the CA to trust; NULL or "": the system's */
	double timeout_s;            /* of one attempt */
	int wait_busy;               /* 503 means busy: wait a second and ask again, up to timeout_s */
	volatile sig_atomic_t *stop; /* polled while waiting */
	int once;                    /* it starts work (a run, a job): once any of it may have reached the
				      * server, a failure is not followed by sending it again */
};

/* Returns 0 with the status and the body (NUL-terminated; free() it),
 * TUNE_ERR_HOST when the server does not answer after retries (what names
 * it in the message: "host 'http://...'"), TUNE_ERR_CONFIG for a URL curl cannot use, TUNE_ERR_INTERRUPTED.
 * A request marked once is retried only while none of it was sent. */
int http_call(const struct http_request *rq, const char *what, long *status, char **body, struct tune_error *err);

/* Whether url is plain http:// to a host other than loopback (127.0.0.0/8,
 * ::1, localhost): a token sent there crosses the network in clear, and a
 * proxy on the way can rewrite what comes back. */
int http_is_clear_remote(const char *url);
/* For a link that carries a secret: with require_tls, such a url is
 * TUNE_ERR_CONFIG; without, a warning on stderr naming what and the fix. */
int http_check_link(const char *url, int require_tls, const char *what, struct tune_error *err);

#endif
