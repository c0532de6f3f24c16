/* Constraints between a kernel's parameters: what parses and what it
 * evaluates to on a trial's values, every bad constraint's message at its
 * file, line and column, and the plan: trials breaking one are never made,
 * each constraint's count, and a sweep (or platform) listing a value no
 * allowed combination takes, or no allowed combination at all, refused at
 * the value. Table-driven. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tuner/config/config.h"
#include "../../tuner/plan/plan.h"
#include "../../tuner/search/search.h"
#include "../check.h"

/* engine 0, block 1, tile 2 (variant b only), huge 3, g 4 (the list). */
static const char kernel[] =
	"name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a, b]\nbaseline: a\nmetric: { field: ns }\n"
	"variant_define: K_V\nparameters:\n"
	"  - { name: engine, type: choice, choices: [psync, libaio, io_uring], flag: --engine, role: context }\n"
	"  - { name: block, type: int, min: 1, max: 4096, default: 4, flag: --block, role: searched }\n"
	"  - { name: tile, type: int, min: 0, max: 64, flag: --tile, role: searched, variants: [b] }\n"
	"  - { name: huge, type: bool, flag: --huge }\n"
	"  - { name: g, type: int, min: 1, max: 256, flag: --g, role: list }\n";
#define CONSTRAINTS "constraints:\n  - engine != psync or g == 1\n  - \"tile == 0 or block % tile == 0\"\n" \
	"  - variant != b or block != 5\n"

#define NA PARAM_NA
static const struct {
	const char *text;
	long long v[5]; /* engine, block, tile, huge, g */
	int variant;
	int holds;
} evals[] = {
	{ "engine != psync or g == 1", { 0, 4, 0, 0, 4 }, 1, 0 },
	{ "engine != psync or g == 1", { 0, 4, 0, 0, 1 }, 1, 1 },
	{ "engine != psync or g == 1", { 1, 4, 0, 0, 4 }, 1, 1 },
	{ "engine == 'io_uring'", { 2, 4, NA, 0, 4 }, 0, 1 },
	{ "g <= block", { 0, 4, NA, 0, 8 }, 0, 0 },
	/* x % 0 has no value: it breaks the constraint, unless a guard is true first. */
	{ "block % tile == 0", { 0, 4, 0, 0, 1 }, 1, 0 },
	{ "tile == 0 or block % tile == 0", { 0, 4, 0, 0, 1 }, 1, 1 },
	{ "tile == 0 or block % tile == 0", { 0, 6, 4, 0, 1 }, 1, 0 },
	{ "block / (g - g) == 1", { 0, 6, 4, 0, 1 }, 1, 0 },
	/* A parameter the variant does not take: the constraint holds. */
	{ "tile > 1000", { 0, 4, NA, 0, 1 }, 0, 1 },
	{ "tile > 1000 or g > 1000", { 0, 4, NA, 0, 1 }, 0, 1 },
	{ "variant != a or huge", { 0, 4, NA, 0, 1 }, 0, 0 },
	{ "variant != a or huge", { 0, 4, NA, 1, 1 }, 0, 1 },
	{ "variant == b", { 0, 4, 1, 1, 1 }, 1, 1 },
	{ "huge == on", { 0, 4, NA, 1, 1 }, 0, 1 },
	{ "huge == off", { 0, 4, NA, 1, 1 }, 0, 0 },
	{ "not not huge", { 0, 4, NA, 1, 1 }, 0, 1 },
	{ "not huge and -g + 2 * block >= (block - 1) * 1", { 0, 3, NA, 0, 4 }, 0, 1 },
	{ "1 + 2 * 3 == 7 and 10 - 2 - 3 == 5 and 7 / 2 == 3 and -7 % 3 == -1", { 0, 3, NA, 0, 4 }, 0, 1 },
	{ "huge or g == 1 and block == 2", { 0, 3, NA, 1, 2 }, 0, 1 },
	{ "(huge or g == 1) and block == 2", { 0, 3, NA, 1, 2 }, 0, 0 },
	{ "block * 4611686018427387904 > 0", { 0, 3, NA, 1, 2 }, 0, 0 },
	{ "true", { 0, 3, NA, 1, 2 }, 0, 1 },
	{ "\tg<=block ", { 0, 3, NA, 1, 2 }, 0, 1 },
};

static const struct {
	const char *text;
	size_t where;
	const char *expect;
} bads[] = {
	{ "grp <= g", 0, "'grp' is not a parameter of kernel 'k'" },
	{ "g <= blok", 5, "'blok' is not a parameter of kernel 'k' (did you mean 'block'?)" },
	{ "engine == psinc", 10, "parameter 'engine': 'psinc' is not one of psync libaio io_uring (did you mean 'psync'?)" },
	{ "engine < 2", 0, "'<' takes numbers, and 'engine' is a choice" },
	{ "g + ", 4, "expected a number, a parameter or '(', got the end" },
	{ "(g == 1", 7, "expected ')' to close the '(' at column 1" },
	{ "g", 0, "a constraint takes conditions, and 'g' is a number" },
	{ "g == 1 g", 7, "expected and, or, an operator or the end, got 'g'" },
	{ "1 < g < 5", 6, "a comparison has two sides" },
	{ "g = 1", 2, "'=' is not an operator here" },
	{ "g == 1 && huge", 7, "'&' is not an operator here" },
	{ "variant == c", 11, "'c' is not a variant of kernel 'k'" },
	{ "huge == 1", 0, "'huge' and '1' are not of one kind (a condition and a number)" },
	{ "engine == block", 0, "are not of one kind (a choice and a number)" },
	{ "g == 99999999999999999999", 5, "is too large" },
	{ "g == 4k", 5, "'4k' is neither a number nor a name" },
	{ "g == 1 @", 7, "unexpected '@'" },
	{ "((((((((((((((((((((((((((((((((((g == 1))))))))))))))))))))))))))))))))))", 32, "nested deeper than 32" },
	{ "not g", 4, "'not' takes conditions, and 'g' is a number" },
	{ "huge == maybe", 8, "'huge' is a condition: compare it with on or off, not 'maybe'" },
	{ "engine == 'x y'", 10, "a quoted value is a choice's name" },
	{ "g == 'psync'", 5, "'g' is a number: 'psync' (quoted) is a choice's value" },
	{ "psync == libaio", 0, "'psync' is not a parameter of kernel 'k'" },
	{ "", 0, "expected a number, a parameter or '(', got the end" },
	{ "g + and", 4, "got 'and'" },
	{ "g ==\x01", 4, "unexpected byte \\x01" },
	/* A word before a quoted value is still a parameter; after a whole
	 * expression, what follows is what is wrong. */
	{ "block 'x'", 6, "expected and, or, an operator or the end, got 'x'" },
	{ "engine in [psync]", 7, "got 'in'" },
	{ "'x' + 1 == 2", 0, "'x' (quoted) is a choice's value: compare a choice with it (engine == 'x')" },
	{ "huge == 'on'", 8, "'huge' is a condition: compare it with on or off (unquoted), not 'on'" },
	{ "variant == engine", 0, "are not of one kind (choices of two parameters)" },
	{ "g == inf", 5, "inf is a value of a duration that takes it (inf: true)" },
	{ "g < 4kb", 4, "'4kb' is neither a number nor a name (a number is digits alone, a duration's in ns" },
};

static int decode(const char *yaml, struct kernel_manifest *m, struct tune_error *err)
{
	struct ydoc d;
	int rc = ydoc_parse("k.yaml", yaml, strlen(yaml), &d, err);

	if (rc == 0)
		rc = manifest_decode("k.yaml", d.root, "k", m, err);
	ydoc_free(&d);
	return rc;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Plans sweep text (params lines) against kernel k with the constraints;
 * 0 or the error in err. The caller frees s (and its manifest, which the
 * trials point into) after the plan. */
static int plan_of(const char *dir, const char *params, const char *platform, struct sweep *s, struct plan *pl,
		   struct tune_error *err)
{
	char path[300], text[2048];
	struct platform p;
	int rc;

	memset(&p, 0, sizeof(p));
	snprintf(path, sizeof(path), "%s/s.yaml", dir);
	snprintf(text, sizeof(text), "name: s\nkernel: k\nparams:\n%s", params);
	write_file(path, text);
	if ((rc = sweep_load(path, s, err)) == 0 && platform) {
		char ppath[300];

		snprintf(ppath, sizeof(ppath), "%s/p.yaml", dir);
		write_file(ppath, platform);
		if ((rc = platform_load(ppath, &p, err)) == 0)
			rc = platform_param_values(&p, s, err);
	}
	p.usable_memory_mb = 1 << 20;
	if (!p.name)
		p.name = strdup("synthetic");
	if (rc == 0 && (rc = plan_build(&p, s, pl, err)) == 0)
		for (size_t i = 0; i < pl->ntrials; i++)
			CHECK(manifest_trial_allowed(&pl->trials[i]), "trial %s breaks a constraint", pl->trials[i].key);
	platform_free(&p);
	return rc;
}

int main(void)
{
	struct kernel_manifest m;
	struct tune_error err;
	char dir[] = "/tmp/tune-test-constraint-XXXXXX", path[300];

	CHECK(decode(kernel, &m, &err) == 0, "the kernel: %s", err.msg);
	for (size_t i = 0; i < sizeof(evals) / sizeof(evals[0]); i++) {
		struct kernel_constraint c;
		char why[600];
		size_t where;

		if (constraint_parse(&m, evals[i].text, &c, &where, why, sizeof(why)) != 0) {
			CHECK(0, "'%s' parses: %s at %zu", evals[i].text, why, where);
			continue;
		}
		CHECK(constraint_holds(&c, evals[i].variant, evals[i].v) == evals[i].holds, "'%s' %s", evals[i].text,
		      evals[i].holds ? "holds" : "breaks");
		free(c.nodes);
	}
	for (size_t i = 0; i < sizeof(bads) / sizeof(bads[0]); i++) {
		struct kernel_constraint c;
		char why[600] = "";
		size_t where = 99;

		CHECK(constraint_parse(&m, bads[i].text, &c, &where, why, sizeof(why)) != 0, "'%s' is refused", bads[i].text);
		CHECK_CONTAINS(why, bads[i].expect);
		CHECK(where == bads[i].where, "'%s': at %zu, not %zu (%s)", bads[i].text, where, bads[i].where, why);
	}
	CHECK(constraint_names(&(struct kernel_constraint){ 0 }, 0, 5) == 0, "an empty constraint names nothing");
	manifest_free(&m);
	/* A duration is its ns, and inf where it takes it (as a sweep writes them). */
	{
		static const char dur[] = "name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a]\nbaseline: a\n"
			"metric: { field: ns }\nparameters:\n  - { name: t_ns, type: duration, min: 0, max: 100000, inf: true, "
			"default: 10, flag: --t }\n";
		struct kernel_constraint c;
		char why[600] = "";
		size_t where;

		CHECK(decode(dur, &m, &err) == 0, "a duration: %s", err.msg);
		if (constraint_parse(&m, "t_ns == inf or t_ns < 5000", &c, &where, why, sizeof(why)) == 0) {
			CHECK(constraint_holds(&c, 0, (long long[]){ LLONG_MAX }) && constraint_holds(&c, 0, (long long[]){ 10 }) &&
			      !constraint_holds(&c, 0, (long long[]){ 6000 }), "inf, 10 ns hold; 6000 ns breaks");
			free(c.nodes);
		} else {
			CHECK(0, "'t_ns == inf or t_ns < 5000' parses: %s", why);
		}
		manifest_free(&m);
	}

	/* In a manifest: the line and column of the fault, in a plain and a quoted item. */
	{
		static const struct {
			const char *lines, *expect;
		} cases[] = {
			{ "constraints:\n  - g <= blok\n", "k.yaml:15:10: key 'constraints': in 'g <= blok': 'blok' is not a "
			  "parameter of kernel 'k' (did you mean 'block'?)" },
			{ "constraints:\n  - g <= block\n  - \"g <= blok\"\n", "k.yaml:16:11: key 'constraints': in 'g <= blok'" },
			{ "constraints: [g <= block, g <= block]\n", "k.yaml:14:27: key 'constraints': value 'g <= block' is "
			  "listed twice" },
			{ "constraints: []\n", "k.yaml:14:14: key 'constraints': the list is empty" },
			{ "constraints: { a: b }\n", "expected a value or a list of values, got a mapping" },
			/* Written over lines, or not as it reads (escapes, quotes doubled):
			 * the fault where it is in the file. */
			{ "constraints:\n  - g <= block and\n    g <= blok\n", "k.yaml:16:10: key 'constraints': in 'g <= "
			  "block and g <= blok': 'blok' is not a parameter" },
			{ "constraints:\n  - >\n    g <= block and\n    g <= blok\n", "k.yaml:17:10: key 'constraints': in "
			  "'g <= block and g <= blok': 'blok'" },
			{ "constraints:\n  - |\n    g <= block or\n", "k.yaml:16:18: key 'constraints': in 'g <= block or': "
			  "expected a number, a parameter or '(', got the end" },
			{ "constraints:\n  - \"engine != \\\"psync\\\" or g <= blok\"\n", "k.yaml:15:34: key 'constraints'" },
			{ "constraints:\n  - 'engine != ''psync'' or g <= blok'\n", "k.yaml:15:34: key 'constraints'" },
		};
		char yaml[2048];

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			snprintf(yaml, sizeof(yaml), "%s%s", kernel, cases[i].lines);
			CHECK(decode(yaml, &m, &err) != 0, "case %zu is refused", i);
			CHECK_CONTAINS(err.msg, cases[i].expect);
			manifest_free(&m);
		}
		snprintf(yaml, sizeof(yaml), "%s%s", kernel, CONSTRAINTS);
		CHECK(decode(yaml, &m, &err) == 0, "three constraints: %s", err.msg);
		CHECK(m.constraints.n == 3 && m.constraints.v[1].at.col == 6, "the quoted one's text starts at column 6");
		manifest_free(&m);
		/* A folded one reads as one line, its last line break no part of it. */
		snprintf(yaml, sizeof(yaml), "%sconstraints:\n  - >\n    engine != psync or\n    g == 1\n", kernel);
		CHECK(decode(yaml, &m, &err) == 0, "a folded constraint: %s", err.msg);
		CHECK(m.constraints.n == 1 && !strcmp(m.constraints.v[0].text, "engine != psync or g == 1"), "folded: '%s'",
		      m.constraints.n ? m.constraints.v[0].text : "");
		manifest_free(&m);
	}

	/* The plan. */
	if (!mkdtemp(dir))
		return 2;
	setenv("TUNE_KERNELS_DIR", dir, 1);
	snprintf(path, sizeof(path), "%s/k", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/k/kernel.yaml", dir);
	{
		char yaml[2048];

		snprintf(yaml, sizeof(yaml), "%s%s", kernel, CONSTRAINTS);
		write_file(path, yaml);
	}
	{
		struct plan pl;
		struct sweep s;
		int psync_g4 = 0, block3_tile2 = 0;

		/* 2 engines x (a: 3 blocks x 2 g; b: 3 blocks x 2 tiles x 2 g) = 36;
		 * psync at g 4: 3 + 6; tile 2 with block 3: 2 per engine; both: 1. */
		CHECK(plan_of(dir, "  variant: [a, b]\n  engine: [psync, libaio]\n  block: [2, 3, 4]\n  tile: [0, 2]\n"
			      "  g: [1, 4]\n", NULL, &s, &pl, &err) == 0, "the plan: %s", err.msg);
		CHECK(pl.combinations == 36 && pl.excluded[0] == 9 && pl.excluded[1] == 4 && pl.ntrials == 24,
		      "36 combinations, 9 and 4 excluded, 24 trials: %lld %lld %lld %zu", pl.combinations, pl.excluded[0],
		      pl.excluded[1], pl.ntrials);
		for (size_t i = 0; i < pl.ntrials; i++) {
			psync_g4 += pl.trials[i].values[0] == 0 && pl.trials[i].values[4] == 4;
			block3_tile2 += pl.trials[i].values[1] == 3 && pl.trials[i].values[2] == 2;
		}
		CHECK(!psync_g4 && !block3_tile2, "no excluded trial is made");
		/* A process's list loses the values excluded, not the process. */
		for (size_t b = 0; b < pl.nbatches; b++) {
			const struct trial *t = &pl.trials[pl.batches[b].first];

			if (t->values[0] == 0)
				CHECK(pl.batches[b].count == 1 && t->values[4] == 1, "psync's process measures g 1 alone");
		}
		{
			char line[600];

			plan_constraint_line(&pl, pl.trials[0].manifest, 0, line, sizeof(line));
			CHECK_CONTAINS(line, "constraint 'engine != psync or g == 1' (");
			CHECK_CONTAINS(line, "kernel.yaml:15:5) excludes 9 of 36 combinations");
		}
		plan_free(&pl);
		sweep_free(&s);
	}
	/* Errors at the value a sweep lists that no allowed combination takes. */
	{
		static const struct {
			const char *params, *platform, *expect[3];
		} cases[] = {
			{ "  variant: [b]\n  engine: [psync, libaio]\n  g: [4, 8]\n", NULL,
			  { "s.yaml:5:12: key 'params': parameter 'engine': value 'psync' is never measured: constraint "
			    "'engine != psync or g == 1' (", "kernel.yaml:15:5) of kernel 'k' excludes every combination of it",
			    "(drop 'psync', or list values the constraint allows with it)" } },
			{ "  variant: [b]\n  block: [3]\n  tile: [0, 2]\n", NULL,
			  { "s.yaml:6:13: key 'params': parameter 'tile': value '2' is never measured: constraint 'tile == 0 or "
			    "block % tile == 0'", "kernel.yaml:16:6)" } },
			{ "  variant: [b]\n  engine: [psync]\n  g: [4, 8]\n", NULL,
			  { "s.yaml:5:3: key 'params': sweep 's' lists no combination kernel 'k' allows: constraint 'engine != "
			    "psync or g == 1'", "excludes 2 of 2 (change the values of engine, g)" } },
			{ "  variant: [b]\n  g: [4, 8]\n", "name: p\nparams:\n  engine: [libaio, psync]\n",
			  { "p.yaml:3:20: key 'params': parameter 'engine': value 'psync' is never measured" } },
			{ "  variant: [a, b]\n  block: [5]\n", NULL,
			  { "s.yaml:4:16: key 'params': variant 'b' is never measured: constraint 'variant != b or block != 5'",
			    "kernel.yaml:17:5)" } },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			struct plan pl;
			struct sweep s;

			CHECK(plan_of(dir, cases[i].params, cases[i].platform, &s, &pl, &err) != 0, "case %zu is refused", i);
			for (size_t k = 0; k < 3 && cases[i].expect[k]; k++)
				CHECK_CONTAINS(err.msg, cases[i].expect[k]);
			sweep_free(&s);
		}
	}
	/* A value usable with some of the others is fine: only its excluded
	 * combinations are dropped. */
	{
		struct plan pl;
		struct sweep s;

		CHECK(plan_of(dir, "  variant: [b]\n  engine: [psync, libaio]\n  g: [1, 4]\n", NULL, &s, &pl, &err) == 0,
		      "psync with g 1, g 4 with libaio: %s", err.msg);
		CHECK(pl.ntrials == 3 && pl.excluded[0] == 1, "psync at g 1, libaio at 1 and 4: %zu", pl.ntrials);
		plan_free(&pl);
		sweep_free(&s);
	}
	/* strategy joint (and so adaptive): a context whose list the
	 * constraint cuts to g 1 races the others; nothing proposed, anchors
	 * included, breaks a constraint, the race ends and the decision's
	 * candidates are allowed combinations. */
	{
		struct plan pl;
		struct sweep s;
		struct search se;
		struct trial **ts, *cand[512];
		size_t n, nc, rounds = 0;
		long long batch = 0, id = 0;

		CHECK(plan_of(dir, "  variant: [a]\n  engine: [psync, libaio, io_uring]\nstrategy: joint\nlist_min: 1\n"
			      "list_max: 64\nruns: 5\n", NULL, &s, &pl, &err) == 0, "the joint plan: %s", err.msg);
		CHECK(pl.nbatches == 3 && pl.batches[0].count == 1 && pl.ntrials == 129, "psync's list is g 1: %zu %zu",
		      pl.nbatches, pl.ntrials);
		CHECK(search_init(&se, &s, &pl, NULL, &err) == 0, "search: %s", err.msg);
		ts = malloc((pl.ntrials + SEARCH_ANCHORS * pl.nbatches) * sizeof(struct trial *));
		while (ts && rounds++ < 100 && (n = search_next(&se, ts, pl.ntrials)) > 0)
			for (size_t k = 0; k < n; k++) {
				struct trial *t = ts[k];
				/* 100 + 400/g ns, io_uring a tenth faster. */
				double ns = (100.0 + 400.0 / (double)t->list_value) * (t->values[0] == 2 ? 0.9 : 1.0);

				CHECK(manifest_trial_allowed(t), "the search proposed %s", t->key);
				if (!k || !plan_same_process(t, ts[k - 1]))
					batch = id + 1;
				t->id = ++id;
				t->batch = batch;
				t->stats.n = 5;
				t->stats.median = ns;
				t->stats.mad = ns * 0.002;
				t->stats.ci_low = ns * 0.995;
				t->stats.ci_high = ns * 1.005;
				t->status = TRIAL_DONE;
			}
		CHECK(rounds < 100, "the joint search ends (%zu rounds)", rounds);
		search_score(&se);
		search_mark_raced_out(&se);
		nc = pl.ntrials <= 512 ? search_decision(&pl, 0, cand) : 0;
		CHECK(nc > 0, "the decision has candidates");
		for (size_t k = 0; k < nc; k++)
			CHECK(manifest_trial_allowed(cand[k]), "candidate %s breaks a constraint", cand[k]->key);
		free(ts);
		search_free(&se);
		plan_free(&pl);
		sweep_free(&s);
	}
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path) != 0)
		return 2;
	return check_done("test_constraint");
}
