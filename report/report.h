/* report: what the database holds, as tables, charts, a C header and JSON,
 * the same for every kernel: generic ones from its manifest's parameters,
 * or those the views of its views file declare in their place. Reads the
 * store's views; writes to the stream it is given. */
#ifndef REPORT_REPORT_H
#define REPORT_REPORT_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>

#include "../store/store.h"
#include "../tuner/base/errors.h"

/* A report as data (sections, tables, figures), rendered in any format. */
struct rdoc;

enum report_format { REPORT_TABLE, REPORT_MD, REPORT_CSV, REPORT_JSON, REPORT_HTML };
extern const char *const report_format_names[]; /* "table", "md", "csv", "json", "html" */

struct rdoc *rdoc_new(void); /* NULL when out of memory; free with rdoc_free() */
void rdoc_free(struct rdoc *d);
/* A results section: the platform and host the tables after it belong to,
 * and what else they are of: detail, a JSON object such as {"depth": 12}
 * (NULL: nothing), shown as "depth 12" and its keys in the section's JSON. */
void rdoc_section(struct rdoc *d, const char *platform, const char *host, const char *fingerprint,
		  const char *detail);
/* A heading of tables of no one platform (the headline): in CSV each row
 * names its own platform and host (its Platform and Host columns), in JSON
 * the section is {"heading": title} with no platform or host. */
void rdoc_heading(struct rdoc *d, const char *title);
/* A table with ncols headers (the text format shows RDOC_MAX_COLUMNS);
 * returns its handle for rdoc_row(). */
#define RDOC_MAX_COLUMNS 72
size_t rdoc_table(struct rdoc *d, const char *title, size_t ncols, const char *const *headers);
/* The last block if it is a table titled title of ncols columns, else a new one: rows of a
 * query ordered by what the title says land in one table each. */
size_t rdoc_table_for(struct rdoc *d, const char *title, size_t ncols, const char *const *headers);
void rdoc_row(struct rdoc *d, size_t table, const char *const *cells);
/* The typed value (taken over) of column col of the table's last row, for
 * JSON, where its text alone would not say it: an interval with its runs
 * and coverage, a cell holding several values. Without one, JSON reads the
 * text: null for "" and "-", a number for "12", "8.63x", "45%" or (in a column of
 * unit MB) "2 GB", an object for "17.0 [13.5, 45.4]", else a string. */
struct json_t;
void rdoc_value(struct rdoc *d, size_t table, size_t col, struct json_t *value);
/* The unit of each of the table's columns (NULL or "": none), for JSON. */
void rdoc_units(struct rdoc *d, size_t table, const char *const *units);
/* An inline SVG chart (HTML only). */
void rdoc_figure(struct rdoc *d, const char *caption, const char *svg);
/* Moves from's blocks to the end of d (from is left empty, to free). */
void rdoc_append(struct rdoc *d, struct rdoc *from);
/* Data rows in all tables. */
size_t rdoc_rows(const struct rdoc *d);
int rdoc_render(const struct rdoc *d, int format, const char *title, FILE *out, struct tune_error *err);
/* A table's name is its title up to the first ':' or '(', in lower-case
 * words joined by '-': "summary", "variant-isolation", "optima-of-platform-
 * local-on-host-vm". Keeps the tables named want, or whose name starts with
 * want and a '-', and the sections heading them; TUNE_ERR_USAGE listing the
 * names when none is. */
int rdoc_keep_tables(struct rdoc *d, const char *want, struct tune_error *err);
/* Each table as one CSV file in dir (made when missing), PLATFORM-HOST-
 * NAME.csv, its columns after platform and host; each path written to list
 * (when not NULL), a line each. */
int rdoc_csv_files(const struct rdoc *d, const char *dir, FILE *list, struct tune_error *err);

/* Kernels described by their manifest alone: each trial of the newest sweep
 * per context (the metric against every tuned parameter, the chosen one
 * marked) and the optimum of each context with its runner-up. */
int report_kernels(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* declared.c: each kernel's declared tables, by kernel name: the views of
 * its views: file named <kernel>_table_<name>, a row of each a table row
 * (its title column names the table, its other columns are the cells; see
 * the file), per newest sweep of the current fingerprints of platform
 * (NULL: all). */
int report_declared_tables(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* declared.c: when there are several platforms, each kernel's declared
 * tables across them under one heading: its views named
 * <kernel>_overview_<name>, their rows of those platforms (their platform
 * column), in the order given. */
int report_declared_overviews(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np,
			      struct tune_error *err);
/* cell.c: a declared table's cell text that is a typed cell, a JSON object
 * {"printf": [FORMAT, ARG...]}, {"interval": [M, LO, HI], "runs": N,
 * "digits": D} or {"text": T} (the first and last with an optional
 * "value"), formatted into out as C's printf does, with its JSON value into
 * *value (a new reference, or NULL); 1 when it was one, 0 when text is
 * plain (out untouched), -1 when malformed (why says how). */
int report_typed_cell(const char *text, char *out, size_t len, json_t **value, char *why, size_t wlen);
/* A params JSON object ("name": value, or {"text": ...}) as "name=value ...",
 * leaving out the variant and the names of omit ("name" or "name=value"
 * words, such as a context); "-" when none. */
void report_params_text(const char *params_json, const char *omit, char *out, size_t len);

/* headline.c: under its own heading, per kernel and context of the
 * platforms (np 0: all), what to use, its interval, against the runner-up
 * (tie, ahead, or the knee rule) and over the kernel's baseline
 * (sweeps.baseline), and against the host's limit (metric.limit of the
 * manifest, from its probe): what the results and the report open with. */
int report_headline(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np, struct tune_error *err);
/* An optimum (median m, interval [lo, hi]) against its runner-up (optima's
 * runner_up JSON): "knee" (the runner-up is better, the knee rule kept the
 * smaller setting), "tie" or "ahead", run by run where the runner-up has a
 * paired ratio; NULL when it names no numbers. */
const char *report_runner_verdict(json_t *ru, double m, double lo, double hi, int higher);
/* Per sweep of the current fingerprints: its measured runs, how many are
 * flagged as outliers, and the trial with the most. */
int report_outliers(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* What the kernels' probes measured of the platform's hosts (host_probes). */
int report_probes(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* Warnings stored with the sweeps of the current fingerprints. */
int report_warnings(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* The trials of those sweeps that failed (still failed: a re-run retries
 * them), with their reasons. */
int report_failures(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* Each kernel's tables across the platforms, then per platform each
 * kernel's own tables, the generic kernels' and the warnings: what `tune
 * results` shows. */
int report_all(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np, struct tune_error *err);

/* The CSV export's columns: the kernel's own (the chase's are amaco2's, byte
 * for byte), or those and then those its view adds for all (the chase's:
 * platform, host, fingerprint, hugepages, trial, phase, outlier). */
enum report_csv_columns { REPORT_CSV_OWN, REPORT_CSV_ALL };
/* "amaco2", "all", "own" (the kernel's own, amaco2's for the chase), NULL */
extern const char *const report_csv_column_names[];

/* csv.c: the measured samples of platform (NULL: all) as CSV, in the
 * columns kernel declares (its view <kernel>_csv); kernel NULL: the one
 * kernel that declares them (TUNE_ERR_USAGE naming them when several do). */
int report_csv(sqlite3 *db, const char *platform, const char *kernel, int columns, FILE *out, size_t *rows,
	       struct tune_error *err);

/* The charts of platform in dir, each .png, .svg, and the .dat and .gp
 * gnuplot drew them from: each kernel's declared ones, and
 * PLATFORM-kernel-K for each other kernel K with a numeric list parameter
 * (its metric against it, a line per context, variant and searched values).
 * made[] gets the charts drawn (name without platform and extension). Needs
 * gnuplot: TUNE_ERR_BUILD with a message saying so when it is missing. */
#define REPORT_MAX_CHARTS 16
/* A chart drawn: its part of the file name, and what it shows. */
struct report_chart {
	char name[160];
	char caption[256];
};
/* declared_charts.c: each kernel's declared charts of platform in dir
 * (views named <kernel>_chart_<name>, drawn as PLATFORM-<kernel>-<name>),
 * each added to made. */
int report_declared_charts(sqlite3 *db, const char *platform, const char *dir, struct report_chart *made,
			   size_t *charts, struct tune_error *err);
/* The file name (without extension) of platform's chart: "<platform>-<chart>",
 * both escaped as a file name. */
void report_chart_file(const char *platform, const char *chart, char *out, size_t len);
int report_charts(sqlite3 *db, const char *platform, const char *dir, struct report_chart made[REPORT_MAX_CHARTS],
		  size_t *charts, struct tune_error *err);
/* For a chart's hook: opens dir/name.dat for writing (its path to path), or
 * NULL with err filled. */
FILE *report_chart_data(const char *dir, const char *name, char *path, size_t len, struct tune_error *err);
struct strbuf;
/* Writes dir/name.gp drawing body for both terminals (in body, datafile is
 * ARG1/name.dat; ARG2 the platform, ARG3 the host, ARG4 name, ARG5 on the
 * strings of more, NULL-terminated, REPORT_PLOT_MORE at most) and runs
 * gnuplot on it; name, a report_chart_file(), stays out of the script's
 * text, as do the strings of more. */
#define REPORT_PLOT_MORE 5
int report_plot(const char *dir, const char *name, const char *platform, const char *host, const char *const *more,
		const struct strbuf *body, struct tune_error *err);
/* Adds a chart drawn to made (REPORT_MAX_CHARTS at most). */
void report_chart_made(struct report_chart *made, size_t *n, const char *name, const char *caption);
/* The charts of each platform and dir/report.html: host facts, charts and tables in one file. */
int report_html(sqlite3 *db, const char *const *platforms, size_t np, const char *dir, struct tune_error *err);

/* What report_print() writes, and where. */
struct report_output {
	int format;          /* enum report_format */
	const char *table;   /* only the tables of this name (rdoc_keep_tables()); NULL: all */
	const char *csv_dir; /* REPORT_CSV only: one file per table in this folder, their paths to out */
	FILE *out;
};

/* report_all() rendered as how says; *rows is 0 when there is nothing to
 * show (and nothing is written). */
int report_print(sqlite3 *db, const char *const *platforms, size_t np, const struct report_output *how,
		 size_t *rows, struct tune_error *err);

/* The optima of the platforms as a C header (one #if block each, selected by
 * TUNED_PLATFORM_<NAME>, with a fallback by architecture), holding the
 * blocks and text of kernels (NULL-terminated; NULL: every kernel with
 * optima on the platforms) and of no other; or as JSON. A kernel asked for
 * that has no optima there is TUNE_ERR_EMPTY, naming those that have. */
int report_header(sqlite3 *db, const char *const *platforms, size_t n, const char *const *kernels, FILE *out,
		  struct tune_error *err);
int report_json(sqlite3 *db, const char *const *platforms, size_t n, FILE *out, struct tune_error *err);
/* When the newest optimum of platform's current fingerprint was decided. */
int report_header_newest(sqlite3 *db, const char *platform, char *decided, size_t len, struct tune_error *err);

/* query.c: runs sql with platform bound to ?1 (NULL: SQL NULL) and calls
 * row for each result row, stopping at the first that returns non-zero (a
 * tune_err it filled err for). Returns 0, that, or TUNE_ERR_STORE saying it
 * cannot read what. */
int report_each_row(sqlite3 *db, const char *sql, const char *platform, const char *what,
		    int (*row)(sqlite3_stmt *q, void *arg, struct tune_error *err), void *arg, struct tune_error *err);
/* Appends a zeroed element of size bytes to the array at *(void **)array of
 * *n elements; the element, or NULL when out of memory (the array intact). */
void *report_grow(void *array, size_t *n, size_t size);
/* Column col of the row as text (valid until the next step), dflt for NULL. */
const char *report_text(sqlite3_stmt *q, int col, const char *dflt);
/* SQL: "sweeps s" joined to its platform p and host h, only the sweeps of
 * their current fingerprints: what the tables of `tune results` read. */
#define REPORT_SQL_CURRENT_SWEEPS "sweeps s JOIN platforms p ON p.id = s.platform_id JOIN hosts h ON h.id = s.host_id" \
	" JOIN current_fingerprints c ON c.platform = p.name AND c.host = h.hostname AND c.fingerprint = s.fingerprint"
/* SQL: what a manifest kernel's row leaves out of its parameters, the
 * context's words and the sweep's fixed parameters, space-separated. */
#define REPORT_SQL_OMIT(sweep, context) "(" context " || ' ' || COALESCE((SELECT group_concat(f.value, ' ') FROM" \
	" json_each(" sweep ".spec_json, '$.fixed') f), ''))"
/* SQL: the kernel declares no view of the kind ("_table_", "_chart_"): it
 * gets the generic ones, which those it declares replace. */
#define REPORT_SQL_UNDECLARED(kernel, kind) "NOT EXISTS (SELECT 1 FROM kernel_views kv JOIN sqlite_master sm ON" \
	" sm.name = kv.name AND sm.type = 'view' WHERE kv.kernel = " kernel " AND substr(kv.name, 1, length(kv.kernel)" \
	" + length('" kind "')) = kv.kernel || '" kind "')"
/* Column col of the row as text into out ("" for NULL). */
void report_column_text(sqlite3_stmt *q, int col, char *out, size_t len);

/* Text from the database made safe for the header: report_c_comment() for
 * inside a comment, report_c_string() as a string literal. Each returns one
 * of a few rotating static buffers (8 and 4: one fprintf's worth); the
 * export runs on one thread. */
const char *report_c_comment(const char *s);
const char *report_c_string(const char *s);


/* A median and its interval as a cell: text "17.0 [13.5, 45.4]" with each
 * number in numfmt (a printf format of one double, such as "%.1f"), and
 * " (75%)" after it when it holds the median less than 95% of the time;
 * the value {"median", "low", "high", "runs", "coverage"} for rdoc_value()
 * (runs <= 0: not recorded, and neither is given). */
struct json_t *report_interval(double median, double low, double high, long long runs, const char *numfmt,
			       char *text, size_t len);

#endif
