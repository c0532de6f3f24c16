/* chase benchmark: builds one random cycle, then measures the variant chosen
 * at compile time (-DCHASE_VARIANT, -DCHASE_HINT) for every group size given,
 * in interleaved order (g1 g2 g3 g1 g2 g3 ...), one JSON object per run.
 *
 * Exit codes: 0 measured, 1 could not allocate or pin, 2 bad flags. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/flags.h"
#include "../common/pin.h"
#include "../common/timing.h"
#include "chase.h"
#include "limits.h"

#ifndef CHASE_VARIANT
#define CHASE_VARIANT CHASE_VARIANT_INTERLEAVED_PREFETCH
#endif

#define CHASE_IS_INTERLEAVED (CHASE_VARIANT == CHASE_VARIANT_INTERLEAVED || \
			      CHASE_VARIANT == CHASE_VARIANT_INTERLEAVED_PREFETCH)
#define CHASE_USES_PREFETCH (CHASE_VARIANT == CHASE_VARIANT_SCALAR_PREFETCH || \
			     CHASE_VARIANT == CHASE_VARIANT_INTERLEAVED_PREFETCH)

#define NO_CPU UINT64_MAX

struct chase_options {
	uint64_t size_mb, depth, queries, runs, warmup, seed, cpu;
	int hugepages, limits;
	struct flag_list groups;
};

static void chase_options_init(struct chase_options *o, struct flag_spec *specs)
{
	const struct flag_spec table[] = {
		{ "size-mb", FLAG_U64, &o->size_mb, 1, 1u << 20, "working set in MiB", NULL },
		{ "depth", FLAG_U64, &o->depth, 0, 4096, "links followed per lookup", NULL },
		{ "queries", FLAG_U64, &o->queries, 1, 10000000000ull, "lookups per run", NULL },
		{ "runs", FLAG_U64, &o->runs, 1, 100000, "measured runs per group size", NULL },
		{ "warmup", FLAG_U64, &o->warmup, 0, 1000, "warm-up runs per group size (reported, flagged)", NULL },
		{ "seed", FLAG_U64, &o->seed, 0, UINT64_MAX, "seed of the cycle and of the queries", NULL },
		{ "cpu", FLAG_U64, &o->cpu, 0, CPU_SETSIZE - 1, "CPU to pin to (default: not pinned)", NULL },
		{ "hugepages", FLAG_BOOL, &o->hugepages, 0, 1, "ask for transparent huge pages (madvise)", NULL },
		{ "group-size", FLAG_U64_LIST, &o->groups, 0, CHASE_MAX_GROUP, "lookups in flight (interleaved variants; 0: the scalar chase, beside them)", NULL },
		{ "limits", FLAG_BOOL, &o->limits, 0, 1, "measure this host's limits on the working set instead: one dependent hop and the prefetched ceiling per line (limits.h)", NULL },
		{ NULL, FLAG_U64, NULL, 0, 0, NULL, NULL },
	};

	memset(o, 0, sizeof(*o));
	o->size_mb = 64;
	o->depth = 12;
	o->queries = 500000;
	o->runs = 5;
	o->warmup = 2;
	o->seed = 42;
	o->cpu = NO_CPU;
	o->groups.v[0] = 8;
	o->groups.n = 1;
	memcpy(specs, table, sizeof(table));
}

int main(int argc, char **argv)
{
	struct flag_spec specs[11];
	struct chase_options o;
	struct chase_graph graph = { 0 };
	struct chase_slot *slots = NULL;
	char err[256];
	int rc = 1, cpu = -1;
	size_t ngroups;

	chase_options_init(&o, specs);
	switch (flags_parse(specs, argc, argv, err, sizeof(err))) {
	case FLAGS_HELP:
		flags_usage(stdout, "chase", specs);
		printf("\nvariant %s, hint %s (compile-time)\n", chase_variant_names[CHASE_VARIANT],
		       CHASE_USES_PREFETCH ? chase_hint_names[CHASE_HINT] : "none");
		return 0;
	case FLAGS_ERROR:
		fprintf(stderr, "chase: %s\n", err);
		return 2;
	}
	ngroups = CHASE_IS_INTERLEAVED ? o.groups.n : 1;

	if (o.cpu != NO_CPU && pin_to_cpu((int)o.cpu) != 0) {
		fprintf(stderr, "chase: cannot pin to CPU %" PRIu64 ": %s (pick one from the allowed set)\n",
			o.cpu, strerror(errno));
		goto out;
	}
	if (chase_graph_alloc(&graph, o.size_mb << 20, o.hugepages) != 0) {
		fprintf(stderr, "chase: cannot map %" PRIu64 " MiB: %s (use a smaller --size-mb)\n",
			o.size_mb, strerror(errno));
		goto out;
	}
	if (o.limits) {
		struct chase_limits l = { 0 };
		uint64_t sink = 0;

		if (chase_limits_measure(&graph, (unsigned)o.depth, o.seed, &l, &sink) != 0) {
			fprintf(stderr, "chase: out of memory\n");
			goto out;
		}
		printf("{\"kernel\":\"chase\",\"probe\":\"limits\",\"size_mb\":%" PRIu64 ",\"hugepages\":%s,\"lines\":%zu"
		       ",\"hop_ns\":%.3f,\"line_ns\":%.3f,\"ahead\":%u,\"llc_mb\":%.1f,\"step_ns\":%.3f"
		       ",\"g_low\":%.1f,\"g_high\":%.1f,\"sink\":%u,\"cpu\":%d}\n",
		       o.size_mb, o.hugepages ? "true" : "false", l.lines, l.hop_ns, l.line_ns, l.ahead, l.llc_mb,
		       l.step_ns, l.g_low, l.g_high,
		       (unsigned)(sink & 0xffff), /* what was read, cut to fit any JSON reader's integers */
		       pin_current_cpu());
		rc = 0;
		goto out;
	}
	slots = calloc(CHASE_MAX_GROUP, sizeof(*slots));
	if (!slots) {
		fprintf(stderr, "chase: out of memory\n");
		goto out;
	}
	chase_graph_link(&graph, o.seed);

	struct chase_queries q = { o.queries, (unsigned)o.depth, o.seed };

	for (uint64_t run = 0; run < o.warmup + o.runs; run++) {
		int warm = run < o.warmup;

		/* Rotate the start so no group size always runs first. */
		for (size_t k = 0; k < ngroups; k++) {
			unsigned group = CHASE_IS_INTERLEAVED ? (unsigned)o.groups.v[(k + run) % ngroups] : 1;
			uint64_t t0 = timing_now_ns();
			uint64_t sum = chase_run(CHASE_VARIANT, &graph, &q, group, slots);
			uint64_t ns = timing_now_ns() - t0;
			double lookups = (double)o.queries;

			cpu = pin_current_cpu();
			printf("{\"kernel\":\"chase\",\"variant\":\"%s\",\"hint\":\"%s\",\"size_mb\":%" PRIu64
			       ",\"nodes\":%zu,\"depth\":%" PRIu64 ",\"queries\":%" PRIu64 ",\"group_size\":%u"
			       ",\"hugepages\":%s,\"seed\":%" PRIu64 ",\"run\":%" PRIu64 ",\"warmup\":%s"
			       ",\"ns_total\":%" PRIu64 ",\"ns_per_lookup\":%.4f,\"lookups_per_sec\":%.1f"
			       ",\"checksum\":%" PRIu64 ",\"cpu\":%d}\n",
			       chase_variant_names[CHASE_VARIANT],
			       CHASE_USES_PREFETCH ? chase_hint_names[CHASE_HINT] : "none", o.size_mb,
			       graph.count, o.depth, o.queries, group, o.hugepages ? "true" : "false", o.seed,
			       warm ? run : run - o.warmup, warm ? "true" : "false", ns, (double)ns / lookups,
			       lookups * 1e9 / (double)(ns ? ns : 1), sum, cpu);
			fflush(stdout);
		}
	}
	rc = 0;
out:
	free(slots);
	chase_graph_free(&graph);
	return rc;
}
