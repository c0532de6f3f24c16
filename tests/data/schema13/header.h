 *   tune export header --platform tiny -o FILE
 *
 * Select a platform with -DTUNED_PLATFORM=<NAME> (TINY; any other NAME is an
 * #error) or -DTUNED_PLATFORM_<NAME>; without either the first platform of the
 * target's architecture is used.
 * TUNED_CHASE_PREFETCH_HINT is a CHASE_HINT_* value of kernels/chase/chase.h:
 * #define CHASE_HINT TUNED_CHASE_PREFETCH_HINT before including it.
 */
#ifndef TUNED_CONFIG_H
#define TUNED_CONFIG_H

#define TUNED_TUNE_VERSION "0.1.0"

#define TUNED_CAT_(a, b) a##b
#define TUNED_CAT(a, b) TUNED_CAT_(a, b)
#define TUNED_PLATFORM_NUMBER_TINY 1
#if defined(TUNED_PLATFORM) && TUNED_CAT(TUNED_PLATFORM_NUMBER_, TUNED_PLATFORM) == 0
#error "tuned_config.h: TUNED_PLATFORM names none of this header's platforms (TINY); regenerate it with tune export header --platform NAME"
#endif
#if defined(TUNED_PLATFORM_TINY) || (defined(TUNED_PLATFORM) && TUNED_CAT(TUNED_PLATFORM_NUMBER_, TUNED_PLATFORM) == 1)
#define TUNED_SELECTED_TINY 1
#elif defined(__x86_64__) /* fallback for x86_64 */
#define TUNED_SELECTED_TINY 1
#endif

#if defined(TUNED_SELECTED_TINY)
#define TUNED_PLATFORM_NAME "tiny"
#define TUNED_HOST "vm"
#define TUNED_HOST_FINGERPRINT "134bd8ad2f66a61c"
#define TUNED_DECIDED_AT "2026-12-06T10:13:29Z"

/* 4 MB (cache): interleaved-prefetch pldl1keep, g=59 (fastest g=59), median 7.7 ns/lookup [7.5, 8.5],
 * decided on host vm at 2026-12-06T10:13:27Z by tune 0.1.0 */
/* against the runner-up (interleaved-prefetch pldl1keep g=56): tie, the intervals hold no difference, run by run */
#define TUNED_CHASE_VARIANT 3 /* interleaved-prefetch */
#define TUNED_CHASE_GROUP_SIZE 59
#define TUNED_CHASE_PREFETCH_HINT 0 /* pldl1keep: prfm pldl1keep on AArch64, prefetcht0 on x86-64 */
#define TUNED_CHASE_PREFETCH_HINT_NAME "pldl1keep"
#define TUNED_CHASE_HUGEPAGES 0

/* Per working set:
 *        4 MB cache interleaved-prefetch pldl1keep g=59, median 7.7 ns/lookup [7.5, 8.5], 37 trials, 2026-12-06T10:13:27Z
 */
#define TUNED_CHASE_TABLE_LEN 1
#define TUNED_CHASE_TABLE_SIZES_MB { 4 }
#define TUNED_CHASE_TABLE_GROUP_SIZES { 59 }
#define TUNED_CHASE_TABLE_VARIANTS { 3 }
#define TUNED_CHASE_TABLE_HINTS { 0 }
#define TUNED_CHASE_TABLE_HUGEPAGES { 0 }

/* IPA: poll for a call predicted to take less than this, block otherwise.
 * Median 18895.9 ns per call [18749.9, 19333.8], decided at 2026-12-06T10:13:27Z;
 * this host's wake-up cost: 24218 ns across CPUs, 1267 ns on one CPU */
#define TUNED_IPA_POLL_THRESHOLD_NS 32000ull
#define TUNED_IPA_WAKEUP_NS 24218

/* Scheduler: the policy chosen at most of the 4 measured (speedup, apps) points; values are TUNED_SCHED_CO..TUNED_SCHED_EFT
 * (the order of kernels/sched/sched.h). Per point: */
/*   1x, 1 apps (cpu-like/single): eft inline, median 13854.6 ns per task [13850.9, 13858.3], decided at 2026-12-06T10:13:29Z */
/*   1x, 3 apps (cpu-like/many): ao inline, median 13482.4 ns per task [13369.7, 13595.1], decided at 2026-12-06T10:13:29Z */
/*   50x, 1 apps (fast/single): fuse inline, median 847.6 ns per task [843.6, 851.7], decided at 2026-12-06T10:13:29Z */
/*   50x, 3 apps (fast/many): ao inline, median 1390.9 ns per task [1388.7, 1393.1], decided at 2026-12-06T10:13:29Z */
#define TUNED_SCHED_POLICY 1 /* ao */
#define TUNED_SCHED_POLICY_NAME "ao"
#define TUNED_SCHED_DISPATCH_INLINE 1
#define TUNED_SCHED_TABLE_LEN 4
#define TUNED_SCHED_TABLE_SPEEDUPS { 1, 1, 50, 50 }
#define TUNED_SCHED_TABLE_APPS { 1, 3, 1, 3 }
#define TUNED_SCHED_TABLE_POLICIES { 4, 1, 2, 1 }
#endif

#if defined(TUNED_CHASE_GROUP_SIZE)
/* The row of the tuning table for a working set of bytes: the smallest tuned
 * size that holds it, else the largest. */
static inline unsigned tuned_chase_row_for(unsigned long long bytes)
{
	static const unsigned long long sizes_mb[] = TUNED_CHASE_TABLE_SIZES_MB;
	unsigned i;

	for (i = 0; i + 1 < TUNED_CHASE_TABLE_LEN; i++)
		if (bytes <= sizes_mb[i] << 20)
			break;
	return i;
}

/* The tuned g, variant (CHASE_VARIANT_*), prefetch hint (CHASE_HINT_*, -1: none)
 * and huge pages for a working set of bytes, all from the same row. */
static inline unsigned tuned_chase_group_size_for(unsigned long long bytes)
{
	static const unsigned groups[] = TUNED_CHASE_TABLE_GROUP_SIZES;

	return groups[tuned_chase_row_for(bytes)];
}

static inline int tuned_chase_variant_for(unsigned long long bytes)
{
	static const int variants[] = TUNED_CHASE_TABLE_VARIANTS;

	return variants[tuned_chase_row_for(bytes)];
}

static inline int tuned_chase_hint_for(unsigned long long bytes)
{
	static const int hints[] = TUNED_CHASE_TABLE_HINTS;

	return hints[tuned_chase_row_for(bytes)];
}

static inline int tuned_chase_hugepages_for(unsigned long long bytes)
{
	static const int pages[] = TUNED_CHASE_TABLE_HUGEPAGES;

	return pages[tuned_chase_row_for(bytes)];
}
#endif

#if defined(TUNED_SCHED_POLICY)
#define TUNED_SCHED_CO 0
#define TUNED_SCHED_AO 1
#define TUNED_SCHED_FUSE 2
#define TUNED_SCHED_RANDOM 3
#define TUNED_SCHED_EFT 4

/* The policy measured best at the nearest (speedup, apps) point, nearest on
 * log scales: the speedup first, then the apps. */
static inline int tuned_sched_policy_for(unsigned speedup, unsigned apps)
{
	static const unsigned speedups[] = TUNED_SCHED_TABLE_SPEEDUPS;
	static const unsigned app_counts[] = TUNED_SCHED_TABLE_APPS;
	static const int policies[] = TUNED_SCHED_TABLE_POLICIES;
	unsigned i, best = 0;
	double best_d = -1.0;

	for (i = 0; i < TUNED_SCHED_TABLE_LEN; i++) {
		double ds = (double)(speedups[i] > speedup ? speedups[i] * 1.0 / (speedup ? speedup : 1)
						       : speedup * 1.0 / speedups[i]);
		double da = (double)(app_counts[i] > apps ? app_counts[i] * 1.0 / (apps ? apps : 1)
						       : apps * 1.0 / app_counts[i]);
		double d = ds * 1000.0 + da;

		if (best_d < 0 || d < best_d) {
			best = i;
			best_d = d;
		}
	}
	return policies[best];
}
#endif

#endif /* TUNED_CONFIG_H */
