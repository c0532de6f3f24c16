/* The blocks of a report (doc.c) as the files that read them see them:
 * doc.c builds and renders them, doc_tables.c names, keeps and writes
 * tables. Private to report/. */
#ifndef REPORT_DOC_INTERNAL_H
#define REPORT_DOC_INTERNAL_H

#include <jansson.h>
#include <stdio.h>

#include "report.h"

enum block_kind { BLOCK_SECTION, BLOCK_TABLE, BLOCK_FIGURE };

struct block {
	int kind;
	char *title;                   /* table title, figure caption */
	char platform[64], host[256], fingerprint[32];
	char detail[200];              /* section: what else it is of ("depth 12"), shown; "": nothing */
	json_t *detail_json;           /* section: the same as its object, for JSON; NULL: none */
	int heading;                   /* section: a heading (its text in platform), of no one platform */
	size_t ncols, nrows;           /* table: nrows includes the header row */
	char **cells;
	json_t **values;               /* per cell, its typed value for JSON; NULL: read from its text */
	char **units;                  /* per column, its unit for JSON; NULL: none */
	char *html;                    /* figure: inline SVG */
};

struct rdoc {
	struct block *v;
	size_t n;
	int oom;
};

void rdoc_block_free(struct block *b);
const char *rdoc_cell(const struct block *b, size_t r, size_t c);
/* A table's rows as CSV, each led by its platform and host (and, with
 * title, the table's title). */
void rdoc_csv_table(const struct block *sec, const struct block *b, int title, FILE *out);

#endif
