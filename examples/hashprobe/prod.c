/* A production program that uses what tune found for the hash probe: it
 * includes the generated tuned_config.h and hashprobe.h, probes with the
 * variant, g and hint tuned for its table size, and times that against the
 * scalar loop side by side (scalar, tuned, scalar, tuned, ...), so that the
 * speedup is a ratio measured in one process. Build (see Makefile):
 *
 *   tune --platform examples/hashprobe/platform.yaml
 *   tune export header --platform hashprobe-local -o examples/hashprobe/tuned_config.h
 *   make -C examples/hashprobe && examples/hashprobe/prod 256
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hashprobe.h"
#include "tuned_config.h"

#define PAIRS 7

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* One probe per row the header tuned (TUNED_HASHPROBE_TABLE: its size,
 * variant, hint and g), each a constant the compiler specialises on, as a
 * prefetch hint must be; probes[] in the table's order, so that the row
 * tuned_hashprobe_row_for() picks is the probe to call. */
#define PROBE_ROW(mb, variant, hint, g) \
	static uint64_t probe_##mb(const struct hp_table *t, const uint64_t *keys, size_t nq) \
	{ return (variant) == 1 ? hp_probe_hint(t, keys, nq, (unsigned)(g), (int)(hint)) : hp_probe_scalar(t, keys, nq); }
TUNED_HASHPROBE_TABLE(PROBE_ROW)
#define PROBE_FN(mb, variant, hint, g) probe_##mb,
static uint64_t (*const probes[])(const struct hp_table *, const uint64_t *, size_t) = {
	TUNED_HASHPROBE_TABLE(PROBE_FN)
};

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long long size_mb = argc > 1 ? strtoll(argv[1], NULL, 10) : 256;
	size_t nq = 200000;
	struct hp_table t;
	uint64_t *keys = malloc(nq * sizeof(*keys)), plain = 0, tuned = 0;
	long long variant = tuned_hashprobe_variant_for(size_mb), g = tuned_hashprobe_g_for(size_mb);
	long long hint = tuned_hashprobe_hint_for(size_mb);
	double ratio[PAIRS], scalar_ns[PAIRS], tuned_ns[PAIRS];

	if (!keys || size_mb <= 0 || hp_build(&t, (size_t)size_mb << 20, 42) != 0) {
		fprintf(stderr, "prod: cannot set up %lld MiB\n", size_mb);
		return 1;
	}
	hp_queries(&t, keys, nq, 42);
	for (int i = 0; i < PAIRS; i++) {
		double t0 = now_ns(), t1, t2;

		plain = hp_probe_scalar(&t, keys, nq);
		t1 = now_ns();
		/* The tuned choice, specialised for its row. */
		tuned = probes[tuned_hashprobe_row_for(size_mb)](&t, keys, nq);
		t2 = now_ns();
		scalar_ns[i] = (t1 - t0) / (double)nq;
		tuned_ns[i] = (t2 - t1) / (double)nq;
		ratio[i] = scalar_ns[i] / tuned_ns[i];
	}
	qsort(ratio, PAIRS, sizeof(double), by_value);
	qsort(scalar_ns, PAIRS, sizeof(double), by_value);
	qsort(tuned_ns, PAIRS, sizeof(double), by_value);
	printf("hashprobe on %s, %lld MiB: scalar %.1f ns/probe, tuned (%s, g=%lld, hint %lld) %.1f ns/probe: "
	       "%.2fx [%.2f, %.2f] over %d pairs; checksum %s\n", TUNED_PLATFORM_NAME, size_mb, scalar_ns[PAIRS / 2],
	       variant == 1 ? "interleaved" : "scalar", g, hint, tuned_ns[PAIRS / 2], ratio[PAIRS / 2], ratio[0],
	       ratio[PAIRS - 1], PAIRS, plain == tuned ? "ok" : "MISMATCH");
	free(keys);
	hp_free(&t);
	return plain == tuned ? 0 : 1;
}
