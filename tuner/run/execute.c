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
	/* A kernel whose variants are chosen at run time has one build for all of them. */
	struct store_build sb = { b->res.hash, m->name, m->variant_define ? m->variants.v[b->variant] : m->name,
				  b->hint >= 0 && hint && (size_t)b->hint < hint->choices.n ? hint->choices.v[b->hint] : NULL,
				  compiler, b->res.compiler_version, b->res.cflags, b->res.defines, where };

	return store_build(r->ctx->store, &sb, &b->build_id, tune_msg(err));
}

struct built *exec_get_build(struct sweep_run *r, const struct trial *t)
{
	struct built *b;
	struct tune_error err;
	/* A kernel compiles its variants apart when its manifest has a variant
	 * define; else it chooses at run time from one build. */
	struct build_spec spec = { t->manifest, t->manifest->variant_define ? t->variant : 0, NULL, NULL,
				   r->ctx->platform->compiler, &r->ctx->platform->cflags, r->opt->stop };
	struct strbuf defines = STRBUF_INIT;
	char label[256];

	manifest_build_label(t, label, sizeof(label));
	spec.label = label;
	manifest_defines(t, &defines);
	if (defines.oom || defines.len >= sizeof(b->defines)) {
		strbuf_release(&defines);
		return NULL;
	}
	/* The defines tell the builds apart (the variant's and the parameters'). */
	for (size_t i = 0; i < r->nbuilds; i++)
		if (!strcmp(r->builds[i].defines, strbuf_str(&defines))) {
			strbuf_release(&defines);
			return &r->builds[i];
		}
	if (r->nbuilds == MAX_BUILDS) {
		strbuf_release(&defines);
		return NULL;
	}
	b = &r->builds[r->nbuilds++];
	memset(b, 0, sizeof(*b));
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
