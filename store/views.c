/* A kernel's views, made from the SQL of its folder (its manifest's views:
 * file). The file is data: SQLite's authorizer lets its statements create
 * views named <kernel>_... and read, nothing else (no insert, update,
 * delete, drop, pragma, attach, trigger or table), and none that exists
 * already (tune's, another kernel's), so a file can neither change what is
 * recorded nor replace another's views; a kernel whose prefix begins one of
 * tune's names has none. The views are made
 * again only when the SQL changed (kernel_views holds its hash), in one
 * transaction with dropping the kernel's old ones: a bad file leaves them. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

struct views_check {
	const char *kernel;
	char name[128];    /* the view the statement creates */
	int creates;       /* views it creates */
	char denied[200];  /* what the authorizer refused */
};

static int named_for(const char *name, const char *kernel)
{
	size_t k = strlen(kernel);

	if (strncmp(name, kernel, k) != 0 || name[k] != '_' || !name[k + 1] || strlen(name) >= 128)
		return 0;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return 1;
}

/* tune's own tables and views, those of every schema version: a kernel
 * whose <kernel>_ prefix begins one of them could take it (a kernel named
 * trial and its view trial_results), so the name is reserved. */
static const char *const tune_objects[] = {
	"best_per_size", "builds", "current_fingerprints", "host_probes", "hosts", "kernel_results", "kernel_views",
	"latest_results", "newest_kernel_sweeps", "optima", "optima_v4", "optima_v6", "optimum_params", "platforms",
	"samples", "sweep_leases", "sweeps", "trial_params", "trial_results", "trial_stats", "trial_summary", "trials",
	NULL,
};

const char *store_kernel_name_reserved(const char *kernel)
{
	size_t k = strlen(kernel);

	for (size_t i = 0; tune_objects[i]; i++)
		if (!strncmp(tune_objects[i], kernel, k) && tune_objects[i][k] == '_')
			return tune_objects[i];
	return NULL;
}

/* Whether the schema holds anything named name: after drop_old, that is
 * tune's, another kernel's, or one this file made already. */
static int name_taken(struct store *st, const char *name)
{
	sqlite3_stmt *q = NULL;
	int taken = 1;

	if (sqlite3_prepare_v2(st->db, "SELECT COUNT(*) FROM sqlite_master WHERE name = ?1 COLLATE NOCASE", -1, &q,
			       NULL) != SQLITE_OK)
		return 1;
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		taken = sqlite3_column_int(q, 0) > 0;
	sqlite3_finalize(q);
	return taken;
}

/* What an authorizer action would do, for the message. */
static const char *action_name(int action)
{
	static const struct {
		int action;
		const char *name;
	} names[] = {
		{ SQLITE_INSERT, "insert into" }, { SQLITE_UPDATE, "update" }, { SQLITE_DELETE, "delete from" },
		{ SQLITE_CREATE_TABLE, "create table" }, { SQLITE_CREATE_INDEX, "create index" },
		{ SQLITE_CREATE_TRIGGER, "create trigger" }, { SQLITE_CREATE_TEMP_VIEW, "create a temporary view" },
		{ SQLITE_CREATE_TEMP_TABLE, "create a temporary table" }, { SQLITE_DROP_TABLE, "drop table" },
		{ SQLITE_DROP_VIEW, "drop view" }, { SQLITE_DROP_INDEX, "drop index" },
		{ SQLITE_DROP_TRIGGER, "drop trigger" }, { SQLITE_PRAGMA, "set pragma" }, { SQLITE_ATTACH, "attach" },
		{ SQLITE_DETACH, "detach" }, { SQLITE_TRANSACTION, "begin or end a transaction" },
		{ SQLITE_ALTER_TABLE, "alter table" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].action == action)
			return names[i].name;
	return "do SQLite action";
}

static int authorize(void *arg, int action, const char *a, const char *b, const char *db, const char *trigger)
{
	struct views_check *c = arg;

	(void)db;
	(void)trigger;
	switch (action) {
	case SQLITE_CREATE_VIEW:
		if (!named_for(a, c->kernel)) {
			snprintf(c->denied, sizeof(c->denied), "view '%.64s' is not named %.32s_<letters, digits, _>", a,
				 c->kernel);
			return SQLITE_DENY;
		}
		snprintf(c->name, sizeof(c->name), "%s", a);
		c->creates++;
		return SQLITE_OK;
	case SQLITE_INSERT:
	case SQLITE_UPDATE: /* the view's row of the schema, which CREATE VIEW writes */
		if (a && !strcmp(a, "sqlite_master"))
			return SQLITE_OK;
		break;
	case SQLITE_FUNCTION: /* a view only reads; load_extension() stays off */
	case SQLITE_READ:
	case SQLITE_SELECT:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	default:
		break;
	}
	if (!c->denied[0])
		snprintf(c->denied, sizeof(c->denied), "it does more than create a view: it would %s '%.64s'",
			 action_name(action), a ? a : b ? b : "");
	return SQLITE_DENY;
}

/* FNV-1a of the SQL: whether the views need making again. */
static void sql_hash(const char *sql, char out[17])
{
	uint64_t h = 1469598103934665603ULL;

	for (const unsigned char *p = (const unsigned char *)sql; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

/* Whether every view the kernel has was made from this SQL, and is there. */
static int up_to_date(struct store *st, const char *kernel, const char *hash)
{
	sqlite3_stmt *q = NULL;
	int ok = 0;

	if (sqlite3_prepare_v2(st->db,
			       "SELECT COUNT(*), SUM(k.sql_hash = ?2), COUNT(m.name) FROM kernel_views k"
			       " LEFT JOIN sqlite_master m ON m.type = 'view' AND m.name = k.name WHERE k.kernel = ?1",
			       -1, &q, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(q, 1, kernel, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, hash, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		ok = sqlite3_column_int(q, 0) > 0 && sqlite3_column_int(q, 1) == sqlite3_column_int(q, 0) &&
		     sqlite3_column_int(q, 2) == sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return ok;
}

/* Drops the views recorded as the kernel's, and their records. */
static int drop_old(struct store *st, const char *kernel, char *msg)
{
	sqlite3_stmt *q = NULL;
	int rc = store_prepare(st, &q, msg, "SELECT name FROM kernel_views WHERE kernel = ?1", "s", kernel);

	while (!rc && sqlite3_step(q) == SQLITE_ROW) {
		/* The name was checked when made (named_for); %w quotes it anyway. */
		char *sql = sqlite3_mprintf("DROP VIEW IF EXISTS \"%w\"", (const char *)sqlite3_column_text(q, 0));

		rc = sql ? store_exec(st, sql, msg, "cannot drop a kernel's old view") :
			   store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
		sqlite3_free(sql);
	}
	sqlite3_finalize(q);
	if (rc)
		return rc;
	rc = store_prepare(st, &q, msg, "DELETE FROM kernel_views WHERE kernel = ?1", "s", kernel);
	return rc ? rc : store_run(st, q, NULL, msg, "cannot forget a kernel's old views");
}

/* The line of sql that p is on, past blanks and comments. */
static size_t line_of(const char *sql, const char *p)
{
	size_t line = 1;

	for (;;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (p[0] == '-' && p[1] == '-')
			p += strcspn(p, "\n");
		else if (p[0] == '/' && p[1] == '*' && strstr(p + 2, "*/"))
			p = strstr(p + 2, "*/") + 2;
		else
			break;
	}
	for (const char *c = sql; c < p; c++)
		line += *c == '\n';
	return line;
}

int store_table_cell(const char *column)
{
	static const char *const whose[] = { "title", "sweep_id", "platform", "host", "fingerprint", NULL };

	if (!column || column[0] == '_')
		return 0;
	for (size_t i = 0; whose[i]; i++)
		if (strcmp(column, whose[i]) == 0)
			return 0;
	return 1;
}

const char *store_table_view_lacks(sqlite3_stmt *q, int across)
{
	int title = 0, whose = 0, cells = 0, sweep = 0, platform = 0;

	for (int i = 0; i < sqlite3_column_count(q); i++) {
		const char *c = sqlite3_column_name(q, i);

		if (!c)
			continue;
		title |= strcmp(c, "title") == 0;
		sweep |= strcmp(c, "sweep_id") == 0;
		whose += strcmp(c, "platform") == 0 || strcmp(c, "host") == 0 || strcmp(c, "fingerprint") == 0;
		platform |= strcmp(c, "platform") == 0;
		cells += store_table_cell(c);
	}
	if (across)
		return !title ? "title" : !platform ? "platform" : !cells ? "a cell" : NULL;
	return !title ? "title" : !(sweep || whose == 3) ? "sweep_id" : !cells ? "a cell" : NULL;
}

/* Whether the view's columns (q, its SELECT *) hold one so named. */
static int has_column(sqlite3_stmt *q, const char *name)
{
	for (int i = 0; i < sqlite3_column_count(q); i++)
		if (sqlite3_column_name(q, i) && !strcmp(sqlite3_column_name(q, i), name))
			return 1;
	return 0;
}

/* A view named <kernel>_table_<name> is a table of tune results, one named
 * <kernel>_overview_<name> a table across platforms (report/declared.c),
 * <kernel>_csv its samples as CSV (report/csv.c), <kernel>_header its block
 * of the C header (report/declared_header.c) and <kernel>_json its object
 * of the JSON export: what it lacks of one, said into why; 0 when nothing. */
static int table_view_lacks(struct store *st, const char *kernel, const char *name, char *why, size_t len)
{
	size_t k = strlen(kernel);
	sqlite3_stmt *q = NULL;
	const char *lacks;
	char *sql;
	int across = strncmp(name, kernel, k) == 0 && strncmp(name + k, "_overview_", 10) == 0;
	int csv = strncmp(name, kernel, k) == 0 && strcmp(name + k, "_csv") == 0;
	int header = strncmp(name, kernel, k) == 0 && strcmp(name + k, "_header") == 0;
	int json = strncmp(name, kernel, k) == 0 && strcmp(name + k, "_json") == 0;

	if (!across && !csv && !header && !json && (strncmp(name, kernel, k) != 0 || strncmp(name + k, "_table_", 7) != 0))
		return 0;
	sql = sqlite3_mprintf("SELECT * FROM \"%w\"", name);
	if (!sql || sqlite3_prepare_v2(st->db, sql, -1, &q, NULL) != SQLITE_OK) {
		sqlite3_free(sql);
		snprintf(why, len, "view %s cannot be read: %s", name, sqlite3_errmsg(st->db));
		return 1;
	}
	sqlite3_free(sql);
	if (csv || header || json)
		lacks = !has_column(q, "platform") ? "platform" : json && !has_column(q, "value") ? "value"
			: header && !has_column(q, "define") && !has_column(q, "comment") ? "define or comment" : NULL;
	else
		lacks = store_table_view_lacks(q, across);
	sqlite3_finalize(q);
	if (!lacks)
		return 0;
	if (header || json)
		snprintf(why, len, "view %s is the kernel's %s (its name says so): it needs a column platform (which "
			 "platform's it is) and %s; it lacks %s", name, header ? "block of tune export header" :
			 "object of tune export json", header ? "a column define or comment (what it holds)" :
			 "a column value (a JSON object)", lacks);
	else if (csv)
		snprintf(why, len, "view %s is the kernel's samples as CSV (its name says so: tune export csv): it needs "
			 "a column platform (whose sample it is, for --platform)", name);
	else if (across)
		snprintf(why, len, "view %s is a table of tune results across platforms (its name says so): it needs a "
			 "column title (the table's), a column platform (whose row it is) and at least one cell; it lacks "
			 "%s", name, lacks);
	else
		snprintf(why, len, "view %s is a table of tune results (its name says so): it needs a column title (the "
			 "table's), a column sweep_id or the columns platform, host and fingerprint (whose row it is) and at "
			 "least one cell; it lacks %s", name, lacks);
	return 1;
}

/* Makes each view of the file, one statement at a time. */
static int make_views(struct store *st, const char *kernel, const char *file, const char *sql, const char *hash,
		      char *msg)
{
	const char *next = sql;
	char lacks[512];
	int made = 0, rc = 0;

	while (!rc && *next) {
		struct views_check c = { .kernel = kernel };
		const char *at = next;
		sqlite3_stmt *q = NULL;
		int prc;

		sqlite3_set_authorizer(st->db, authorize, &c);
		prc = sqlite3_prepare_v2(st->db, at, -1, &q, &next);
		sqlite3_set_authorizer(st->db, NULL, NULL);
		/* IF NOT EXISTS over a view someone else holds would record it as the kernel's. */
		if (prc == SQLITE_OK && q && c.creates == 1 && name_taken(st, c.name))
			snprintf(c.denied, sizeof(c.denied), "view %s already exists: it is tune's, another kernel's, or "
				 "made twice in this file (name yours %.32s_<something new>)", c.name, kernel);
		else if (prc == SQLITE_OK && q && c.creates == 1 && sqlite3_step(q) != SQLITE_DONE)
			prc = sqlite3_errcode(st->db);
		if (prc != SQLITE_OK || (q && c.creates != 1) || c.denied[0]) {
			rc = store_fail(msg, STORE_ERR_REFUSED, "%s:%zu: %s; a kernel's views file holds only statements "
					"CREATE VIEW %s_<name> AS SELECT ...", file, line_of(sql, at),
					c.denied[0] ? c.denied : prc != SQLITE_OK ? sqlite3_errmsg(st->db) :
					"it creates no view", kernel);
		} else if (q && table_view_lacks(st, kernel, c.name, lacks, sizeof(lacks))) {
			rc = store_fail(msg, STORE_ERR_REFUSED, "%s:%zu: %s", file, line_of(sql, at), lacks);
		} else if (q) {
			sqlite3_stmt *rec = NULL;

			made++;
			if ((rc = store_prepare(st, &rec, msg, "INSERT INTO kernel_views (kernel, name, sql_hash)"
						" VALUES (?1, ?2, ?3)", "sss", kernel, c.name, hash)) == 0)
				rc = store_run(st, rec, NULL, msg, "cannot record a kernel's view");
		}
		sqlite3_finalize(q);
		if (!q && !rc)
			break; /* only blanks and comments were left */
	}
	if (!rc && !made)
		rc = store_fail(msg, STORE_ERR_REFUSED, "%s: no view in it (write CREATE VIEW %s_<name> AS SELECT ...)",
				file, kernel);
	return rc;
}

/* The views file's SQL with each {kernel} made the kernel's name, escaped
 * for where it stands (sqlite3_str's %w and %q): in a quoted name
 * ("{kernel}_results"), in a string ('{kernel}'), or in a comment; so a
 * copy of a kernel's folder under another name has views of its own. It is
 * refused elsewhere, where no quoting says what it is. The result to
 * sqlite3_free(); NULL (said in msg, its code in *code) when it cannot be
 * made. */
static char *for_kernel(const char *kernel, const char *file, const char *sql, int *code, char *msg)
{
	static const char placeholder[] = "{kernel}";
	sqlite3_str *out = sqlite3_str_new(NULL);
	char quote = 0, comment = 0;
	char *text;

	for (size_t i = 0; sql[i];) {
		char c = sql[i];

		if (!strncmp(sql + i, placeholder, sizeof(placeholder) - 1)) {
			if (!quote && !comment) {
				*code = store_fail(msg, STORE_ERR_REFUSED, "%s:%zu: {kernel} stands outside quotes: write it in a "
					   "quoted name (\"{kernel}_results\") or a string ('{kernel}'), which says what it is",
					   file, line_of(sql, sql + i));
				sqlite3_free(sqlite3_str_finish(out));
				return NULL;
			}
			sqlite3_str_appendf(out, quote == '"' ? "%w" : quote == '\'' ? "%q" : "%s", kernel);
			i += sizeof(placeholder) - 1;
			continue;
		}
		if (comment == '\n' && c == '\n') {
			comment = 0;
		} else if (comment == '*' && c == '*' && sql[i + 1] == '/') {
			sqlite3_str_appendall(out, "*/");
			comment = 0;
			i += 2;
			continue;
		} else if (!comment && !quote && c == '-' && sql[i + 1] == '-') {
			comment = '\n';
		} else if (!comment && !quote && c == '/' && sql[i + 1] == '*') {
			sqlite3_str_appendall(out, "/*");
			comment = '*';
			i += 2;
			continue;
		} else if (!comment && !quote && (c == '\'' || c == '"' || c == '`' || c == '[')) {
			quote = c == '[' ? ']' : c;
		} else if (quote && c == quote) {
			quote = 0; /* a doubled quote closes and opens again */
		}
		sqlite3_str_appendchar(out, 1, c);
		i++;
	}
	if (sqlite3_str_errcode(out) != SQLITE_OK) {
		sqlite3_free(sqlite3_str_finish(out));
		*code = store_fail(msg, STORE_ERR_SYSTEM, "out of memory");
		return NULL;
	}
	text = sqlite3_str_finish(out);
	if (!text) /* an empty file */
		text = sqlite3_mprintf("%s", "");
	return text;
}

int store_kernel_views(struct store *st, const char *kernel, const char *file, const char *text, char *msg)
{
	char hash[17], *sql;
	int rc = STORE_ERR_REFUSED;

	const char *reserved = store_kernel_name_reserved(kernel);

	if (reserved)
		return store_fail(msg, STORE_ERR_REFUSED, "%s: kernel '%s' may not have views: its views' prefix %s_ "
				  "begins tune's own %s (rename the kernel)", file, kernel, kernel, reserved);
	if (!(sql = for_kernel(kernel, file, text, &rc, msg)))
		return rc;
	sql_hash(sql, hash);
	if (up_to_date(st, kernel, hash)) {
		sqlite3_free(sql);
		return 0;
	}
	if ((rc = store_exec(st, "BEGIN IMMEDIATE", msg, "cannot start a transaction")) == 0) {
		if ((rc = drop_old(st, kernel, msg)) != 0 || (rc = make_views(st, kernel, file, sql, hash, msg)) != 0)
			sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
		else
			rc = store_exec(st, "COMMIT", msg, "cannot commit a kernel's views");
	}
	sqlite3_free(sql);
	return rc;
}
