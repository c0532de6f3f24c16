/* A header's lookup functions over its tables: C code, so written here
 * from a fixed set of kinds and never taken from the database, which gives
 * only the names of the tables (escaped as identifiers) and numbers. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/strbuf.h"
#include "escape.h"
#include "export_internal.h"

/* The arguments of the row function: its signature and its call. */
static void signature(const struct header_lookup *l, struct strbuf *params, struct strbuf *args)
{
	for (size_t i = 0; i < l->nkeys; i++) {
		char esc[200];

		strbuf_addf(params, "%slong long %s", i ? ", " : "", l->keys[i].arg);
		if (l->keys[i].note)
			strbuf_addf(params, " /* %s */", escape_c_comment(l->keys[i].note, esc, sizeof(esc)));
		strbuf_addf(args, "%s%s", i ? ", " : "", l->keys[i].arg);
	}
}

/* Key k's value in row i as compared with its argument: in its unit times
 * its scale. */
static void key_at(FILE *out, const struct header_lookup *l, size_t k)
{
	if (l->keys[k].scale != 1)
		fprintf(out, "t%zu[i] * %lldLL", k, l->keys[k].scale);
	else
		fprintf(out, "t%zu[i]", k);
}

/* The other keys equal to their arguments, each followed by " && ". */
static void others_equal(FILE *out, const struct header_lookup *l)
{
	for (size_t k = 1; k < l->nkeys; k++) {
		key_at(out, l, k);
		fprintf(out, " == %s && ", l->keys[k].arg);
	}
}

/* The first key the smallest value at or above its argument, else the
 * largest; the other keys equal to theirs. */
static void at_or_above(FILE *out, const struct header_lookup *l)
{
	const char *K = l->K;

	fprintf(out, "\tunsigned i, best = TUNED_%s_TABLE_LEN;\n\n\tfor (i = 0; i < TUNED_%s_TABLE_LEN; i++)\n\t\tif (",
		K, K);
	others_equal(out, l);
	key_at(out, l, 0);
	fprintf(out, " >= %s && (best == TUNED_%s_TABLE_LEN || t0[i] < t0[best]))\n\t\t\tbest = i;\n", l->keys[0].arg, K);
	fprintf(out, "\tif (best == TUNED_%s_TABLE_LEN)\n\t\tfor (i = 0; i < TUNED_%s_TABLE_LEN; i++)\n\t\t\tif (", K, K);
	others_equal(out, l);
	fprintf(out, "(best == TUNED_%s_TABLE_LEN || t0[i] > t0[best]))\n\t\t\t\tbest = i;\n", K);
	fprintf(out, "\treturn best == TUNED_%s_TABLE_LEN ? 0 : best;\n", K);
}

/* The nearest row by the ratio of each key to its argument, the first key
 * deciding first (its ratio weighs 1000 times the next one's). */
static void nearest_ratio(FILE *out, const struct header_lookup *l)
{
	fprintf(out, "\tunsigned i, best = 0;\n\tdouble best_d = -1.0;\n\n\tfor (i = 0; i < TUNED_%s_TABLE_LEN; i++) {\n"
		     "\t\tdouble d = 0.0;\n\n", l->K);
	for (size_t k = 0; k < l->nkeys; k++) {
		const char *a = l->keys[k].arg;
		long long sc = l->keys[k].scale;

		/* t: the key in its argument's unit. */
		fprintf(out, "\t\t{\n\t\t\tdouble t = (double)t%zu[i] * %lld.0;\n\n"
			     "\t\t\td = d * 1000.0 + (t > (double)%s ? t / (double)(%s > 0 ? %s : 1)\n"
			     "\t\t\t\t\t\t\t  : (double)%s / (t > 0 ? t : 1.0));\n\t\t}\n",
			k, sc, a, a, a, a);
	}
	fprintf(out, "\t\tif (best_d < 0 || d < best_d) {\n\t\t\tbest = i;\n\t\t\tbest_d = d;\n\t\t}\n\t}\n"
		     "\treturn best;\n");
}

/* The next cell of a table's cells from *at, into out; 0 when none is left. */
static int next_cell(const char **at, char *out, size_t len)
{
	size_t n;

	*at += strspn(*at, " ,");
	if (!**at)
		return 0;
	n = strcspn(*at, ",");
	snprintf(out, len, "%.*s", (int)(n < len - 1 ? n : len - 1), *at);
	while (n && out[n - 1] == ' ')
		out[--n] = '\0';
	*at += strcspn(*at, ",");
	return 1;
}

/* The table a row at a time, TUNED_<K>_TABLE(X) calling X(keys..., values...)
 * per row with constants: a program instantiates one specialisation per row
 * (a prefetch hint is a compile-time argument) and dispatches on the keys. */
static void emit_rows(FILE *out, const struct header_lookup *l)
{
	const char *at[2 * HEADER_LOOKUP_MAX];
	size_t n = 0;
	char cell[64];

	for (size_t i = 0; i < l->nkeys; i++)
		at[n++] = l->keys[i].cells;
	for (size_t v = 0; v < l->nvalues; v++)
		at[n++] = l->values[v].cells;
	for (size_t c = 0; c < n; c++)
		if (!at[c])
			return;
	fprintf(out, "\n/* The tables a row at a time, X(an element of each of");
	for (size_t i = 0; i < l->nkeys; i++)
		fprintf(out, "%s TUNED_%s_%s", i ? "," : "", l->K, l->keys[i].table);
	for (size_t v = 0; v < l->nvalues; v++)
		fprintf(out, ", TUNED_%s_%s", l->K, l->values[v].table);
	fprintf(out, ") per row,\n * constants (a choice: its index), to instantiate one specialisation per row. */\n"
		     "#define TUNED_%s_TABLE(X)", l->K);
	for (;;) {
		struct strbuf row = STRBUF_INIT;
		size_t c;

		for (c = 0; c < n && next_cell(&at[c], cell, sizeof(cell)); c++)
			strbuf_addf(&row, "%s%s", c ? ", " : "", cell);
		if (c == n && !row.oom)
			fprintf(out, " \\\n\tX(%s)", strbuf_str(&row));
		strbuf_release(&row);
		if (c < n)
			break;
	}
	fputc('\n', out);
}

void header_lookup_emit(FILE *out, const struct header_lookup *l)
{
	struct strbuf pb = STRBUF_INIT, ab = STRBUF_INIT;
	const char *params, *args;

	signature(l, &pb, &ab);
	params = strbuf_str(&pb);
	args = strbuf_str(&ab);
	if (!l->nkeys || pb.oom || ab.oom) {
		strbuf_release(&pb);
		strbuf_release(&ab);
		return;
	}
	if (l->nearest)
		fprintf(out, "\n/* The row of the table nearest a context: by the ratio of each value to its\n"
			     " * argument, the first deciding first. */\n");
	else
		fprintf(out, "\n/* The row of the table for a context: the other context values equal, the\n"
			     " * first the smallest tuned value at or above %s, else the largest. */\n", l->keys[0].arg);
	fprintf(out, "static inline unsigned tuned_%s_row_for(%s)\n{\n", l->kl, params);
	for (size_t i = 0; i < l->nkeys; i++)
		fprintf(out, "\tstatic const long long t%zu[] = TUNED_%s_%s;\n", i, l->K, l->keys[i].table);
	if (l->nearest)
		nearest_ratio(out, l);
	else
		at_or_above(out, l);
	fprintf(out, "}\n");
	for (size_t v = 0; v < l->nvalues; v++)
		fprintf(out, "\nstatic inline long long tuned_%s_%s_for(%s)\n{\n"
			     "\tstatic const long long v[] = TUNED_%s_%s;\n\n"
			     "\treturn v[tuned_%s_row_for(%s)];\n}\n", l->kl, l->values[v].function, params, l->K,
			l->values[v].table, l->kl, args);
	emit_rows(out, l);
	strbuf_release(&pb);
	strbuf_release(&ab);
}

void header_c_number(double d, int integer, long long i, char *out, size_t len)
{
	if (integer && i == LLONG_MIN) {
		snprintf(out, len, "(-9223372036854775807LL - 1)");
	} else if (integer) {
		snprintf(out, len, "%lld", i);
	} else {
		for (int digits = 1; digits <= 17; digits++) {
			snprintf(out, len, "%.*g", digits, d);
			if (strtod(out, NULL) == d)
				break;
		}
		/* A real stays one in C: 3.0, never 3 (3 / 2 would be 1). */
		if (!strpbrk(out, ".eEni")) {
			size_t used = strlen(out);

			str_appendf(out, len, &used, ".0");
		}
	}
}
