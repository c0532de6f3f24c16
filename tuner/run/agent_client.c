#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "../base/names.h"
#include "../base/token.h"
#include "http.h"
#include "run.h"

/* A request to the agent; the answer as JSON. */
static int call(struct agent_client *c, const char *path, const char *body, double timeout_s,
		volatile sig_atomic_t *stop, long *status, json_t **answer, struct tune_error *err)
{
	char url[1024], auth[600], what[600], *text = NULL;
	const char *headers[] = { auth, "Content-Type: application/json", NULL };
	struct http_request rq = { body ? "POST" : "GET", url, headers, body, c->ca_file, timeout_s, 1, stop,
				   body != NULL };
	int rc;

	snprintf(url, sizeof(url), "%s%s", c->url, path);
	snprintf(auth, sizeof(auth), "Authorization: Bearer %s", c->token);
	snprintf(what, sizeof(what), "host '%s'", c->url);
	if ((rc = http_call(&rq, what, status, &text, err)) != 0)
		return rc;
	*answer = json_loads(text, 0, NULL);
	free(text);
	if (!*answer)
		return tune_fail(err, TUNE_ERR_HOST, "host '%s' answered %ld with something that is not JSON (is it a "
				 "tune agent?)", c->url, *status);
	return 0;
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
		      int require_tls, struct tune_error *err)
{
	json_t *a = NULL, *cpus, *v;
	char why[300];
	long status = 0;
	size_t i;
	int rc;

	memset(c, 0, sizeof(*c));
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "host '%s' is not 'local' or an agent URL (http://HOST:PORT or "
				 "https://HOST:PORT)", url);
	if ((rc = http_check_link(url, require_tls, "host", err)) != 0)
		return rc;
	snprintf(c->url, sizeof(c->url), "%s", url);
	if (c->url[0] && c->url[strlen(c->url) - 1] == '/')
		c->url[strlen(c->url) - 1] = '\0';
	snprintf(c->ca_file, sizeof(c->ca_file), "%s", ca_file ? ca_file : "");
	if (!token_file)
		return tune_fail(err, TUNE_ERR_CONFIG, "host '%s' needs the agent's token: add 'token_file: PATH' to the "
				 "platform", url);
	if ((rc = token_read(token_file, c->token, sizeof(c->token), err)) != 0)
		return rc;
	if ((rc = call(c, "/v1/facts", NULL, 30.0, NULL, &status, &a, err)) != 0)
		return rc;
	if (status != 200) {
		rc = refused(c, status, a, err);
		json_decref(a);
		return rc;
	}
	if (hostinfo_from_json(json_object_get(a, "facts"), &c->facts, why, sizeof(why)) != 0) {
		json_decref(a);
		return tune_fail(err, TUNE_ERR_HOST, "host '%s' sent facts that are refused: %s (is it a tune agent of "
				 "this version, and is the link to it private? use https:// with a CA file)", url, why);
	}
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
	/* Names and hex only: they reach messages and the comparison. */
	for (void *it = json_object_iter(json_object_get(a, "kernels")); it;
	     it = json_object_iter_next(json_object_get(a, "kernels"), it)) {
		const char *name = json_object_iter_key(it), *hash = json_string_value(json_object_iter_value(it));
		struct agent_kernel *k = &c->kernels[c->nkernels];

		if (c->nkernels == sizeof(c->kernels) / sizeof(c->kernels[0]))
			break;
		if (names_check(name, why, sizeof(why)) != 0 || !hash || strlen(hash) != 16 ||
		    strspn(hash, "0123456789abcdef") != 16) {
			json_decref(a);
			return tune_fail(err, TUNE_ERR_HOST, "host '%s' sent facts that are refused: a kernel that is not "
					 "a name with a 16-hex-digit hash", url);
		}
		snprintf(k->name, sizeof(k->name), "%s", name);
		snprintf(k->hash, sizeof(k->hash), "%s", hash);
		c->nkernels++;
	}
	json_decref(a);
	if (!c->facts.hostname[0] || strlen(c->fingerprint) != 16 || !c->ncpus)
		return tune_fail(err, TUNE_ERR_HOST, "host '%s' answered without its facts (is it a tune agent of this "
				 "version?)", url);
	if (strspn(c->fingerprint, "0123456789abcdef") != 16 || names_check(c->platform, why, sizeof(why)) != 0 ||
	    !names_printable(c->compiler) || !names_printable(c->compiler_version) || !names_printable(c->cflags))
		return tune_fail(err, TUNE_ERR_HOST, "host '%s' sent facts that are refused: a fingerprint that is not 16 "
				 "hex digits, a platform that is not a name, or a control character in its compiler or "
				 "flags", url);
	return 0;
}

const char *agent_client_kernel_hash(const struct agent_client *c, const char *name)
{
	for (size_t i = 0; i < c->nkernels; i++)
		if (!strcmp(c->kernels[i].name, name))
			return c->kernels[i].hash;
	return NULL;
}

int agent_client_run(struct agent_client *c, const char *body, long long timeout_s, volatile sig_atomic_t *stop,
		     struct exec_outcome *out, struct tune_error *err)
{
	json_t *a = NULL, *b, *cpu, *load;
	long status = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->run.loadavg1 = -1;
	snprintf(out->where, sizeof(out->where), "%s", c->url);
	/* The kernel's own limit, plus building it and the way there and back. */
	rc = call(c, "/v1/run", body, (double)timeout_s + 180.0, stop, &status, &a, err);
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
	/* Recorded with the trial: text, no control characters; the hash is hex. */
	if (strspn(out->build.hash, "0123456789abcdef") != strlen(out->build.hash) ||
	    !names_printable(out->build.compiler_version) || !names_printable(out->build.cflags) ||
	    !names_printable(out->build.defines) || !names_printable(out->compiler)) {
		json_decref(a);
		return tune_fail(err, TUNE_ERR_HOST, "host '%s' described its build with a control character or a "
				 "hash that is not hex: refused", c->url);
	}
	if (out->built) {
		const char *o = json_string_value(json_object_get(a, "stdout"));
		const char *e = json_string_value(json_object_get(a, "stderr"));

		out->run.exited = json_is_true(json_object_get(a, "exited"));
		out->run.status = (int)json_integer_value(json_object_get(a, "status"));
		out->run.signo = (int)json_integer_value(json_object_get(a, "signal"));
		out->run.timed_out = json_is_true(json_object_get(a, "timed_out"));
		out->run.interrupted = json_is_true(json_object_get(a, "interrupted"));
		out->run.unreadable = json_is_true(json_object_get(a, "unreadable"));
		/* Where the host pinned it: a CPU number, or -1 (an older agent says nothing). */
		cpu = json_object_get(a, "cpu");
		out->run.cpu = json_is_integer(cpu) && json_integer_value(cpu) >= 0 &&
				       json_integer_value(cpu) < RUNNER_MAX_CPU
				       ? (int)json_integer_value(cpu)
				       : -1;
		/* The host's load as the kernel ended: a number from 0 to 100000, else unknown. */
		load = json_object_get(a, "loadavg1");
		out->run.loadavg1 = json_is_number(load) && json_number_value(load) >= 0 && json_number_value(load) < 1e5
					    ? json_number_value(load)
					    : -1;
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
