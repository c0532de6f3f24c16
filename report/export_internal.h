/* export_internal: the optima of each platform as the exports read them
 * (export_load.c), shared by the C header (export.c) and the JSON
 * (export_json.c). */
#ifndef REPORT_EXPORT_INTERNAL_H
#define REPORT_EXPORT_INTERNAL_H

#include <sqlite3.h>
#include <stddef.h>

#include "../tuner/base/errors.h"

struct optimum_row {
	long long size_mb, group_size, best_group_size, trials;
	int hugepages;
	double median, ci_low, ci_high;
	char size_class[16], variant[32], hint[16], decided[32], runner_up[512];
};

/* The IPA optimum: the polling threshold and what it was measured against. */
struct ipa_optimum {
	int found;
	long long threshold_ns; /* LLONG_MAX: always poll */
	double median, ci_low, ci_high, wakeup_cross_ns, wakeup_same_ns; /* wake-ups < 0: not measured */
	char decided[32];
};

/* A sched optimum: the policy and dispatch that finished first at a point. */
struct sched_row {
	long long speedup, apps;
	double median, ci_low, ci_high; /* ns per task */
	char policy[16], dispatch[16], size_class[32], decided[32];
};

struct platform_optima {
	const char *name; /* borrowed from the caller's list: whole, whatever its length */
	char arch[16], host[256], fingerprint[32], decided[32];
	struct optimum_row *rows; /* chase, by working set */
	size_t n;
	struct ipa_optimum ipa;
	struct sched_row *sched; /* by speedup, then apps */
	size_t nsched;
	size_t nkernels;         /* optima of kernels described by their manifest alone */
};

/* The optima of platform (current fingerprint, the host that decided last);
 * TUNE_ERR_USAGE when it has none. Free po->rows and po->sched. */
int export_load(sqlite3 *db, const char *platform, struct platform_optima *po, struct tune_error *err);
/* The same for n platforms into *out; free with export_free_all(). */
int export_load_all(sqlite3 *db, const char *const *platforms, size_t n, struct platform_optima **out,
		    struct tune_error *err);
void export_free_all(struct platform_optima *po, size_t n);
/* The chase optimum production code uses by default: the largest working
 * set out of cache. */
const struct optimum_row *export_primary(const struct platform_optima *po);
/* The sched policy chosen at most points, or NULL. */
const struct sched_row *export_sched_primary(const struct platform_optima *po);
/* Now, UTC, ISO 8601. */
void export_now_utc(char *out, size_t len);

#endif
