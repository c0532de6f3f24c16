/* libFuzzer target: a manifest's constraint (constraint.c's parser) on
 * arbitrary bytes against a fixed kernel, and each one that parses
 * evaluated on values taken from the same bytes, as a trial's would be. Any
 * crash, leak or sanitizer report fails (an overflow included), and so does
 * a refusal without a message or placed past the text's end. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tuner/config/config.h"

static const char kernel[] =
	"name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a, b]\nbaseline: a\nmetric: { field: ns }\n"
	"variant_define: K_V\nparameters:\n"
	"  - { name: engine, type: choice, choices: [psync, libaio, io_uring], flag: --engine, role: context }\n"
	"  - { name: block, type: int, min: -4096, max: 4096, flag: --block, role: searched }\n"
	"  - { name: tile, type: int, min: 0, max: 64, flag: --tile, role: searched, variants: [b] }\n"
	"  - { name: huge, type: bool, flag: --huge }\n"
	"  - { name: t_ns, type: duration, min: 0, max: 1000000, inf: true, flag: --t }\n"
	"  - { name: g, type: int, min: 1, max: 256, flag: --g, role: list }\n";

static struct kernel_manifest m;

static int load(void)
{
	struct tune_error err;
	struct ydoc d;
	int rc = ydoc_parse("k.yaml", kernel, strlen(kernel), &d, &err);

	if (rc == 0)
		rc = manifest_decode("k.yaml", d.root, "k", &m, &err);
	ydoc_free(&d);
	return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int loaded = -1;
	struct kernel_constraint c;
	char *text, why[600] = "";
	size_t where;

	if (loaded < 0)
		loaded = load();
	if (loaded != 0 || !(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (constraint_parse(&m, text, &c, &where, why, sizeof(why)) == 0) {
		static const long long edges[] = { 0, 1, -1, 2, 7, LLONG_MAX, LLONG_MIN + 1, PARAM_NA };
		long long values[6];

		for (size_t k = 0; k < 8; k++) {
			for (size_t i = 0; i < 6; i++)
				values[i] = edges[(k + i + (size ? data[(k + i) % size] : 0)) % 8];
			(void)constraint_holds(&c, (int)(k & 1), values);
		}
		if (!c.n || c.root < 0 || (size_t)c.root >= c.n)
			abort();
		(void)constraint_names(&c, size % 7, 6);
		free(c.nodes);
	} else if (!why[0] || where > strlen(text)) {
		abort(); /* an error says what, placed inside the text (to its end) */
	}
	free(text);
	return 0;
}
