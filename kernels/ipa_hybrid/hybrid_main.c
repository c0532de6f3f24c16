/* ipa_hybrid benchmark: the completion policies of the ipa kernel measured in
 * one process, interleaved run by run, so that each run's ratio of the tuned
 * hybrid to another policy is taken under the same drift. The policies:
 *   block   always block (IPA at T = 0)
 *   poll    always poll
 *   ipa     IPA at its own threshold (--ipa-threshold-ns: its tuned T)
 *   linux   Linux's hybrid polling: every call sleeps 1/2 of the predicted
 *           time, then polls (no threshold)
 *   half    the hybrid at --threshold-ns with Linux's 1/2
 *   hybrid  poll below --threshold-ns; above it sleep --hybrid-pct % of the
 *           predicted time, then poll
 * The workload and each run's line are ipa_bench.h's.
 *
 * Exit codes: 0 measured, 1 cannot pin or start threads, 2 bad flags,
 * 3 a completion was lost or delivered twice. */
#include "tune_kernel.h"

#include "../ipa/ipa_bench.h"

enum policy { P_BLOCK, P_POLL, P_IPA, P_LINUX, P_HALF, P_HYBRID };

static const char *const policy_names[] = { "block", "poll", "ipa", "linux", "half", "hybrid", NULL };

static struct ipa_options o = { .kernel = "ipa_hybrid", .threshold_ns = 16000, IPA_BENCH_DEFAULTS };
static struct tk_list policies = TK_LIST(P_HYBRID);
static uint64_t ipa_threshold_ns = 30000;

static int setup(void *data, const struct tk_options *opt, char *err, size_t len)
{
	(void)data;
	o.seed = opt->seed;
	return ipa_bench_check(&o, err, len);
}

/* A policy is a mode of ipa.h with its threshold and sleep fraction. */
static int run(void *data, struct tk_run *r)
{
	struct ipa_options p = o;

	(void)data;
	switch (r->value) {
	case P_BLOCK:
		p.mode = IPA_INTERRUPT;
		break;
	case P_POLL:
		p.mode = IPA_POLL;
		break;
	case P_IPA:
		p.mode = IPA_IPA;
		p.threshold_ns = ipa_threshold_ns;
		break;
	case P_LINUX:
		p.mode = IPA_HYBRID;
		p.threshold_ns = 0;
		p.hybrid_pct = 50;
		break;
	case P_HALF:
		p.mode = IPA_HYBRID;
		p.hybrid_pct = 50;
		break;
	default:
		p.mode = IPA_HYBRID;
	}
	return ipa_bench_run(&p, r);
}

int main(int argc, char **argv)
{
	struct tk_flag flags[] = {
		TK_CHOICES_FLAG("policy", &policies, policy_names, "completion policies; a list is measured interleaved"),
		TK_U64_FLAG("threshold-ns", &o.threshold_ns, 0, UINT64_MAX, "hybrid, half: poll below this predicted time"),
		TK_U64_FLAG("ipa-threshold-ns", &ipa_threshold_ns, 0, UINT64_MAX,
			    "ipa: poll below this predicted time, block above (its tuned T)"),
		IPA_BENCH_FLAGS(o),
		TK_END_FLAG,
	};
	struct tk_kernel k = { .name = "ipa_hybrid", .flags = flags, .list = "policy", .metric = "wall_ns",
			       .setup = setup, .run = run };

	return tk_main(&k, argc, argv);
}
