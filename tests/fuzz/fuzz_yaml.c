/* libFuzzer target: the platform, sweep and kernel manifest loaders (YAML
 * tree, then the key tables, then the manifest's own checks) on arbitrary
 * bytes. Any crash, leak or sanitizer report fails. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../../tuner/config/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tune_error err;
	struct ydoc doc;
	struct platform p;
	struct sweep s;
	struct kernel_manifest m;

	if (ydoc_parse("fuzz.yaml", (const char *)data, size, &doc, &err) != 0)
		return 0;
	memset(&p, 0, sizeof(p));
	(void)conf_decode("fuzz.yaml", doc.root, platform_keys, &p, "platform", &err);
	conf_release(platform_keys, &p);
	memset(&s, 0, sizeof(s));
	(void)conf_decode("fuzz.yaml", doc.root, sweep_keys, &s, "sweep", &err);
	conf_release(sweep_keys, &s);
	(void)manifest_decode("fuzz.yaml", doc.root, "k", &m, &err);
	manifest_free(&m);
	ydoc_free(&doc);
	return 0;
}
