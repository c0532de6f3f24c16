/* libFuzzer target: the kernels' flag parser. The input is split at NUL
 * bytes into argv, parsed against a table like the chase kernel's. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/common/flags.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t size_mb = 0, depth = 0, cpu = 0;
	int hugepages = 0, mode = 0;
	static const char *const modes[] = { "poll", "interrupt", "ipa", "hybrid", NULL };
	struct flag_list groups = { { 0 }, 0 }, policies = { { 0 }, 0 };
	const struct flag_spec specs[] = {
		{ "size-mb", FLAG_U64, &size_mb, 1, 1u << 20, "working set", NULL },
		{ "depth", FLAG_U64, &depth, 0, 4096, "depth", NULL },
		{ "cpu", FLAG_U64, &cpu, 0, 1023, "cpu", NULL },
		{ "hugepages", FLAG_BOOL, &hugepages, 0, 1, "huge pages", NULL },
		{ "group-size", FLAG_U64_LIST, &groups, 1, 1024, "groups", NULL },
		{ "mode", FLAG_CHOICE, &mode, 0, 0, "mode", modes },
		{ "policy", FLAG_CHOICE_LIST, &policies, 0, 0, "policies", modes },
		{ NULL, FLAG_U64, NULL, 0, 0, NULL, NULL },
	};
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 1], err[256];
	int argc = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "chase";
	for (size_t i = 0; i <= size && argc < MAX_ARGS;) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	(void)flags_parse(specs, argc, argv, err, sizeof(err));
	free(buf);
	return 0;
}
