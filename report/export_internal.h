/* export_internal: who decided a platform's optima, as the exports read it
 * (export_load.c), shared by the C header (export.c) and the JSON
 * (export_json.c). */
#ifndef REPORT_EXPORT_INTERNAL_H
#define REPORT_EXPORT_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>

#include "../tuner/base/errors.h"

struct platform_optima {
	const char *name; /* borrowed from the caller's list: whole, whatever its length */
	char arch[16], host[256], fingerprint[32], decided[32];
};

/* The host, fingerprint and arch of platform's newest optimum of any
 * kernel (current fingerprints), and when it was decided; TUNE_ERR_USAGE
 * when the platform has none. */
int export_load(sqlite3 *db, const char *platform, struct platform_optima *po, struct tune_error *err);
/* The same for n platforms into *out; free() it. */
int export_load_all(sqlite3 *db, const char *const *platforms, size_t n, struct platform_optima **out,
		    struct tune_error *err);
/* Now, UTC, ISO 8601. */
void export_now_utc(char *out, size_t len);

#endif
