#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../base/names.h"
#include "../base/strbuf.h"
#include "../config/config.h"
#include "http.h"
#include "run.h"

/* A request to slurmrestd; its answer as JSON, its "errors" as a failure. */
static int call(struct slurm_client *c, const char *method, const char *path, const char *body, json_t **answer,
		struct tune_error *err)
{
	char url[1024], user[200], token[4200], what[600], *text = NULL;
	const char *headers[] = { user, token, "Content-Type: application/json", NULL };
	struct http_request rq = { method, url, headers, body, NULL, 30.0, 0, NULL, !strcmp(method, "POST") };
	json_t *errors;
	long status = 0;
	int rc;

	snprintf(url, sizeof(url), "%s/slurm/" SLURM_API "%s", c->url, path);
	snprintf(user, sizeof(user), "X-SLURM-USER-NAME: %s", c->user);
	snprintf(token, sizeof(token), "X-SLURM-USER-TOKEN: %s", c->token);
	*answer = NULL;
	snprintf(what, sizeof(what), "slurmrestd '%s'", c->url);
	if ((rc = http_call(&rq, what, &status, &text, err)) != 0)
		return rc;
	if (status == 401 || status == 403) {
		free(text);
		return tune_fail(err, TUNE_ERR_CONFIG, "slurmrestd '%s' refused user '%s' and its token (HTTP %ld): "
				 "renew the JWT (scontrol token) in the platform's slurm token_env or token_file", c->url,
				 c->user, status);
	}
	*answer = json_loads(text, 0, NULL);
	free(text);
	if (!*answer)
		return tune_fail(err, TUNE_ERR_HOST, "slurmrestd '%s' answered %s %s with HTTP %ld and no JSON (is it "
				 "slurmrestd with openapi/" SLURM_API "?)", c->url, method, path, status);
	errors = json_object_get(*answer, "errors");
	if (json_array_size(errors) > 0) {
		json_t *e = json_array_get(errors, 0);
		const char *d = json_string_value(json_object_get(e, "description"));
		const char *m = json_string_value(json_object_get(e, "error"));

		rc = tune_fail(err, TUNE_ERR_CONFIG, "slurmrestd '%s' rejected %s %s: %s%s%s", c->url, method, path,
			       d && *d ? d : "", d && *d && m && *m ? ": " : "", m ? m : "");
		json_decref(*answer);
		*answer = NULL;
		return rc;
	}
	return 0;
}

static int read_token(const struct platform_slurm *cfg, char *out, size_t len, struct tune_error *err)
{
	const char *var = cfg->token_env ? cfg->token_env : "SLURM_JWT";
	const char *v;

	if (cfg->token_file) {
		FILE *f = fopen(cfg->token_file, "r");

		if (!f)
			return tune_fail(err, TUNE_ERR_CONFIG, "cannot read the Slurm token file '%s': %s", cfg->token_file,
					 strerror(errno));
		if (!fgets(out, (int)len, f))
			out[0] = '\0';
		fclose(f);
		out[strcspn(out, "\r\n")] = '\0';
		/* scontrol token prints SLURM_JWT=...: take either. */
		if (!strncmp(out, "SLURM_JWT=", 10))
			memmove(out, out + 10, strlen(out + 10) + 1);
	} else if ((v = getenv(var)) != NULL) {
		snprintf(out, len, "%s", v);
	} else {
		out[0] = '\0';
	}
	if (!out[0])
		return tune_fail(err, TUNE_ERR_CONFIG, "no Slurm token: set %s (eval $(scontrol token)) or give slurm "
				 "token_file in the platform", cfg->token_file ? cfg->token_file : var);
	return 0;
}

int slurm_client_open(struct slurm_client *c, const struct platform_slurm *cfg, int require_tls, struct tune_error *err)
{
	json_t *a = NULL, *ping;
	const char *user = cfg->user ? cfg->user : getenv("USER");
	ssize_t n;
	int rc;

	memset(c, 0, sizeof(*c));
	if (strncmp(cfg->url, "http://", 7) != 0 && strncmp(cfg->url, "https://", 8) != 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "slurm url '%s' is not http://HOST:PORT of slurmrestd", cfg->url);
	if ((rc = http_check_link(cfg->url, require_tls, "slurm url (it carries the JWT)", err)) != 0)
		return rc;
	snprintf(c->url, sizeof(c->url), "%s", cfg->url);
	if (c->url[strlen(c->url) - 1] == '/')
		c->url[strlen(c->url) - 1] = '\0';
	snprintf(c->user, sizeof(c->user), "%s", user ? user : "root");
	/* It becomes an HTTP header: a CR or LF in it would add headers of its own. */
	if (!names_printable(c->user) || strlen(c->user) != strlen(user ? user : "root"))
		return tune_fail(err, TUNE_ERR_CONFIG, "slurm user '%.64s' has a control character or is over %zu "
				 "bytes (check slurm.user in the platform, or $USER)", names_printable(c->user) ? c->user : "?",
				 sizeof(c->user) - 1);
	snprintf(c->partition, sizeof(c->partition), "%s", cfg->partition);
	snprintf(c->shared_dir, sizeof(c->shared_dir), "%s", cfg->shared_dir);
	if (access(c->shared_dir, W_OK) != 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "slurm shared_dir '%s' is not a writable directory here: %s",
				 c->shared_dir, strerror(errno));
	if ((n = readlink("/proc/self/exe", c->tune_path, sizeof(c->tune_path) - 1)) <= 0)
		return tune_fail(err, TUNE_ERR_SYSTEM, "cannot find this tune's path: %s", strerror(errno));
	c->tune_path[n] = '\0';
	if ((rc = read_token(cfg, c->token, sizeof(c->token), err)) != 0)
		return rc;
	if ((rc = call(c, "GET", "/ping", NULL, &a, err)) == TUNE_ERR_CONFIG && !strstr(err->msg, "renew the JWT")) {
		/* slurmrestd 22.05 answers a token it cannot verify with an error of its own. */
		char msg[sizeof(err->msg) - 200];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		return tune_fail(err, TUNE_ERR_CONFIG, "%s (a wrong or expired token reads like this: renew the JWT "
				 "for user '%s' with scontrol token)", msg, c->user);
	}
	if (rc)
		return rc;
	ping = json_array_get(json_object_get(a, "pings"), 0);
	rc = json_is_string(json_object_get(ping, "ping")) && !strcmp(json_string_value(json_object_get(ping, "ping")),
								     "UP") ? 0
		: tune_fail(err, TUNE_ERR_HOST, "slurmrestd '%s' answers but its controller is not up", c->url);
	json_decref(a);
	return rc;
}

int slurm_client_nodes(struct slurm_client *c, const struct platform_slurm *cfg, char (*names)[256], size_t max,
		       size_t *n, struct tune_error *err)
{
	json_t *a = NULL, *node;
	char why[256];
	size_t i;
	int rc;

	*n = 0;
	if ((rc = call(c, "GET", "/nodes", NULL, &a, err)) != 0)
		return rc;
	json_array_foreach(json_object_get(a, "nodes"), i, node) {
		const char *name = json_string_value(json_object_get(node, "name"));
		json_t *parts = json_object_get(node, "partitions"), *p;
		size_t k;
		int in = 0, wanted = !cfg->nodes.n;

		json_array_foreach(parts, k, p) in |= json_is_string(p) && !strcmp(json_string_value(p), c->partition);
		for (k = 0; k < cfg->nodes.n && name; k++)
			wanted |= !strcmp(cfg->nodes.v[k], name);
		if (name && in && wanted && names_check(name, why, sizeof(why)) != 0) {
			json_decref(a);
			return tune_fail(err, TUNE_ERR_HOST, "slurmrestd '%s' listed a node whose name is not a name: %s "
					 "(a name is %s)", c->url, why, NAMES_RULE);
		}
		if (name && in && wanted && *n < max)
			snprintf(names[(*n)++], 256, "%s", name);
	}
	json_decref(a);
	if (cfg->nodes.n && *n != cfg->nodes.n)
		return tune_fail(err, TUNE_ERR_CONFIG, "slurm nodes: %zu of the %zu listed are nodes of partition '%s' "
				 "(check the names with sinfo -p %s)", *n, cfg->nodes.n, c->partition, c->partition);
	if (!*n)
		return tune_fail(err, TUNE_ERR_CONFIG, "slurm partition '%s' has no nodes (check the name with sinfo)",
				 c->partition);
	return 0;
}

/* ' text' for bash, with ' as '\''. */
static void quote(struct strbuf *b, const char *s)
{
	strbuf_add(b, " '");
	for (; *s; s++)
		if (*s == '\'')
			strbuf_add(b, "'\\''");
		else
			strbuf_addf(b, "%c", *s);
	strbuf_add(b, "'");
}

/* A job's output file, whole; "" when it is not there. A symbolic link
 * there is not followed: the directory is shared with others. */
static char *read_all(const char *path)
{
	char *buf = paths_read_file_nofollow(path, (64u << 20) - 1);

	return buf || errno == EFBIG || errno == ENOMEM ? buf : strdup("");
}

/* Names nobody can guess before the job runs, so that no one can place a
 * file or link there first. */
static int random_tag(char *out, size_t len, struct tune_error *err)
{
	unsigned char r[12];
	FILE *f = fopen("/dev/urandom", "rb");
	size_t got = f ? fread(r, 1, sizeof(r), f) : 0;

	if (f)
		fclose(f);
	if (got != sizeof(r))
		return tune_fail(err, TUNE_ERR_SYSTEM, "cannot read /dev/urandom");
	for (size_t i = 0; i < sizeof(r) && 2 * i + 2 < len; i++)
		snprintf(out + 2 * i, len - 2 * i, "%02x", r[i]);
	return 0;
}

/* Cancels a job tune submitted; nothing more to do when that fails too. */
static void cancel(struct slurm_client *c, const char *jpath)
{
	json_t *ignored = NULL;
	struct tune_error cerr;

	call(c, "DELETE", jpath, NULL, &ignored, &cerr);
	json_decref(ignored);
}

static int terminal(const char *state)
{
	static const char *const ends[] = { "COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
					    "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", NULL };

	for (int i = 0; ends[i]; i++)
		if (!strcmp(state, ends[i]))
			return 1;
	return 0;
}

int slurm_client_run(struct slurm_client *c, char *const argv[], const char *bind, const char *name,
		     double timeout_s, volatile sig_atomic_t *stop, struct run_result *res, struct tune_error *err)
{
	char out_pat[1100], err_pat[1100], path[1200], jpath[64], state[32] = "PENDING", tag[32];
	struct strbuf script = STRBUF_INIT;
	json_t *job, *a = NULL;
	char *body;
	long long id;
	double t0 = tk_now_s(), wait = 0.05;
	int rc, exit_code = 0;

	memset(res, 0, sizeof(*res));
	res->loadavg1 = -1; /* the node's is not reported */
	if ((rc = random_tag(tag, sizeof(tag), err)) != 0)
		return rc;
	strbuf_addf(&script, "#!/bin/bash\nexec srun --ntasks=1 --cpus-per-task=%d", c->node_cpus > 0 ? c->node_cpus : 1);
	for (int i = 0; argv[i]; i++)
		quote(&script, argv[i]);
	strbuf_add(&script, "\n");
	if (script.oom) {
		strbuf_release(&script);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	snprintf(out_pat, sizeof(out_pat), "%s/tune-%%j-%s.out", c->shared_dir, tag);
	snprintf(err_pat, sizeof(err_pat), "%s/tune-%%j-%s.err", c->shared_dir, tag);
	job = json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:i, s:i, s:I, s:s, s:s, s:s, s:{s:s, s:s, s:s}}}", "script",
			strbuf_str(&script), "job", "name", name, "partition", c->partition, "node_list", c->node, "exclusive",
			"exclusive", "tasks", 1, "cpus_per_task", c->node_cpus > 0 ? c->node_cpus : 1, "time_limit",
			(json_int_t)(timeout_s / 60.0) + 2, "current_working_directory", c->shared_dir,
			"standard_output", out_pat, "standard_error", err_pat, "environment", "PATH",
			"/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "SLURM_CPU_BIND", bind, "TUNE_HOME", paths_home());
	body = job ? json_dumps(job, JSON_COMPACT) : NULL;
	json_decref(job);
	strbuf_release(&script);
	if (!body)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	rc = call(c, "POST", "/job/submit", body, &a, err);
	free(body);
	if (rc)
		return rc;
	id = (long long)json_integer_value(json_object_get(a, "job_id"));
	json_decref(a);
	if (id <= 0)
		return tune_fail(err, TUNE_ERR_HOST, "slurmrestd '%s' accepted the job but gave no job id", c->url);
	c->jobs++;
	snprintf(jpath, sizeof(jpath), "/job/%lld", id);
	/* Poll until the job ends; Ctrl-C and our own time limit cancel it. */
	while (!terminal(state)) {
		struct timespec ts = { 0, (long)(wait * 1e9) };
		json_t *j;

		if ((stop && *stop) || tk_now_s() - t0 > timeout_s + 60.0) {
			if (stop && *stop)
				res->interrupted = 1;
			else
				res->timed_out = 1;
			cancel(c, jpath);
			break;
		}
		nanosleep(&ts, NULL);
		wait = wait < 0.5 ? wait * 1.5 : 0.5;
		if ((rc = call(c, "GET", jpath, NULL, &a, err)) != 0) {
			cancel(c, jpath); /* not left running where no one waits for it */
			return rc;
		}
		j = json_array_get(json_object_get(a, "jobs"), 0);
		snprintf(state, sizeof(state), "%s", json_string_value(json_object_get(j, "job_state")) ?
			 json_string_value(json_object_get(j, "job_state")) : "UNKNOWN");
		exit_code = (int)json_integer_value(json_object_get(j, "exit_code"));
		json_decref(a);
	}
	snprintf(path, sizeof(path), "%s/tune-%lld-%s.out", c->shared_dir, id, tag);
	res->out = read_all(path);
	unlink(path);
	snprintf(path, sizeof(path), "%s/tune-%lld-%s.err", c->shared_dir, id, tag);
	res->errout = read_all(path);
	unlink(path);
	if (!res->out || !res->errout) {
		run_result_free(res);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	res->out_len = strlen(res->out);
	res->exited = !strcmp(state, "COMPLETED") || !strcmp(state, "FAILED");
	res->status = !strcmp(state, "COMPLETED") ? 0 : exit_code ? exit_code : 1;
	res->timed_out |= !strcmp(state, "TIMEOUT");
	if (!res->exited && !res->interrupted && !res->timed_out) {
		/* Say why in the trial's reason: the job did not run to its end. */
		char *why = malloc(strlen(res->errout) + 128);

		if (why) {
			snprintf(why, strlen(res->errout) + 128, "slurm job %lld ended %s on node %s%s%s", id, state, c->node,
				 res->errout[0] ? ": " : "", res->errout);
			free(res->errout);
			res->errout = why;
		}
		res->signo = 9;
	}
	return 0;
}

int slurm_client_facts(struct slurm_client *c, struct host_facts *facts, struct tune_error *err)
{
	char *argv[] = { c->tune_path, "facts", NULL };
	struct run_result res;
	char why[300] = "no JSON";
	json_t *o;
	int rc = slurm_client_run(c, argv, "none", "tune-facts", 60.0, NULL, &res, err);

	if (rc)
		return rc;
	o = runner_succeeded(&res) ? json_loads(res.out, 0, NULL) : NULL;

	rc = o && hostinfo_from_json(o, facts, why, sizeof(why)) == 0 ? 0
		: tune_fail(err, TUNE_ERR_HOST, "node '%s': 'tune facts' did not run there (is '%s' on a file system "
			    "the node shares?): %s: %.300s", c->node, c->tune_path, why,
			    res.errout && res.errout[0] ? res.errout : res.out ? res.out : "");
	json_decref(o);
	run_result_free(&res);
	return rc;
}
