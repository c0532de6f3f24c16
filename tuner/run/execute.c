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

/* Records bin's build (made here, or by a host at where) with the sweep's builds. */
static int record_build(struct exec_builds *bs, struct built *b, const char *compiler, const char *where,
			struct tune_error *err)
{
	const struct kernel_manifest *m = bs->kernel;
	/* A kernel whose variants are chosen at run time has one build for all of them. */
	struct store_build sb = { b->res.hash, m->name, m->variant_define ? m->variants.v[b->variant] : m->name,
				  compiler, b->res.compiler_version, b->res.cflags, b->res.defines, where };

	return store_build(bs->ctx->store, &sb, &b->build_id, tune_msg(err));
}

struct built *exec_get_build(struct exec_builds *bs, const struct trial *t)
{
	struct built *b;
	struct tune_error err;
	/* A kernel compiles its variants apart when its manifest has a variant
	 * define; else it chooses at run time from one build. */
	struct build_spec spec = { t->manifest, t->manifest->variant_define ? t->variant : 0, NULL, NULL,
				   bs->ctx->platform->compiler, &bs->ctx->platform->cflags, bs->stop };
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
	for (size_t i = 0; i < bs->n; i++)
		if (!strcmp(bs->v[i].defines, strbuf_str(&defines))) {
			strbuf_release(&defines);
			return &bs->v[i];
		}
	if (bs->n == MAX_BUILDS) {
		strbuf_release(&defines);
		return NULL;
	}
	b = &bs->v[bs->n++];
	memset(b, 0, sizeof(*b));
	b->variant = spec.variant;
	snprintf(b->defines, sizeof(b->defines), "%s", strbuf_str(&defines));
	strbuf_release(&defines);
	spec.defines = b->defines;
	/* An agent builds with its own compiler; exec_execute() records its build. */
	if (!exec_executor(bs->ctx)->builds_here)
		return b;
	b->rc = build_kernel(&spec, &b->res, &err);
	/* A command kernel's build is its program, not the compiler's. */
	if (b->rc == 0)
		b->rc = record_build(bs, b, t->manifest->command.n ? t->manifest->command.v[0] : spec.compiler,
				     b->res.path, &err);
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

int exec_identify(const struct exec_context *ctx, struct exec_identity *id, struct tune_error *err)
{
	return exec_executor(ctx)->identify(ctx->executor_state, ctx->platform, ctx->facts, id, err);
}

int exec_check_kernel(const struct exec_context *ctx, const struct kernel_manifest *m, const char *hash,
		      struct tune_error *err)
{
	return exec_executor(ctx)->check_kernel(ctx->executor_state, m, hash, err);
}

/* What a host that builds answered: its build recorded once with the
 * sweep's builds, or *reason when the build failed there. */
static int host_build(struct exec_builds *bs, struct built *bin, struct exec_outcome *out, const char **reason,
		      struct tune_error *err)
{
	int rc;

	if (!out->built) {
		snprintf(bin->reason, sizeof(bin->reason), "build failed on '%s': %.*s", out->where,
			 (int)strcspn(out->reason, "\n"), out->reason);
		*reason = bin->reason;
		return 0;
	}
	if (bin->build_id)
		return 0;
	bin->res = out->build;
	if ((rc = record_build(bs, bin, out->compiler, out->where, err)) != 0)
		run_result_free(&out->run);
	return rc;
}

int exec_execute(struct exec_builds *bs, struct built *bin, struct exec_job *job, struct run_result *res,
		 const char **reason, struct tune_error *err)
{
	const struct executor *ex = exec_executor(bs->ctx);
	struct exec_outcome *out = calloc(1, sizeof(*out));
	int rc;

	*reason = NULL;
	if (!out)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	job->binary = bin->res.path;
	job->stop = bs->stop;
	job->place = (struct run_place){ bs->ctx->platform->pin, &bs->ctx->platform->cpus, bs->ctx->platform->device_cpu };
	if ((rc = ex->run(bs->ctx->executor_state, job, out, err)) == 0 && !ex->builds_here)
		rc = host_build(bs, bin, out, reason, err);
	if (rc == 0 && !*reason)
		*res = out->run;
	free(out);
	return rc;
}
