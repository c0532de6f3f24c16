/* Recorded spaces (tuner/search/space.h): Kernel Tuner's cache text parsed
 * (what is recorded, failing or absent; the best and the total cost), each
 * malformed file refused with its key; grid and random each propose every
 * point once, grid's prefixes spread over every parameter's values, random
 * repeats by seed; the joint search's batches and its steps (a valley whose
 * switches lose); and the replay on a space whose answers are known. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../tuner/base/strbuf.h"
#include "../../tuner/search/search.h"
#include "../check.h"

/* a in 1..3, b in 1..2: "2,1" the best, "2,2" failing, "3,2" absent; each
 * valid one costs 100 ms, the failing one 50. */
static const char small[] =
	"{\"tune_params_keys\": [\"a\", \"b\"], \"tune_params\": {\"a\": [1, 2, 3], \"b\": [1, 2]},\n"
	" \"objective\": \"time\", \"kernel_name\": \"k\", \"cache\": {\n"
	"  \"1,1\": {\"a\": 1, \"b\": 1, \"time\": 2.0, \"times\": [2.0, 2.0], \"compile_time\": 90, \"benchmark_time\": 10},\n"
	"  \"1,2\": {\"a\": 1, \"b\": 2, \"time\": 1.5, \"times\": [1.5], \"compile_time\": 90, \"benchmark_time\": 10},\n"
	"  \"2,1\": {\"a\": 2, \"b\": 1, \"time\": 1.0, \"times\": [0.9, 1.1], \"compile_time\": 90, \"benchmark_time\": 10},\n"
	"  \"2,2\": {\"a\": 2, \"b\": 2, \"time\": \"RuntimeFailedConfig\", \"compile_time\": 50},\n"
	"  \"3,1\": {\"a\": 3, \"b\": 1, \"time\": 3.0, \"times\": [3.0], \"compile_time\": 90, \"benchmark_time\": 10}}}\n";

static void test_parse(void)
{
	struct search_space sp;
	struct tune_error err = { "" };
	size_t coord[2] = { 1, 0 };
	int rc = search_space_parse_kt(small, sizeof(small) - 1, "small.json", &sp, &err);

	CHECK(rc == 0, "rc %d: %s", rc, err.msg);
	CHECK(sp.nparams == 2 && sp.npoints == 6, "%zu parameters, %zu points", sp.nparams, sp.npoints);
	CHECK(sp.nconfigs == 5 && sp.nvalid == 4, "%zu configurations, %zu valid", sp.nconfigs, sp.nvalid);
	CHECK(sp.best != SPACE_NONE && !strcmp(sp.configs[sp.best].key, "2,1"), "best %s",
	      sp.best != SPACE_NONE ? sp.configs[sp.best].key : "none");
	CHECK(fabs(sp.total_ms - 400) < 1e-9, "total %g ms", sp.total_ms);
	CHECK(search_space_point(&sp, coord) == 2, "point of (1, 0): %zu", search_space_point(&sp, coord));
	search_space_coords(&sp, 5, coord);
	CHECK(coord[0] == 2 && coord[1] == 1, "coords of 5: %zu %zu", coord[0], coord[1]);
	CHECK(sp.config_of[5] == -1, "3,2 is absent: %d", (int)sp.config_of[5]);
	CHECK(sp.config_of[3] >= 0 && !sp.configs[sp.config_of[3]].valid &&
	      fabs(sp.configs[sp.config_of[3]].cost_ms - 50) < 1e-9, "2,2 fails, at its compile time");
	CHECK(!strcmp(sp.params[0].values[2], "3") && !strcmp(sp.kernel, "k"), "values as keys write them");
	{
		struct space_measurer m, o;
		double v, w[16];
		size_t both = 0, two[2] = { 1, 2 };
		int differ = 0;

		CHECK(search_space_measurer_init(&m, &sp, 7, 0) == 0, "a measurer");
		v = search_space_measure(&m, 2);
		CHECK(v == 0.9 || v == 1.1, "a measurement of 2,1 is one of its runs: %g", v);
		CHECK(isnan(search_space_measure(&m, 3)) && isnan(search_space_measure(&m, 5)),
		      "failing and absent points measure NAN");
		search_space_measurer_free(&m);
		/* Common random numbers: the k-th measurement of a point reads
		 * the same run for a seed, whatever was measured before it and
		 * whether alone or in a batch; the runs of one point still vary. */
		for (uint64_t seed = 1; seed <= 8; seed++) {
			search_space_measurer_init(&m, &sp, seed, 0);
			search_space_measurer_init(&o, &sp, seed, 0);
			search_space_measure_batch(&m, two, 2, w);
			v = search_space_measure(&o, 2);
			both += v == w[1];
			for (int k = 0; k < 16; k++)
				w[k] = search_space_measure(&m, 2);
			for (int k = 1; k < 16; k++)
				differ |= w[k] != w[0];
			search_space_measurer_free(&m);
			search_space_measurer_free(&o);
		}
		CHECK(both == 8, "the first measurement of 2,1 is the same run in 8 of 8 seeds (%zu)", both);
		CHECK(differ, "its later measurements draw other runs");
	}
	search_space_free(&sp);
}

/* Reals, booleans and strings as Kernel Tuner's keys write them. */
static void test_values(void)
{
	static const char text[] =
		"{\"tune_params_keys\": [\"f\", \"b\", \"s\"], \"tune_params\": {\"f\": [0.5, 1.0], \"b\": [true, false], "
		"\"s\": [\"x\", \"y\"]}, \"cache\": {\"1.0,False,y\": {\"f\": 1.0, \"b\": false, \"s\": \"y\", \"time\": 1, "
		"\"times\": [1], \"compile_time\": 0, \"benchmark_time\": 1}}}";
	struct search_space sp;
	struct tune_error err = { "" };
	int rc = search_space_parse_kt(text, sizeof(text) - 1, "values.json", &sp, &err);

	CHECK(rc == 0 && sp.config_of[7] == 0, "rc %d (%s): 1.0,False,y is the last point", rc, err.msg);
	CHECK(rc == 0 && !strcmp(sp.params[0].values[0], "0.5") && !strcmp(sp.params[0].values[1], "1.0") &&
	      !strcmp(sp.params[1].values[0], "True") && !strcmp(sp.params[2].values[1], "y"),
	      "values as keys write them");
	search_space_free(&sp);
}

/* Each malformed text: TUNE_ERR_CONFIG, a message naming what. */
static void test_malformed(void)
{
	static const struct {
		const char *text, *says;
	} cases[] = {
		{ "{\"cache\": {}\n,,}", "bad.json:2:" },
		{ "[1, 2]", "not a JSON object" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}}", "key 'cache': missing" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": []}", "key 'cache': not an object" },
		{ "{\"tune_params\": {\"a\": [1]}, \"cache\": {}}", "key 'tune_params_keys'" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"b\": [1]}, \"cache\": {}}", "key 'tune_params': 'a' is missing" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [[1]]}, \"cache\": {}}", "'a' item 0 is not a number" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"objective\": \"GFLOP/s\", \"cache\": {}}",
		  "key 'objective': 'GFLOP/s'" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": {}}", "no valid configuration (0 recorded)" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": {\"1\": {\"a\": 1, \"time\": "
		  "\"CompilationFailedConfig\"}}}", "no valid configuration (1 recorded, each a failure)" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": {\"1\": {\"a\": 1, \"time\": 1.0, "
		  "\"times\": [1.0, \"x\"], \"compile_time\": 1, \"benchmark_time\": 1}}}",
		  "cache key '1': 'times' is not an array of numbers (item 1)" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": {\"1\": {\"a\": 1, \"time\": 1.0, "
		  "\"times\": 1.0, \"compile_time\": 1, \"benchmark_time\": 1}}}", "cache key '1': 'times' is not an array" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1, 2]}, \"cache\": {\"1\": {\"a\": 2, \"time\": 1.0, "
		  "\"times\": [1.0], \"compile_time\": 1, \"benchmark_time\": 1}}}",
		  "cache key '1': its 'a' disagrees with the key's value '1'" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1, 2]}, \"cache\": {\"3\": {\"a\": 3, \"time\": 1.0, "
		  "\"times\": [1.0], \"compile_time\": 1, \"benchmark_time\": 1}}}", "cache key '3': 'a' 3 is none of its values" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1, 2]}, \"cache\": {\"1,2\": {\"a\": 1, \"time\": 1.0, "
		  "\"times\": [1.0], \"compile_time\": 1, \"benchmark_time\": 1}}}", "cache key '1,2': not 1 values joined" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1, 2]}, \"cache\": {\"1\": {\"time\": 1.0, "
		  "\"times\": [1.0], \"compile_time\": 1, \"benchmark_time\": 1}}}", "cache key '1': no 'a'" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1, 2]}, \"cache\": {\"1\": {\"a\": 1, \"time\": \"fast\", "
		  "\"times\": [1.0], \"compile_time\": 1, \"benchmark_time\": 1}}}", "cache key '1': 'time' is neither" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1, 2]}, \"cache\": {\"1\": {\"a\": 1, \"time\": 1.0, "
		  "\"times\": [1.0], \"benchmark_time\": 1}}}", "cache key '1': 'compile_time' is missing" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1, 2]}, \"cache\": {\"1\": {\"a\": 1, \"time\": 1.0, "
		  "\"times\": [1.0], \"compile_time\": 1, \"benchmark_time\": 1}, \"1.0\": {\"a\": 1.0, \"time\": 1.0, "
		  "\"times\": [1.0], \"compile_time\": 1, \"benchmark_time\": 1}}}", "cache keys '1' and '1.0' are the same" },
		{ "{\"tune_params_keys\": [\"a\"], \"tune_params\": {\"a\": [1]}, \"cache\": {\"\\u001b[2J\": 5}}",
		  "cache key '?[2J': not an object" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct search_space sp;
		struct tune_error err = { "" };
		int rc = search_space_parse_kt(cases[i].text, strlen(cases[i].text), "bad.json", &sp, &err);

		CHECK(rc == TUNE_ERR_CONFIG, "case %zu: rc %d (%s)", i, rc, err.msg);
		CHECK(strstr(err.msg, cases[i].says) && !strncmp(err.msg, "bad.json", 8), "case %zu: '%s' not in '%s'", i,
		      cases[i].says, err.msg);
		search_space_free(&sp);
	}
}

/* The points a strategy proposes, up to max, into out; how many. */
static size_t proposals(const struct space_strategy_ops *st, const struct search_space *sp, uint64_t seed,
			size_t *out, size_t max)
{
	struct tune_error err;
	void *state = NULL;
	size_t n = 0, k;
	double value[SPACE_BATCH_MAX], cost[SPACE_BATCH_MAX];

	if (st->start(&state, sp, seed, 1e9, &err) != 0)
		return 0;
	while (n < max && st->propose(state, &out[n], max - n, &k, &err) == 0 && k >= 1 && k <= max - n) {
		for (size_t i = 0; i < k; i++) {
			value[i] = 1.0 + (double)out[n + i];
			cost[i] = 1;
		}
		st->tell(state, &out[n], value, cost, k);
		n += k;
	}
	st->stop(state);
	return n;
}

/* A space of 4 x 5 x 2 x 3 points, every one valid, its text built. */
static int wide_space(struct search_space *sp)
{
	char *text = malloc(1 << 16);
	size_t used = 0;
	struct tune_error err;
	int rc;

	str_appendf(text, 1 << 16, &used, "{\"tune_params_keys\": [\"p\", \"q\", \"r\", \"s\"], \"tune_params\": "
		    "{\"p\": [0, 1, 2, 3], \"q\": [0, 1, 2, 3, 4], \"r\": [0, 1], \"s\": [0, 1, 2]}, \"cache\": {");
	for (int i = 0; i < 120; i++)
		str_appendf(text, 1 << 16, &used, "%s\"%d,%d,%d,%d\": {\"p\": %d, \"q\": %d, \"r\": %d, \"s\": %d, "
			    "\"time\": %d, \"times\": [%d], \"compile_time\": 1, \"benchmark_time\": 1}", i ? "," : "",
			    i / 30, i / 6 % 5, i / 3 % 2, i % 3, i / 30, i / 6 % 5, i / 3 % 2, i % 3, 1 + i, 1 + i);
	str_appendf(text, 1 << 16, &used, "}}");
	rc = search_space_parse_kt(text, used, "wide.json", sp, &err);
	free(text);
	return rc;
}

static void test_strategies(void)
{
	const struct space_strategy_ops *grid = search_space_strategy("grid"), *rnd = search_space_strategy("random");
	struct search_space sp;
	size_t a[130], b[130], n;
	unsigned char seen[120];

	CHECK(grid && rnd && search_space_strategy("joint") && !search_space_strategy("tpe"),
	      "grid, random and joint are there, tpe is not (bench/replay_kt_tpe.py)");
	if (!grid || !rnd || wide_space(&sp) != 0) {
		CHECK(0, "the wide space parses");
		return;
	}
	for (int k = 0; k < 2; k++) {
		const struct space_strategy_ops *st = k ? rnd : grid;

		n = proposals(st, &sp, 3, a, 130);
		memset(seen, 0, sizeof(seen));
		for (size_t i = 0; i < n; i++)
			seen[a[i] < 120 ? a[i] : 0]++;
		CHECK(n == 120 && memchr(seen, 0, 120) == NULL && memchr(seen, 2, 120) == NULL,
		      "%s: every point once (%zu proposals)", st->name, n);
	}
	/* grid: its first 10 points take every value of each parameter. */
	n = proposals(grid, &sp, 3, a, 10);
	for (size_t p = 0; p < sp.nparams; p++) {
		unsigned mask = 0;

		for (size_t i = 0; i < n; i++) {
			size_t c[4];

			search_space_coords(&sp, a[i], c);
			mask |= 1u << c[p];
		}
		CHECK(mask == (1u << sp.params[p].nvalues) - 1, "grid's first 10 points: parameter %s takes values %#x",
		      sp.params[p].name, mask);
	}
	CHECK(proposals(grid, &sp, 4, b, 10) == 10 && !memcmp(a, b, sizeof(a[0]) * 10), "grid is one order, any seed");
	n = proposals(rnd, &sp, 3, a, 20);
	CHECK(proposals(rnd, &sp, 3, b, 20) == n && !memcmp(a, b, sizeof(a[0]) * n), "random: the same seed, the same");
	CHECK(proposals(rnd, &sp, 4, b, 20) == n && memcmp(a, b, sizeof(a[0]) * n) != 0, "random: another seed, another");
	search_space_free(&sp);
}

/* A strategy of batches of four in point order, for the replay's batches:
 * what it was told, batch by batch. */
struct fours {
	size_t next, npoints, told[8], ntold;
	double ratio; /* of the first batch's second value over its first */
};

static int fours_start(void **state, const struct search_space *sp, uint64_t seed, double budget_ms,
		       struct tune_error *err)
{
	struct fours *f = calloc(1, sizeof(*f));

	(void)seed;
	(void)budget_ms;
	*state = f;
	if (!f)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	f->npoints = sp->npoints;
	return 0;
}

static int fours_propose(void *state, size_t *points, size_t max, size_t *n, struct tune_error *err)
{
	struct fours *f = state;

	(void)err;
	for (*n = 0; *n < 4 && *n < max && f->next < f->npoints; (*n)++)
		points[*n] = f->next++;
	return *n ? 0 : 1;
}

static void fours_tell(void *state, const size_t *points, const double *values, const double *costs, size_t n)
{
	struct fours *f = state;

	(void)points;
	(void)costs;
	if (!f->ntold)
		f->ratio = values[1] / values[0];
	if (f->ntold < 8)
		f->told[f->ntold++] = n;
}

static size_t fours_best(void *state)
{
	return ((struct fours *)state)->next ? 0 : SPACE_NONE;
}

static struct fours fours_last;

static void fours_stop(void *state)
{
	fours_last = *(struct fours *)state;
	free(state);
}

/* A batch is one process: one drift for all of it (the ratio of two
 * points' single runs survives any drift, which a measurement each does
 * not keep); the replay stops within a batch at the measurement that
 * crosses the budget. */
static void test_batches(void)
{
	static const struct space_strategy_ops fours = {
		"fours", fours_start, fours_propose, fours_tell, fours_best, fours_stop,
	};
	/* 120 points of 2 ms: 25 ms is crossed by the 13th measurement. */
	static const double budgets[] = { 25.0 / 240 };
	struct space_replay_options o = { 1, 0.5, budgets, 1 };
	struct space_replay_row row;
	struct search_space sp;
	struct tune_error err = { "" };
	size_t pts[2] = { 0, 1 };
	double v[2];
	int rc, apart = 0;

	if (wide_space(&sp) != 0) {
		CHECK(0, "the wide space parses");
		return;
	}
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct space_measurer m;

		search_space_measurer_init(&m, &sp, (size_t)seed, 0.5);
		search_space_measure_batch(&m, pts, 2, v);
		CHECK(fabs(v[1] / v[0] - 2.0) < 1e-12, "seed %llu: one batch, one drift: %g / %g", (unsigned long long)seed,
		      v[1], v[0]);
		v[0] = search_space_measure(&m, 0);
		v[1] = search_space_measure(&m, 1);
		apart += fabs(v[1] / v[0] - 2.0) > 1e-6;
		search_space_measurer_free(&m);
	}
	CHECK(apart >= 18, "a process each: the drift differs (%d of 20)", apart);
	rc = search_space_replay(&sp, &fours, &o, &row, &err);
	CHECK(rc == 0 && row.measured == 13, "rc %d (%s): %g measured, not 13", rc, err.msg, row.measured);
	CHECK(fours_last.ntold == 4 && fours_last.told[0] == 4 && fours_last.told[3] == 1,
	      "told 4 batches (%zu), the last cut to one (%zu)", fours_last.ntold, fours_last.told[3]);
	CHECK(fabs(fours_last.ratio - 2.0) < 1e-12, "the replay measures a batch in one process: %g", fours_last.ratio);
	search_space_replay_rows_free(&row, 1);
	search_space_free(&sp);
}

/* A bowl of 10 x 10 x 2 points: time 1 + 0.1 ((a - 6)^2 + (b - 3)^2) + 0.5 c,
 * the best (6, 3, 0) alone within 5%; the corner a + b > 15 excluded by the
 * record, a = 0 with b = 0 failing; a valid point costs 2 to 2.75 ms (its
 * compile time 1 + 0.25 ((7a + 3b) mod 4)). */
static int bowl_space(struct search_space *sp)
{
	size_t cap = 1 << 16, used = 0;
	char *text = malloc(cap);
	struct tune_error err;
	int rc, first = 1;

	if (!text)
		return -1;
	str_appendf(text, cap, &used, "{\"tune_params_keys\": [\"a\", \"b\", \"c\"], \"tune_params\": {\"a\": "
		    "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], \"b\": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], \"c\": [0, 1]}, \"cache\": {");
	for (int a = 0; a < 10; a++)
		for (int b = 0; b < 10; b++)
			for (int c = 0; c < 2; c++) {
				double t = 1 + 0.1 * ((a - 6) * (a - 6) + (b - 3) * (b - 3)) + 0.5 * c;

				if (a + b > 15)
					continue;
				str_appendf(text, cap, &used, "%s\"%d,%d,%d\": {\"a\": %d, \"b\": %d, \"c\": %d, ", first ? "" : ",",
					    a, b, c, a, b, c);
				first = 0;
				if (a == 0 && b == 0)
					str_appendf(text, cap, &used, "\"time\": \"CompilationFailedConfig\", \"compile_time\": 2}");
				else
					str_appendf(text, cap, &used, "\"time\": %.17g, \"times\": [%.17g, %.17g], \"compile_time\": "
						    "%g, \"benchmark_time\": 1}", t, t * 0.99, t * 1.01, 1 + 0.25 * ((7 * a + 3 * b) % 4));
			}
	str_appendf(text, cap, &used, "}}");
	rc = search_space_parse_kt(text, used, "bowl.json", sp, &err);
	free(text);
	return rc;
}

/* The joint search on the bowl: each batch after its first has a point
 * measured before (the anchor) in front, the cheapest measured so far (so
 * that most batches share one anchor), its last batch repeats its
 * finalists, and it finds the best under a drift (30% a process) that
 * misleads random's lowest measurement, in every seed at a third of the
 * space's time. */
static void test_joint(void)
{
	static const double budgets[] = { 1.0 / 3 };
	const struct space_strategy_ops *joint = search_space_strategy("joint"), *rnd = search_space_strategy("random");
	struct space_replay_options o = { 40, 0.3, budgets, 1 };
	struct space_replay_row jr, rr;
	struct search_space sp;
	struct tune_error err = { "" };
	size_t points[SPACE_BATCH_MAX], n, batches = 0, anchored = 0, searching = 0, cheapest = 0, last_repeats = 0;
	double values[SPACE_BATCH_MAX], costs[SPACE_BATCH_MAX], spent = 0, least = INFINITY;
	unsigned char *seen;
	void *state = NULL;
	int rc;

	if (!joint || bowl_space(&sp) != 0 || !(seen = calloc(sp.npoints, 1))) {
		CHECK(0, "the joint search and the bowl are there");
		return;
	}
	CHECK(sp.nvalid == 186 && sp.npoints == 200, "the bowl: %zu valid of %zu", sp.nvalid, sp.npoints);
	/* By hand, without drift, to look at its batches. */
	if (joint->start(&state, &sp, 5, sp.total_ms / 3, &err) == 0) {
		struct space_measurer m;

		search_space_measurer_init(&m, &sp, 5, 0);
		while (spent < sp.total_ms / 3 && joint->propose(state, points, SPACE_BATCH_MAX, &n, &err) == 0) {
			size_t repeats = 0;

			search_space_measure_batch(&m, points, n, values);
			for (size_t i = 0; i < n; i++) {
				int32_t c = sp.config_of[points[i]];

				costs[i] = c >= 0 ? sp.configs[c].cost_ms : 0;
				spent += costs[i];
				for (size_t k = 0; k < i; k++)
					repeats += points[k] == points[i];
			}
			anchored += batches > 0 && seen[points[0]];

			/* The search's batches (the final's repeat its points). */
			searching += batches > 0 && !repeats;
			cheapest += batches > 0 && !repeats && seen[points[0]] && costs[0] == least;
			last_repeats = repeats;
			for (size_t i = 0; i < n; i++) {
				seen[points[i]] = 1;
				if (!isnan(values[i]) && costs[i] < least)
					least = costs[i];
			}
			batches++;
			joint->tell(state, points, values, costs, n);
		}
		n = joint->best(state);
		CHECK(n < sp.npoints && sp.config_of[n] == (int32_t)sp.best, "by hand: its best is the best (%zu)", n);
		joint->stop(state);
		search_space_measurer_free(&m);
	}
	CHECK(batches > 3 && anchored >= batches - 2, "%zu of %zu batches after the first begin with a point "
	      "measured before", anchored, batches);
	CHECK(searching > 2 && cheapest == searching, "%zu of the search's %zu batches after the first begin with the "
	      "cheapest point measured before", cheapest, searching);
	CHECK(last_repeats >= 2, "its last batch (the final) measures each finalist twice: %zu repeats", last_repeats);
	rc = search_space_replay(&sp, joint, &o, &jr, &err);
	CHECK(rc == 0 && jr.median_ratio == 1.0 && jr.within_5pct == 1.0, "rc %d (%s): joint under drift: median %g, "
	      "%g within 5%%", rc, err.msg, jr.median_ratio, jr.within_5pct);
	rc = search_space_replay(&sp, rnd, &o, &rr, &err);
	CHECK(rc == 0 && rr.within_5pct < 0.9, "random's lowest measurement under drift: %g within 5%%", rr.within_5pct);
	search_space_replay_rows_free(&jr, 1);
	search_space_replay_rows_free(&rr, 1);
	free(seen);
	search_space_free(&sp);
}

/* A valley of 10 x 10 points along a and b, time 1 + 0.06 ((a - 7)^2 +
 * (b - 3)^2), times 1.5 for each of six switches s0 to s5 that is on:
 * 6,400 points, the best (7, 3, 0, ...) alone within 5%; a valid point
 * costs 2 to 2.75 ms. */
static int valley_space(struct search_space *sp)
{
	size_t cap = 1 << 21, used = 0;
	char *text = malloc(cap);
	struct tune_error err;
	int rc;

	if (!text)
		return -1;
	str_appendf(text, cap, &used, "{\"tune_params_keys\": [\"a\", \"b\", \"s0\", \"s1\", \"s2\", \"s3\", "
		    "\"s4\", \"s5\"], \"tune_params\": {\"a\": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], \"b\": [0, 1, 2, 3, 4, 5, "
		    "6, 7, 8, 9], \"s0\": [0, 1], \"s1\": [0, 1], \"s2\": [0, 1], \"s3\": [0, 1], \"s4\": [0, 1], "
		    "\"s5\": [0, 1]}, \"cache\": {");
	for (int p = 0; p < 10 * 10 * 64; p++) {
		int a = p / 640, b = p / 64 % 10, s[6], on = 0;
		double t = 1 + 0.06 * ((a - 7) * (a - 7) + (b - 3) * (b - 3));

		for (int i = 0; i < 6; i++)
			on += s[i] = p >> (5 - i) & 1;
		t *= pow(1.5, on);
		str_appendf(text, cap, &used, "%s\"%d,%d,%d,%d,%d,%d,%d,%d\": {\"a\": %d, \"b\": %d, ", p ? "," : "", a, b,
			    s[0], s[1], s[2], s[3], s[4], s[5], a, b);
		for (int i = 0; i < 6; i++)
			str_appendf(text, cap, &used, "\"s%d\": %d, ", i, s[i]);
		str_appendf(text, cap, &used, "\"time\": %.17g, \"times\": [%.17g, %.17g], \"compile_time\": %g, "
			    "\"benchmark_time\": 1}", t, t * 0.99, t * 1.01, 1 + 0.25 * ((7 * a + 3 * b) % 4));
	}
	str_appendf(text, cap, &used, "}}");
	rc = search_space_parse_kt(text, used, "valley.json", sp, &err);
	free(text);
	return rc;
}

/* The joint search's steps: in the valley, most of a point's neighbours
 * are a switch turned on, a step seen to lose after a few; the search
 * measures the steps along a and b instead, and at half a percent of the
 * space's time (some 32 measurements) its median choice is within 10% of
 * the best, where measuring every neighbour of the best point first
 * (best-first, before the steps guided it: 1.48, within 5% in 4% of seeds)
 * is not. */
static void test_joint_steps(void)
{
	static const double budgets[] = { 0.005 };
	struct space_replay_options o = { 50, 0, budgets, 1 };
	struct space_replay_row row;
	struct search_space sp;
	struct tune_error err = { "" };
	int rc;

	if (valley_space(&sp) != 0) {
		CHECK(0, "the valley parses");
		return;
	}
	CHECK(sp.nvalid == 6400, "the valley: %zu valid", sp.nvalid);
	rc = search_space_replay(&sp, search_space_strategy("joint"), &o, &row, &err);
	CHECK(rc == 0 && row.median_ratio <= 1.10 && row.within_5pct >= 0.1, "rc %d (%s): the valley at 0.5%%: median "
	      "%g, within 5%% in %g", rc, err.msg, row.median_ratio, row.within_5pct);
	search_space_replay_rows_free(&row, 1);
	search_space_free(&sp);
}

/* Ranked for their cost: a in 0..3, h in 0..1, every point alike in time;
 * h = 0 costs 4 times h = 1 to measure. With (1, 0) scored 2% better than
 * (1, 1), the two neighbours picked first are the cheap ones (0, 1) and
 * (2, 1): by score alone they were (0, 0) and (2, 0), as dear as their
 * origin. Under a budget of time, a point that costs a quarter is a
 * quarter of the budget. */
static void test_joint_cost(void)
{
	size_t cap = 1 << 12, used = 0, coord[2], points[2], got, h1 = 0;
	char *text = malloc(cap);
	struct search_space sp;
	struct space_steps st;
	struct tune_error err;
	unsigned char state[8] = { 0 };
	double score[8] = { 0 }, cost[8] = { 0 };

	if (!text)
		return;
	str_appendf(text, cap, &used, "{\"tune_params_keys\": [\"a\", \"h\"], \"tune_params\": {\"a\": [0, 1, 2, 3], "
		    "\"h\": [0, 1]}, \"cache\": {");
	for (int a = 0; a < 4; a++)
		for (int h = 0; h < 2; h++)
			str_appendf(text, cap, &used, "%s\"%d,%d\": {\"a\": %d, \"h\": %d, \"time\": 1, \"times\": [1], "
				    "\"compile_time\": %d, \"benchmark_time\": 0}", a + h ? "," : "", a, h, a, h, h ? 10 : 40);
	str_appendf(text, cap, &used, "}}");
	if (search_space_parse_kt(text, used, "cost.json", &sp, &err) != 0 || space_steps_init(&st, &sp) != 0) {
		CHECK(0, "the space parses: %s", err.msg);
		free(text);
		return;
	}
	free(text);
	for (size_t h = 0; h < 2; h++) {
		size_t p;

		coord[0] = 1;
		coord[1] = h;
		p = search_space_point(&sp, coord);
		state[p] = SPACE_SCORED;
		score[p] = h ? 1.0 : 0.98;
		cost[p] = h ? 10 : 40;
		space_steps_learn(&st, p, state, score);
	}
	got = space_steps_pick(&st, state, score, cost, 25, points, 2);
	for (size_t k = 0; k < got; k++) {
		search_space_coords(&sp, points[k], coord);
		h1 += coord[0] != 1 && coord[1] == 1;
	}
	CHECK(got == 2 && h1 == 2, "the cheap neighbours first: %zu of %zu picked have h = 1", h1, got);
	space_steps_free(&st);
	search_space_free(&sp);
}

/* A short parameter (4 values: a choice, maybe, whose indices mean no
 * order) has every value a step away; a long one (6) one index each way.
 * Scored at (0, 2), the untried neighbours are a = 1, 2, 3 and b = 1, 3;
 * once the jump a 0 -> 3 is seen to gain, it is learnt as any step. */
static void test_joint_short(void)
{
	size_t cap = 1 << 13, used = 0, coord[2], points[8], got, jumps = 0, far_b = 0, p0, p3;
	char *text = malloc(cap);
	struct search_space sp;
	struct space_steps st;
	struct tune_error err;
	unsigned char state[24] = { 0 };
	double score[24] = { 0 }, cost[24] = { 0 };

	if (!text)
		return;
	str_appendf(text, cap, &used, "{\"tune_params_keys\": [\"a\", \"b\"], \"tune_params\": {\"a\": [0, 1, 2, 3], "
		    "\"b\": [1, 2, 3, 4, 5, 6]}, \"cache\": {");
	for (int a = 0; a < 4; a++)
		for (int b = 1; b <= 6; b++)
			str_appendf(text, cap, &used, "%s\"%d,%d\": {\"a\": %d, \"b\": %d, \"time\": 1, \"times\": [1], "
				    "\"compile_time\": 1, \"benchmark_time\": 0}", a + b > 1 ? "," : "", a, b, a, b);
	str_appendf(text, cap, &used, "}}");
	if (search_space_parse_kt(text, used, "short.json", &sp, &err) != 0 || space_steps_init(&st, &sp) != 0) {
		CHECK(0, "the space parses: %s", err.msg);
		free(text);
		return;
	}
	free(text);
	coord[0] = 0;
	coord[1] = 1;
	p0 = search_space_point(&sp, coord);
	state[p0] = SPACE_SCORED;
	score[p0] = cost[p0] = 1;
	space_steps_learn(&st, p0, state, score);
	got = space_steps_pick(&st, state, score, cost, 1, points, 8);
	for (size_t k = 0; k < got; k++) {
		search_space_coords(&sp, points[k], coord);
		jumps += coord[1] == 1 && coord[0] >= 2;
		far_b += coord[0] == 0 && coord[1] >= 3;
	}
	CHECK(got == 5 && jumps == 2 && far_b == 0, "neighbours: %zu, %zu of them a's jumps, %zu b's jumps", got,
	      jumps, far_b);
	/* (3, 2) scored twice as fast: the jump there is learnt, so from
	 * (0, 5), scored better still, it is predicted before the steps never
	 * seen (a jump never seen is not). */
	coord[0] = 3;
	coord[1] = 1;
	p3 = search_space_point(&sp, coord);
	state[p3] = SPACE_SCORED;
	score[p3] = 0.5;
	cost[p3] = 1;
	space_steps_learn(&st, p3, state, score);
	coord[0] = 0;
	coord[1] = 4;
	p0 = search_space_point(&sp, coord);
	state[p0] = SPACE_SCORED;
	score[p0] = 0.4;
	cost[p0] = 1;
	space_steps_learn(&st, p0, state, score);
	got = space_steps_pick(&st, state, score, cost, 1, points, 1);
	search_space_coords(&sp, got ? points[0] : p0, coord);
	CHECK(got == 1 && coord[0] == 3 && coord[1] == 4, "the learnt jump first: (%zu, %zu), not (3, 4)", coord[0], coord[1]);
	space_steps_free(&st);
	search_space_free(&sp);
}

/* The small space at drift 0: grid's order is 1,1 1,2 3,1 2,2 2,1, so its
 * best at a quarter, half, three quarters and all of 400 ms is 2, 1.5,
 * 1.5, 1; random finds the best in every seed with all of it. */
static void test_replay(void)
{
	static const double budgets[] = { 0.25, 0.5, 0.75, 1.0 }, grid_ratio[] = { 2.0, 1.5, 1.5, 1.0 };
	struct space_replay_options o = { 50, 0, budgets, 4 };
	struct space_replay_row rows[4];
	struct search_space sp;
	struct tune_error err = { "" };
	int rc;

	if (search_space_parse_kt(small, sizeof(small) - 1, "small.json", &sp, &err) != 0) {
		CHECK(0, "the small space parses: %s", err.msg);
		return;
	}
	rc = search_space_replay(&sp, search_space_strategy("grid"), &o, rows, &err);
	CHECK(rc == 0, "grid: %s", err.msg);
	for (size_t b = 0; !rc && b < 4; b++)
		CHECK(fabs(rows[b].median_ratio - grid_ratio[b]) < 1e-9 && fabs(rows[b].p90_ratio - grid_ratio[b]) < 1e-9,
		      "grid at %g: median %g p90 %g, not %g", budgets[b], rows[b].median_ratio, rows[b].p90_ratio,
		      grid_ratio[b]);
	CHECK(!rc && rows[3].within_5pct == 1.0 && rows[2].within_5pct == 0.0 && rows[3].measured == 4 &&
	      rows[3].failed == 1, "grid: within %g, measured %g, failed %g", rows[3].within_5pct, rows[3].measured,
	      rows[3].failed);
	for (size_t b = 0; !rc && b < 4; b++)
		for (size_t s = 0; s < o.seeds; s++)
			CHECK(rows[b].ratios && fabs(rows[b].ratios[s] - grid_ratio[b]) < 1e-9, "grid at %g, seed %zu: %g, "
			      "not %g", budgets[b], s, rows[b].ratios ? rows[b].ratios[s] : NAN, grid_ratio[b]);
	search_space_replay_rows_free(rows, 4);
	rc = search_space_replay(&sp, search_space_strategy("random"), &o, rows, &err);
	{
		/* Each seed's ratio as the row sums them up. */
		size_t within = 0, below = 0, above = 0;

		for (size_t s = 0; !rc && s < o.seeds; s++) {
			within += rows[0].ratios[s] <= 1.05;
			below += rows[0].ratios[s] < rows[0].median_ratio;
			above += rows[0].ratios[s] > rows[0].median_ratio;
		}
		CHECK(!rc && (double)within / (double)o.seeds == rows[0].within_5pct && below <= o.seeds / 2 &&
		      above <= o.seeds / 2, "random's seeds: %zu within 5%% (%g), %zu below and %zu above the median",
		      within, rows[0].within_5pct, below, above);
	}
	CHECK(rc == 0 && rows[3].median_ratio == 1.0 && rows[3].within_5pct == 1.0, "random with all of it: %g, %g",
	      rows[3].median_ratio, rows[3].within_5pct);
	CHECK(rc == 0 && rows[0].within_5pct > 0.05 && rows[0].within_5pct < 0.6 && rows[0].p90_ratio == 3.0,
	      "random with a quarter: one configuration, the best in some seeds (%g), the worst in the tenth (%g)",
	      rows[0].within_5pct, rows[0].p90_ratio);
	search_space_replay_rows_free(rows, 4);
	search_space_free(&sp);
}

int main(void)
{
	test_parse();
	test_values();
	test_malformed();
	test_strategies();
	test_batches();
	test_joint();
	test_joint_steps();
	test_joint_cost();
	test_joint_short();
	test_replay();
	return check_done("test_space");
}
