/* A kernel on the SDK that uses each of its parts, for tests/kernels/sdk.sh:
 * every flag type, a choice list as the list, its own fields, its own
 * metric, a probe mode that prints its own line, and failures on request.
 * Compiled as C11 and as C++20. */
#include "tune_kernel.h"

static const char *const shapes[] = { "round", "square", "odd \"one\"", NULL };
static uint64_t work = 1000, fail_at = UINT64_MAX;
static int verbose, mode, probe;
static struct tk_list shape = TK_LIST(0), extra = TK_LIST(7);

static int setup(void *data, const struct tk_options *o, char *err, size_t len)
{
	(void)data;
	if (work == 13)
		return snprintf(err, len, "work 13 is unlucky (take another)"), TK_EXIT_USAGE;
	if (probe) {
		struct tk_line line = { .used = 0 };

		tk_put_str(&line, "probe", "seed");
		tk_put_u64(&line, "seed", o->seed);
		return tk_line_print(&line, "sdk_kernel") ? TK_EXIT_CANNOT : TK_DONE;
	}
	return 0;
}

static int run(void *data, struct tk_run *r)
{
	uint64_t sum = r->options->seed;

	(void)data;
	if (r->run == fail_at && !r->warmup) {
		fprintf(stderr, "sdk_kernel: failing at run %llu as asked\n", (unsigned long long)r->run);
		return 3;
	}
	for (uint64_t i = 0; i < work; i++)
		sum = sum * 6364136223846793005ull + i;
	r->checksum = sum;
	if (mode == 1)
		r->metric = (double)(r->value + 1) * 10.0;
	tk_put_u64(&r->fields, "index", r->index);
	tk_put_bool(&r->fields, "verbose", verbose);
	tk_put_u64_array(&r->fields, "extra", extra.v, extra.n);
	tk_put_real(&r->fields, "inf", INFINITY, 2);
	return 0;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "timed", "own", NULL };
	struct tk_flag flags[] = {
		TK_U64_FLAG("work", &work, 1, 100000000, "loop iterations per run"),
		TK_U64_FLAG("fail-at", &fail_at, 0, UINT64_MAX, "fail at this measured run"),
		TK_BOOL_FLAG("verbose", &verbose, "a flag that is on or off"),
		TK_CHOICE_FLAG("mode", &mode, modes, "timed by the SDK, or the kernel's own metric"),
		TK_CHOICES_FLAG("shape", &shape, shapes, "the list: shapes"),
		TK_LIST_FLAG("extra", &extra, 1, 9, "a second list, not measured as one"),
		TK_BOOL_FLAG("probe", &probe, "print the seed and stop"),
		TK_END_FLAG,
	};
	struct tk_kernel k = { .name = "sdk_kernel", .about = "the SDK's test kernel", .flags = flags, .list = "shape",
			       .metric = "ns_per_step", .per = &work, .setup = setup, .run = run };

	return tk_main(&k, argc, argv);
}
