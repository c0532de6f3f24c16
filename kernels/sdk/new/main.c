/* @name@: a kernel for tune, on its kernel SDK (tune_kernel.h; tune help
 * protocol). The SDK takes the flags, the runs and warm-ups, the list of g,
 * the timing and the JSON lines; this file gives the data (setup) and one
 * run of one g (run). Replace the placeholder loop in run() with yours: it
 * must give the same checksum for every variant and every g, and its flags
 * must be the manifest's (kernel.yaml). KERNEL_VARIANT comes from the
 * compiler: 0 scalar, 1 prefetch. */
#include "tune_kernel.h"

#ifndef KERNEL_VARIANT
#define KERNEL_VARIANT 1
#endif

static uint64_t size_mb = 64, reads = 200000, slots, *table, *where;
static struct tk_list g = TK_LIST(8);

/* A table of random words, and the random slots each run reads. */
static int setup(void *data, const struct tk_options *o, char *err, size_t len)
{
	struct tk_rng rng = { o->seed };

	(void)data;
	slots = (size_mb << 20) / sizeof(*table);
	table = malloc(slots * sizeof(*table));
	where = malloc(reads * sizeof(*where));
	if (!table || !where)
		return snprintf(err, len, "out of memory for %llu MiB", (unsigned long long)size_mb), TK_EXIT_CANNOT;
	for (uint64_t i = 0; i < slots; i++)
		table[i] = tk_rng_next(&rng);
	for (uint64_t i = 0; i < reads; i++)
		where[i] = tk_rng_next(&rng) % slots;
	return 0;
}

/* The placeholder: sums the slots read; the prefetch variant asks for the
 * line g reads ahead, so that up to g misses overlap. */
static int run(void *data, struct tk_run *r)
{
	uint64_t sum = 0;

	(void)data;
	for (uint64_t i = 0; i < reads; i++) {
		if (KERNEL_VARIANT && i + r->value < reads)
			__builtin_prefetch(&table[where[i + r->value]]);
		sum += table[where[i]];
	}
	r->checksum = sum;
	return 0;
}

static void teardown(void *data)
{
	(void)data;
	free(table);
	free(where);
}

int main(int argc, char **argv)
{
	struct tk_flag flags[] = {
		TK_U64_FLAG("size-mb", &size_mb, 1, 1 << 20, "the table in MiB"),
		TK_U64_FLAG("reads", &reads, 1, 1000000000, "reads per run"),
		TK_LIST_FLAG("g", &g, 1, 1024, "reads in flight (the prefetch distance)"),
		TK_END_FLAG,
	};
	struct tk_kernel k = { .name = "@name@", .flags = flags, .list = "g", .metric = "ns_per_read", .per = &reads,
			       .setup = setup, .run = run, .teardown = teardown };

	return tk_main(&k, argc, argv);
}
