/* Binary searches of a sorted table: one at a time (scalar), or g in flight
 * (prefetch), each step prefetching the key its next step reads, so that g
 * misses overlap. The user's edit of `tune kernel new`'s main.c in
 * tests/e2e/kernel_new.sh: the same flags, the kernel functions replaced. */
#include "tune_kernel.h"

#ifndef KERNEL_VARIANT
#define KERNEL_VARIANT 1
#endif

static uint64_t size_mb = 64, reads = 200000, n, *keys, *wanted;
static struct tk_list g = TK_LIST(8);

/* The kernel functions: a search returns the last index whose key is at
 * most the one wanted; both walk the same steps, so they agree. */
static uint64_t search_one(uint64_t key)
{
	uint64_t lo = 0;

	for (uint64_t len = n, half; len > 1; len -= half) {
		half = len / 2;
		lo = keys[lo + half] <= key ? lo + half : lo;
	}
	return lo;
}

static uint64_t search_many(const uint64_t *want, uint64_t m)
{
	uint64_t lo[1024] = { 0 }, sum = 0;

	for (uint64_t len = n, half; len > 1; len -= half) {
		half = len / 2;
		for (uint64_t i = 0; i < m; i++) {
			lo[i] = keys[lo[i] + half] <= want[i] ? lo[i] + half : lo[i];
			__builtin_prefetch(&keys[lo[i] + (len - half) / 2]);
		}
	}
	for (uint64_t i = 0; i < m; i++)
		sum += lo[i];
	return sum;
}

/* What the SDK asks for: the data, and one run of one g. */
static int setup(void *data, const struct tk_options *o, char *err, size_t len)
{
	struct tk_rng rng = { o->seed };

	(void)data;
	n = (size_mb << 20) / sizeof(*keys);
	if (!(keys = malloc(n * sizeof(*keys))) || !(wanted = malloc(reads * sizeof(*wanted))))
		return snprintf(err, len, "out of memory for %llu MiB", (unsigned long long)size_mb), TK_EXIT_CANNOT;
	for (uint64_t i = 0, k = 0; i < n; i++)
		keys[i] = k += 1 + tk_rng_below(&rng, 8);
	for (uint64_t i = 0; i < reads; i++)
		wanted[i] = tk_rng_below(&rng, (uint32_t)(keys[n - 1] < UINT32_MAX ? keys[n - 1] : UINT32_MAX));
	return 0;
}

static int run(void *data, struct tk_run *r)
{
	(void)data;
	for (uint64_t i = 0; i < reads; i += KERNEL_VARIANT ? r->value : 1)
		r->checksum += KERNEL_VARIANT ? search_many(wanted + i, reads - i < r->value ? reads - i : r->value)
					  : search_one(wanted[i]);
	return 0;
}

int main(int argc, char **argv)
{
	struct tk_flag flags[] = {
		TK_U64_FLAG("size-mb", &size_mb, 1, 1 << 20, "the table in MiB"),
		TK_U64_FLAG("reads", &reads, 1, 1000000000, "searches per run"),
		TK_LIST_FLAG("g", &g, 1, 1024, "searches in flight"),
		TK_END_FLAG,
	};
	struct tk_kernel k = { .name = "bsearch", .flags = flags, .list = "g", .metric = "ns_per_read", .per = &reads,
			       .setup = setup, .run = run };

	return tk_main(&k, argc, argv);
}
