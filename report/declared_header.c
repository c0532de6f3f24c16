/* A kernel's block of the C header as it declares it: the view
 * <kernel>_header of its views file, a row per item of a platform's block
 * in _order:
 *   define  the macro TUNED_<KERNEL>_<define>, with value written by type:
 *           none: an integer, a real or a string literal as the value is;
 *           "int": a number rounded as C's printf rounds; "ull": an
 *           integer as C's unsigned long long (-1: the largest); "table":
 *           a JSON array, as { a, b } (TUNED_<KERNEL>_TABLE_LEN is written
 *           before the first); comment: a comment after it;
 *   key     on a table: a key of the lookup, the name of its argument
 *           (scale: the table's unit in the argument's, lookup: "nearest"
 *           for the nearest row by ratios, else the first key's smallest
 *           value at or above, the others equal); function: on a table, a
 *           function tuned_<kernel>_<function>_for() returning its element
 *           of that row;
 *   comment without define: a line of a comment, typed as a table's cell
 *           may be; lines of one _block are one comment, an empty last
 *           line closing it on a line of its own; a lone empty line is a
 *           blank line.
 * Everything is the database's: names become C identifiers, texts escaped
 * comments and string literals, and the functions are written here. A
 * mistake of the view (a value not of its type, a define twice) stops the
 * export, saying where. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/names.h"
#include "../tuner/base/strbuf.h"
#include "declared_internal.h"
#include "escape.h"
#include "export_internal.h"
#include "report.h"

#define LINE_MAX_LEN 1024

/* The columns of the view, -1 where it has none. */
struct header_columns {
	int define, value, type, comment, block, key, scale, lookup, function;
};

/* A comment's lines so far (escaped), and its block. */
struct comment {
	char **lines;
	size_t n;
	char *block; /* NULL: a block of its own */
};

/* A block's state: the kernel's names, the table length and the lookup. */
struct block {
	FILE *out;
	const char *view;
	char K[128], kl[128];
	long table_len; /* -1: no table yet */
	struct header_lookup lookup;
	char *owned[6 * HEADER_LOOKUP_MAX];
	size_t nowned;
	char **defined; /* the macros written, each once */
	size_t ndefined;
	const char *platform;
	struct tune_error *err;
	int rc;         /* the first mistake of the view: it stops the export */
	struct comment c;
};

/* A mistake of the view: the export stops at the first, saying which view,
 * platform and define (a header missing a macro would fail the build that
 * includes it, far from the cause). Names and values are the database's,
 * shown escaped. */
static void fault(struct block *b, const char *define, const char *value, const char *why)
{
	char v[200], p[120], d[120], x[120];

	if (b->rc)
		return;
	names_show(b->view, 0, v, sizeof(v));
	names_show(b->platform, 0, p, sizeof(p));
	names_show(define ? define : "", 0, d, sizeof(d));
	names_show(value ? value : "", 0, x, sizeof(x));
	b->rc = tune_fail(b->err, TUNE_ERR_CONFIG, "export: the header view '%s', platform '%s'%s%s%s%s%s%s: %s; fix the "
			  "view in the kernel's views file (its next run remakes it without measuring)", v, p,
			  define ? ", define '" : "", d, define ? "'" : "", value ? ": its value '" : "",
			  value ? x : "", value ? "'" : "", why);
}

static const char *text_at(sqlite3_stmt *q, int col)
{
	return col >= 0 ? (const char *)sqlite3_column_text(q, col) : NULL;
}

/* Writes the comment gathered and empties it. */
static void comment_flush(struct block *b)
{
	struct comment *c = &b->c;
	size_t n = c->n;

	if (n == 1 && !c->lines[0][0]) {
		fputc('\n', b->out);
	} else if (n) {
		int own_line = n > 1 && !c->lines[n - 1][0];

		fprintf(b->out, "/* %s", c->lines[0]);
		for (size_t i = 1; i + own_line < n; i++)
			fprintf(b->out, "\n *%s%s", c->lines[i][0] ? " " : "", c->lines[i]);
		fprintf(b->out, "%s*/\n", own_line ? "\n " : " ");
	}
	for (size_t i = 0; i < n; i++)
		free(c->lines[i]);
	free(c->lines);
	free(c->block);
	c->lines = NULL;
	c->block = NULL;
	c->n = 0;
}

/* A row's text as its comment says it: typed (cell.c) or as it is. */
static void comment_text(struct block *b, const char *text, char *out, size_t len)
{
	char why[300];
	json_t *value = NULL;
	int typed = report_typed_cell(text, out, len, &value, why, sizeof(why));

	json_decref(value);
	if (typed < 0) {
		fault(b, NULL, text, why);
		snprintf(out, len, "?");
	} else if (!typed) {
		snprintf(out, len, "%s", text ? text : "");
	}
}

static int comment_add(struct block *b, sqlite3_stmt *q, const struct header_columns *hc)
{
	const char *block = text_at(q, hc->block);
	char text[LINE_MAX_LEN], esc[LINE_MAX_LEN], **grown;

	if (b->c.n && (!block || !b->c.block || strcmp(block, b->c.block) != 0))
		comment_flush(b);
	comment_text(b, text_at(q, hc->comment), text, sizeof(text));
	escape_c_comment(text, esc, sizeof(esc));
	if (!(grown = realloc(b->c.lines, (b->c.n + 1) * sizeof(*grown))))
		return -1;
	b->c.lines = grown;
	if (!(b->c.lines[b->c.n] = strdup(esc)))
		return -1;
	b->c.n++;
	if (b->c.n == 1 && block && !(b->c.block = strdup(block)))
		return -1;
	return 0;
}

/* A value as C by type into out; 0, or -1 (the view's mistake, kept for the export) when it is none. */
static int value_text(struct block *b, sqlite3_stmt *q, const struct header_columns *hc, const char *name,
		      const char *type, char *out, size_t len)
{
	int t = sqlite3_column_type(q, hc->value);

	if (t == SQLITE_NULL) {
		fault(b, name, NULL, "it has no value (a column value, not NULL)");
		return -1;
	}
	if (!type && t == SQLITE_TEXT) {
		escape_c_string(text_at(q, hc->value), out, len);
	} else if (!type && t == SQLITE_FLOAT && !isfinite(sqlite3_column_double(q, hc->value))) {
		fault(b, name, text_at(q, hc->value), "a value is a finite number");
		return -1;
	} else if (!type) {
		header_c_number(sqlite3_column_double(q, hc->value), t == SQLITE_INTEGER, sqlite3_column_int64(q, hc->value),
				out, len);
	} else if (!strcmp(type, "int") && t != SQLITE_TEXT && fabs(sqlite3_column_double(q, hc->value)) < 9.2e18) {
		snprintf(out, len, "%.0f", sqlite3_column_double(q, hc->value));
	} else if (!strcmp(type, "ull") && t == SQLITE_INTEGER) {
		snprintf(out, len, "%lluull", (unsigned long long)sqlite3_column_int64(q, hc->value));
	} else {
		fault(b, name, text_at(q, hc->value), !strcmp(type, "int") ? "type int takes a number of 64 bits"
						       : !strcmp(type, "ull") ? "type ull takes an integer (-1: the largest)"
						       : "its type is none of int, ull and table (or NULL: as the value is)");
		return -1;
	}
	return 0;
}

/* name (the database's) as a C identifier into out; 0, -1 when it has none. */
static int identifier(const char *name, int upper, char *out, size_t len)
{
	if (!name || !name[0])
		return -1;
	escape_c_identifier(name, upper, out, len);
	return 0;
}

/* A copy of id (a C identifier already) that the block frees. */
static const char *own(struct block *b, const char *id)
{
	char *copy;

	if (b->nowned >= sizeof(b->owned) / sizeof(b->owned[0]) || !(copy = strdup(id)))
		return NULL;
	b->owned[b->nowned] = copy;
	return b->owned[b->nowned++];
}

/* name (the database's) as an argument of the lookup into out: "key_" and
 * a C identifier made of it, so that no keyword, macro or name of the
 * lookup's own code can be one. */
static void argument(const char *name, char *out, size_t len)
{
	char id[120];

	if (identifier(name, 0, id, sizeof(id)) != 0)
		snprintf(id, sizeof(id), "0");
	snprintf(out, len, "key_%s", id);
}

/* A table's part in the lookup: a key, a function, or none. */
static void table_lookup(struct block *b, sqlite3_stmt *q, const struct header_columns *hc, const char *name,
			 const char *cells)
{
	struct header_lookup *l = &b->lookup;
	const char *key = text_at(q, hc->key), *function = text_at(q, hc->function);
	const char *lookup = text_at(q, hc->lookup);
	char key_id[128] = "", function_id[128] = "";

	/* Each key and function once: twice would not compile. */
	if (key)
		argument(key, key_id, sizeof(key_id));
	if (function)
		identifier(function, 0, function_id, sizeof(function_id));
	for (size_t i = 0; key && i < l->nkeys; i++)
		if (!strcmp(l->keys[i].table, name) || !strcmp(l->keys[i].arg, key_id))
			key = NULL;
	for (size_t i = 0; function && i < l->nvalues; i++)
		if (!strcmp(l->values[i].function, function_id))
			function = NULL;
	if (key && l->nkeys < HEADER_LOOKUP_MAX) {
		long long scale = hc->scale >= 0 && sqlite3_column_type(q, hc->scale) == SQLITE_INTEGER
					  ? sqlite3_column_int64(q, hc->scale) : 1;

		if (!l->nkeys)
			l->nearest = lookup && !strcmp(lookup, "nearest");
		if (lookup && strcmp(lookup, "nearest") != 0 && strcmp(lookup, "at_or_above") != 0)
			fault(b, name, lookup, "its lookup is neither at_or_above (the default) nor nearest");
		l->keys[l->nkeys].table = own(b, name);
		l->keys[l->nkeys].arg = own(b, key_id);
		l->keys[l->nkeys].note = NULL;
		l->keys[l->nkeys].scale = scale > 0 ? scale : 1;
		l->keys[l->nkeys].cells = own(b, cells);
		if (l->keys[l->nkeys].table && l->keys[l->nkeys].arg)
			l->nkeys++;
	}
	if (function && !strcmp(function_id, "row")) {
		fault(b, name, function, "function 'row' is the lookup's own: name it otherwise");
	} else if (function && l->nvalues < HEADER_LOOKUP_MAX) {
		l->values[l->nvalues].table = own(b, name);
		l->values[l->nvalues].function = own(b, function_id);
		l->values[l->nvalues].cells = own(b, cells);
		if (l->values[l->nvalues].table && l->values[l->nvalues].function)
			l->nvalues++;
	}
}

/* A table's value, { a, b }, appended to out; its length, -1 (the view's
 * mistake) when it is none. *text: it holds a string, *real: a real (no
 * lookup's table then: those are long long). */
static long table_text(struct block *b, const char *name, const char *json, struct strbuf *out, int *text,
		       int *real)
{
	json_t *a = json ? json_loads(json, 0, NULL) : NULL, *v;
	size_t i;

	if (!json_is_array(a) || !json_array_size(a)) {
		json_decref(a);
		fault(b, name, json, "a table's value is a JSON array of one element or more (json_array(...), "
		      "json_group_array(...) or '[1, 2]')");
		return -1;
	}
	strbuf_add(out, "{");
	json_array_foreach (a, i, v) {
		char one[600];

		*text |= json_is_string(v);
		*real |= json_is_real(v);
		if (json_is_string(v)) {
			escape_c_string(json_string_value(v), one, sizeof(one));
		} else if (json_is_boolean(v)) {
			snprintf(one, sizeof(one), "%d", json_is_true(v));
		} else if (json_is_number(v) && isfinite(json_number_value(v))) {
			header_c_number(json_number_value(v), json_is_integer(v), (long long)json_integer_value(v), one,
					sizeof(one));
		} else {
			json_decref(a);
			fault(b, name, json, "a table's elements are numbers, true, false or strings");
			return -1;
		}
		strbuf_addf(out, "%s%s", i ? ", " : " ", one);
	}
	strbuf_add(out, " }");
	json_decref(a);
	return (long)i;
}

/* Remembers name as written: 0, 1 when it was already (said), -1 out of memory. */
static int define_once(struct block *b, const char *name)
{
	char **grown;

	for (size_t i = 0; i < b->ndefined; i++)
		if (!strcmp(b->defined[i], name)) {
			fault(b, name, NULL, "it is defined twice (a row per platform: is a join repeating it?)");
			return 1;
		}
	if (!(grown = realloc(b->defined, (b->ndefined + 1) * sizeof(*grown))))
		return -1;
	b->defined = grown;
	if (!(b->defined[b->ndefined] = strdup(name)))
		return -1;
	b->ndefined++;
	return 0;
}

static int define_add(struct block *b, sqlite3_stmt *q, const struct header_columns *hc)
{
	const char *type = text_at(q, hc->type), *comment = text_at(q, hc->comment);
	char name[128] = "", value[8192], note[LINE_MAX_LEN], esc[LINE_MAX_LEN];
	int table = type && !strcmp(type, "table"), text = 0, real = 0, rc;
	int lookup = table && (text_at(q, hc->key) || text_at(q, hc->function));
	struct strbuf list = STRBUF_INIT;
	long n = 0;

	if (identifier(text_at(q, hc->define), 1, name, sizeof(name)) != 0 || !strcmp(name, "TABLE_LEN")) {
		fault(b, name[0] ? name : NULL, NULL, name[0] ? "TABLE_LEN is written by tune, before the first table"
							    : "a define needs a name");
		return 0;
	}
	if (hc->value < 0) {
		fault(b, name, NULL, "the view has no column value");
		return 0;
	}
	if (table ? (n = table_text(b, name, text_at(q, hc->value), &list, &text, &real)) < 0
		  : value_text(b, q, hc, name, type, value, sizeof(value)) != 0) {
		strbuf_release(&list);
		return 0;
	}
	if (lookup && (text || real))
		fault(b, name, NULL, "a table of a lookup (a key or a function) holds integers: they are long long");
	else if (table && b->table_len >= 0 && n != b->table_len)
		fault(b, name, NULL, "its tables differ in length (each has a row's value per element)");
	if (b->rc || (rc = define_once(b, name)) != 0 || list.oom) {
		strbuf_release(&list);
		return b->rc ? 0 : rc > 0 ? 0 : -1;
	}
	if (table && b->table_len < 0)
		fprintf(b->out, "#define TUNED_%s_TABLE_LEN %ld\n", b->K, b->table_len = n);
	fprintf(b->out, "#define TUNED_%s_%s %s", b->K, name, table ? strbuf_str(&list) : value);
	if (comment) {
		comment_text(b, comment, note, sizeof(note));
		fprintf(b->out, " /* %s */", escape_c_comment(note, esc, sizeof(esc)));
	}
	fputc('\n', b->out);
	/* Its elements between the braces: the table a row at a time. */
	if (lookup && list.len >= 4) {
		char *cells = strndup(strbuf_str(&list) + 2, list.len - 4);

		table_lookup(b, q, hc, name, cells ? cells : "");
		free(cells);
	}
	strbuf_release(&list);
	return 0;
}

static struct header_columns columns_of(sqlite3_stmt *q)
{
	return (struct header_columns){
		.define = declared_column(q, "define"), .value = declared_column(q, "value"),
		.type = declared_column(q, "type"), .comment = declared_column(q, "comment"),
		.block = declared_column(q, "_block"), .key = declared_column(q, "key"),
		.scale = declared_column(q, "scale"), .lookup = declared_column(q, "lookup"),
		.function = declared_column(q, "function"),
	};
}

int declared_header(FILE *out, sqlite3 *db, const char *kernel, const char *platform, int *wrote,
		    struct tune_error *err)
{
	char view[300];
	struct block b = { .out = out, .view = view, .table_len = -1, .platform = platform, .err = err };
	struct header_columns hc;
	sqlite3_stmt *q;
	int rc = 0, step;

	*wrote = 0;
	snprintf(view, sizeof(view), "%s_header", kernel);
	escape_c_identifier(kernel, 1, b.K, sizeof(b.K));
	escape_c_identifier(kernel, 0, b.kl, sizeof(b.kl));
	b.lookup.K = b.K;
	b.lookup.kl = b.kl;
	if (!(q = declared_platform_rows(db, view, platform)))
		return tune_fail(err, TUNE_ERR_STORE, "export: cannot read the header view '%s': %s", view,
				 store_errmsg(db));
	hc = columns_of(q);
	while (!rc && !b.rc && (step = sqlite3_step(q)) == SQLITE_ROW) {
		if (!*wrote)
			fputc('\n', out);
		*wrote = 1;
		if (hc.define >= 0 && sqlite3_column_type(q, hc.define) != SQLITE_NULL) {
			comment_flush(&b);
			if (define_add(&b, q, &hc) != 0)
				rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		} else if (comment_add(&b, q, &hc) != 0) {
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		}
	}
	if (!rc && b.rc)
		rc = b.rc;
	else if (!rc && step != SQLITE_DONE)
		rc = tune_fail(err, TUNE_ERR_STORE, "cannot read the header view '%s': %s", view, store_errmsg(db));
	sqlite3_finalize(q);
	comment_flush(&b);
	if (!rc && b.lookup.nkeys)
		header_lookup_emit(out, &b.lookup);
	while (b.nowned)
		free(b.owned[--b.nowned]);
	while (b.ndefined)
		free(b.defined[--b.ndefined]);
	free(b.defined);
	return rc;
}

int declared_view_exists(sqlite3 *db, const char *kernel, const char *suffix)
{
	sqlite3_stmt *q = NULL;
	int yes = sqlite3_prepare_v2(db, "SELECT 1 FROM kernel_views k JOIN sqlite_master m ON m.name = k.name AND"
				     " m.type = 'view' WHERE k.kernel = ?1 AND k.name = ?1 || ?2", -1, &q, NULL) == SQLITE_OK;

	if (yes) {
		sqlite3_bind_text(q, 1, kernel, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, suffix, -1, SQLITE_STATIC);
		yes = sqlite3_step(q) == SQLITE_ROW;
	}
	sqlite3_finalize(q);
	return yes;
}
