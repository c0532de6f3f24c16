/* One-value queries for the store's tests: the first row's first column. */
#ifndef TESTS_UNIT_SQL_H
#define TESTS_UNIT_SQL_H

#include <sqlite3.h>
#include <stdio.h>

/* As an integer; -1 when the query fails or has no row. */
static inline long long scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *q = NULL;
	long long v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

/* As text into buf; "(none)" when the query fails or has no row. */
static inline const char *text(sqlite3 *db, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *q = NULL;

	snprintf(buf, len, "(none)");
	if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return buf;
}

#endif
