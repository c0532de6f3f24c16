#include <curl/curl.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "http.h"

#define MAX_RESPONSE (64u << 20) /* bytes of an answer: a kernel's output is far less */
#define CONNECT_TRIES 4          /* nothing listens: back-off 0.5, 1, 2 s between them */
/* It listens but hangs up: 0.5 .. 8 s between them, 15.5 s in all, longer
 * than an agent lets slow clients hold a connection (10 s). */
#define HANGUP_TRIES 6

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void curl_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

struct buffer {
	char *v;
	size_t n;
};

static size_t on_data(char *data, size_t size, size_t nmemb, void *p)
{
	struct buffer *b = p;
	size_t len = size * nmemb;
	char *nv;

	if (b->n + len > MAX_RESPONSE || !(nv = realloc(b->v, b->n + len + 1)))
		return 0;
	memcpy(nv + b->n, data, len);
	b->n += len;
	nv[b->n] = '\0';
	b->v = nv;
	return len;
}

/* Sleeps s seconds unless stop is set; returns whether it was. */
static int nap(double s, volatile sig_atomic_t *stop)
{
	for (int t = 0; t < (int)(s * 20.0); t++) {
		struct timespec ts = { 0, 50000000 };

		if (stop && *stop)
			return 1;
		nanosleep(&ts, NULL);
	}
	return stop && *stop;
}

int http_call(const struct http_request *rq, const char *what, long *status, char **body, struct tune_error *err)
{
	int tries = 0, waits = 0;

	pthread_once(&curl_once, curl_init);
	*body = NULL;
	for (;;) {
		CURL *h = curl_easy_init();
		struct curl_slist *hdr = NULL;
		struct buffer b = { NULL, 0 };
		long sent = 0;
		curl_off_t connected_us = 0;
		CURLcode cc;

		if (!h)
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		for (const char *const *x = rq->headers; x && *x; x++)
			hdr = curl_slist_append(hdr, *x);
		curl_easy_setopt(h, CURLOPT_URL, rq->url);
		curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, rq->method);
		curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
		curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
		curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
		curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)(rq->timeout_s * 1000.0));
		curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
		curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
		curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
		if (rq->ca_file && rq->ca_file[0])
			curl_easy_setopt(h, CURLOPT_CAINFO, rq->ca_file);
		if (rq->body)
			curl_easy_setopt(h, CURLOPT_POSTFIELDS, rq->body);
		cc = curl_easy_perform(h);
		*status = 0;
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
		curl_easy_getinfo(h, CURLINFO_REQUEST_SIZE, &sent);
		curl_easy_getinfo(h, CURLINFO_CONNECT_TIME_T, &connected_us);
		curl_slist_free_all(hdr);
		curl_easy_cleanup(h);
		if (cc == CURLE_OK && !(rq->wait_busy && *status == 503)) {
			*body = b.v ? b.v : strdup("");
			return *body ? 0 : tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		}
		free(b.v);
		if (cc == CURLE_URL_MALFORMAT || cc == CURLE_UNSUPPORTED_PROTOCOL || cc == CURLE_SSL_CACERT_BADFILE ||
		    cc == CURLE_PEER_FAILED_VERIFICATION || cc == CURLE_COULDNT_RESOLVE_HOST)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: %s (check the URL, and the CA file for https)", what,
					 curl_easy_strerror(cc));
		/* Busy with another trial: wait for it, as long as a trial may take. */
		if (cc == CURLE_OK) {
			if (++waits > (int)(rq->timeout_s + 1.0))
				return tune_fail(err, TUNE_ERR_HOST, "%s stayed busy for %.0f s", what, rq->timeout_s);
			if (nap(1.0, rq->stop))
				return TUNE_ERR_INTERRUPTED;
			continue;
		}
		if (rq->once && sent > 0)
			return tune_fail(err, TUNE_ERR_HOST, "%s stopped answering a %s it may have started (%s): not "
					 "sent again, marked down; its trials stay pending, run the same command to resume",
					 what, rq->method, curl_easy_strerror(cc));
		if (++tries >= (connected_us > 0 ? HANGUP_TRIES : CONNECT_TRIES))
			return tune_fail(err, TUNE_ERR_HOST, "%s stopped answering (%s, %d tries): marked down; its "
					 "trials stay pending, run the same command to resume", what, curl_easy_strerror(cc), tries);
		if (nap(0.5 * (double)(1 << (tries - 1)), rq->stop))
			return TUNE_ERR_INTERRUPTED;
	}
}

int http_is_clear_remote(const char *url)
{
	const char *h = url + 7;
	size_t n;

	if (strncmp(url, "http://", 7) != 0)
		return 0;
	if (strchr(h, '@') && strchr(h, '@') < h + strcspn(h, "/"))
		h = strchr(h, '@') + 1; /* user:password@ */
	if (*h == '[')
		return strncmp(h, "[::1]", 5) != 0;
	n = strcspn(h, ":/");
	if (n == 9 && !strncmp(h, "localhost", 9))
		return 0;
	return !(n >= 4 && !strncmp(h, "127.", 4) && strspn(h, "0123456789.") >= n);
}

int http_check_link(const char *url, int require_tls, const char *what, struct tune_error *err)
{
	if (!http_is_clear_remote(url))
		return 0;
	if (require_tls)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s '%s' is plain http:// off this host, and TLS is required "
				 "(use https:// with ca_file, or drop --require-tls / require_tls)", what, url);
	fprintf(stderr, "tune: warning: %s '%s' is plain http:// off this host: the token crosses the network in "
		"clear and a proxy on the way can change the answers (use https:// with ca_file; --require-tls makes "
		"this an error)\n", what, url);
	return 0;
}
