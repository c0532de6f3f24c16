/* libFuzzer target: the agent's request decoder. Whatever the body, it
 * decodes against a manifest like a user's (or a shipped kernel's: a
 * define, a list, a bool, a duration that takes inf and auto) or explains
 * why not. A decoded spec always makes a command line, and what an
 * orchestrator encodes again decodes to the same. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tuner/config/config.h"
#include "../../tuner/plan/plan.h"
#include "../../tuner/run/run.h"

static const char manifest_yaml[] =
	"name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [plain, fast]\nbaseline: plain\n"
	"variant_define: K_VARIANT\nmetric: { field: ns }\nparameters:\n"
	"  - { name: n, type: int, min: 1, max: 1000000, flag: --n, role: context }\n"
	"  - { name: hint, type: choice, choices: [t0, nta], define: K_HINT, role: searched, variants: [fast] }\n"
	"  - { name: huge, type: bool, flag: --huge }\n"
	"  - { name: g, type: int, min: 1, max: 64, flag: --g, role: list }\n"
	"  - { name: t, type: duration, min: 0, max: 100000, inf: true, flag: --t, auto_from: other.t }\n";

static const struct kernel_manifest *manifest(void)
{
	static struct kernel_manifest m;
	static int loaded;
	struct ydoc doc;
	struct tune_error err;

	if (!loaded) {
		if (ydoc_parse("k/kernel.yaml", manifest_yaml, sizeof(manifest_yaml) - 1, &doc, &err) != 0 ||
		    manifest_decode("k/kernel.yaml", doc.root, "k", &m, &err) != 0)
			__builtin_trap();
		ydoc_free(&doc);
		loaded = 1;
	}
	return &m;
}

static void manifest_spec(const uint8_t *data, size_t size)
{
	static struct manifest_run run, again;
	struct trial *todo[RUNSPEC_MAX_POINTS];
	struct manifest_argv *argv = malloc(sizeof(*argv));
	json_t *o = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL), *o2;
	char why[512] = "", *back;

	if (!argv || !o || manifest_spec_from_json(o, manifest(), &run, why, sizeof(why)) != 0) {
		if (o && !why[0])
			__builtin_trap();
		json_decref(o);
		free(argv);
		return;
	}
	for (size_t i = 0; i < run.n; i++)
		todo[i] = &run.trials[i];
	{
		static const long long cpus[] = { 0, 1 };
		const struct conf_ints list = { (long long *)cpus, 2 };
		const struct run_place place = { 1, &list, 1 };
		int cpu;

		(void)manifest_args("kernel", todo, run.n, run.runs, run.warmup, &place, argv, &cpu);
	}
	back = manifest_spec_to_json(todo, run.n, run.runs, run.warmup, run.timeout_s, run.kernel_hash);
	o2 = back ? json_loads(back, 0, NULL) : NULL;
	if (!o2 || manifest_spec_from_json(o2, manifest(), &again, why, sizeof(why)) != 0 || again.n != run.n)
		__builtin_trap();
	for (size_t i = 0; i < run.n; i++)
		if (memcmp(again.trials[i].values, run.trials[i].values, sizeof(run.trials[i].values)) != 0 ||
		    again.trials[i].variant != run.trials[i].variant)
			__builtin_trap();
	json_decref(o2);
	free(back);
	json_decref(o);
	free(argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	manifest_spec(data, size);
	return 0;
}
