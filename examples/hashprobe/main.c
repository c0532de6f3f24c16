/* hashprobe's benchmark on tune's kernel SDK (tune_kernel.h): the SDK takes
 * the flags, the list of g, runs and timing; this file gives the table and
 * one run. HASHPROBE_VARIANT (0 scalar, 1 interleaved) and HASHPROBE_HINT
 * (HP_HINT_*) come from the compiler. */
#include "tune_kernel.h"

#include "hashprobe.h"

#ifndef HASHPROBE_VARIANT
#define HASHPROBE_VARIANT 1
#endif
#ifndef HASHPROBE_HINT
#define HASHPROBE_HINT HP_HINT_T0
#endif

static uint64_t size_mb = 64, queries = 200000, *keys;
static struct tk_list g = TK_LIST(16);

static int setup(void *table, const struct tk_options *o, char *err, size_t len)
{
	if (hp_build(table, (size_t)size_mb << 20, o->seed) != 0 || !(keys = malloc(queries * sizeof(*keys))))
		return snprintf(err, len, "out of memory for %llu MiB", (unsigned long long)size_mb), TK_EXIT_CANNOT;
	hp_queries(table, keys, queries, o->seed);
	return 0;
}

static int run(void *table, struct tk_run *r)
{
	r->checksum = HASHPROBE_VARIANT ? hp_probe_hint(table, keys, queries, (unsigned)r->value, HASHPROBE_HINT)
					: hp_probe_scalar(table, keys, queries);
	return 0;
}

int main(int argc, char **argv)
{
	struct tk_flag flags[] = {
		TK_U64_FLAG("size-mb", &size_mb, 1, 1 << 20, "the table in MiB"),
		TK_U64_FLAG("queries", &queries, 1, 1000000000, "probes per run"),
		TK_LIST_FLAG("g", &g, 1, HP_MAX_GROUP, "probes in flight (the interleaved variant)"),
		TK_END_FLAG,
	};
	struct hp_table table;
	struct tk_kernel k = { .name = "hashprobe", .flags = flags, .list = "g", .metric = "ns_per_probe",
			       .per = &queries, .setup = setup, .run = run, .data = &table };

	return tk_main(&k, argc, argv);
}
