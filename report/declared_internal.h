/* What a kernel declares in its views file, as the files of report/ that
 * read it share: its views of a kind (declared.c), a table pivoted
 * (pivot.c). Private to report/. */
#ifndef REPORT_DECLARED_INTERNAL_H
#define REPORT_DECLARED_INTERNAL_H

#include <jansson.h>

#include "report.h"

/* The columns a declared table shows at most. */
#define DECLARED_MAX_COLUMNS 64

/* A kernel's views of a kind ("_table_", "_overview_", "_chart_"), named
 * <kernel><kind><name>, in its views file's order; *views (free each and
 * it) of *n. */
int declared_views(sqlite3 *db, const char *kernel, const char *kind, char ***views, size_t *n,
		   struct tune_error *err);
void declared_views_free(char **views, size_t n);
/* The kernels with views of a kind, by name; each kernel's name to each(). */
int declared_kernels_with(sqlite3 *db, const char *kind, int (*each)(const char *kernel, void *arg,
								      struct tune_error *err),
			  void *arg, struct tune_error *err);
/* The index of q's column of that name, or -1. */
int declared_column(sqlite3_stmt *q, const char *name);
/* The rows of view whose platform is platform (borrowed until finalized),
 * in _order when it has one, prepared; NULL when it cannot be read (the
 * database's message says why). */
sqlite3_stmt *declared_platform_rows(sqlite3 *db, const char *view, const char *platform);
/* A kernel's mistake in a view it declares (what: "table", "chart") costs that view or cell, never
 * the report: said on stderr, its names escaped (they are the database's). */
void declared_warn(const char *what, const char *view, const char *column, const char *why);

/* A pivoted table (a view with _column and _cell): a row per distinct
 * value of its shown columns, a column per distinct _column, in the order
 * each first comes; a cell nobody gave is '-'. */
struct pivot {
	char *title, *units; /* units: _units of its first row, NULL: none */
	size_t nkeys, ncols, nrows;
	char **cols;        /* the _column headers */
	char **col_units;   /* each one's unit: its first row's _cell_unit, NULL: none */
	long *col_ranks;    /* each one's place: its first row's platform's, across platforms (else 0) */
	struct pivot_row {
		char **keys;    /* nkeys texts */
		char **cells;   /* per column, NULL: none */
		json_t **values;
	} *rows;
};

void pivot_free(struct pivot *p);
/* Adds a cell under column of the row keyed by keys (its value taken over;
 * the column's unit and rank from the first row giving it); 0, 1 when its
 * column would be one too many (left out), -1 out of memory. */
int pivot_add(struct pivot *p, const char *const *keys, const char *column, const char *unit, long rank,
	      const char *cell, json_t *value);
/* The table, its columns of one rank together in rank order, as a table of
 * d headed by keyheads and the columns. */
void pivot_emit(struct rdoc *d, struct pivot *p, const char *const *keyheads);

#endif
