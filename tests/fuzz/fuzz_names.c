/* libFuzzer target: names from outside through the sinks. Whatever host and
 * platform names the database holds (the input, split at its first NUL),
 * the exported C header lexes as C with exactly the directives, macros and
 * code of a header of clean names (comments and string contents aside), and
 * each gnuplot script is the script of clean names, with only allowlisted
 * statements: no name reaches a script's text.
 *
 * The database comes from a real sweep run once at start (the tiny adaptive
 * and ipa sweeps of tests/data, from the source tree), in a temporary
 * directory; gnuplot is replaced by true(1), since only the scripts matter. */
#include <dirent.h>
#include <ftw.h>
#include <sys/stat.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../report/report.h"
#include "../../store/store.h"
#include "../../tuner/base/strbuf.h"
#include "../../tuner/cli/cli.h"

static char dir[256], charts_dir[300];
static struct store *st;
static struct strbuf ref_header = STRBUF_INIT;
static struct strbuf ref_scripts[REPORT_MAX_CHARTS];
static size_t nref;

static void die(const char *what, const char *why)
{
	fprintf(stderr, "fuzz_names: %s: %s\n", what, why);
	abort();
}

/* The header's shape: comments dropped, string literals emptied, the
 * platform's macro suffix as X. Returns -1 when it does not lex as C (an
 * unterminated comment or string, a raw newline in a string). */
static int skeleton(const char *h, struct strbuf *out)
{
	for (const char *p = h; *p;) {
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			if (!end)
				return -1;
			p = end + 2;
		} else if (*p == '"') {
			for (p++; *p != '"'; p++) {
				if (!*p || *p == '\n')
					return -1;
				if (*p == '\\' && !*++p)
					return -1;
			}
			p++;
			strbuf_add(out, "\"\"");
		} else if (!strncmp(p, "TUNED_PLATFORM_", 15) || !strncmp(p, "TUNED_SELECTED_", 15)) {
			strbuf_addf(out, "%.15sX", p);
			for (p += 15; (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'; p++)
				;
		} else {
			strbuf_addf(out, "%c", *p++);
		}
	}
	return 0;
}

static void header(const char *platform, struct strbuf *shape)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct tune_error err;
	const char *plats[1] = { platform };

	if (!f || report_header(store_db(st), plats, 1, NULL, f, &err) != 0)
		die("export header", err.msg);
	fclose(f);
	if (skeleton(text, shape) != 0)
		die("the header does not lex as C", text);
	free(text);
}

/* Every statement of a script is one tune writes: nothing else can run. */
static void check_allowlist(const char *script)
{
	static const char *const allowed[] = { "#", "datafile = ARG1 . '/", "set ", "unset ", "do for [t in ",
						"if (t eq ", "plot ", "}", NULL };
	char *copy = strdup(script), *save = NULL;

	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int ok = 0;

		while (*line == ' ')
			line++;
		for (int i = 0; allowed[i]; i++)
			ok |= !strncmp(line, allowed[i], strlen(allowed[i]));
		if (!ok || strchr(line, '`') || strstr(line, "system") || (line[0] != '#' && strchr(line, '@')))
			die("a script statement outside the allowlist", line);
	}
	free(copy);
}

/* The scripts of platform, with its file name part as P, in chart order. */
static size_t scripts(const char *platform, struct strbuf *out)
{
	struct report_chart made[REPORT_MAX_CHARTS];
	size_t n = 0;
	struct tune_error err;
	char file[300], path[700];

	if (report_charts(store_db(st), platform, charts_dir, made, &n, &err) != 0)
		die("report charts", err.msg);
	for (size_t i = 0; i < n; i++) {
		FILE *f;
		char buf[4096];
		size_t got;
		struct strbuf raw = STRBUF_INIT;
		const char *s, *hit;

		report_chart_file(platform, made[i].name, file, sizeof(file));
		snprintf(path, sizeof(path), "%s/%s.gp", charts_dir, file);
		if (!(f = fopen(path, "r")))
			die("no script", path);
		while ((got = fread(buf, 1, sizeof(buf) - 1, f)) > 0) {
			buf[got] = '\0';
			strbuf_add(&raw, buf);
		}
		fclose(f);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s.dat", charts_dir, file);
		unlink(path);
		/* The file name is the one part of a name in the text: a safe one. */
		if (strspn(file, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(file))
			die("a chart file name with an unsafe byte", file);
		for (s = strbuf_str(&raw); (hit = strstr(s, file)) != NULL; s = hit + strlen(file))
			strbuf_addf(&out[i], "%.*sP", (int)(hit - s), s);
		strbuf_add(&out[i], s);
		check_allowlist(strbuf_str(&out[i]));
		strbuf_release(&raw);
	}
	return n;
}

static void set_names(const char *host, const char *platform)
{
	sqlite3 *db = store_db(st);
	sqlite3_stmt *q = NULL;
	static const char *const sql[] = {
		"UPDATE hosts SET hostname = ?1", "UPDATE optima SET host = ?1", "UPDATE platforms SET name = ?2",
		"UPDATE optima SET platform = ?2",
	};

	for (size_t i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		if (sqlite3_prepare_v2(db, sql[i], -1, &q, NULL) != SQLITE_OK)
			die("prepare", sqlite3_errmsg(db));
		sqlite3_bind_text(q, 1, host, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(q, 2, platform, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_DONE)
			die("update", sqlite3_errmsg(db));
		sqlite3_finalize(q);
	}
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void cleanup(void)
{
	if (st)
		store_close(st);
	nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char db[300], cache[300];
	struct tune_error err;
	char *sweeps[][6] = {
		{ "run", "tests/data/sweeps/adaptive.yaml", "--platform", "tests/data/platforms/tiny.yaml", "--db", db },
		{ "run", "tests/data/sweeps/ipa.yaml", "--platform", "tests/data/platforms/tiny.yaml", "--db", db },
	};

	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/fuzz_names.XXXXXX");
	if (!mkdtemp(dir))
		die("mkdtemp", dir);
	atexit(cleanup);
	snprintf(db, sizeof(db), "%s/names.db", dir);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	snprintf(charts_dir, sizeof(charts_dir), "%s/charts", dir);
	setenv("TUNE_CACHE_DIR", cache, 1);
	setenv("TUNE_GNUPLOT", "true", 1);
	if (chdir(TUNE_SOURCE_DIR) != 0)
		die("chdir", TUNE_SOURCE_DIR);
	for (size_t i = 0; i < 2; i++)
		if (cmd_run(6, sweeps[i], &err) != 0)
			die("the seed sweep", err.msg);
	if (store_open(db, &st, err.msg) != 0 || mkdir(charts_dir, 0700) != 0)
		die("open", err.msg);
	set_names("clean-host", "clean");
	header("clean", &ref_header);
	nref = scripts("clean", ref_scripts);
	if (nref < 3)
		die("seed", "fewer than three charts");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 2);
	const char *host, *platform;
	struct strbuf shape = STRBUF_INIT, got[REPORT_MAX_CHARTS];
	size_t n;

	memset(got, 0, sizeof(got));
	memcpy(text, data, size);
	text[size] = text[size + 1] = '\0';
	host = text;
	platform = text + strlen(text) + (strlen(text) < size ? 1 : 0);
	if (!*host || !*platform) {
		free(text);
		return 0;
	}
	set_names(host, platform);
	header(platform, &shape);
	if (strcmp(strbuf_str(&shape), strbuf_str(&ref_header)) != 0)
		die("the header's shape differs from a clean one's", strbuf_str(&shape));
	n = scripts(platform, got);
	if (n != nref)
		die("charts", "a different number of charts");
	for (size_t i = 0; i < n; i++) {
		if (strcmp(strbuf_str(&got[i]), strbuf_str(&ref_scripts[i])) != 0)
			die("a script differs from a clean one's", strbuf_str(&got[i]));
		strbuf_release(&got[i]);
	}
	strbuf_release(&shape);
	free(text);
	return 0;
}
