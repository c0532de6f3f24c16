/* A command kernel's runs, reported as one kernel process of the protocol
 * would report them: each run (the warm-ups first) starts one process of
 * the program per trial of the batch, in an order rotated run by run as a
 * kernel interleaves its list, and each process's metric, read from its
 * output, becomes one line. The first process that fails ends the batch
 * with its reason and its stderr's tail, as a failed kernel would. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "run.h"

/* "fio iodepth=4: " and the last lines of what it said on stderr, on one
 * line (a trial's reason is one line). */
static void say_failure(struct run_result *res, const char *label, const char *what)
{
	struct strbuf line = STRBUF_INIT;
	const char *tail = res->errout ? res->errout : "";
	size_t n = strlen(tail);
	char *text;

	tail = n > 400 ? tail + n - 400 : tail;
	strbuf_addf(&line, "%s: %s", label, what ? what : "");
	if (*tail) {
		strbuf_addf(&line, "%sits stderr ends: ", what ? "; " : "");
		for (const char *p = tail; *p; p++)
			if (*p == '\n')
				strbuf_add(&line, p[1] ? " / " : "");
			else
				strbuf_addf(&line, "%c", *p);
	} else if (!what) {
		strbuf_add(&line, "it said nothing on stderr");
	}
	if ((text = strbuf_detach(&line))) {
		free(res->errout);
		res->errout = text;
	}
}

/* The protocol line of one process: the list's value, the run, the metric. */
static int line_of(const struct trial *t, long long run, int warm, double metric, double ns, struct strbuf *out)
{
	const struct kernel_manifest *m = t->manifest;
	const struct kernel_param *list = manifest_list_param(m);
	json_t *o = json_object();
	char *text;

	if (!o)
		return -1;
	if (list && t->values[list - MANIFEST_PARAM(m, 0)] != PLAN_NA)
		json_object_set_new(o, list->name, manifest_value_json(list, t->values[list - MANIFEST_PARAM(m, 0)]));
	json_object_set_new(o, TK_FIELD_RUN, json_integer(run));
	json_object_set_new(o, TK_FIELD_WARMUP, json_boolean(warm));
	json_object_set_new(o, m->metric.field, json_real(metric));
	json_object_set_new(o, "ns_total", json_integer((json_int_t)ns));
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (!text)
		return -1;
	strbuf_addf(out, "%s\n", text);
	free(text);
	return 0;
}

int command_run(struct trial *const *todo, size_t n, long long runs, long long warmup, const struct run_place *place,
		int (*spawn)(void *ctx, char *const *argv, int cpu, struct run_result *res, struct tune_error *err),
		void *ctx, struct run_result *out, struct tune_error *err)
{
	struct strbuf lines = STRBUF_INIT;
	struct manifest_argv *a = malloc(sizeof(*a));
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->cpu = -1;
	out->loadavg1 = -1;
	if (!a)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (long long r = 0; r < warmup + runs && !rc; r++)
		for (size_t k = 0; k < n && !rc; k++) {
			const struct trial *t = todo[(k + (size_t)r) % n]; /* rotated: no value always first */
			struct run_result res;
			char label[192], why[512];
			double metric;
			uint64_t t0;
			int cpu;

			manifest_label(t, t, label, sizeof(label));
			if (manifest_program_args(t, place, a, &cpu) != 0) {
				rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: its command line is too long", label);
				break;
			}
			t0 = tk_now_ns();
			if ((rc = spawn(ctx, a->argv, cpu, &res, err)) != 0)
				break;
			out->cpu = res.cpu;
			out->loadavg1 = res.loadavg1 > out->loadavg1 ? res.loadavg1 : out->loadavg1;
			out->lingered_s = res.lingered_s > out->lingered_s ? res.lingered_s : out->lingered_s;
			if (!runner_succeeded(&res)) {
				say_failure(&res, label, NULL);
			} else if (manifest_program_metric(t->manifest, res.out, res.errout, &metric, why, sizeof(why))) {
				res.unreadable = 1;
				say_failure(&res, label, why);
			} else if (line_of(t, r < warmup ? r : r - warmup, r < warmup, metric,
					   (double)(tk_now_ns() - t0), &lines) != 0) {
				rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
			}
			if (!rc && !runner_succeeded(&res)) {
				/* The batch ends as a failed kernel process: its reason, what it printed so far. */
				free(res.out);
				res.lingered_s = out->lingered_s;
				res.out = strbuf_detach(&lines);
				res.out_len = res.out ? strlen(res.out) : 0;
				*out = res;
				free(a);
				return 0;
			}
			run_result_free(&res);
		}
	free(a);
	if (rc) {
		strbuf_release(&lines);
		return rc;
	}
	out->exited = 1;
	out->out = strbuf_detach(&lines);
	out->errout = strdup("");
	if (!out->out || !out->errout) {
		run_result_free(out);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	out->out_len = strlen(out->out);
	return 0;
}
