/* chase benchmark: builds one random cycle, then measures the variant chosen
 * at compile time (-DCHASE_VARIANT, -DCHASE_HINT) for every group size given,
 * in interleaved order (g1 g2 g3 g1 g2 g3 ...), one JSON object per run.
 *
 * Exit codes: 0 measured, 1 could not allocate or pin, 2 bad flags. */
#include "tune_kernel.h"

#include "chase.h"
#include "limits.h"

#ifndef CHASE_VARIANT
#define CHASE_VARIANT CHASE_VARIANT_INTERLEAVED_PREFETCH
#endif

#define CHASE_IS_INTERLEAVED (CHASE_VARIANT == CHASE_VARIANT_INTERLEAVED || \
			      CHASE_VARIANT == CHASE_VARIANT_INTERLEAVED_PREFETCH)
#define CHASE_USES_PREFETCH (CHASE_VARIANT == CHASE_VARIANT_SCALAR_PREFETCH || \
			     CHASE_VARIANT == CHASE_VARIANT_INTERLEAVED_PREFETCH)

static uint64_t size_mb = 64, depth = 12, queries = 500000;
static int hugepages, limits;
static struct tk_list groups = TK_LIST(8);
static struct chase_graph graph;
static struct chase_slot *slots;

/* This host's limits on the working set instead of runs (limits.h). */
static int measure_limits(const struct tk_options *o, char *err, size_t len)
{
	struct chase_limits l = { 0 };
	struct tk_line line = { .used = 0 };
	uint64_t sink = 0;

	if (chase_limits_measure(&graph, (unsigned)depth, o->seed, &l, &sink) != 0)
		return snprintf(err, len, "out of memory"), TK_EXIT_CANNOT;
	tk_put_str(&line, "kernel", "chase");
	tk_put_str(&line, "probe", "limits");
	tk_put_u64(&line, "size_mb", size_mb);
	tk_put_bool(&line, "hugepages", hugepages);
	tk_put_u64(&line, "lines", l.lines);
	tk_put_real(&line, "hop_ns", l.hop_ns, 3);
	tk_put_real(&line, "line_ns", l.line_ns, 3);
	tk_put_u64(&line, "ahead", l.ahead);
	tk_put_real(&line, "llc_mb", l.llc_mb, 1);
	tk_put_real(&line, "step_ns", l.step_ns, 3);
	tk_put_real(&line, "g_low", l.g_low, 1);
	tk_put_real(&line, "g_high", l.g_high, 1);
	tk_put_u64(&line, "sink", sink & 0xffff); /* what was read, cut to fit any JSON reader's integers */
	tk_put_i64(&line, "cpu", tk_cpu());
	return tk_line_print(&line, "chase") ? TK_EXIT_CANNOT : TK_DONE;
}

static int setup(void *data, const struct tk_options *o, char *err, size_t len)
{
	(void)data;
	if (chase_graph_alloc(&graph, size_mb << 20, hugepages) != 0)
		return snprintf(err, len, "cannot map %llu MiB: %s (use a smaller --size-mb)",
				(unsigned long long)size_mb, strerror(errno)), TK_EXIT_CANNOT;
	if (limits)
		return measure_limits(o, err, len);
	if (!(slots = calloc(CHASE_MAX_GROUP, sizeof(*slots))))
		return snprintf(err, len, "out of memory"), TK_EXIT_CANNOT;
	chase_graph_link(&graph, o->seed);
	return 0;
}

static int run(void *data, struct tk_run *r)
{
	struct chase_queries q = { queries, (unsigned)depth, r->options->seed };

	(void)data;
	r->checksum = chase_run(CHASE_VARIANT, &graph, &q, CHASE_IS_INTERLEAVED ? (unsigned)r->value : 1, slots);
	tk_put_str(&r->fields, "kernel", "chase");
	tk_put_str(&r->fields, "variant", chase_variant_names[CHASE_VARIANT]);
	tk_put_str(&r->fields, "hint", CHASE_USES_PREFETCH ? chase_hint_names[CHASE_HINT] : "none");
	tk_put_u64(&r->fields, "size_mb", size_mb);
	tk_put_u64(&r->fields, "nodes", graph.count);
	tk_put_u64(&r->fields, "depth", depth);
	tk_put_u64(&r->fields, "queries", queries);
	tk_put_bool(&r->fields, "hugepages", hugepages);
	tk_put_u64(&r->fields, "seed", r->options->seed);
	return 0;
}

static void teardown(void *data)
{
	(void)data;
	free(slots);
	chase_graph_free(&graph);
}

int main(int argc, char **argv)
{
	struct tk_flag flags[] = {
		TK_U64_FLAG("size-mb", &size_mb, 1, 1u << 20, "working set in MiB"),
		TK_U64_FLAG("depth", &depth, 0, 4096, "links followed per lookup"),
		TK_U64_FLAG("queries", &queries, 1, 10000000000ull, "lookups per run"),
		TK_BOOL_FLAG("hugepages", &hugepages, "ask for transparent huge pages (madvise)"),
		TK_LIST_FLAG("group-size", &groups, 0, CHASE_MAX_GROUP,
			     "lookups in flight (interleaved variants; 0: the scalar chase, beside them)"),
		TK_BOOL_FLAG("limits", &limits, "measure this host's limits on the working set instead: one dependent "
			     "hop and the prefetched ceiling per line (limits.h)"),
		TK_END_FLAG,
	};
	char about[128];
	struct tk_kernel k = { .name = "chase", .about = about, .flags = flags, .list = "group-size",
			       .metric = "ns_per_lookup", .per = &queries, .rate = "lookups_per_sec",
			       .setup = setup, .run = run, .teardown = teardown };

	snprintf(about, sizeof(about), "variant %s, hint %s (compile-time)", chase_variant_names[CHASE_VARIANT],
		 CHASE_USES_PREFETCH ? chase_hint_names[CHASE_HINT] : "none");
	return tk_main(&k, argc, argv);
}
