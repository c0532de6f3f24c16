/* Building a sweep's kernels once each, and handing a kernel process to the
 * context's executor (executors.c). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "../config/config.h"
#include "../plan/plan.h"
#include "run.h"

int exec_record_build(struct sweep_run *r, struct built *b, const char *compiler, const char *where,
			struct tune_error *err)
{
	const struct kernel_manifest *m = r->kernel;
	const struct kernel_param *hint = manifest_define_param(m);
	/* A shipped kernel whose variants are chosen at run time has one build for all of them. */
	struct store_build sb = { b->res.hash, m->name,
				  r->sweep.manifest || m->variant_define ? m->variants.v[b->variant] : m->name,
				  b->hint >= 0 && hint && (size_t)b->hint < hint->choices.n ? hint->choices.v[b->hint] : NULL,
				  compiler, b->res.compiler_version, b->res.cflags, b->res.defines, where };

	return store_build(r->ctx->store, &sb, &b->build_id, tune_msg(err));
}

struct built *exec_get_build(struct sweep_run *r, const struct trial *t)
{
	struct built *b;
	struct tune_error err;
	struct build_spec spec = { t->kernel, t->variant, t->hint, r->ctx->platform->compiler,
				   &r->ctx->platform->cflags, r->opt->stop, t->manifest, NULL };
	struct strbuf defines = STRBUF_INIT;

	/* A shipped kernel compiles its variants apart when its manifest has a
	 * variant define; else it chooses at run time from one build. */
	if (!t->manifest && !r->kernel->variant_define)
		spec.variant = 0;
	if (t->manifest) {
		manifest_defines(t, &defines);
		if (defines.oom || defines.len >= sizeof(b->defines)) {
			strbuf_release(&defines);
			return NULL;
		}
	}
	for (size_t i = 0; i < r->nbuilds; i++)
		if (r->builds[i].kernel == t->kernel && r->builds[i].variant == spec.variant &&
		    r->builds[i].hint == t->hint && !strcmp(r->builds[i].defines, strbuf_str(&defines))) {
			strbuf_release(&defines);
			return &r->builds[i];
		}
	if (r->nbuilds == MAX_BUILDS) {
		strbuf_release(&defines);
		return NULL;
	}
	b = &r->builds[r->nbuilds++];
	memset(b, 0, sizeof(*b));
	b->kernel = t->kernel;
	b->variant = spec.variant;
	b->hint = t->hint;
	snprintf(b->defines, sizeof(b->defines), "%s", strbuf_str(&defines));
	strbuf_release(&defines);
	spec.defines = b->defines;
	/* An agent builds with its own compiler; its executor records its build. */
	if (!exec_executor(r->ctx)->builds_here)
		return b;
	b->rc = build_kernel(&spec, &b->res, &err);
	if (b->rc == 0)
		b->rc = exec_record_build(r, b, spec.compiler, b->res.path, &err);
	if (b->rc) {
		fprintf(stderr, "tune: %s\n", err.msg);
		snprintf(b->reason, sizeof(b->reason), "build failed: %.*s", (int)strcspn(err.msg, "\n"), err.msg);
	}
	return b;
}

/* The run spec measuring todo[0..n) of one context, runs + warmup each. */
void exec_spec_of(const struct sweep_run *r, struct trial **todo, size_t n, long long runs, long long warmup,
		    struct run_spec *s)
{
	const struct trial *t = todo[0];
	const struct sweep *sw = &r->sweep;

	memset(s, 0, sizeof(*s));
	s->kernel = t->kernel;
	s->variant = t->variant;
	s->hint = t->hint;
	for (size_t i = 0; i < n && i < RUNSPEC_MAX_POINTS; i++)
		s->points[s->npoints++] = plan_trial_point(todo[i]);
	s->runs = runs;
	s->warmup = warmup;
	s->seed = t->seed;
	s->timeout_s = sw->timeout_s;
	s->size_mb = t->size_mb;
	s->depth = t->depth;
	s->queries = t->queries;
	s->hugepages = t->hugepages;
}

const struct executor *exec_executor(const struct exec_context *ctx)
{
	return ctx->executor ? ctx->executor : &executor_local;
}

int exec_execute(struct sweep_run *r, struct built *bin, const struct exec_job *job, struct run_result *res,
		 const char **reason, struct tune_error *err)
{
	*reason = NULL;
	return exec_executor(r->ctx)->run(r, bin, job, res, reason, err);
}
