/* The header block of each kernel described by its manifest alone: every
 * exported value of the optimum per context, from the optima's exports
 * column (see tuner/plan/manifest_trial.h), so that the header needs no manifest.
 * Names from the database reach the header as identifiers made of letters,
 * digits and '_' only, and as escaped comments and string literals. */
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/strbuf.h"
#include "escape.h"
#include "report.h"

#define MAX_COLUMNS 32

/* One kernel's optima on the platform, as decided (context by context). */
struct kernel_rows {
	char *kernel, host[256], unit[32];
	json_t **exports;   /* each row's exports object */
	char **lines;       /* each row's summary, for the comment */
	size_t n;
	const char *names[MAX_COLUMNS]; /* columns: context ones first, then exported, in first-seen order */
	int context[MAX_COLUMNS];
	size_t ncols;
};

static void rows_free(struct kernel_rows *k)
{
	for (size_t i = 0; i < k->n; i++) {
		json_decref(k->exports[i]);
		free(k->lines[i]);
	}
	free(k->exports);
	free(k->lines);
	free(k->kernel);
	memset(k, 0, sizeof(*k));
}

static void add_column(struct kernel_rows *k, const char *name, int context)
{
	for (size_t i = 0; i < k->ncols; i++)
		if (!strcmp(k->names[i], name))
			return;
	if (k->ncols < MAX_COLUMNS) {
		k->names[k->ncols] = name;
		k->context[k->ncols++] = context;
	}
}

static int add_row(struct kernel_rows *k, sqlite3_stmt *q)
{
	json_t *e = json_loads((const char *)sqlite3_column_text(q, 3), 0, NULL), **ne;
	char **nl, line[700], text[400];

	if (!json_is_object(e)) {
		json_decref(e);
		return 0; /* not written by this tune: left out */
	}
	if (!(ne = realloc(k->exports, (k->n + 1) * sizeof(json_t *))) || !(k->exports = ne) ||
	    !(nl = realloc(k->lines, (k->n + 1) * sizeof(*nl)))) {
		json_decref(e);
		return -1;
	}
	k->lines = nl;
	report_params_text((const char *)sqlite3_column_text(q, 3), (const char *)sqlite3_column_text(q, 1), text,
			   sizeof(text));
	snprintf(line, sizeof(line), "%s: %s %s, median %.4g %s [%.4g, %.4g], decided at %s",
		 sqlite3_column_text(q, 1)[0] ? (const char *)sqlite3_column_text(q, 1) : "-",
		 (const char *)sqlite3_column_text(q, 2), text, sqlite3_column_double(q, 4), k->unit,
		 sqlite3_column_double(q, 5), sqlite3_column_double(q, 6), (const char *)sqlite3_column_text(q, 7));
	if (!(k->lines[k->n] = strdup(line))) {
		json_decref(e);
		return -1;
	}
	k->exports[k->n++] = e;
	/* Context columns first, whatever the order of the object. */
	for (void *it = json_object_iter(e); it; it = json_object_iter_next(e, it)) {
		const char *role = json_string_value(json_object_get(json_object_iter_value(it), "role"));

		if (role && !strcmp(role, "context"))
			add_column(k, json_object_iter_key(it), 1);
	}
	for (void *it = json_object_iter(e); it; it = json_object_iter_next(e, it))
		add_column(k, json_object_iter_key(it), 0);
	return 0;
}

/* The value of column c in row r, -1 when the row has none (the parameter
 * does not apply to that row's variant). */
static long long value_at(const struct kernel_rows *k, size_t r, size_t c)
{
	json_t *v = json_object_get(json_object_get(k->exports[r], k->names[c]), "value");

	return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

/* s as part of a C identifier, whole (escape_c_identifier); free() it. */
static char *identifier(const char *s, int upper)
{
	char *out = malloc(strlen(s) + 1);

	if (out)
		escape_c_identifier(s, upper, out, strlen(s) + 1);
	return out;
}

/* A value as a C integer constant: -2^63 has no literal of its own. */
static const char *c_integer(long long v, char out[32])
{
	if (v == LLONG_MIN)
		return "(-9223372036854775807LL - 1)";
	snprintf(out, 32, "%lld", v);
	return out;
}

/* The context parameters of the lookup's signature, "long long c0, ..." and
 * its arguments "c0, ..."; how many. */
static size_t lookup_params(const struct kernel_rows *k, struct strbuf *params, struct strbuf *args)
{
	size_t n = 0;

	for (size_t c = 0; c < k->ncols; c++)
		if (k->context[c]) {
			char esc[200];

			escape_c_comment(k->names[c], esc, sizeof(esc));
			strbuf_addf(params, "%slong long c%zu /* %s */", n ? ", " : "", n, esc);
			strbuf_addf(args, "%sc%zu", n ? ", " : "", n);
			n++;
		}
	return n;
}

static void emit_lookup(FILE *out, const struct kernel_rows *k, const char *K, const char *kl)
{
	struct strbuf pb = STRBUF_INIT, ab = STRBUF_INIT;
	size_t nctx = lookup_params(k, &pb, &ab);
	const char *params = strbuf_str(&pb), *args = strbuf_str(&ab);

	if (!nctx || pb.oom || ab.oom) {
		strbuf_release(&pb);
		strbuf_release(&ab);
		return;
	}
	fprintf(out, "\n/* The row of the table for a context: the other context values equal, the\n"
		     " * first the smallest tuned value at or above c0, else the largest. */\n"
		     "static inline unsigned tuned_%s_row_for(%s)\n{\n", kl, params);
	for (size_t c = 0, i = 0; c < k->ncols; c++)
		if (k->context[c]) {
			char *P = identifier(k->names[c], 1);

			fprintf(out, "\tstatic const long long t%zu[] = TUNED_%s_TABLE_%s;\n", i++, K, P ? P : "");
			free(P);
		}
	fprintf(out, "\tunsigned i, best = TUNED_%s_TABLE_LEN;\n\n\tfor (i = 0; i < TUNED_%s_TABLE_LEN; i++)\n\t\tif (",
		K, K);
	for (size_t i = 1; i < nctx; i++)
		fprintf(out, "t%zu[i] == c%zu && ", i, i);
	fprintf(out, "t0[i] >= c0 && (best == TUNED_%s_TABLE_LEN || t0[i] < t0[best]))\n\t\t\tbest = i;\n", K);
	fprintf(out, "\tif (best == TUNED_%s_TABLE_LEN)\n\t\tfor (i = 0; i < TUNED_%s_TABLE_LEN; i++)\n\t\t\tif (", K, K);
	for (size_t i = 1; i < nctx; i++)
		fprintf(out, "t%zu[i] == c%zu && ", i, i);
	fprintf(out, "(best == TUNED_%s_TABLE_LEN || t0[i] > t0[best]))\n\t\t\t\tbest = i;\n", K);
	fprintf(out, "\treturn best == TUNED_%s_TABLE_LEN ? 0 : best;\n}\n", K);
	for (size_t c = 0; c < k->ncols; c++) {
		char *P, *pl;

		if (k->context[c])
			continue;
		P = identifier(k->names[c], 1);
		pl = identifier(k->names[c], 0);
		fprintf(out, "\nstatic inline long long tuned_%s_%s_for(%s)\n{\n"
			     "\tstatic const long long v[] = TUNED_%s_TABLE_%s;\n\n"
			     "\treturn v[tuned_%s_row_for(%s)];\n}\n", kl, pl ? pl : "", params, K, P ? P : "", kl, args);
		free(P);
		free(pl);
	}
	strbuf_release(&pb);
	strbuf_release(&ab);
}

static void emit(FILE *out, const struct kernel_rows *k)
{
	char *K = identifier(k->kernel, 1), *kl = identifier(k->kernel, 0), esc[800], host[300], number[32];
	size_t last = k->n - 1;

	if (!K || !kl) {
		free(K);
		free(kl);
		return;
	}
	fprintf(out, "\n/* Kernel %s: %zu context%s decided on host %s; the defaults are the last\n"
		     " * context's. Per context:\n", escape_c_comment(k->kernel, esc, sizeof(esc)), k->n,
		k->n == 1 ? "" : "s", escape_c_comment(k->host, host, sizeof(host)));
	for (size_t r = 0; r < k->n; r++)
		fprintf(out, " *   %s\n", escape_c_comment(k->lines[r], esc, sizeof(esc)));
	fprintf(out, " * -1 in a table: the parameter does not apply to that row's variant. */\n");
	for (size_t c = 0; c < k->ncols; c++) {
		json_t *v = json_object_get(k->exports[last], k->names[c]);
		const char *text = json_string_value(json_object_get(v, "text"));
		char *P;

		if (k->context[c] || !(P = identifier(k->names[c], 1)))
			continue;
		fprintf(out, "#define TUNED_%s_%s %s%s%s%s\n", K, P, c_integer(value_at(k, last, c), number),
			text ? "" : " /* ", text ? "" : "does not apply to the variant", text ? "" : " */");
		/* A choice's (or the variant's) name beside its index. */
		snprintf(number, sizeof(number), "%lld", value_at(k, last, c));
		if (text && strcmp(text, number) != 0)
			fprintf(out, "#define TUNED_%s_%s_NAME %s\n", K, P, escape_c_string(text, esc, sizeof(esc)));
		free(P);
	}
	fprintf(out, "#define TUNED_%s_TABLE_LEN %zu\n", K, k->n);
	for (size_t c = 0; c < k->ncols; c++) {
		char *P = identifier(k->names[c], 1);

		fprintf(out, "#define TUNED_%s_TABLE_%s {", K, P ? P : "");
		for (size_t r = 0; r < k->n; r++)
			fprintf(out, "%s%s", r ? ", " : " ", c_integer(value_at(k, r, c), number));
		fprintf(out, " }\n");
		free(P);
	}
	emit_lookup(out, k, K, kl);
	free(K);
	free(kl);
}

/* The header's rows so far and where they go. */
struct header_rows {
	FILE *out;
	const char *const *kernels; /* those it holds */
	struct kernel_rows k;
};

/* A row of the kernel being gathered; a new kernel's first row emits the last one's. */
static int header_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct header_rows *h = arg;
	struct kernel_rows *k = &h->k;
	const char *kernel = (const char *)sqlite3_column_text(q, 0);

	if (tune_name_index(h->kernels, kernel) < 0)
		return 0;
	if (k->n && strcmp(kernel, k->kernel) != 0) {
		emit(h->out, k);
		rows_free(k);
	}
	if (!k->n) {
		free(k->kernel);
		if (!(k->kernel = strdup(kernel)))
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		report_column_text(q, 8, k->host, sizeof(k->host));
		report_column_text(q, 9, k->unit, sizeof(k->unit));
	}
	return add_row(k, q) != 0 ? tune_fail(err, TUNE_ERR_SYSTEM, "out of memory") : 0;
}

int report_kernels_header(FILE *out, sqlite3 *db, const char *platform, const char *const *kernels,
			  struct tune_error *err)
{
	struct header_rows h = { .out = out, .kernels = kernels };
	int rc = report_each_row(db,
			       "SELECT o.kernel, o.context, o.variant, o.exports, o.median, o.ci_low, o.ci_high, o.decided,"
			       " o.host, COALESCE(json_extract(s.spec_json, '$.metric.unit'), '') FROM optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint) JOIN sweeps s ON"
			       " s.id = o.sweep_id WHERE o.platform = ?1 AND o.exports IS NOT NULL AND o.host = (SELECT"
			       " x.host FROM optima x WHERE x.platform = ?1 AND x.kernel = o.kernel AND x.exports IS NOT"
			       " NULL ORDER BY x.decided DESC, x.id DESC LIMIT 1) ORDER BY o.kernel, o.id",
			       platform, "kernel optima", header_row, &h, err);

	if (!rc && h.k.n)
		emit(out, &h.k);
	rows_free(&h.k);
	return rc;
}
