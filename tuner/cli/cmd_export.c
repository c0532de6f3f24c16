/* tune export csv|header|json [--platform P ...] [--kernel K ...] [-o FILE]
 * tune export header --check FILE [--platform P ...]: is the header stale? */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../report/report.h"
#include "../../store/store.h"
#include "../base/strbuf.h"
#include "../build/build.h"
#include "../config/config.h"
#include "cli.h"

/* The platforms that have optima, when none is named. */
/* The value of `#define NAME "value"` lines, in order of appearance. */
static size_t header_values(const char *text, const char *name, char vals[][128], size_t max)
{
	char pat[96];
	size_t n = 0;

	snprintf(pat, sizeof(pat), "#define %s \"", name);
	for (const char *p = strstr(text, pat); p && n < max; p = strstr(p + 1, pat)) {
		const char *v = p + strlen(pat), *end = strchr(v, '"');

		if (!end)
			break;
		snprintf(vals[n++], 128, "%.*s", (int)(end - v), v);
	}
	return n;
}

/* Where the platform was loaded from when it was measured, else its name. */
static const char *platform_path(sqlite3 *db, const char *name)
{
	static char path[4096];
	sqlite3_stmt *q = NULL;

	snprintf(path, sizeof(path), "%s", name);
	if (sqlite3_prepare_v2(db, "SELECT path FROM platforms WHERE name = ?1", -1, &q, NULL) == SQLITE_OK) {
		sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
		if (sqlite3_step(q) == SQLITE_ROW)
			snprintf(path, sizeof(path), "%s", (const char *)sqlite3_column_text(q, 0));
	}
	sqlite3_finalize(q);
	return path;
}

static int check_header(sqlite3 *db, const char *path, struct tune_error *err)
{
	char names[CMD_MAX_PLATFORMS][128], fps[CMD_MAX_PLATFORMS][128], decided[CMD_MAX_PLATFORMS][128];
	char *text = NULL, why[4096] = "";
	size_t n, len = 0, used = 0;
	struct host_facts facts;
	FILE *f = fopen(path, "r");
	int rc = 0;

	if (!f)
		return tune_fail(err, TUNE_ERR_USAGE, "export: cannot read '%s': %s", path, strerror(errno));
	text = malloc(1 << 20);
	if (text)
		len = fread(text, 1, (1 << 20) - 1, f);
	fclose(f);
	if (!text)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	text[len] = '\0';
	n = header_values(text, "TUNED_PLATFORM_NAME", names, CMD_MAX_PLATFORMS);
	if (!n || header_values(text, "TUNED_HOST_FINGERPRINT", fps, CMD_MAX_PLATFORMS) != n ||
	    header_values(text, "TUNED_DECIDED_AT", decided, CMD_MAX_PLATFORMS) != n) {
		free(text);
		return tune_fail(err, TUNE_ERR_USAGE, "export: '%s' is not a header written by 'tune export header'", path);
	}
	free(text);
	if ((rc = hostinfo_read(&facts, err)) != 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		struct platform p;
		struct tune_error perr;
		char fp[17], newest[64];

		if (platform_load(platform_path(db, names[i]), &p, &perr) == 0 &&
		    platform_resolve(&p, &facts, &perr) == 0) {
			if (build_fingerprint(&p, &facts, fp, &perr) == 0 && strcmp(fp, fps[i]) != 0)
				str_appendf(why, sizeof(why), &used,
					    "\n  platform '%s': this host's fingerprint is %s, the header's %s (CPU, "
					    "microcode, kernel, governor, SMT, THP, compiler, flags or kernel sources "
					    "changed)", names[i], fp, fps[i]);
		} else {
			printf("platform '%s': fingerprint not checked here (%s)\n", names[i], perr.msg);
		}
		platform_free(&p);
		if (report_header_newest(db, names[i], newest, sizeof(newest), &perr) == 0 &&
		    strcmp(newest, decided[i]) > 0)
			str_appendf(why, sizeof(why), &used, "\n  platform '%s': newer optima exist (decided %s, the "
				    "header has %s)", names[i], newest, decided[i]);
	}
	if (used)
		return tune_fail(err, TUNE_ERR_STALE, "'%s' is stale:%s\n(re-tune if the host changed, then 'tune "
				 "export header -o %s')", path, why, path);
	printf("'%s' is up to date for %zu platform%s\n", path, n, n == 1 ? "" : "s");
	return 0;
}

int cmd_export(int argc, char **argv, struct tune_error *err)
{
	static const char *const formats[] = { "csv", "header", "json", NULL };
	char names[CMD_MAX_PLATFORMS][CMD_PLATFORM_NAME_MAX], advice[CMD_PLATFORM_NAME_MAX * 2 + 128];
	const char *found[CMD_MAX_PLATFORMS];
	const char **platforms;
	struct cmd_options o;
	struct store *st = NULL;
	FILE *out = stdout;
	char partial[4096] = "";
	size_t rows = 0, np;
	int rc, fmt = -1;

	if ((rc = cmd_parse_options("export", argc, argv, &o, err)) != 0)
		return rc;
	for (int i = 0; o.nargs && formats[i]; i++)
		if (!strcmp(o.args[0], formats[i]))
			fmt = i;
	if (fmt < 0)
		return tune_fail(err, TUNE_ERR_USAGE, "export: %s%s%s (tune export csv|header|json [--platform P] "
				 "[-o FILE])", o.nargs ? "unknown format '" : "which format?", o.nargs ? o.args[0] : "",
				 o.nargs ? "'" : "");
	if (fmt == 0 && o.nplatforms > 1)
		return tune_fail(err, TUNE_ERR_USAGE, "export: csv takes one --platform at a time");
	if (o.columns_given && fmt != 0)
		return tune_fail(err, TUNE_ERR_USAGE, "export: --columns applies to csv (tune export csv --columns all)");
	if (o.nkernels && fmt == 2)
		return tune_fail(err, TUNE_ERR_USAGE, "export: --kernel applies to headers and CSV (tune export header "
				 "--kernel K)");
	if (o.nkernels > 1 && fmt == 0)
		return tune_fail(err, TUNE_ERR_USAGE, "export: csv takes one --kernel at a time");
	if (o.check && fmt != 1)
		return tune_fail(err, TUNE_ERR_USAGE, "export: --check applies to headers (tune export header --check FILE)");
	if ((rc = cmd_open_store(o.db, &st, err)) != 0)
		return rc;
	if (o.check) {
		rc = check_header(store_db(st), o.check, err);
		goto out;
	}
	platforms = o.platforms;
	np = o.nplatforms;
	if (fmt && !np) {
		np = cmd_platforms_with_optima(store_db(st), found, CMD_MAX_PLATFORMS, names);
		platforms = found;
		if (!np) {
			rc = tune_fail(err, TUNE_ERR_EMPTY, "export: no optima in '%s' yet (run 'tune --platform local' "
				       "first)", o.db);
			goto out;
		}
	}
	/* A file that is not there, and no platform stored under that name. */
	for (size_t i = 0; fmt && i < np && platforms == o.platforms; i++) {
		size_t nf = cmd_platforms_with_optima(store_db(st), found, CMD_MAX_PLATFORMS, names), k = 0;

		while (k < nf && strcmp(found[k], platforms[i]) != 0)
			k++;
		cmd_no_results_advice(platforms[i], advice, sizeof(advice));
		if (k == nf && paths_is_file(platforms[i]) && access(platforms[i], F_OK) != 0) {
			rc = tune_fail(err, TUNE_ERR_EMPTY, "export: no optima for platform '%s' in '%s' (%s)", platforms[i],
				       o.db, advice);
			goto out;
		}
	}
	/* Written beside FILE and renamed over it when whole: a failed export
	 * leaves the header a build already uses as it was. */
	if (o.output && strcmp(o.output, "-") != 0) {
		int too_long = (size_t)snprintf(partial, sizeof(partial), "%s.partial", o.output) >= sizeof(partial);

		if (too_long || !(out = fopen(partial, "w"))) {
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "export: cannot write '%s': %s", o.output,
				       too_long ? "its name is too long" : strerror(errno));
			partial[0] = '\0';
			goto out;
		}
	}
	if (fmt == 0)
		rc = report_csv(store_db(st), np ? platforms[0] : NULL, o.nkernels ? o.kernels[0] : NULL, o.columns, out,
				&rows, err);
	else if (fmt == 1)
		rc = report_header(store_db(st), platforms, np, o.nkernels ? o.kernels : NULL, out, err);
	else
		rc = report_json(store_db(st), platforms, np, out, err);
	if (out != stdout && fclose(out) != 0 && !rc)
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "export: cannot write '%s': %s", o.output, strerror(errno));
	if (np)
		cmd_no_results_advice(platforms[0], advice, sizeof(advice));
	if (!rc && fmt == 0 && !rows)
		rc = np ? tune_fail(err, TUNE_ERR_EMPTY, "export: no results for platform '%s' in '%s' (%s)", platforms[0],
				    o.db, advice) :
			  tune_fail(err, TUNE_ERR_EMPTY, "export: no results in '%s' (run 'tune --platform local' "
				    "first)", o.db);
	if (partial[0] && rc)
		remove(partial); /* no half-written header for a build to pick up */
	else if (partial[0] && rename(partial, o.output) != 0)
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "export: cannot write '%s': %s", o.output, strerror(errno));
out:
	store_close(st);
	return rc;
}
