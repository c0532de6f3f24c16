/* export_internal: who decided a platform's optima, as the exports read it
 * (export_load.c), shared by the C header (export.c) and the JSON
 * (export_json.c). */
#ifndef REPORT_EXPORT_INTERNAL_H
#define REPORT_EXPORT_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

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

/* A kernel's lookup over its tables (header_lookup.c): tuned_<kl>_row_for()
 * of its keys, and tuned_<kl>_<function>_for() of each value table. Every
 * name is already a C identifier (escape_c_identifier), a table's after
 * TUNED_<K>_. */
#define HEADER_LOOKUP_MAX 32
struct header_lookup {
	const char *K, *kl; /* the kernel upper- and lower-case */
	int nearest;        /* 0: the first key at or above, the others equal; 1: the nearest by ratios */
	size_t nkeys, nvalues;
	/* cells: the table's elements as C integers, ", " between them (its
	 * text between the braces), for the table a row at a time; NULL: none. */
	struct {
		const char *table, *arg, *note; /* note: a comment after the argument, or NULL */
		long long scale;                /* the table's unit in the argument's */
		const char *cells;
	} keys[HEADER_LOOKUP_MAX];
	struct {
		const char *table, *function, *cells;
	} values[HEADER_LOOKUP_MAX];
};
void header_lookup_emit(FILE *out, const struct header_lookup *l);
/* A number as a C constant: the integer i when integer (-2^63 has no
 * literal of its own), else the shortest text that reads back as d. */
void header_c_number(double d, int integer, long long i, char *out, size_t len);

/* Kernel's header block of platform from its manifest alone, for a kernel
 * that declares none (export_kernels.c): TUNED_<KERNEL>_<PARAM> of the
 * last context decided, and per context a table and a lookup; *wrote 0
 * when it has no optima there. */
int export_kernel_header(FILE *out, sqlite3 *db, const char *platform, const char *kernel, int *wrote,
			 struct tune_error *err);
/* Kernel's block of platform as its view <kernel>_header declares it
 * (declared_header.c); *wrote 0 when the view has no row for platform. */
int declared_header(FILE *out, sqlite3 *db, const char *kernel, const char *platform, int *wrote,
		    struct tune_error *err);
/* Whether kernel declares the view <kernel><suffix> ("_header", "_json"). */
int declared_view_exists(sqlite3 *db, const char *kernel, const char *suffix);

#endif
