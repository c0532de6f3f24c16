/* libFuzzer target: Kernel Tuner's cache files (search_space_parse_kt), the
 * text of a file tune replay --kernel-tuner reads. Whatever the input, it
 * parses or is refused with a message; a space it takes has a best valid
 * configuration, each point's configuration in range, and each
 * configuration's point back from its coordinates. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../tuner/search/search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct search_space sp;
	struct tune_error err;
	size_t coord[64];

	if (search_space_parse_kt((const char *)data, size, "fuzz.json", &sp, &err) == 0) {
		if (sp.best >= sp.nconfigs || !sp.configs[sp.best].valid || sp.nparams > 64)
			abort();
		for (size_t p = 0; p < sp.npoints; p++) {
			if (sp.config_of[p] >= (int32_t)sp.nconfigs)
				abort();
			search_space_coords(&sp, p, coord);
			if (search_space_point(&sp, coord) != p)
				abort();
		}
	} else if (!err.msg[0]) {
		abort();
	}
	search_space_free(&sp);
	return 0;
}
