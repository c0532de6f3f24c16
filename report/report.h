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

#endif
