/* hashprobe's benchmark: the protocol of a tune kernel (see tune's
 * tuner/config/manifest.h). It takes --runs, --warmup, --seed, --size-mb,
 * --queries and --g (a list, measured interleaved: A B C A B C), and prints
 * one JSON line per run and g. HASHPROBE_VARIANT (0 scalar, 1 interleaved)
 * and HASHPROBE_HINT (HP_HINT_*) come from the compiler. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hashprobe.h"

#ifndef HASHPROBE_VARIANT
#define HASHPROBE_VARIANT 1
#endif
#ifndef HASHPROBE_HINT
#define HASHPROBE_HINT HP_HINT_T0
#endif

static double now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int number(const char *flag, const char *text, unsigned long long max, unsigned long long *out)
{
	char *end = NULL;

	errno = 0;
	*out = strtoull(text, &end, 10);
	if (!*text || *end || errno || *out > max) {
		fprintf(stderr, "hashprobe: %s '%s' is not a number up to %llu\n", flag, text, max);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long runs = 5, warmup = 1, seed = 42, size_mb = 64, queries = 200000, g[64];
	size_t ng = 0;
	struct hp_table t;
	uint64_t *keys;

	for (int i = 1; i < argc; i += 2) {
		const char *f = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int bad = !v;

		if (!bad && !strcmp(f, "--runs"))
			bad = number(f, v, 100000, &runs);
		else if (!bad && !strcmp(f, "--warmup"))
			bad = number(f, v, 1000, &warmup);
		else if (!bad && !strcmp(f, "--seed"))
			bad = number(f, v, ~0ull, &seed);
		else if (!bad && !strcmp(f, "--size-mb"))
			bad = number(f, v, 1 << 20, &size_mb);
		else if (!bad && !strcmp(f, "--queries"))
			bad = number(f, v, 1000000000, &queries);
		else if (!bad && !strcmp(f, "--g")) {
			char item[32];

			for (const char *p = v; *p && !bad; p += *p == ',') {
				size_t n = strcspn(p, ",");

				snprintf(item, sizeof(item), "%.*s", (int)(n < 31 ? n : 31), p);
				bad = ng == 64 || number(f, item, HP_MAX_GROUP, &g[ng]) || !g[ng];
				ng++;
				p += n;
			}
		} else {
			fprintf(stderr, "usage: hashprobe --runs N --warmup N --seed N --size-mb N --queries N --g G,G,...\n");
			return 2;
		}
		if (bad)
			return 2;
	}
	if (!ng)
		g[ng++] = 1;
	if (hp_build(&t, (size_t)size_mb << 20, seed) != 0 || !(keys = malloc(queries * sizeof(*keys)))) {
		fprintf(stderr, "hashprobe: out of memory for %llu MB\n", size_mb);
		return 1;
	}
	hp_queries(&t, keys, queries, seed);
	for (unsigned long long r = 0; r < warmup + runs; r++)
		for (size_t k = 0; k < ng; k++) {
			size_t i = (k + r) % ng; /* rotated, so that no g is always first */
			double t0 = now_ns();
			uint64_t sum = HASHPROBE_VARIANT ? hp_probe_hint(&t, keys, queries, (unsigned)g[i], HASHPROBE_HINT)
							 : hp_probe_scalar(&t, keys, queries);
			double ns = now_ns() - t0;

			if (HASHPROBE_VARIANT)
				printf("{\"g\":%llu,", g[i]);
			else
				printf("{");
			printf("\"run\":%llu,\"warmup\":%s,\"ns_per_probe\":%.3f,\"checksum\":%llu}\n", r,
			       r < warmup ? "true" : "false", ns / (double)queries, (unsigned long long)sum);
		}
	free(keys);
	hp_free(&t);
	return 0;
}
