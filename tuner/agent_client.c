#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent.h"
#include "agent_client.h"

#define MAX_RESPONSE (64u << 20) /* bytes of an answer: a kernel's output is far less */
#define CONNECT_TRIES 4          /* back-off 0.5, 1, 2 s between them */

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;

static void curl_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

struct buffer {
	char *v;
	size_t n;
	int over;
};

static size_t on_data(char *data, size_t size, size_t nmemb, void *p)
{
	struct buffer *b = p;
	size_t len = size * nmemb;
	char *nv;

	if (b->n + len > MAX_RESPONSE || !(nv = realloc(b->v, b->n + len + 1))) {
		b->over = 1;
		return 0;
	}
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

/* One request with retries: connection failures back off and retry, a busy
 * host (503) is waited for. Returns 0 with the HTTP status and the body as
 * JSON, TUNE_ERR_HOST when the host does not answer, TUNE_ERR_INTERRUPTED. */
static int call(struct agent_client *c, const char *path, const char *body, double timeout_s,
		volatile sig_atomic_t *stop, long *status, json_t **answer, struct tune_error *err)
{
	char url[1024], auth[600];
	int tries = 0;

	pthread_once(&curl_once, curl_init);
	snprintf(url, sizeof(url), "%s%s", c->url, path);
	snprintf(auth, sizeof(auth), "Authorization: Bearer %s", c->token);
	for (;;) {
		CURL *h = curl_easy_init();
		struct curl_slist *hdr = NULL;
		struct buffer b = { NULL, 0, 0 };
		CURLcode cc;
		json_error_t jerr;

		if (!h)
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		hdr = curl_slist_append(hdr, auth);
		hdr = curl_slist_append(hdr, "Content-Type: application/json");
		curl_easy_setopt(h, CURLOPT_URL, url);
		curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
		curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
		curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
		curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)(timeout_s * 1000.0));
		curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
		curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
		curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
		if (c->ca_file[0])
			curl_easy_setopt(h, CURLOPT_CAINFO, c->ca_file);
		if (body)
			curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
		cc = curl_easy_perform(h);
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, status);
		curl_slist_free_all(hdr);
		curl_easy_cleanup(h);
		if (cc == CURLE_OK && *status != 503) {
			*answer = b.v ? json_loads(b.v, 0, &jerr) : NULL;
			free(b.v);
			if (!*answer)
				return tune_fail(err, TUNE_ERR_HOST, "host '%s' answered %ld with something that is not "
						 "JSON (is it a tune agent?)", c->url, *status);
			return 0;
		}
		free(b.v);
		if (cc == CURLE_URL_MALFORMAT || cc == CURLE_UNSUPPORTED_PROTOCOL || cc == CURLE_SSL_CACERT_BADFILE ||
		    cc == CURLE_PEER_FAILED_VERIFICATION)
			return tune_fail(err, TUNE_ERR_CONFIG, "host '%s': %s (check the URL in the platform's hosts, and "
					 "its ca_file for https)", c->url, curl_easy_strerror(cc));
		/* Busy with another trial: wait for it, as long as a trial may take. */
		if (cc == CURLE_OK && *status == 503) {
			if (++tries > (int)(timeout_s + 1.0))
				return tune_fail(err, TUNE_ERR_HOST, "host '%s' stayed busy for %.0f s", c->url, timeout_s);
			if (nap(1.0, stop))
				return TUNE_ERR_INTERRUPTED;
			continue;
		}
		if (++tries >= CONNECT_TRIES)
			return tune_fail(err, TUNE_ERR_HOST, "host '%s' stopped answering (%s, %d tries): marked down; "
					 "its trials stay pending, run the same command to resume", c->url,
					 curl_easy_strerror(cc), tries);
		if (nap(0.5 * (double)(1 << (tries - 1)), stop))
			return TUNE_ERR_INTERRUPTED;
	}
}

static void copy_str(json_t *o, const char *key, char *out, size_t len)
{
	const char *v = json_string_value(json_object_get(o, key));

	snprintf(out, len, "%s", v ? v : "");
}

/* A refusal the agent explained: 401, 400, 413, 422... */
static int refused(const struct agent_client *c, long status, json_t *a, struct tune_error *err)
{
	const char *why = json_string_value(json_object_get(a, "error"));

	return tune_fail(err, status == 401 ? TUNE_ERR_CONFIG : TUNE_ERR_HOST, "host '%s' refused the request (HTTP "
			 "%ld): %s", c->url, status, why ? why : "no reason given");
}

int agent_client_open(struct agent_client *c, const char *url, const char *token_file, const char *ca_file,
		      struct tune_error *err)
{
	json_t *a = NULL, *f, *cpus, *v;
	long status = 0;
	size_t i;
	int rc;

	memset(c, 0, sizeof(*c));
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "host '%s' is not 'local' or an agent URL (http://HOST:PORT or "
				 "https://HOST:PORT)", url);
	snprintf(c->url, sizeof(c->url), "%s", url);
	if (c->url[0] && c->url[strlen(c->url) - 1] == '/')
		c->url[strlen(c->url) - 1] = '\0';
	snprintf(c->ca_file, sizeof(c->ca_file), "%s", ca_file ? ca_file : "");
	if (!token_file)
		return tune_fail(err, TUNE_ERR_CONFIG, "host '%s' needs the agent's token: add 'token_file: PATH' to the "
				 "platform", url);
	if ((rc = agent_read_token(token_file, c->token, sizeof(c->token), err)) != 0)
		return rc;
	if ((rc = call(c, "/v1/facts", NULL, 30.0, NULL, &status, &a, err)) != 0)
		return rc;
	if (status != 200) {
		rc = refused(c, status, a, err);
		json_decref(a);
		return rc;
	}
	f = json_object_get(a, "facts");
	copy_str(f, "hostname", c->facts.hostname, sizeof(c->facts.hostname));
	copy_str(f, "arch", c->facts.arch, sizeof(c->facts.arch));
	copy_str(f, "cpu_model", c->facts.cpu_model, sizeof(c->facts.cpu_model));
	copy_str(f, "microcode", c->facts.microcode, sizeof(c->facts.microcode));
	copy_str(f, "kernel", c->facts.kernel, sizeof(c->facts.kernel));
	copy_str(f, "governor", c->facts.governor, sizeof(c->facts.governor));
	copy_str(f, "thp", c->facts.thp, sizeof(c->facts.thp));
	c->facts.cores = (int)json_integer_value(json_object_get(f, "cores"));
	c->facts.pus = (int)json_integer_value(json_object_get(f, "pus"));
	c->facts.smt = json_is_true(json_object_get(f, "smt"));
	c->facts.llc_bytes = (long long)json_integer_value(json_object_get(f, "llc_bytes"));
	c->facts.memory_bytes = (long long)json_integer_value(json_object_get(f, "memory_bytes"));
	c->facts.loadavg1 = json_number_value(json_object_get(f, "loadavg1"));
	copy_str(a, "platform", c->platform, sizeof(c->platform));
	copy_str(a, "fingerprint", c->fingerprint, sizeof(c->fingerprint));
	copy_str(a, "compiler", c->compiler, sizeof(c->compiler));
	copy_str(a, "compiler_version", c->compiler_version, sizeof(c->compiler_version));
	copy_str(a, "cflags", c->cflags, sizeof(c->cflags));
	c->device_cpu = json_integer_value(json_object_get(a, "device_cpu"));
	c->pin = json_is_true(json_object_get(a, "pin"));
	cpus = json_object_get(a, "cpus");
	json_array_foreach(cpus, i, v) {
		if (c->ncpus < sizeof(c->cpus) / sizeof(c->cpus[0]))
			c->cpus[c->ncpus++] = json_integer_value(v);
	}
	json_decref(a);
	if (!c->facts.hostname[0] || strlen(c->fingerprint) != 16 || !c->ncpus)
		return tune_fail(err, TUNE_ERR_HOST, "host '%s' answered without its facts (is it a tune agent of this "
				 "version?)", url);
	return 0;
}

int agent_client_run(struct agent_client *c, const struct run_spec *spec, volatile sig_atomic_t *stop,
		     struct agent_output *out, struct tune_error *err)
{
	char *body = runspec_to_json(spec);
	json_t *a = NULL, *b;
	long status = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!body)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	/* The kernel's own limit, plus building it and the way there and back. */
	rc = call(c, "/v1/run", body, (double)spec->timeout_s + 180.0, stop, &status, &a, err);
	free(body);
	if (rc)
		return rc;
	if (status != 200) {
		rc = refused(c, status, a, err);
		json_decref(a);
		return rc;
	}
	out->built = json_is_true(json_object_get(a, "built"));
	copy_str(a, "reason", out->reason, sizeof(out->reason));
	b = json_object_get(a, "build");
	copy_str(b, "hash", out->build.hash, sizeof(out->build.hash));
	copy_str(b, "compiler", out->compiler, sizeof(out->compiler));
	copy_str(b, "compiler_version", out->build.compiler_version, sizeof(out->build.compiler_version));
	copy_str(b, "cflags", out->build.cflags, sizeof(out->build.cflags));
	copy_str(b, "defines", out->build.defines, sizeof(out->build.defines));
	if (out->built) {
		const char *o = json_string_value(json_object_get(a, "stdout"));
		const char *e = json_string_value(json_object_get(a, "stderr"));

		out->run.exited = json_is_true(json_object_get(a, "exited"));
		out->run.status = (int)json_integer_value(json_object_get(a, "status"));
		out->run.signo = (int)json_integer_value(json_object_get(a, "signal"));
		out->run.timed_out = json_is_true(json_object_get(a, "timed_out"));
		out->run.interrupted = json_is_true(json_object_get(a, "interrupted"));
		out->run.out = strdup(o ? o : "");
		out->run.errout = strdup(e ? e : "");
		out->run.out_len = out->run.out ? strlen(out->run.out) : 0;
		if (!out->run.out || !out->run.errout) {
			run_result_free(&out->run);
			json_decref(a);
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		}
	}
	json_decref(a);
	return 0;
}
