/* report: what the database holds, as amaco2-style tables and as amaco2's
 * CSV. Reads the store's views; writes to the stream it is given. */
#ifndef REPORT_REPORT_H
#define REPORT_REPORT_H

#include <sqlite3.h>
#include <stdio.h>

#include "../tuner/errors.h"

/* Summary, variant isolation and group-size tables for one platform (every
 * platform when NULL). *rows is the number of results shown. */
int report_tables(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err);

/* variant,workload_size_mb,depth,group_size,hint,run_id,ns_total,ns_per_lookup,lookups_per_sec,checksum
 * for the measured runs of the newest result of each configuration. */
int report_csv(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err);

/* The optima of the current fingerprint of each platform and host. */
int report_optima(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err);

/* Warnings stored with the sweeps of the current fingerprints. */
int report_warnings(sqlite3 *db, const char *platform, FILE *out, struct tune_error *err);

/* The tables, then the optima and the warnings: what `tune results` shows. */
int report_all(sqlite3 *db, const char *platform, FILE *out, size_t *rows, struct tune_error *err);

/* The optima of the platforms as a C header (one #if block each, selected by
 * TUNED_PLATFORM_<NAME>, with a fallback by architecture), or as JSON. */
int report_header(sqlite3 *db, const char *const *platforms, size_t n, FILE *out, struct tune_error *err);
int report_json(sqlite3 *db, const char *const *platforms, size_t n, FILE *out, struct tune_error *err);
/* When the newest optimum of platform's current fingerprint was decided. */
int report_header_newest(sqlite3 *db, const char *platform, char *decided, size_t len, struct tune_error *err);

/* "512 MB", "2 GB": a rotating static buffer, good for a few uses per printf. */
const char *report_size_label(long long mb);

#endif
