/* A declared table pivoted (report/declared.c): a view with _column and
 * _cell gives a row per distinct value of its shown columns and a column per
 * distinct _column (report/pivot.c). Private to report/. */
#ifndef REPORT_PIVOT_INTERNAL_H
#define REPORT_PIVOT_INTERNAL_H

#include <jansson.h>

#include "report.h"

/* The columns a declared table shows at most. */
#define DECLARED_MAX_COLUMNS 32

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
