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
#include "export_internal.h"
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

/* v as a C constant into out (32 bytes); out. */
static const char *integer_text(long long v, char out[32])
{
	header_c_number(0, 1, v, out, 32);
	return out;
}

/* The lookup of the table by the context columns, each value's function. */
static void emit_lookup(FILE *out, const struct kernel_rows *k, const char *K, const char *kl)
{
	struct header_lookup l = { .K = K, .kl = kl };
	char *tables[MAX_COLUMNS] = { NULL }, *functions[MAX_COLUMNS] = { NULL }, args[MAX_COLUMNS][16];
	char *cells[MAX_COLUMNS] = { NULL }, number[32];
	int oom = 0;

	for (size_t c = 0; c < k->ncols; c++) {
		char *P = identifier(k->names[c], 1);
		struct strbuf row = STRBUF_INIT;

		for (size_t r = 0; r < k->n; r++)
			strbuf_addf(&row, "%s%s", r ? ", " : "", integer_text(value_at(k, r, c), number));
		cells[c] = strbuf_detach(&row);

		tables[c] = P ? malloc(strlen(P) + 7) : NULL;
		functions[c] = identifier(k->names[c], 0);
		oom |= !tables[c] || !functions[c];
		if (tables[c])
			snprintf(tables[c], strlen(P) + 7, "TABLE_%s", P);
		free(P);
		if (k->context[c]) {
			snprintf(args[c], sizeof(args[c]), "c%zu", l.nkeys);
			l.keys[l.nkeys].table = tables[c];
			l.keys[l.nkeys].arg = args[c];
			l.keys[l.nkeys].note = k->names[c];
			l.keys[l.nkeys].cells = cells[c];
			l.keys[l.nkeys++].scale = 1;
		} else {
			l.values[l.nvalues].table = tables[c];
			l.values[l.nvalues].cells = cells[c];
			l.values[l.nvalues++].function = functions[c];
		}
	}
	if (!oom)
		header_lookup_emit(out, &l);
	for (size_t c = 0; c < k->ncols; c++) {
		free(tables[c]);
		free(functions[c]);
		free(cells[c]);
	}
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
		fprintf(out, "#define TUNED_%s_%s %s%s%s%s\n", K, P, integer_text(value_at(k, last, c), number),
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
			fprintf(out, "%s%s", r ? ", " : " ", integer_text(value_at(k, r, c), number));
		fprintf(out, " }\n");
		free(P);
	}
	emit_lookup(out, k, K, kl);
	free(K);
	free(kl);
}

/* The kernel's rows so far and where they go. */
struct header_rows {
	FILE *out;
	struct kernel_rows k;
};

static int header_row(sqlite3_stmt *q, struct header_rows *h, struct tune_error *err)
{
	struct kernel_rows *k = &h->k;

	if (!k->kernel) {
		if (!(k->kernel = strdup((const char *)sqlite3_column_text(q, 0))))
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		report_column_text(q, 8, k->host, sizeof(k->host));
		report_column_text(q, 9, k->unit, sizeof(k->unit));
	}
	return add_row(k, q) != 0 ? tune_fail(err, TUNE_ERR_SYSTEM, "out of memory") : 0;
}

int export_kernel_header(FILE *out, sqlite3 *db, const char *platform, const char *kernel, int *wrote,
			 struct tune_error *err)
{
	struct header_rows h = { .out = out };
	sqlite3_stmt *q = NULL;
	int rc;

	*wrote = 0;
	if (sqlite3_prepare_v2(db, "SELECT o.kernel, o.context, o.variant, o.exports, o.median, o.ci_low, o.ci_high,"
			       " o.decided, o.host, COALESCE(json_extract(s.spec_json, '$.metric.unit'), '') FROM optima o"
			       " JOIN current_fingerprints USING (platform, host, fingerprint) JOIN sweeps s ON"
			       " s.id = o.sweep_id WHERE o.platform = ?1 AND o.kernel = ?2 AND o.exports IS NOT NULL AND"
			       " o.host = (SELECT x.host FROM optima x WHERE x.platform = ?1 AND x.kernel = o.kernel AND"
			       " x.exports IS NOT NULL ORDER BY x.decided DESC, x.id DESC LIMIT 1) ORDER BY o.id", -1, &q,
			       NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read the kernel optima: %s", store_errmsg(db));
	sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, kernel, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW)
		if (header_row(q, &h, err) != 0)
			break;
	rc = rc == SQLITE_ROW ? TUNE_ERR_SYSTEM
	     : rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read the kernel optima: %s", store_errmsg(db));
	sqlite3_finalize(q);
	if (!rc && h.k.n) {
		emit(out, &h.k);
		*wrote = 1;
	}
	rows_free(&h.k);
	return rc;
}
