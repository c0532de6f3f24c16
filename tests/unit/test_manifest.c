/* Kernel manifests: the shipped ones load and agree with the variants the
 * tuner knows; every bad manifest gets one error naming the file, line and
 * column (or the key) and what to do. Table-driven. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tuner/kernel.h"
#include "../../tuner/manifest.h"
#include "../check.h"

static const char good[] = "name: k\nmain: k/main.c\nsources: [k/main.c, k/k.h]\nvariants: [plain, fast]\n"
			   "baseline: plain\n";

static const struct {
	const char *yaml;
	const char *expect[2];
} bad_cases[] = {
	{ "name: k\nmain: k/main.c\nsorces: [k/main.c]\nvariants: [a]\nbaseline: a\n",
	  { ":3:1: unknown key 'sorces'", "did you mean 'sources'?" } },
	{ "name: k\nsources: [k/main.c]\nvariants: [a]\nbaseline: a\n", { "key 'main' is missing" } },
	{ "name: k\nmain: /etc/passwd\nsources: [/etc/passwd]\nvariants: [a]\nbaseline: a\n",
	  { ":2:7: key 'main': '/etc/passwd' is not a path inside the folder" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c, ../../x.h]\nvariants: [a]\nbaseline: a\n",
	  { ":3:21: key 'sources': '../../x.h' is not a path inside the folder" } },
	{ "name: k\nmain: k/main.c\nsources: [k/k.h, k/main.c]\nvariants: [a]\nbaseline: a\n",
	  { "key 'sources': the first source must be main, 'k/main.c'" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a, b]\nbaseline: c\n",
	  { "key 'baseline': 'c' is not one of the variants" } },
	{ "name: other\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a]\nbaseline: a\n",
	  { "key 'name': 'other' is not its folder's name 'k'" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a, \"b; rm\"]\nbaseline: a\n",
	  { ":4:15: key 'variants': 'b; rm' has ';' at character 2" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a]\nbaseline: a\nlink_flags: -lm\nlink_flags: -lm\n",
	  { ":7:1: key 'link_flags' is given twice" } },
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

int main(void)
{
	char dir[] = "/tmp/tune-test-manifest-XXXXXX", path[256];
	struct kernel_manifest m;
	struct tune_error err;

	/* The shipped manifests, from the source tree. */
	for (int k = 0; k < KERNEL_COUNT; k++) {
		int rc = manifest_load(kernel_table[k].name, &m, &err);
		size_t n = 0;

		CHECK(rc == 0, "%s: %s", kernel_table[k].name, err.msg);
		for (; rc == 0 && kernel_table[k].variant_names[n]; n++)
			CHECK(n < m.variants.n && !strcmp(m.variants.v[n], kernel_table[k].variant_names[n]),
			      "%s: variant %zu is '%s' in the tuner", kernel_table[k].name, n, kernel_table[k].variant_names[n]);
		CHECK(rc || n == m.variants.n, "%s: as many variants as the tuner knows", kernel_table[k].name);
		manifest_free(&m);
	}

	if (!mkdtemp(dir))
		return 2;
	setenv("TUNE_KERNELS_DIR", dir, 1);
	snprintf(path, sizeof(path), "%s/k", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/k/kernel.yaml", dir);
	write_file(path, good);
	CHECK(manifest_load("k", &m, &err) == 0, "a good manifest: %s", err.msg);
	CHECK(m.variants.n == 2 && !strcmp(m.baseline, "plain") && m.sources.n == 2, "its values");
	manifest_free(&m);
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		int rc;

		write_file(path, bad_cases[i].yaml);
		err.msg[0] = '\0';
		rc = manifest_load("k", &m, &err);
		manifest_free(&m);
		CHECK(rc == TUNE_ERR_CONFIG, "case %zu: rc %d", i, rc);
		CHECK(strstr(err.msg, "kernel.yaml") != NULL, "case %zu: names the file: %s", i, err.msg);
		for (int k = 0; k < 2 && bad_cases[i].expect[k]; k++)
			CHECK_CONTAINS(err.msg, bad_cases[i].expect[k]);
	}
	/* One that is not there names those that are. */
	write_file(path, good);
	CHECK(manifest_load("nope", &m, &err) == TUNE_ERR_CONFIG, "missing kernel");
	manifest_free(&m);
	CHECK_CONTAINS(err.msg, "kernel 'nope' not found");
	CHECK_CONTAINS(err.msg, "kernels there: k");
	unlink(path);
	snprintf(path, sizeof(path), "%s/k", dir);
	rmdir(path);
	rmdir(dir);
	return check_done("test_manifest");
}
