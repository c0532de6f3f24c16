/* libFuzzer target: the agent's request decoder. Whatever the body, it
 * decodes or explains, and a decoded spec always makes a command line. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tuner/conf.h"
#include "../../tuner/runspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run_spec spec;
	struct runspec_argv argv;
	long long cpus_v[2] = { 0, 1 };
	struct conf_ints cpus = { cpus_v, 2 };
	struct run_place place = { 1, &cpus, 1 };
	char why[512];
	int cpu;

	if (runspec_from_json((const char *)data, size, &spec, why, sizeof(why)) == 0) {
		char *back = runspec_to_json(&spec);
		struct run_spec again;

		runspec_args(&spec, "kernel", &place, &argv, &cpu);
		/* What an orchestrator encodes, an agent decodes to the same spec. */
		if (!back || runspec_from_json(back, strlen(back), &again, why, sizeof(why)) != 0 ||
		    memcmp(&again, &spec, sizeof(spec)) != 0)
			__builtin_trap();
		free(back);
	} else if (!why[0]) {
		__builtin_trap();
	}
	return 0;
}
