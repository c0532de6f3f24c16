/* A declared table pivoted: the cells of a view's rows gathered into a row
 * per distinct value of its shown columns and a column per distinct
 * _column, in the order each first comes; a cell nobody gave is '-'. */
#include <stdlib.h>
#include <string.h>

#include "declared_internal.h"

void pivot_free(struct pivot *p)
{
	for (size_t r = 0; r < p->nrows; r++) {
		for (size_t k = 0; p->rows[r].keys && k < p->nkeys; k++)
			free(p->rows[r].keys[k]);
		for (size_t c = 0; p->rows[r].cells && p->rows[r].values && c < p->ncols; c++) {
			free(p->rows[r].cells[c]);
			json_decref(p->rows[r].values[c]);
		}
		free(p->rows[r].keys);
		free(p->rows[r].cells);
		free(p->rows[r].values);
	}
	for (size_t c = 0; c < p->ncols; c++) {
		free(p->cols[c]);
		free(p->col_units[c]);
	}
	free(p->cols);
	free(p->col_units);
	free(p->col_ranks);
	free(p->rows);
	free(p->title);
	free(p->units);
	memset(p, 0, sizeof(*p));
}

/* The index of column among p's, added (an empty cell in each row) when
 * new; -1 out of memory, -2 when the table has DECLARED_MAX_COLUMNS. */
static long pivot_column(struct pivot *p, const char *column, const char *unit, long rank)
{
	char **cols, **units;
	long *ranks;

	for (size_t c = 0; c < p->ncols; c++)
		if (!strcmp(p->cols[c], column))
			return (long)c;
	if (p->nkeys + p->ncols >= DECLARED_MAX_COLUMNS)
		return -2;
	if (!(cols = realloc(p->cols, (p->ncols + 1) * sizeof(*cols))))
		return -1;
	p->cols = cols;
	if (!(units = realloc(p->col_units, (p->ncols + 1) * sizeof(*units))))
		return -1;
	p->col_units = units;
	units[p->ncols] = NULL;
	if (!(ranks = realloc(p->col_ranks, (p->ncols + 1) * sizeof(*ranks))))
		return -1;
	p->col_ranks = ranks;
	ranks[p->ncols] = rank;
	/* Each row's room first: a failure leaves every array as long as ncols says. */
	for (size_t r = 0; r < p->nrows; r++) {
		char **cells = realloc(p->rows[r].cells, (p->ncols + 1) * sizeof(*cells));
		json_t **values = realloc(p->rows[r].values, (p->ncols + 1) * sizeof(json_t *));

		if (cells)
			p->rows[r].cells = cells;
		if (values)
			p->rows[r].values = values;
		if (!cells || !values)
			return -1;
		cells[p->ncols] = NULL;
		values[p->ncols] = NULL;
	}
	if (!(cols[p->ncols] = strdup(column)) || (unit && !(units[p->ncols] = strdup(unit)))) {
		free(cols[p->ncols]);
		return -1;
	}
	return (long)p->ncols++;
}

static struct pivot_row *pivot_row(struct pivot *p, const char *const *keys)
{
	struct pivot_row *row, fresh;
	int whole;

	for (size_t r = 0; r < p->nrows; r++) {
		size_t k = 0;

		while (k < p->nkeys && !strcmp(p->rows[r].keys[k], keys[k]))
			k++;
		if (k == p->nkeys)
			return &p->rows[r];
	}
	/* Whole before it is counted: pivot_free() never meets half a row. */
	fresh.keys = calloc(p->nkeys ? p->nkeys : 1, sizeof(char *));
	fresh.cells = calloc(p->ncols ? p->ncols : 1, sizeof(char *));
	fresh.values = calloc(p->ncols ? p->ncols : 1, sizeof(json_t *));
	whole = fresh.keys && fresh.cells && fresh.values;
	for (size_t k = 0; whole && k < p->nkeys; k++)
		whole = (fresh.keys[k] = strdup(keys[k])) != NULL;
	row = whole ? report_grow(&p->rows, &p->nrows, sizeof(*row)) : NULL;
	if (!row) {
		for (size_t k = 0; fresh.keys && k < p->nkeys; k++)
			free(fresh.keys[k]);
		free(fresh.keys);
		free(fresh.cells);
		free(fresh.values);
		return NULL;
	}
	*row = fresh;
	return row;
}

/* Adds a cell (its value taken over); 1 when its column would be one too
 * many (left out), -1 out of memory. */
int pivot_add(struct pivot *p, const char *const *keys, const char *column, const char *unit, long rank,
		     const char *cell, json_t *value)
{
	long c = pivot_column(p, column, unit, rank);
	struct pivot_row *row = c >= 0 ? pivot_row(p, keys) : NULL;

	if (!row) {
		json_decref(value);
		return c == -2 ? 1 : -1;
	}
	free(row->cells[c]);
	json_decref(row->values[c]);
	row->cells[c] = strdup(cell);
	row->values[c] = value;
	return 0;
}

void pivot_emit(struct rdoc *d, struct pivot *p, const char *const *keyheads)
{
	const char *head[2 * DECLARED_MAX_COLUMNS], *cells[2 * DECLARED_MAX_COLUMNS];
	size_t t, order[DECLARED_MAX_COLUMNS];

	if (!p->title || !p->nrows)
		return;
	/* The columns in the order they came, those of one platform together
	 * in the platforms' order (a stable insertion sort by rank). */
	for (size_t c = 0; c < p->ncols; c++) {
		size_t i = c;

		for (; i > 0 && p->col_ranks[order[i - 1]] > p->col_ranks[c]; i--)
			order[i] = order[i - 1];
		order[i] = c;
	}
	for (size_t k = 0; k < p->nkeys; k++)
		head[k] = keyheads[k];
	for (size_t c = 0; c < p->ncols; c++)
		head[p->nkeys + c] = p->cols[order[c]];
	t = rdoc_table(d, p->title, p->nkeys + p->ncols, head);
	for (size_t r = 0; r < p->nrows; r++) {
		for (size_t k = 0; k < p->nkeys; k++)
			cells[k] = p->rows[r].keys[k];
		for (size_t c = 0; c < p->ncols; c++)
			cells[p->nkeys + c] = p->rows[r].cells[order[c]] ? p->rows[r].cells[order[c]] : "-";
		rdoc_row(d, t, cells);
		for (size_t c = 0; c < p->ncols; c++)
			if (p->rows[r].values[order[c]])
				rdoc_value(d, t, p->nkeys + c, json_incref(p->rows[r].values[order[c]]));
	}
	/* _units: the shown columns' and then one for every pivoted column;
	 * a pivoted column's own _cell_unit before that. */
	{
		json_t *a = p->units ? json_loads(p->units, JSON_DECODE_ANY, NULL) : NULL;
		const char *units[2 * DECLARED_MAX_COLUMNS] = { NULL };
		int any = json_is_array(a);

		for (size_t c = 0; c < p->nkeys + p->ncols; c++) {
			units[c] = json_string_value(json_array_get(a, c < p->nkeys ? c : p->nkeys));
			if (c >= p->nkeys && p->col_units[order[c - p->nkeys]])
				units[c] = p->col_units[order[c - p->nkeys]], any = 1;
		}
		if (any)
			rdoc_units(d, t, units);
		json_decref(a);
	}
}
