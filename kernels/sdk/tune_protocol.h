/* tune_protocol.h: what a tune kernel and the tuner agree on, in one place.
 * The tuner includes it to run kernels and read their lines; the kernel SDK
 * (tune_kernel.h) includes it to speak that way. `tune help protocol` says
 * it in prose. Header-only C11 (and C++), no allocation.
 *
 * A kernel is a program. tune starts it as
 *
 *   kernel --runs R --warmup W --seed S [--<param> VALUE]... [--<list> V1,V2,...]
 *
 * and reads its standard output: one JSON object per line, per run and per
 * value of the list (the values interleaved run by run, V1 V2 V3 V1 V2 V3,
 * each run starting one value later, so that drift hits all alike). W
 * warm-up runs come first, then R measured ones; "run" counts each apart
 * from 0. A line holds at least
 *
 *   {"<list>":V,"run":N,"warmup":false,"<metric>":X,"<checksum>":C}
 *
 * with the names the kernel's manifest gives (kernel.yaml: the list
 * parameter's name, metric.field, correctness), and may hold more (the
 * manifest's metric.total, metric.rate, "cpu", the kernel's own fields,
 * which its views may read). A kernel exits 0 after its last line, 2 on a
 * bad flag (saying which on standard error), another non-zero code when it
 * cannot measure. Every list value in every run, or the batch fails. */
#ifndef TUNE_PROTOCOL_H
#define TUNE_PROTOCOL_H

#include <stdint.h>
#include <time.h>

/* Bumped when a kernel of one version cannot serve a tuner of another. */
#define TK_PROTOCOL_VERSION 1

/* The flags every kernel takes, and their ranges. */
#define TK_FLAG_RUNS "--runs"
#define TK_FLAG_WARMUP "--warmup"
#define TK_FLAG_SEED "--seed"
#define TK_RUNS_MAX 100000
#define TK_WARMUP_MAX 1000
/* The most values a list flag carries (one kernel process measures them). */
#define TK_LIST_MAX 64

/* The fields every line has beside the kernel's. */
#define TK_FIELD_RUN "run"
#define TK_FIELD_WARMUP "warmup"
#define TK_FIELD_CPU "cpu"

/* Exit codes. */
enum { TK_EXIT_OK = 0, TK_EXIT_CANNOT = 1, TK_EXIT_USAGE = 2 };

/* The monotonic clock, in nanoseconds and in seconds. */
static inline uint64_t tk_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline double tk_now_s(void)
{
	return (double)tk_now_ns() / 1e9;
}

/* splitmix64: small, fast and seedable. The same seed gives the same stream
 * on every host, so kernels' checksums compare across machines and a
 * resumed or replayed search draws what it drew. */
struct tk_rng {
	uint64_t state;
};

static inline uint64_t tk_rng_next(struct tk_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) for n <= 2^32 (Lemire's multiply-shift, bias < 2^-32). */
static inline uint64_t tk_rng_below(struct tk_rng *r, uint64_t n)
{
	return ((tk_rng_next(r) >> 32) * n) >> 32;
}

#endif
