/* report: what the database holds, as amaco2-style tables and as amaco2's
 * CSV. Reads the store's views; writes to the stream it is given. */
#ifndef REPORT_REPORT_H
#define REPORT_REPORT_H

#include <sqlite3.h>
#include <stdio.h>

#include "../tuner/base/errors.h"

/* The newest result of each configuration (current fingerprints only),
 * ordered by platform, host, depth, size, variant and g. Free rs->v. */
struct report_result {
	char platform[64], host[256], fingerprint[32], variant[32], hint[16];
	long long size_mb, depth, group_size;
	int hugepages;
	double median, ci_low, ci_high; /* ns/lookup; the interval is the median when unknown */
};

struct report_results {
	struct report_result *v;
	size_t n;
};

int report_load_results(sqlite3 *db, const char *platform, struct report_results *rs, struct tune_error *err);
/* The fastest result of variant at size (g < 0: any g), or NULL. */
const struct report_result *report_best(const struct report_result *v, size_t n, const char *variant, long long size,
					long long g);

/* The ipa kernel's newest sweep of each host's current fingerprint: wall
 * time per call at each threshold T (LLONG_MAX: always poll), the chosen T
 * and the host's wake-up cost (< 0: not measured). Free *out. */
#define REPORT_IPA_MAX_POINTS 64
struct report_ipa_point {
	long long threshold_ns;
	double median, ci_low, ci_high, polled_share; /* ns per call; share < 0: unknown */
};

struct report_ipa {
	char platform[64], host[256], fingerprint[32];
	struct report_ipa_point points[REPORT_IPA_MAX_POINTS];
	size_t npoints;
	int chosen;
	long long chosen_ns;
	double chosen_median, chosen_low, chosen_high, wakeup_cross_ns, wakeup_same_ns;
};

int report_load_ipa(sqlite3 *db, const char *platform, struct report_ipa **out, size_t *n, struct tune_error *err);
/* "0 (always block)", "8 us", "inf (always poll)" */
void report_threshold_label(long long t, char *out, size_t len);

/* The sched kernel's newest sweep of each host's current fingerprint: the
 * makespan of each policy and dispatch at each (speedup, apps). Free *out. */
#define REPORT_SCHED_MAX_POINTS 1024
struct report_sched_point {
	char policy[16], dispatch[16];
	long long speedup, apps;
	double makespan_ms, ci_low_ms, ci_high_ms, accel_share, overhead_ns; /* < 0: unknown */
	int chosen; /* the optimum of its (speedup, apps) */
};

struct report_sched {
	char platform[64], host[256], fingerprint[32];
	struct report_sched_point points[REPORT_SCHED_MAX_POINTS];
	size_t npoints;
};

int report_load_sched(sqlite3 *db, const char *platform, struct report_sched **out, size_t *n, struct tune_error *err);
/* The point of policy (NULL: any) and dispatch at (speedup, apps), or NULL. */
const struct report_sched_point *report_sched_at(const struct report_sched *r, const char *policy,
						  const char *dispatch, long long speedup, long long apps);
/* The distinct speedups and app counts measured, ascending; returns how many. */
size_t report_sched_speedups(const struct report_sched *r, long long *out, size_t max);
size_t report_sched_apps(const struct report_sched *r, long long *out, size_t max);

/* A report as data (sections, tables, figures), rendered in any format. */
struct rdoc;

enum report_format { REPORT_TABLE, REPORT_MD, REPORT_CSV, REPORT_JSON, REPORT_HTML };
extern const char *const report_format_names[]; /* "table", "md", "csv", "json", "html" */

struct rdoc *rdoc_new(void); /* NULL when out of memory; free with rdoc_free() */
void rdoc_free(struct rdoc *d);
/* A results section: what the tables after it belong to (depth < 0: a plain heading). */
void rdoc_section(struct rdoc *d, const char *platform, const char *host, const char *fingerprint, long long depth);
/* A table with ncols headers; returns its handle for rdoc_row(). */
size_t rdoc_table(struct rdoc *d, const char *title, size_t ncols, const char *const *headers);
/* The last block if it is a table titled title, else a new one: rows of a
 * query ordered by what the title says land in one table each. */
size_t rdoc_table_for(struct rdoc *d, const char *title, size_t ncols, const char *const *headers);
void rdoc_row(struct rdoc *d, size_t table, const char *const *cells);
/* An inline SVG chart (HTML only). */
void rdoc_figure(struct rdoc *d, const char *caption, const char *svg);
/* Data rows in all tables. */
size_t rdoc_rows(const struct rdoc *d);
int rdoc_render(const struct rdoc *d, int format, const char *title, FILE *out, struct tune_error *err);

/* Summary, variant isolation and group-size tables of each platform (all
 * when np is 0), and a side-by-side comparison when there are several. */
int report_tables(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np, struct tune_error *err);
/* The optima of the current fingerprint of each host of platform (all: NULL). */
int report_optima(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* The ipa curve (wall time against T) and the chosen T against the wake-up cost. */
int report_ipa(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* Makespan per policy against apps at each speedup, inline against worker
 * dispatch, and the scheduler optima. */
int report_sched(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* Kernels described by their manifest alone: each trial of the newest sweep
 * per context (the metric against every tuned parameter, the chosen one
 * marked) and the optimum of each context with its runner-up. */
int report_kernels(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* A params JSON object ("name": value, or {"text": ...}) as "name=value ...",
 * leaving out the variant and the names of omit ("name" or "name=value"
 * words, such as a context); "-" when none. */
void report_params_text(const char *params_json, const char *omit, char *out, size_t len);
/* Each such kernel's header block for platform: TUNED_<KERNEL>_<PARAM> of
 * the last context decided, and per context a table and a lookup. */
int report_kernels_header(FILE *out, sqlite3 *db, const char *platform, struct tune_error *err);

/* Warnings stored with the sweeps of the current fingerprints. */
int report_warnings(struct rdoc *d, sqlite3 *db, const char *platform, struct tune_error *err);
/* The tables, then the optima and the warnings: what `tune results` shows. */
int report_all(struct rdoc *d, sqlite3 *db, const char *const *platforms, size_t np, struct tune_error *err);

/* variant,workload_size_mb,depth,group_size,hint,run_id,ns_total,ns_per_lookup,lookups_per_sec,checksum
 * for the measured runs of the newest result of each configuration. */
int report_csv(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err);

/* The charts of platform in dir, each .png, .svg, and the .dat and .gp
 * gnuplot drew them from: PLATFORM-throughput_vs_size and
 * PLATFORM-speedup_vs_groupsize when there are chase results,
 * PLATFORM-ipa_wall_vs_threshold when there are ipa results,
 * PLATFORM-sched_makespan_vs_apps when there are sched results, and
 * PLATFORM-kernel-K for each manifest kernel K with a numeric list parameter
 * (its metric against it, a line per context, variant and searched values).
 * made[] gets the charts drawn (name without platform and extension). Needs
 * gnuplot: TUNE_ERR_BUILD with a message saying so when it is missing. */
#define REPORT_MAX_CHARTS 16
/* A chart drawn: its part of the file name, and what it shows. */
struct report_chart {
	char name[160];
	char caption[256];
};
/* The file name (without extension) of platform's chart: "<platform>-<chart>",
 * the platform escaped as a file name. */
void report_chart_file(const char *platform, const char *chart, char *out, size_t len);
int report_charts(sqlite3 *db, const char *platform, const char *dir, struct report_chart made[REPORT_MAX_CHARTS],
		  size_t *charts, struct tune_error *err);
/* The charts of each platform and dir/report.html: host facts, charts and tables in one file. */
int report_html(sqlite3 *db, const char *const *platforms, size_t np, const char *dir, struct tune_error *err);

/* report_all() rendered in format; *rows is 0 when there is nothing to show
 * (and nothing is written). */
int report_print(sqlite3 *db, const char *const *platforms, size_t np, int format, FILE *out, size_t *rows,
		 struct tune_error *err);

/* The optima of the platforms as a C header (one #if block each, selected by
 * TUNED_PLATFORM_<NAME>, with a fallback by architecture), or as JSON. */
int report_header(sqlite3 *db, const char *const *platforms, size_t n, FILE *out, struct tune_error *err);
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
/* SQL: what a manifest kernel's row leaves out of its parameters, the
 * context's words and the sweep's fixed parameters, space-separated. */
#define REPORT_SQL_OMIT(sweep, context) "(" context " || ' ' || COALESCE((SELECT group_concat(f.value, ' ') FROM" \
	" json_each(" sweep ".spec_json, '$.fixed') f), ''))"
/* SQL: sweep s is of a kernel whose report is generic (not its own). */
#define REPORT_SQL_GENERIC(sweep) "COALESCE(json_extract(" sweep ".spec_json, '$.report'), 'generic') = 'generic'"
/* SQL: what a kernel's probe measured of a host (host_probes), or -1. */
#define REPORT_SQL_PROBE(host_id, kernel, probe, field) "COALESCE((SELECT value FROM host_probes WHERE host_id = " \
	host_id " AND kernel = '" kernel "' AND probe = '" probe "' AND field = '" field "'), -1)"
/* SQL: ipa's wake-up cost on host h (hosts.id): across CPUs, on one. */
#define REPORT_SQL_WAKEUP(h) REPORT_SQL_PROBE(h ".id", "ipa", "wakeup", "cross_cpu_ns") ", " \
	REPORT_SQL_PROBE(h ".id", "ipa", "wakeup", "same_cpu_ns")
/* sweeps.c: a kernel's newest sweeps, an element of the caller's array
 * each, with the points of each. sweeps_sql takes the platform as ?1 (NULL:
 * all) and gives the sweep's id in column 3; points_sql takes that id. */
struct report_sweeps {
	const char *what; /* "ipa results", for messages */
	const char *sweeps_sql, *points_sql;
	size_t size;      /* of an element */
	void (*sweep)(sqlite3_stmt *q, void *elem);
	/* Adds the point in the row to elem: 0, or -1 when elem has no room. */
	int (*point)(sqlite3_stmt *pts, void *elem);
};
/* *out (free() it) holds *n elements; nothing on an error. */
int report_load_sweeps(sqlite3 *db, const char *platform, const struct report_sweeps *how, void **out, size_t *n,
		       struct tune_error *err);
/* Column col of the row as text into out ("" for NULL). */
void report_column_text(sqlite3_stmt *q, int col, char *out, size_t len);

/* "512 MB", "2 GB": a rotating static buffer, good for a few uses per printf. */
const char *report_size_label(long long mb);

#endif
