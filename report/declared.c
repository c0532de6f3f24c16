/* A kernel's declared tables: the views of its views: file named
 * <kernel>_table_<name>, in the file's order, shown for each of its newest
 * sweeps of the current fingerprints. A view's row is a table row: its
 * column title names the table (consecutive rows of one title are one
 * table), its other columns are the cells under their names; sweep_id,
 * platform, host and fingerprint say whose row it is and are not shown, nor
 * is a column whose name starts with '_' (_order, if there, orders the
 * rows; _units, a JSON array, gives the shown columns' units for JSON; with
 * _column and _cell the rows are pivoted, struct pivot; with _section, a
 * JSON object such as {"depth": 12}, its rows come in a section per value,
 * the sweep's other views after the last). A cell may be typed, a JSON object tune formats (cell.c). What a view holds is the
 * database's: its names are quoted where they enter SQL, and its text
 * escaped by the renderers as any cell. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/names.h"
#include "declared_internal.h"
#include "report.h"

/* SQL: the view kernel_views row k records is one of its kernel's tables
 * of a sweep (kind "_table_") or across platforms ("_overview_"), as
 * store/views.c checks a name when it makes the view; kind is ?9. */
#define DECLARED_SQL_IS(k) "substr(" k "name, 1, length(" k "kernel) + length(?9)) = " k "kernel || ?9"

int declared_column(sqlite3_stmt *q, const char *name)
{
	for (int i = 0; i < sqlite3_column_count(q); i++)
		if (sqlite3_column_name(q, i) && !strcmp(sqlite3_column_name(q, i), name))
			return i;
	return -1;
}

/* The units of the shown columns, for JSON: _units, a JSON array of a unit
 * (or null) per shown column. */
static void table_units(struct rdoc *d, size_t t, const char *json, int n, int at)
{
	json_t *a = json_loads(json, JSON_DECODE_ANY, NULL);
	const char *units[DECLARED_MAX_COLUMNS + 1] = { NULL };

	for (int i = 0; json_is_array(a) && i < n; i++)
		units[at + i] = json_string_value(json_array_get(a, (size_t)i));
	if (json_is_array(a))
		rdoc_units(d, t, units);
	json_decref(a);
}

/* Whose rows a view's table shows: a sweep's, or (platforms, a JSON array)
 * those of the platforms, in their order. */
struct declared_sweep {
	const char *platform, *host, *fingerprint;
	long long sweep_id;
	const char *platforms;
};

void declared_warn(const char *what, const char *view, const char *column, const char *why)
{
	char v[200], c[200], w[300];

	names_show(view, 0, v, sizeof(v));
	names_show(column ? column : "", 0, c, sizeof(c));
	names_show(why, 0, w, sizeof(w));
	fprintf(stderr, "tune: warning: the %s view '%s'%s%s%s: %s\n", what, v, column ? ", column '" : "", c,
		column ? "'" : "", w);
}

sqlite3_stmt *declared_platform_rows(sqlite3 *db, const char *view, const char *platform)
{
	sqlite3_stmt *q = NULL;
	char *sql = sqlite3_mprintf("SELECT * FROM \"%w\" WHERE platform = ?1", view);

	if (sql && sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && declared_column(q, "_order") >= 0) {
		sqlite3_finalize(q);
		q = NULL;
		sqlite3_free(sql);
		sql = sqlite3_mprintf("SELECT * FROM \"%w\" WHERE platform = ?1 ORDER BY _order", view);
		if (sql)
			sqlite3_prepare_v2(db, sql, -1, &q, NULL);
	}
	sqlite3_free(sql);
	if (q)
		sqlite3_bind_text(q, 1, platform, -1, SQLITE_STATIC);
	return q;
}

/* Prepares "SELECT * FROM view" and more; NULL (said) when it cannot be read. */
static sqlite3_stmt *view_select(sqlite3 *db, const char *view, const char *more)
{
	sqlite3_stmt *q = NULL;
	char *sql = sqlite3_mprintf("SELECT * FROM \"%w\"%s", view, more);

	if (!sql || sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK) {
		declared_warn("table", view, NULL, sql ? store_errmsg(db) : "out of memory");
		sqlite3_finalize(q);
		q = NULL;
	}
	sqlite3_free(sql);
	return q;
}

/* A sweep's tables sorted into its sections as their rows come: each
 * section's key, a _section's text (NULL: of the views without one, shown
 * after the others), and its tables. */
struct sections {
	struct section {
		char *key;
		struct rdoc *doc;
	} *v;
	size_t n;
};

static void sections_free(struct sections *ss)
{
	for (size_t k = 0; k < ss->n; k++) {
		free(ss->v[k].key);
		rdoc_free(ss->v[k].doc);
	}
	free(ss->v);
	memset(ss, 0, sizeof(*ss));
}

/* The tables of section key, made when new; NULL when out of memory. */
static struct rdoc *section_doc(struct sections *ss, const char *key)
{
	struct section fresh = { key ? strdup(key) : NULL, rdoc_new() }, *slot;

	for (size_t k = 0; k < ss->n; k++)
		if (key ? ss->v[k].key && !strcmp(ss->v[k].key, key) : !ss->v[k].key) {
			free(fresh.key);
			rdoc_free(fresh.doc);
			return ss->v[k].doc;
		}
	if ((key && !fresh.key) || !fresh.doc || !(slot = report_grow(&ss->v, &ss->n, sizeof(*slot)))) {
		free(fresh.key);
		rdoc_free(fresh.doc);
		return NULL;
	}
	*slot = fresh;
	return slot->doc;
}

/* The rows of view of sweep s, prepared: its owner's (?1-?3 platform, host
 * and fingerprint, or ?4 its id; across platforms those of ?5, each
 * _order in their order), in _order when it has one; NULL (said) when it is no table or
 * cannot be read. */
static sqlite3_stmt *view_rows(sqlite3 *db, const char *view, const struct declared_sweep *s)
{
	sqlite3_stmt *q = view_select(db, view, "");
	const char *lacks;
	int per_sweep, ordered;

	/* Its columns first: which filter applies. */
	if (!q)
		return NULL;
	if ((lacks = store_table_view_lacks(q, s->platforms != NULL)) != NULL) {
		declared_warn("table", view, NULL, lacks[0] == 't' ? "it has no column title" : lacks[0] == 's' ?
			      "it has no column sweep_id, nor platform, host and fingerprint" : lacks[0] == 'p' ?
			      "it has no column platform" : "it has no cell");
		sqlite3_finalize(q);
		return NULL;
	}
	per_sweep = declared_column(q, "sweep_id") >= 0;
	ordered = declared_column(q, "_order") >= 0;
	sqlite3_finalize(q);
	if (s->platforms)
		q = view_select(db, view, ordered ? " WHERE platform IN (SELECT value FROM json_each(?5)) ORDER BY _order,"
						    " (SELECT key FROM json_each(?5) WHERE value = platform)"
						  : " WHERE platform IN (SELECT value FROM json_each(?5)) ORDER BY (SELECT"
						    " key FROM json_each(?5) WHERE value = platform)");
	else
		q = view_select(db, view, per_sweep ? (ordered ? " WHERE sweep_id = ?4 ORDER BY _order"
							       : " WHERE sweep_id = ?4")
					  : ordered ? " WHERE platform = ?1 AND host = ?2 AND fingerprint = ?3 ORDER BY _order"
						    : " WHERE platform = ?1 AND host = ?2 AND fingerprint = ?3");
	if (q && s->platforms) {
		sqlite3_bind_text(q, 5, s->platforms, -1, SQLITE_STATIC);
	} else if (q) {
		sqlite3_bind_text(q, 1, s->platform, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 2, s->host, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, s->fingerprint, -1, SQLITE_STATIC);
		sqlite3_bind_int64(q, 4, s->sweep_id);
	}
	return q;
}

/* Where the row's platform is among ranks (a JSON array), 0 without it. */
static long platform_rank(json_t *ranks, sqlite3_stmt *q, int platform)
{
	const char *name = platform >= 0 ? report_text(q, platform, "") : "";

	for (size_t i = 0; i < json_array_size(ranks); i++)
		if (!strcmp(json_string_value(json_array_get(ranks, i)) ? json_string_value(json_array_get(ranks, i)) : "",
			    name))
			return (long)i;
	return 0;
}

/* The rows of view for one sweep, as tables of their sections in ss: read
 * once, whatever the sections (a view may be slow to read). */
static int view_tables(struct sections *ss, sqlite3 *db, const char *view, const struct declared_sweep *s,
		       struct tune_error *err)
{
	sqlite3_stmt *q = view_rows(db, view, s);
	char *head[DECLARED_MAX_COLUMNS] = { NULL };
	int shown[DECLARED_MAX_COLUMNS], nshown = 0, ncols, title, units, column, cell, section, cell_unit, platform,
	    warned = 0, wide = 0, oom = 0, added = 0, rc;
	struct pivot pv = { 0 };
	struct rdoc *pd = NULL; /* the pivot's section */
	char across[300];       /* a pivoted column across platforms: "<platform> <_column>" */
	json_t *ranks;          /* across platforms: them, in their order */

	if (!q)
		return 0;
	/* The names copied: a statement prepared again (another tune remade
	 * the views) frees its own; a count that changes ends the table. */
	ncols = sqlite3_column_count(q);
	for (int i = 0; i < ncols && nshown < DECLARED_MAX_COLUMNS; i++)
		if (store_table_cell(sqlite3_column_name(q, i))) {
			oom |= !(head[nshown] = strdup(sqlite3_column_name(q, i)));
			shown[nshown++] = i;
		}
	title = declared_column(q, "title");
	units = declared_column(q, "_units");
	column = declared_column(q, "_column");
	cell = declared_column(q, "_cell");
	section = declared_column(q, "_section");
	cell_unit = declared_column(q, "_cell_unit");
	platform = declared_column(q, "platform");
	ranks = s->platforms ? json_loads(s->platforms, 0, NULL) : NULL;
	if (cell < 0 || column < 0)
		cell = column = -1;
	rc = SQLITE_DONE;
	while (!oom && (rc = sqlite3_step(q)) == SQLITE_ROW && sqlite3_column_count(q) == ncols) {
		const char *cells[DECLARED_MAX_COLUMNS + 1] = { NULL };
		char typed[DECLARED_MAX_COLUMNS + 1][160], why[200];
		json_t *values[DECLARED_MAX_COLUMNS + 1] = { NULL };
		const char *name = report_text(q, title, "");
		struct rdoc *d = section_doc(ss, section >= 0 ? report_text(q, section, NULL) : NULL);
		size_t t;

		if (!d) {
			oom = 1;
			break;
		}

		/* The shown columns, and a pivot's cell after them. */
		for (int i = 0; i <= nshown; i++) {
			int c = i < nshown ? shown[i] : cell, kind;

			if (c < 0)
				break;
			kind = report_typed_cell(report_text(q, c, NULL), typed[i], sizeof(typed[i]), &values[i], why,
						 sizeof(why));
			cells[i] = kind == 1 ? typed[i] : kind < 0 ? "?" : report_text(q, c, "-");
			if (kind < 0 && !warned++)
				declared_warn("table", view, i < nshown ? head[i] : "_cell", why);
		}
		if (column >= 0) {
			if (!pv.title || strcmp(pv.title, name) != 0 || pd != d) {
				if (pd)
					pivot_emit(pd, &pv, (const char *const *)head);
				pivot_free(&pv);
				pd = d;
				pv.nkeys = (size_t)nshown;
				oom = !(pv.title = strdup(name)) ||
				      (units >= 0 && !(pv.units = strdup(report_text(q, units, "[]"))));
			}
			for (int i = 0; i < nshown; i++)
				json_decref(values[i]);
			if (s->platforms)
				snprintf(across, sizeof(across), "%s %s", platform >= 0 ? report_text(q, platform, "") : "",
					 report_text(q, column, "-"));
			if (!oom && (added = pivot_add(&pv, cells, s->platforms ? across : report_text(q, column, "-"),
						       cell_unit >= 0 ? report_text(q, cell_unit, NULL) : NULL,
						       platform_rank(ranks, q, platform), cells[nshown], values[nshown])) > 0 &&
			    !wide++)
				declared_warn("table", view, "_column", "more distinct values than a table has columns (64 "
					      "with the shown ones): the rest are left out");
			if (oom)
				json_decref(values[nshown]);
			oom = oom || added < 0;
			continue;
		}
		/* Across platforms, each row says whose: a column Platform first. */
		{
			const char *h[DECLARED_MAX_COLUMNS + 1] = { "Platform" }, *c[DECLARED_MAX_COLUMNS + 1];
			int at = s->platforms != NULL;

			c[0] = platform >= 0 ? report_text(q, platform, "") : "";
			for (int i = 0; i < nshown; i++) {
				h[at + i] = head[i];
				c[at + i] = cells[i];
			}
			t = rdoc_table_for(d, name, (size_t)nshown + (size_t)at, h);
			rdoc_row(d, t, c);
			for (int i = 0; i < nshown; i++)
				if (values[i])
					rdoc_value(d, t, (size_t)i + (size_t)at, values[i]);
			if (units >= 0)
				table_units(d, t, report_text(q, units, "[]"), nshown, at);
		}
	}
	if (!oom && pd)
		pivot_emit(pd, &pv, (const char *const *)head);
	pivot_free(&pv);
	json_decref(ranks);
	for (int i = 0; i < nshown; i++)
		free(head[i]);
	/* A view stopped at the read limits fails the report, as any read does. */
	if (oom) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	} else if (rc == SQLITE_INTERRUPT || rc == SQLITE_TOOBIG) {
		rc = tune_fail(err, TUNE_ERR_STORE, "cannot read the table view '%s': %s", view, store_errmsg(db));
	} else {
		if (rc != SQLITE_DONE && rc != SQLITE_ROW)
			declared_warn("table", view, NULL, store_errmsg(db));
		rc = 0;
	}
	sqlite3_finalize(q);
	return rc;
}

int declared_views(sqlite3 *db, const char *kernel, const char *kind, char ***views, size_t *n,
		       struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;

	*views = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT k.name FROM kernel_views k JOIN sqlite_master m ON m.name = k.name AND"
			       " m.type = 'view' WHERE k.kernel = ?1 AND " DECLARED_SQL_IS("k.")
			       " ORDER BY k.rowid", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read the kernels' views: %s", store_errmsg(db));
	sqlite3_bind_text(q, 1, kernel, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 9, kind, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char **slot = report_grow(views, n, sizeof(char *));

		if (!slot || !(*slot = strdup(report_text(q, 0, "")))) {
			rc = SQLITE_NOMEM;
			break;
		}
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : tune_fail(err, TUNE_ERR_STORE, "cannot read the kernels' views: %s",
						 store_errmsg(db));
}

void declared_views_free(char **views, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(views[i]);
	free(views);
}

/* One kernel's newest sweep: a section, then its tables. */
struct declared_walk {
	struct rdoc *d;
	sqlite3 *db;
	char **views;
	size_t nviews;
};

static int sweep_row(sqlite3_stmt *q, void *arg, struct tune_error *err)
{
	struct declared_walk *w = arg;
	struct declared_sweep s = { report_text(q, 0, ""), report_text(q, 1, ""), report_text(q, 2, ""),
				    sqlite3_column_int64(q, 3), NULL };
	struct sections ss = { NULL, 0 };
	int rc = 0, shown = 0;

	for (size_t i = 0; !rc && i < w->nviews; i++)
		rc = view_tables(&ss, w->db, w->views[i], &s, err);
	/* A section per _section, in the order they came; the tables of no
	 * section after them, in the last (or in one of their own). */
	for (size_t k = 0; !rc && k < ss.n; k++)
		if (ss.v[k].key) {
			rdoc_section(w->d, s.platform, s.host, s.fingerprint, ss.v[k].key);
			rdoc_append(w->d, ss.v[k].doc);
			shown = 1;
		}
	for (size_t k = 0; !rc && k < ss.n; k++)
		if (!ss.v[k].key) {
			if (!shown)
				rdoc_section(w->d, s.platform, s.host, s.fingerprint, NULL);
			rdoc_append(w->d, ss.v[k].doc);
		}
	sections_free(&ss);
	return rc;
}

static int kernel_tables(struct rdoc *d, sqlite3 *db, const char *kernel, const char *platform,
			 struct tune_error *err)
{
	struct declared_walk w = { d, db, NULL, 0 };
	char *sql;
	int rc = declared_views(db, kernel, "_table_", &w.views, &w.nviews, err);

	if (rc || !w.nviews) {
		declared_views_free(w.views, w.nviews);
		return rc;
	}
	/* The kernel's name is data: quoted as a literal (%Q), never pasted. */
	sql = sqlite3_mprintf("SELECT platform, host, fingerprint, sweep_id FROM newest_kernel_sweeps WHERE kernel = %Q"
			      " AND (?1 IS NULL OR platform = ?1) ORDER BY platform, host", kernel);
	rc = sql ? report_each_row(db, sql, platform, "the kernel's sweeps", sweep_row, &w, err)
		 : tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	sqlite3_free(sql);
	declared_views_free(w.views, w.nviews);
	return rc;
}

int declared_kernels_with(sqlite3 *db, const char *kind, int (*each)(const char *kernel, void *arg,
								      struct tune_error *err),
			  void *arg, struct tune_error *err)
{
	sqlite3_stmt *q = NULL;
	int step = SQLITE_DONE, rc = 0;

	/* The kind as ?9, what DECLARED_SQL_IS reads it as. */
	if (sqlite3_prepare_v2(db, "SELECT DISTINCT kernel FROM kernel_views WHERE " DECLARED_SQL_IS("")
			       " ORDER BY kernel", -1, &q, NULL) != SQLITE_OK)
		return tune_fail(err, TUNE_ERR_STORE, "cannot read the kernels' views: %s", store_errmsg(db));
	sqlite3_bind_text(q, 9, kind, -1, SQLITE_STATIC);
	while (!rc && (step = sqlite3_step(q)) == SQLITE_ROW)
		rc = each(report_text(q, 0, ""), arg, err);
	if (!rc && step != SQLITE_DONE)
		rc = tune_fail(err, TUNE_ERR_STORE, "cannot read the kernels' views: %s", store_errmsg(db));
	sqlite3_finalize(q);
	return rc;
}

/* Every kernel's tables of platform's sweeps (NULL: all), or across the
 * platforms (a JSON array). */
struct declared_kernels {
	struct rdoc *d;
	sqlite3 *db;
	const char *platform, *platforms;
};

static int kernel_sweeps(const char *kernel, void *arg, struct tune_error *err)
{
	struct declared_kernels *k = arg;

	return kernel_tables(k->d, k->db, kernel, k->platform, err);
}

static int kernel_across(const char *kernel, void *arg, struct tune_error *err)
{
	struct declared_kernels *k = arg;
	struct declared_sweep across = { "", "", "", 0, k->platforms };
	struct sections ss = { NULL, 0 };
	char **views = NULL;
	size_t nviews = 0;
	int rc = declared_views(k->db, kernel, "_overview_", &views, &nviews, err);

	for (size_t i = 0; !rc && i < nviews; i++)
		rc = view_tables(&ss, k->db, views[i], &across, err);
	/* Under one heading, whatever their _section. */
	for (size_t s = 0; !rc && s < ss.n; s++)
		rdoc_append(k->d, ss.v[s].doc);
	sections_free(&ss);
	declared_views_free(views, nviews);
	return rc;
}

int report_declared_tables(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err)
{
	struct declared_kernels k = { d, db, platform, NULL };

	return declared_kernels_with(db, "_table_", kernel_sweeps, &k, err);
}

int report_declared_overviews(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np,
			      struct tune_error *err)
{
	json_t *a = json_array();
	struct declared_kernels k = { NULL, db, NULL, NULL };
	int rc;

	if (np < 2) {
		json_decref(a);
		return 0;
	}
	for (size_t i = 0; i < np; i++)
		json_array_append_new(a, json_string(platforms[i]));
	k.platforms = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	if (!k.platforms || !(k.d = rdoc_new())) {
		free((char *)k.platforms);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	rc = declared_kernels_with(db, "_overview_", kernel_across, &k, err);
	if (!rc && rdoc_rows(k.d)) {
		rdoc_heading(d, "Comparison of platforms");
		rdoc_append(d, k.d);
	}
	rdoc_free(k.d);
	free((char *)k.platforms);
	return rc;
}
