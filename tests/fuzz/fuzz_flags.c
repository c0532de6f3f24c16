/* libFuzzer target: the kernel SDK's flag parser. The input is split at NUL
 * bytes into argv, parsed against a table like the chase kernel's. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/sdk/tune_kernel.h"

#define MAX_ARGS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t size_mb = 0, depth = 0, cpu = 0;
	int hugepages = 0, mode = 0;
	static const char *const modes[] = { "poll", "interrupt", "ipa", "hybrid", NULL };
	struct tk_list groups = { { 0 }, 0 }, policies = { { 0 }, 0 };
	const struct tk_flag specs[] = {
		TK_U64_FLAG("size-mb", &size_mb, 1, 1u << 20, "working set"),
		TK_U64_FLAG("depth", &depth, 0, 4096, "depth"),
		TK_U64_FLAG("cpu", &cpu, 0, 1023, "cpu"),
		TK_BOOL_FLAG("hugepages", &hugepages, "huge pages"),
		TK_LIST_FLAG("group-size", &groups, 1, 1024, "groups"),
		TK_CHOICE_FLAG("mode", &mode, modes, "mode"),
		TK_CHOICES_FLAG("policy", &policies, modes, "policies"),
		TK_END_FLAG,
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
	(void)tk_flags_parse(specs, argc, argv, err, sizeof(err));
	free(buf);
	return 0;
}
