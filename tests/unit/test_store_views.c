/* A kernel's views from the SQL of its folder: made, kept while the SQL is
 * the same, replaced when it changes; and a file that would do anything but
 * create views named for its kernel (insert, delete, drop, a table, a
 * trigger, a pragma, attach, another kernel's name) is refused with its
 * file and line, leaving what is recorded and the old views as they were. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../store/store.h"
#include "../check.h"
#include "sql.h"

static const char good[] = "-- two views\n"
			   "CREATE VIEW k_hosts AS SELECT hostname FROM hosts;\n\n"
			   "CREATE VIEW k_counts AS SELECT COUNT(*) AS n FROM k_hosts;\n";

/* Each refused: its text, and what the message must say. */
static const struct {
	const char *sql, *says;
} bad[] = {
	{ "CREATE VIEW k_a AS SELECT 1;\nDELETE FROM hosts;\n", "views.sql:2: it does more than create a view: it would delete from 'hosts'" },
	{ "INSERT INTO hosts (hostname) VALUES ('x');", "views.sql:1: it does more than create a view" },
	{ "DROP TABLE samples;", "views.sql:1: it does more than create a view: it would delete from 'sqlite_master'" },
	{ "CREATE TABLE k_t (x);", "it would create table 'k_t'" },
	{ "CREATE TRIGGER k_t AFTER INSERT ON hosts BEGIN DELETE FROM samples; END;", "does more than create a view" },
	{ "PRAGMA writable_schema = 1;", "it would set pragma 'writable_schema'" },
	{ "ATTACH DATABASE '/tmp/x.db' AS x;", "it does more than create a view" },
	{ "CREATE VIEW other_hosts AS SELECT 1;", "view 'other_hosts' is not named k_" },
	{ "CREATE VIEW sched_optima AS SELECT 1;", "view 'sched_optima' is not named k_" },
	{ "CREATE TEMP VIEW k_t AS SELECT 1;", "it does more than create a view" },
	{ "SELECT * FROM hosts;", "views.sql:1: it creates no view" },
	{ "CREATE VIEW k_x AS SELEC 1;", "views.sql:1: near \"SELEC\": syntax error" },
	{ "-- nothing\n", "no view in it" },
	{ "CREATE VIEW k_hosts AS SELECT 1;\n\nCREATE VIEW k_hosts AS SELECT 2;", "views.sql:3: view k_hosts already exists" },
};

int main(void)
{
	char dir[] = "/tmp/tune-test-views-XXXXXX", path[256], msg[STORE_MSG_MAX];
	struct store *st = NULL;
	long long id;
	sqlite3 *db;

	if (!mkdtemp(dir))
		return 2;
	snprintf(path, sizeof(path), "%s/v.db", dir);
	if (store_open(path, &st, msg) != 0) {
		fprintf(stderr, "open: %s\n", msg);
		return 1;
	}
	db = store_db(st);
	{
		struct store_host h = { "node1", "x86_64", "cpu", "linux", "{}", 2, 2, 1 << 20, 1 << 30 };

		CHECK(store_host(st, &h, &id, msg) == 0, "a host: %s", msg);
	}
	/* Shipped kernels' views of the migrations are theirs. */
	CHECK(scalar(db, "SELECT COUNT(*) FROM kernel_views WHERE name IN ('ipa_results', 'sched_results', "
			 "'sched_optima')") == 3, "ipa's and sched's views recorded as theirs");

	CHECK(store_kernel_views(st, "k", "k/views.sql", good, msg) == 0, "good views: %s", msg);
	CHECK(scalar(db, "SELECT n FROM k_counts") == 1, "they read the database");
	CHECK(scalar(db, "SELECT COUNT(*) FROM kernel_views WHERE kernel = 'k'") == 2, "both recorded");
	/* The same SQL again: nothing written (the schema cookie stays). */
	{
		long long cookie = scalar(db, "PRAGMA schema_version");

		CHECK(store_kernel_views(st, "k", "k/views.sql", good, msg) == 0, "again: %s", msg);
		CHECK(scalar(db, "PRAGMA schema_version") == cookie, "the same SQL changes nothing");
	}
	/* Changed: the old views go, the new ones come. */
	CHECK(store_kernel_views(st, "k", "k/views.sql", "CREATE VIEW k_two AS SELECT 2 AS n;", msg) == 0,
	      "changed: %s", msg);
	CHECK(scalar(db, "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('k_hosts', 'k_counts')") == 0,
	      "the old views dropped");
	CHECK(scalar(db, "SELECT n FROM k_two") == 2, "the new one made");
	/* A view the user dropped by hand is made again. */
	sqlite3_exec(db, "DROP VIEW k_two", NULL, NULL, NULL);
	CHECK(store_kernel_views(st, "k", "k/views.sql", "CREATE VIEW k_two AS SELECT 2 AS n;", msg) == 0,
	      "made again: %s", msg);
	CHECK(scalar(db, "SELECT n FROM k_two") == 2, "the dropped view is back");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		msg[0] = '\0';
		CHECK(store_kernel_views(st, "k", "k/views.sql", bad[i].sql, msg) == STORE_ERR_REFUSED, "refused: %s",
		      bad[i].sql);
		CHECK_CONTAINS(msg, bad[i].says);
		CHECK(scalar(db, "SELECT COUNT(*) FROM hosts") == 1, "hosts intact after: %s", bad[i].sql);
		CHECK(scalar(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'samples'") == 1, "samples intact");
		CHECK(scalar(db, "SELECT n FROM k_two") == 2, "the old view stays after: %s", bad[i].sql);
		CHECK(scalar(db, "SELECT COUNT(*) FROM kernel_views WHERE kernel = 'k'") == 1, "its record stays");
	}
	/* Views belong to their owner: IF NOT EXISTS over tune's view or another
	 * kernel's takes nothing, and a kernel named for tune's prefix has none. */
	CHECK(store_kernel_views(st, "a_b", "a_b/views.sql", "CREATE VIEW a_b_v AS SELECT 7 AS n;", msg) == 0,
	      "another kernel's view: %s", msg);
	CHECK(store_kernel_views(st, "a", "a/views.sql", "CREATE VIEW IF NOT EXISTS a_b_v AS SELECT 1 AS n;", msg) ==
		      STORE_ERR_REFUSED, "another kernel's view is refused");
	CHECK_CONTAINS(msg, "a/views.sql:1: view a_b_v already exists: it is tune's, another kernel's");
	CHECK(scalar(db, "SELECT n FROM a_b_v") == 7, "another kernel's view stays its");
	CHECK(scalar(db, "SELECT COUNT(*) FROM kernel_views WHERE name = 'a_b_v' AND kernel <> 'a_b'") == 0,
	      "and is recorded as its only");
	CHECK(store_kernel_views(st, "a", "a/views.sql", "CREATE VIEW a_own AS SELECT 1 AS n;", msg) == 0,
	      "then a's own: %s", msg);
	CHECK(store_kernel_views(st, "a_b", "a_b/views.sql", "CREATE VIEW a_b_v AS SELECT 8 AS n;", msg) == 0,
	      "a changed file of a_b's after a's: %s", msg);
	CHECK(scalar(db, "SELECT n FROM a_b_v") == 8, "a_b's view replaced by a_b");
	{
		long long rows = scalar(db, "SELECT COUNT(*) FROM trial_params");

		CHECK(store_kernel_views(st, "trial", "trial/views.sql",
					 "CREATE VIEW IF NOT EXISTS trial_params AS SELECT 1 AS forged;", msg) ==
			      STORE_ERR_REFUSED, "a kernel named trial is refused");
		CHECK_CONTAINS(msg, "kernel 'trial' may not have views: its views' prefix trial_ begins tune's own "
				    "trial_params");
		CHECK(scalar(db, "SELECT COUNT(*) FROM kernel_views WHERE kernel = 'trial'") == 0, "nothing recorded");
		CHECK(scalar(db, "SELECT COUNT(*) FROM trial_params") == rows, "tune's view stays tune's");
		/* A database handed over already records it as the kernel's: still refused, before dropping. */
		sqlite3_exec(db, "INSERT INTO kernel_views VALUES ('trial', 'trial_params', 'x')", NULL, NULL, NULL);
		CHECK(store_kernel_views(st, "trial", "trial/views.sql", "CREATE VIEW trial_params AS SELECT 1;", msg) ==
			      STORE_ERR_REFUSED, "a forged record gives nothing");
		CHECK(scalar(db, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'trial_params' AND sql LIKE "
				 "'%forged%'") == 0 && scalar(db, "SELECT COUNT(*) FROM trial_params") == rows,
		      "tune's view is not dropped");
	}
	/* {kernel} is the kernel's name, escaped where it stands: in a quoted
	 * name, in a string, in a comment; anywhere else it is refused. */
	{
		static const char any[] = "-- {kernel}'s own\nCREATE VIEW \"{kernel}_v\" AS SELECT '{kernel}' AS k, 'it''s "
					  "{kernel}' AS s;\nCREATE VIEW \"{kernel}_w\" AS SELECT k FROM \"{kernel}_v\";\n";
		sqlite3_stmt *q = NULL;

		CHECK(store_kernel_views(st, "k_2", "k_2/views.sql", any, msg) == 0, "{kernel}: %s", msg);
		CHECK(sqlite3_prepare_v2(db, "SELECT k, s FROM \"k_2_w\" JOIN \"k_2_v\" USING (k)", -1, &q, NULL) ==
			      SQLITE_OK && sqlite3_step(q) == SQLITE_ROW, "the views of a kernel named k_2: %s",
		      sqlite3_errmsg(db));
		CHECK(q && !strcmp((const char *)sqlite3_column_text(q, 0), "k_2") &&
			      !strcmp((const char *)sqlite3_column_text(q, 1), "it's k_2"),
		      "its name as text, quotes and all");
		sqlite3_finalize(q);
		CHECK(store_kernel_views(st, "k_2", "k_2/views.sql", "-- x\nCREATE VIEW x AS\nSELECT 1 FROM {kernel}_v;",
					 msg) == STORE_ERR_REFUSED, "{kernel} unquoted is refused");
		CHECK_CONTAINS(msg, "k_2/views.sql:3: {kernel} stands outside quotes");
		CHECK(scalar(db, "SELECT COUNT(*) FROM kernel_views WHERE kernel = 'k_2'") == 2, "its views stay");
	}
	CHECK(store_kernel_name_reserved("sweep") && store_kernel_name_reserved("kernel") &&
		      store_kernel_name_reserved("optima") && !store_kernel_name_reserved("chase") &&
		      !store_kernel_name_reserved("trials"),
	      "reserved: the prefixes of tune's names only");
	CHECK(scalar(db, "PRAGMA integrity_check") != -1, "integrity");
	store_close(st);
	unlink(path);
	return check_done("store_views");
}
