/* The agent's trials: its facts, a run spec decoded against this host's
 * copy of the kernel's manifest, the kernel built
 * with this host's compiler and run pinned to its CPUs, stopped when the
 * client hangs up. */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "../base/runner.h"
#include "../base/strbuf.h"
#include "../base/version.h"
#include "../build/build.h"
#include "../config/config.h"
#include "../plan/plan.h"
#include "../run/run.h"
#include "agent_internal.h"

/* Watches a trial's client: when it hangs up, *gone is set and the trial
 * stops (the agent stopping stops it too). */
struct client_watch {
	int fd;
	volatile sig_atomic_t *agent_stop;
	volatile sig_atomic_t gone;
	volatile int done;
};

static void *watch_client(void *p)
{
	struct client_watch *w = p;

	while (!w->done) {
		struct pollfd pf = { w->fd, POLLRDHUP, 0 };

		if (w->agent_stop && *w->agent_stop)
			w->gone = 1;
		if (w->fd >= 0 && poll(&pf, 1, 100) > 0 && (pf.revents & (POLLRDHUP | POLLHUP | POLLERR)))
			w->gone = 1;
		if (w->fd < 0) {
			struct timespec nap = { 0, 100000000 };

			nanosleep(&nap, NULL);
		}
		if (w->gone)
			break;
	}
	return NULL;
}

json_t *agent_facts_json(const struct agent *a)
{
	char *facts = hostinfo_json(&a->facts);
	json_t *f = facts ? json_loads(facts, 0, NULL) : NULL, *cpus = json_array();

	free(facts);
	for (size_t i = 0; i < a->platform.cpus.n; i++)
		json_array_append_new(cpus, json_integer(a->platform.cpus.v[i]));
	return json_pack("{s:s, s:o, s:s, s:s, s:s, s:s, s:s, s:o, s:I, s:b, s:O}", "tune_version", TUNE_VERSION,
			 "facts", f ? f : json_object(), "platform", a->platform.name, "fingerprint", a->fingerprint,
			 "compiler", a->platform.compiler, "compiler_version", a->compiler_version, "cflags",
			 a->cflags, "cpus", cpus, "device_cpu", (json_int_t)a->platform.device_cpu,
			 "pin", a->platform.pin, "kernels", a->kernels);
}

/* A command kernel's batch: its processes, each spawned as a kernel's. */
struct program_batch {
	struct trial *const *todo;
	size_t n;
	long long runs, warmup;
	const struct run_place *place;
	double timeout_s;
	volatile sig_atomic_t *stop;
};

static int spawn_program(void *ctx, char *const *argv, int cpu, struct run_result *res, struct tune_error *err)
{
	const struct program_batch *b = ctx;

	return runner_exec(argv, cpu, b->timeout_s, b->stop, res, err);
}

/* Runs the built kernel's argv pinned to cpu (or the command kernel's
 * batch), stopped when the client hangs up, and answers with what it
 * printed. Called with the trial lock held; releases it. */
static enum MHD_Result run_built(struct agent *a, struct MHD_Connection *c, char *const *argv, int cpu,
				 long long timeout_s, const struct build_result *br, const char *kernel,
				 struct program_batch *batch)
{
	struct conn *k = agent_conn_of(c);
	struct client_watch w = { k ? k->fd : -1, a->stop, 0, 0 };
	struct run_result res;
	struct tune_error err;
	pthread_t th;
	int watching = pthread_create(&th, NULL, watch_client, &w) == 0, rc;
	json_t *out;

	if (batch) {
		batch->timeout_s = (double)timeout_s;
		batch->stop = watching ? &w.gone : a->stop;
		rc = command_run(batch->todo, batch->n, batch->runs, batch->warmup, batch->place, spawn_program, batch,
				 &res, &err);
	} else {
		rc = runner_exec(argv, cpu, (double)timeout_s, watching ? &w.gone : a->stop, &res, &err);
	}

	w.done = 1;
	if (watching)
		pthread_join(th, NULL);
	pthread_mutex_unlock(&a->trial);
	if (rc != 0)
		return agent_fail(c, MHD_HTTP_INTERNAL_SERVER_ERROR, err.msg);
	if (w.gone && !(a->stop && *a->stop))
		fprintf(stderr, "tune agent: the client of a %s trial hung up: trial stopped\n", kernel);
	out = json_pack("{s:s, s:b, s:{s:s, s:s, s:s, s:s, s:s}, s:b, s:i, s:i, s:b, s:b, s:b, s:i, s:f, s:s, s:s}", "host",
			a->facts.hostname, "built", 1, "build", "hash", br->hash, "compiler", a->platform.compiler,
			"compiler_version", br->compiler_version, "cflags", br->cflags, "defines", br->defines, "exited",
			res.exited, "status", res.status, "signal", res.signo, "timed_out", res.timed_out, "interrupted",
			res.interrupted, "unreadable", res.unreadable, "cpu", res.cpu, "loadavg1", res.loadavg1, "stdout", res.out ? res.out : "", "stderr", res.errout ? res.errout : "");
	run_result_free(&res);
	return out ? agent_respond(c, MHD_HTTP_OK, out) : agent_fail(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the kernel's output "
							  "is not text");
}

/* Builds, or answers that the build failed; 0 when built (lock still held). */
static int build_or_answer(struct agent *a, struct MHD_Connection *c, const struct build_spec *bs,
			   struct build_result *br, enum MHD_Result *answer)
{
	struct tune_error err;

	if (build_kernel(bs, br, &err) == 0)
		return 0;
	pthread_mutex_unlock(&a->trial);
	*answer = agent_respond(c, MHD_HTTP_OK, json_pack("{s:s, s:b, s:s}", "host", a->facts.hostname, "built", 0,
						    "reason", err.msg));
	return -1;
}

/* Is a memory_mb value of the run over half of this host's memory? Says which. */
static int over_memory(const struct agent *a, const struct kernel_manifest *m, const struct manifest_run *run,
		       char *why, size_t len)
{
	long long host_mb = (long long)(a->facts.memory_bytes >> 20);

	for (size_t k = 0; k < run->n; k++)
		for (size_t i = 0; i < m->parameters.n; i++) {
			long long v = run->trials[k].values[i];

			if (MANIFEST_PARAM(m, i)->memory_mb && v != PLAN_NA && v > host_mb / 2) {
				snprintf(why, len, "field 'params': %s=%lld MB is over half of this host's memory (%lld MB)",
					 MANIFEST_PARAM(m, i)->name, v, host_mb);
				return 1;
			}
		}
	return 0;
}

/* Does kernel m want a device thread on a CPU of its own, which this host
 * (one CPU) does not have? Says so. */
static int no_device_cpu(const struct agent *a, const struct kernel_manifest *m, char *why, size_t len)
{
	if (!m->device_cpu_flag || a->platform.device_cpu >= 0)
		return 0;
	snprintf(why, len, "this host has one CPU: kernel '%s' runs a device thread (the emulated accelerator) on a "
		 "CPU of its own", m->name);
	return 1;
}

/* A kernel of this host's kernel directories, described by its manifest:
 * the spec decoded against this host's copy, whose hash must be the one
 * the orchestrator measured with. */
static enum MHD_Result run_manifest_trial(struct agent *a, struct MHD_Connection *c, json_t *o, const char *name)
{
	struct kernel_manifest m;
	struct manifest_run *run = malloc(sizeof(*run));
	struct manifest_argv *args = malloc(sizeof(*args));
	struct strbuf defines = STRBUF_INIT;
	struct build_result br;
	struct tune_error err;
	const char *mine = json_string_value(json_object_get(a->kernels, name));
	char why[600];
	enum MHD_Result answer;

	memset(&m, 0, sizeof(m));
	if (!run || !args || !mine || manifest_load(name, &m, &err) != 0) {
		free(run);
		free(args);
		manifest_free(&m);
		snprintf(why, sizeof(why), "field 'kernel': this host has no kernel '%s' (start the agent with "
			 "--kernels-dir holding %s/kernel.yaml)", name, name);
		return agent_fail(c, run && args ? MHD_HTTP_BAD_REQUEST : MHD_HTTP_INTERNAL_SERVER_ERROR, why);
	}
	if (manifest_spec_from_json(o, &m, run, why, sizeof(why)) != 0) {
		answer = agent_fail(c, MHD_HTTP_BAD_REQUEST, why);
	} else if (over_memory(a, &m, run, why, sizeof(why)) || no_device_cpu(a, &m, why, sizeof(why))) {
		answer = agent_fail(c, MHD_HTTP_UNPROCESSABLE_CONTENT, why);
	} else if (strcmp(run->kernel_hash, mine) != 0) {
		snprintf(why, sizeof(why), "kernel '%s' here differs from the orchestrator's (manifest and sources hash "
			 "%s here, %s there): copy the same folder to both", name, mine, run->kernel_hash);
		answer = agent_fail(c, MHD_HTTP_CONFLICT, why);
	} else if (run->timeout_s > a->max_timeout_s) {
		snprintf(why, sizeof(why), "field 'timeout_s': %lld s is over this agent's --max-timeout of %lld s",
			 run->timeout_s, a->max_timeout_s);
		answer = agent_fail(c, MHD_HTTP_UNPROCESSABLE_CONTENT, why);
	} else if (pthread_mutex_trylock(&a->trial) != 0) {
		answer = agent_fail(c, MHD_HTTP_SERVICE_UNAVAILABLE, "busy: a trial is running on this host; retry later");
	} else {
		struct trial *todo[RUNSPEC_MAX_POINTS];
		struct build_spec bs = { &m, m.variant_define ? run->trials[0].variant : 0, NULL, NULL,
					 a->platform.compiler, &a->platform.cflags, a->stop };
		char label[256];

		manifest_build_label(&run->trials[0], label, sizeof(label));
		bs.label = label;

		for (size_t i = 0; i < run->n; i++)
			todo[i] = &run->trials[i];
		manifest_defines(&run->trials[0], &defines);
		bs.defines = strbuf_str(&defines);
		if (defines.oom) {
			pthread_mutex_unlock(&a->trial);
			answer = agent_fail(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
		} else if (build_or_answer(a, c, &bs, &br, &answer) == 0) {
			struct run_place place = { a->platform.pin, &a->platform.cpus, a->platform.device_cpu };
			int cpu;

			struct program_batch batch = { todo, run->n, run->runs, run->warmup, &place, 0, NULL };

			if (m.command.n) {
				answer = run_built(a, c, NULL, -1, run->timeout_s, &br, name, &batch);
			} else if (manifest_args(br.path, todo, run->n, run->runs, run->warmup, &place, args, &cpu) != 0) {
				pthread_mutex_unlock(&a->trial);
				answer = agent_fail(c, MHD_HTTP_BAD_REQUEST, "the kernel's command line is too long");
			} else {
				answer = run_built(a, c, args->argv, cpu, run->timeout_s, &br, name, NULL);
			}
		}
	}
	strbuf_release(&defines);
	manifest_free(&m);
	free(run);
	free(args);
	return answer;
}

/* POST /v1/run: decode, build, run, answer with what the kernel printed. */
enum MHD_Result agent_run_trial(struct agent *a, struct MHD_Connection *c, const struct request *rq)
{
	json_error_t jerr;
	char why[512], name[80];
	json_t *o;
	enum MHD_Result answer;
	size_t used = 0;

	if (rq->len > RUNSPEC_MAX_JSON) {
		snprintf(why, sizeof(why), "the spec is %zu bytes, over the limit of %d", rq->len, RUNSPEC_MAX_JSON);
		return agent_fail(c, MHD_HTTP_BAD_REQUEST, why);
	}
	/* Bounded nesting: a spec is a flat object with one params object. */
	if (!(o = json_loadb(rq->body ? rq->body : "", rq->len, JSON_REJECT_DUPLICATES, &jerr))) {
		snprintf(why, sizeof(why), "malformed JSON at line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
		return agent_fail(c, MHD_HTTP_BAD_REQUEST, why);
	}
	if (!json_is_object(o) || manifest_spec_kernel(o, name, sizeof(name), why, sizeof(why)) != 0) {
		if (!json_is_object(o))
			snprintf(why, sizeof(why), "the spec must be a JSON object");
		json_decref(o);
		return agent_fail(c, MHD_HTTP_BAD_REQUEST, why);
	}
	if (json_object_get(a->kernels, name)) {
		answer = run_manifest_trial(a, c, o, name);
		json_decref(o);
		return answer;
	}
	json_decref(o);
	str_appendf(why, sizeof(why), &used, "field 'kernel' must be one of");
	for (void *it = json_object_iter(a->kernels); it; it = json_object_iter_next(a->kernels, it))
		str_appendf(why, sizeof(why), &used, " %s", json_object_iter_key(it));
	return agent_fail(c, MHD_HTTP_BAD_REQUEST, why);
}

/* Every kernel of the kernel directories with its hash, as the
 * orchestrator computes it; a bad manifest is left out and said. */
int agent_list_kernels(struct agent *a, struct tune_error *err)
{
	char **names = NULL;
	int n = manifest_names(&names);

	if (!(a->kernels = json_object()))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (int i = 0; i < n; i++) {
		struct kernel_manifest m;
		struct tune_error merr;
		char hash[17];

		if (manifest_load(names[i], &m, &merr) != 0 || build_manifest_hash(&m, hash, &merr) != 0)
			fprintf(stderr, "tune agent: warning: kernel '%s' left out: %s\n", names[i], merr.msg);
		else
			json_object_set_new(a->kernels, names[i], json_string(hash));
		manifest_free(&m);
		free(names[i]);
	}
	free(names);
	return 0;
}
