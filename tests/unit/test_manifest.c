/* Kernel manifests: the shipped ones load and agree with the variants the
 * tuner knows; every bad manifest gets one error naming the file, line and
 * column (or the key) and what to do. Table-driven. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../tuner/config/config.h"
#include "../../tuner/plan/plan.h"
#include "../check.h"

static const char good[] = "name: k\nmain: k/main.c\nsources: [k/main.c, k/k.h]\nvariants: [plain, fast]\n"
			   "baseline: plain\nmetric: { field: ns_per_op, unit: ns }\nvariant_define: K_VARIANT\n"
			   "parameters:\n"
			   "  - { name: size_mb, type: int, min: 1, max: 4096, default: 64, flag: --size-mb, role: context }\n"
			   "  - { name: hint, type: choice, choices: [t0, nta], define: K_HINT, role: searched, variants: [fast] }\n"
			   "  - { name: g, type: int, min: 1, max: 256, flag: --g, role: list }\n"
			   "correctness: checksum\nexports: [variant, hint, g]\n";

/* The keys every case below shares; each adds its own parameters or metric. */
#define HEAD "name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a, b]\nbaseline: a\n"
#define METRIC "metric: { field: ns }\n"

static const struct {
	const char *yaml;
	const char *expect[2];
} bad_cases[] = {
	{ "name: k\nmain: k/main.c\nsorces: [k/main.c]\nvariants: [a]\nbaseline: a\n",
	  { ":3:1: unknown key 'sorces'", "did you mean 'sources'?" } },
	{ "name: k\nsources: [k/main.c]\nvariants: [a]\nbaseline: a\nmetric: { field: x }\n",
	  { "key 'main' is missing: give the file compiled", "or the program run as it is (command:" } },
	/* Command kernels: what only they may say, and what they may not. */
	{ "name: k\ncommand: [prog, \"--n={n}\"]\nvariants: [a]\nbaseline: a\nmetric: { field: x, json: a.b }\n",
	  { "key 'command': '{n}' in '--n={n}' is no parameter's" } },
	{ "name: k\ncommand: [prog, \"--n={nn}\"]\nvariants: [a]\nbaseline: a\nmetric: { field: x, json: a.b }\n"
	  "parameters:\n  - { name: n1, type: int, min: 1, max: 9, default: 1 }\n",
	  { "'{nn}' in '--n={nn}' is no parameter's (did you mean '{n1}'?)" } },
	{ "name: k\ncommand: \"dd if=/dev/zero of=/dev/null\"\nvariants: [a]\nbaseline: a\n"
	  "metric: { field: x, regex: 'copied, ([0-9.]+) s' }\n",
	  { "'dd if=/dev/zero of=/dev/null' is one string: give the argv as a list" } },
	{ "name: k\ncommand: [\"{prog}\"]\nvariants: [a]\nbaseline: a\nmetric: { field: x, json: a.b }\n",
	  { "the program '{prog}' is a placeholder" } },
	{ "name: k\ncommand: [prog, \"--n={n\"]\nvariants: [a]\nbaseline: a\nmetric: { field: x, json: a.b }\n",
	  { "opens a '{' it does not close" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c]\ncommand: [prog]\nvariants: [a]\nbaseline: a\n"
	  "metric: { field: x, json: a.b }\n", { "key 'main': a command kernel (command:) is run as it is", "drop 'main'" } },
	{ "name: k\ncommand: [prog]\nvariants: [a]\nbaseline: a\nmetric: { field: x, json: a.b }\ncorrectness: c\n",
	  { "key 'correctness': a command kernel" } },
	{ "name: k\ncommand: [prog]\nvariants: [a]\nbaseline: a\nmetric: { field: x }\n",
	  { "give json (a path: jobs.0.read.iops) or regex (its first group), one of them" } },
	{ "name: k\ncommand: [prog]\nvariants: [a]\nbaseline: a\nmetric: { field: x, json: a, regex: 'b(c)' }\n",
	  { "one of them" } },
	{ "name: k\ncommand: [prog]\nvariants: [a]\nbaseline: a\nmetric: { field: x, regex: 'b(c' }\n",
	  { "key 'metric.regex': 'b(c' is not a regular expression" } },
	{ "name: k\ncommand: [prog]\nvariants: [a]\nbaseline: a\nmetric: { field: x, regex: 'bc' }\n",
	  { "key 'metric.regex': 'bc' has no group" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a]\nbaseline: a\nmetric: { field: x, json: a.b }\n",
	  { "key 'metric.json': only a command kernel (command:) has it" } },
	{ "name: k\ncommand: [prog, \"--n={n}\"]\nvariants: [a]\nbaseline: a\nmetric: { field: x, json: a.b }\n"
	  "parameters:\n  - { name: n, type: int, min: 1, max: 9, default: 1, define: N }\n",
	  { "parameter 'n': a command kernel is not compiled: drop 'define'" } },
	{ "name: k\ncommand: [prog]\nvariants: [a]\nbaseline: a\nmetric: { field: x, json: a.b }\n"
	  "parameters:\n  - { name: n, type: int, min: 1, max: 9, default: 1 }\n",
	  { "parameter 'n': give it either 'define' (compile time) or 'flag' (run time), or use it as {name} in command" } },
	{ "name: k\nmain: /etc/passwd\nsources: [/etc/passwd]\nvariants: [a]\nbaseline: a\n",
	  { ":2:7: key 'main': '/etc/passwd' is not a path inside the folder" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c, ../../x.h]\nvariants: [a]\nbaseline: a\n",
	  { ":3:21: key 'sources': '../../x.h' is not a path inside the folder" } },
	{ "name: k\nmain: k/main.c\nsources: [k/k.h, k/main.c]\nvariants: [a]\nbaseline: a\nmetric: { field: ns }\n",
	  { "key 'sources': the first source must be main, 'k/main.c'" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a, b]\nbaseline: c\nmetric: { field: ns }\n",
	  { "key 'baseline': 'c' is not one of the variants" } },
	{ "name: other\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a]\nbaseline: a\nmetric: { field: ns }\n",
	  { "key 'name': 'other' is not its folder's name 'k'" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a, \"b; rm\"]\nbaseline: a\n",
	  { ":4:15: key 'variants': 'b; rm' has ';' at character 2" } },
	{ "name: k\nmain: k/main.c\nsources: [k/main.c]\nvariants: [a]\nbaseline: a\nlink_flags: -lm\nlink_flags: -lm\n",
	  { ":7:1: key 'link_flags' is given twice" } },
	{ HEAD, { "key 'metric' is missing" } },
	{ HEAD "metric: { unit: ns }\n", { ":6:9: key 'field' is missing" } },
	{ HEAD "metric: { field: ns, better: faster }\n", { ":6:30: key 'better': unknown value 'faster'", "lower higher" } },
	{ HEAD "metric: { field: ns, count: n }\n", { "key 'metric.count': 'n' is not an int parameter of the kernel" } },
	{ HEAD "metric: { field: ns, count: h }\nparameters:\n  - { name: h, type: choice, choices: [x], define: H }\n",
	  { "key 'metric.count': 'h' is not an int parameter" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, flag: --g, column: group_size }\n",
	  { ":8:54: key 'column' is no longer read: remove it", "json_extract(params, '$.<name>')" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8 }\n",
	  { ":8:5: parameter 'g': give it either 'define' (compile time) or 'flag' (run time)" } },
	{ HEAD METRIC "moved: { gs: [g, nope] }\nparameters:\n  - { name: g, type: int, min: 1, max: 8, flag: --g }\n",
	  { ":7:18: key 'moved': 'nope' is not a parameter (or variant): name what took the place of 'gs'" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, flag: --g, define: G }\n",
	  { ":8:5: parameter 'g': give it either 'define'" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, flag: --g }\n",
	  { ":8:5: parameter 'g': give its range with 'min' and 'max'" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: integer, flag: --g }\n",
	  { ":8:22: key 'type': unknown value 'integer'", "int choice bool duration" } },
	{ HEAD METRIC "parameters:\n  - { name: h, type: choice, define: H }\n",
	  { ":8:5: parameter 'h': a choice needs 'choices'" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, define: \"G; rm -rf /\" }\n",
	  { ":8:5: parameter 'g': define 'G; rm -rf /' is not a C identifier" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, flag: \"--g $(id)\" }\n",
	  { ":8:5: parameter 'g': flag '--g $(id)' is not a flag of its own" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, flag: --runs }\n",
	  { "flag '--runs' is not a flag of its own", "--runs, --warmup and --seed are the tuner's" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, define: G, role: list }\n",
	  { ":8:5: parameter 'g': a list is measured in one process, so it needs a 'flag'" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, flag: --g, role: list }\n"
	  "  - { name: t, type: int, min: 1, max: 8, flag: --t, role: list }\n",
	  { ":9:5: parameter 't': 'g' is already the list parameter" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, flag: --g }\n"
	  "  - { name: g, type: int, min: 1, max: 8, flag: --h }\n",
	  { ":9:5: parameter 'g' is declared twice (first on line 8" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, flag: --g }\n"
	  "  - { name: h, type: int, min: 1, max: 8, flag: --g }\n",
	  { ":9:5: parameter 'h': its flag is also parameter 'g''s" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, default: 9, flag: --g }\n",
	  { ":8:5: parameter 'g': default 9 is out of range [1, 8]" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, flag: --g, variants: [c] }\n",
	  { ":8:5: parameter 'g': variant 'c' is not one of the kernel's variants" } },
	{ HEAD METRIC "parameters:\n  - { name: s, type: int, min: 1, max: 8, flag: --s, role: context, variants: [b] }\n",
	  { ":8:5: parameter 's': a context applies to every variant" } },
	{ HEAD METRIC "parameters:\n  - { name: variant, type: int, min: 1, max: 8, flag: --v }\n",
	  { ":8:5: parameter 'variant': the name is the variants' own" } },
	{ HEAD METRIC "parameters:\n  - name: g\n    typ: int\n", { ":9:5: unknown key 'typ'", "did you mean 'type'?" } },
	{ HEAD METRIC "parameters: { name: g }\n", { ":7:13: key 'parameters': expected a list of mappings" } },
	{ HEAD METRIC "exports: [g]\n", { "key 'exports': 'g' is not a parameter (or variant)" } },
	{ HEAD METRIC "parameters:\n  - { name: h, type: choice, choices: [x], define: H, memory_mb: true }\n",
	  { ":8:5: parameter 'h': memory_mb is for an int (MiB)" } },
	{ HEAD METRIC "variant_define: K_V\nvariant_flag: --v\n", { "keys 'variant_define' and 'variant_flag': give one" } },
	{ HEAD METRIC "parameters:\n  - { name: g, type: int, min: 1, max: 8, flag: --g, inf: true }\n",
	  { ":8:5: parameter 'g': inf is for a duration" } },
	{ HEAD METRIC "parameters:\n  - { name: t, type: duration, min: 0, max: 8, flag: --t, always: [0] }\n",
	  { ":8:5: parameter 't': 'always' is for the list parameter" } },
	{ HEAD METRIC "parameters:\n  - { name: t, type: duration, min: 0, max: 8, flag: --t, role: list, always: [0, inf] }\n",
	  { ":8:5: parameter 't': always: 'inf' is not an integer" } },
	{ HEAD METRIC "parameters:\n  - { name: hi, type: int, min: 0, max: 8, flag: --hi, at_least: lo }\n"
	  "  - { name: lo, type: int, min: 0, max: 8, flag: --lo }\n",
	  { ":8:5: parameter 'hi': at_least 'lo' is not a numeric parameter declared before it" } },
	{ HEAD METRIC "parameters:\n  - { name: n, type: int, min: 0, max: 8, flag: --n }\n"
	  "probe: { name: p, params: { m: 1 }, fields: [x] }\n",
	  { ":9:29: key 'probe.params': 'm' is not a parameter of the kernel" } },
	{ HEAD METRIC "parameters:\n  - { name: n, type: int, min: 0, max: 8, flag: --n }\n"
	  "probe: { name: p, params: { n: 9 }, fields: [x] }\n",
	  { ":9:32: key 'probe.params': parameter 'n': 9 is out of range [0, 8]" } },
	{ HEAD METRIC "probe: { name: p, params: {} }\n", { "key 'fields' is missing" } },
	{ HEAD METRIC "parameters:\n  - { name: n, type: int, min: 0, max: 8, flag: --n, role: list }\n"
	  "probe: { name: p, fields: [x, y], start: [x, z] }\n",
	  { "key 'probe.start': give two of the probe's fields, the low and high bound" } },
	{ HEAD METRIC "probe: { name: p, fields: [x, y], start: [x, y] }\n",
	  { "key 'probe.start': give two of the probe's fields, the low and high bound of the list parameter's best "
	    "(the kernel has no list parameter)" } },
	{ HEAD METRIC "parameters:\n  - { name: n, type: int, min: 0, max: 8, flag: --n }\n"
	  "probe: { name: p, fields: [x], per: m }\n",
	  { "key 'probe.per': 'm' is not a parameter a sweep sets" } },
	{ HEAD METRIC "parameters:\n  - { name: n, type: int, min: 0, max: 8, flag: --n }\n"
	  "probe: { name: p, params: { n: 1 }, fields: [x], per: n }\n",
	  { ":9:29: key 'probe.params': 'n' is the probe's 'per' parameter, which takes the sweep's values" } },
	{ HEAD METRIC "parameters:\n  - { name: t, type: int, min: 0, max: 8, flag: --t, role: list }\n"
	  "baseline_as: { variant: a, t: 0 }\n",
	  { ":9:25: key 'baseline_as': variant 'a' is not a variant other than the baseline" } },
	{ HEAD METRIC "parameters:\n  - { name: t, type: int, min: 0, max: 8, flag: --t, role: list }\n"
	  "baseline_as: { variant: b, t: 9 }\n",
	  { ":9:31: key 'baseline_as': parameter 't': 9 is out of range [0, 8]" } },
	{ HEAD METRIC "parameters:\n  - { name: t, type: int, min: 0, max: 8, flag: --t, role: list }\n"
	  "baseline_as: { variant: b, u: 0 }\n",
	  { ":9:28: key 'baseline_as': 'u' is not 'variant' or the list parameter t" } },
	{ HEAD METRIC "baseline_as: { variant: b }\n", { "key 'baseline_as': the kernel has no list parameter for it to give a value of" } },
	{ HEAD METRIC "parameters:\n  - { name: t, type: int, min: 0, max: 8, flag: --t, role: list }\n"
	  "baseline_as: { variant: b }\n", { "key 'baseline_as': give 'variant' and 't'" } },
	{ HEAD "metric: { field: ns, limit: x }\n", { "key 'metric.limit': 'x' is not one of the probe's fields" } },
	{ HEAD "metric: { field: ns, limit: x, limit_times: d }\nprobe: { name: p, fields: [x] }\n",
	  { "key 'metric.limit_times': 'd' is not a parameter of the kernel" } },
	{ HEAD METRIC "parameters:\n  - { name: p, type: bool, define: P, role: probe }\n",
	  { ":8:5: parameter 'p': the probe runs the sweep's build, so a probe parameter needs a 'flag'" } },
	{ HEAD METRIC "parameters:\n  - { name: t, type: int, min: 0, max: 8, flag: --t, auto_from: ipa }\n",
	  { ":8:5: parameter 't': auto_from 'ipa' is not kernel.parameter" } },
	{ HEAD METRIC "parameters:\n  - { name: c, type: choice, choices: [x, y], flag: --c, default: z }\n",
	  { "default 'z' is not one of x y" } },
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
	{
		char **names = NULL;
		int n = manifest_names(&names);

		int found = 0;

		/* Another shipped kernel is its folder alone: no count to change here. */
		for (int k = 0; k < n; k++)
			found += !strcmp(names[k], "chase") || !strcmp(names[k], "ipa") || !strcmp(names[k], "sched");
		CHECK(found == 3, "the three shipped kernels among %d", n);
		for (int k = 0; k < n; k++) {
			CHECK(manifest_load(names[k], &m, &err) == 0, "%s: %s", names[k], err.msg);
			manifest_free(&m);
			free(names[k]);
		}
		free(names);
	}
	/* chase: its parameters are data its own views read back as columns;
	 * a run is its queries. */
	CHECK(manifest_load("chase", &m, &err) == 0, "chase: %s", err.msg);
	CHECK(m.views && !strcmp(m.views, "chase/views.sql") && m.metric.count && !strcmp(m.metric.count, "queries"),
	      "chase's views and count");
	manifest_free(&m);
	/* ipa is run by its manifest alone: its threshold takes inf and always
	 * measures 0 and inf; its probe measures the wake-up cost. */
	CHECK(manifest_load("ipa", &m, &err) == 0, "ipa: %s", err.msg);
	if (manifest_param(&m, "threshold_ns")) {
		const struct kernel_param *t = manifest_param(&m, "threshold_ns");

		CHECK(t->inf && t->always.n == 2 && manifest_list_param(&m) == t, "ipa's threshold: a list with inf");
		CHECK(m.probe.name && !strcmp(m.probe.name, "wakeup") && m.probe.fields.n == 2, "ipa's probe");
	}
	manifest_free(&m);
	/* sched takes its threshold from ipa's optimum when a sweep says auto. */
	CHECK(manifest_load("sched", &m, &err) == 0, "sched: %s", err.msg);
	if (manifest_param(&m, "threshold_ns")) {
		const struct kernel_param *t = manifest_param(&m, "threshold_ns");
		long long v = 0;
		char why[128], text[16];

		CHECK(t->auto_from && !strcmp(t->auto_from, "ipa.threshold_ns"), "sched's threshold: auto from ipa");
		CHECK(manifest_param_value(t, "auto", &v, why, sizeof(why)) == 0 && v == PARAM_AUTO, "auto is a value");
		manifest_param_text(t, v, text, sizeof(text));
		CHECK(!strcmp(text, "auto"), "auto as text: %s", text);
		CHECK(m.variant_field && !strcmp(m.variant_field, "policy"), "sched's policies in one process");
	}
	manifest_free(&m);

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
	/* A kernel named like the start of tune's own views could take them. */
	{
		char tdir[300], tpath[320], text[sizeof(good) + 32];
		const char *name = strstr(good, "name: k\n");

		snprintf(tdir, sizeof(tdir), "%s/trial", dir);
		mkdir(tdir, 0755);
		snprintf(tpath, sizeof(tpath), "%s/kernel.yaml", tdir);
		CHECK(name != NULL, "the good manifest names k");
		if (name) {
			snprintf(text, sizeof(text), "%.*sname: trial\n%s", (int)(name - good), good, name + strlen("name: k\n"));
			write_file(tpath, text);
			CHECK(manifest_load("trial", &m, &err) != 0, "a kernel named trial is refused");
			CHECK_CONTAINS(err.msg, "key 'name': 'trial' is reserved: its views would be named like tune's own");
			manifest_free(&m);
		}
	}
	/* A key a kernel's manifest says it moved, or a parameter's name, given
	 * where a sweep or platform has its own keys: the manifest says what to
	 * write, any kernel's as the shipped ones'. */
	{
		char text[sizeof(good) + 64], buf[600];

		snprintf(text, sizeof(text), "%smoved: { gs: [g], old: [variant, hint] }\n", good);
		write_file(path, text);
		struct ydoc chase, mine;

		CHECK(ydoc_parse("s.yaml", "kernel: chase\n", 14, &chase, &err) == 0 &&
		      ydoc_parse("s.yaml", "kernel: k\n", 10, &mine, &err) == 0, "tops: %s", err.msg);
		snprintf(text, sizeof(text), "%smoved: { gs: [g], old: [variant, hint] }\n", good);
		write_file(path, text);
		CHECK(kernel_key_explain("gs", NULL, NULL, buf, sizeof(buf)) == CONF_EXPLAINED_MOVED, "gs: moved");
		CHECK_CONTAINS(buf, "kernel k's parameter replaced it: write params: { g: ... }");
		CHECK(kernel_key_explain("old", "quick", NULL, buf, sizeof(buf)) == CONF_EXPLAINED_MOVED, "old: moved");
		CHECK_CONTAINS(buf, "kernel k's parameters replaced it: write quick: { params: { variant: ..., hint: ... } }");
		CHECK(kernel_key_explain("hint", NULL, NULL, buf, sizeof(buf)) == CONF_EXPLAINED_ELSEWHERE, "hint: a parameter");
		CHECK_CONTAINS(buf, "'hint' is a parameter of kernels chase, k: write params: { hint: ... }");
		CHECK(kernel_key_explain("hint", "hosts", NULL, buf, sizeof(buf)) == 0, "not in another section");
		CHECK(kernel_key_explain("hintz", NULL, NULL, buf, sizeof(buf)) == 0, "hintz: nobody's");
		/* A sweep of chase is told of chase's keys alone; one of k of k's. */
		CHECK(kernel_key_explain("gs", NULL, chase.root, buf, sizeof(buf)) == 0, "gs: not chase's");
		CHECK(kernel_key_explain("hints", NULL, mine.root, buf, sizeof(buf)) == 0, "hints: not k's");
		CHECK(kernel_key_explain("hint", NULL, mine.root, buf, sizeof(buf)) == CONF_EXPLAINED_ELSEWHERE, "k's hint");
		CHECK_CONTAINS(buf, "'hint' is a parameter of kernel k: write params: { hint: ... }");
		/* The sweep's kernel's manifest broken: that is what it is told. */
		snprintf(text, sizeof(text), "%smoved: { gs: [gg] }\n", good);
		write_file(path, text);
		CHECK(kernel_key_explain("gs", NULL, mine.root, buf, sizeof(buf)) == CONF_EXPLAINED_UNREAD, "k unread");
		CHECK_CONTAINS(buf, "(kernel k's manifest, which may say where it went, does not load: ");
		CHECK_CONTAINS(buf, "key 'moved': 'gg' is not a parameter (or variant)");
		ydoc_free(&chase);
		ydoc_free(&mine);
		/* Only a key no longer read moves. */
		for (size_t i = 0; i < 2; i++) {
			snprintf(text, sizeof(text), "%smoved: { %s: [g] }\n", good, i ? "runs" : "hint");
			write_file(path, text);
			CHECK(manifest_load("k", &m, &err) != 0, "moved: %s is refused", i ? "runs" : "hint");
			CHECK_CONTAINS(err.msg, i ? "'runs' is a key of sweeps or platforms themselves"
				       : "'hint' is a parameter of the kernel: only a key no longer read moves");
			manifest_free(&m);
		}
		write_file(path, good);
	}
	/* Every kernel's report is the same: 'report' is no longer read, and
	 * says what is instead. */
	{
		static const char *const kinds[] = { "own", "generic" };

		for (size_t i = 0; i < 2; i++) {
			char text[sizeof(good) + 32];

			snprintf(text, sizeof(text), "%sreport: %s\n", good, kinds[i]);
			write_file(path, text);
			CHECK(manifest_load("k", &m, &err) != 0, "report: %s is refused", kinds[i]);
			CHECK_CONTAINS(err.msg, "key 'report' is no longer read: remove it");
			manifest_free(&m);
		}
		write_file(path, good);
	}
	CHECK(manifest_load("k", &m, &err) == 0, "a good manifest: %s", err.msg);
	CHECK(m.parameters.n == 3 && !strcmp(m.metric.field, "ns_per_op") && m.metric.better == BETTER_LOWER,
	      "its parameters and metric");
	if (m.parameters.n == 3) {
		const struct kernel_param *hint = manifest_param(&m, "hint");
		long long v = -1;
		char why[128], text[32];

		CHECK(manifest_list_param(&m) == MANIFEST_PARAM(&m, 2), "g is the list");
		CHECK(hint && hint->role == ROLE_SEARCHED && !strcmp(hint->define, "K_HINT"), "hint is a define");
		CHECK(hint && !manifest_param_applies(&m, hint, 0) && manifest_param_applies(&m, hint, 1),
		      "hint applies to fast only");
		CHECK(hint && manifest_param_value(hint, "nta", &v, why, sizeof(why)) == 0 && v == 1, "nta is choice 1");
		CHECK(hint && manifest_param_value(hint, "t9", &v, why, sizeof(why)) != 0, "t9 is no choice");
		CHECK_CONTAINS(why, "'t9' is not one of t0 nta");
		manifest_param_text(MANIFEST_PARAM(&m, 0), 64, text, sizeof(text));
		CHECK(!strcmp(text, "64"), "an int as text: %s", text);
		CHECK(manifest_param_value(MANIFEST_PARAM(&m, 0), "0", &v, why, sizeof(why)) != 0, "0 MB is out of range");
		CHECK_CONTAINS(why, "0 is out of range [1, 4096]");
	}
	manifest_free(&m);
	{
		/* A duration that takes inf: never, as the largest integer, and back. */
		static const char yaml[] = HEAD METRIC "parameters:\n"
			"  - { name: t, type: duration, min: 0, max: 100, flag: --t, role: list, inf: true, always: [0, inf] }\n"
			"  - { name: hi, type: int, min: 0, max: 8, flag: --hi, at_least: t }\n";
		struct ydoc d;
		long long v = 0;
		char why[128], text[32];

		memset(&m, 0, sizeof(m));
		if (ydoc_parse("k.yaml", yaml, strlen(yaml), &d, &err) == 0) {
			CHECK(manifest_decode("k.yaml", d.root, "k", &m, &err) == 0, "inf manifest loads: %s", err.msg);
			ydoc_free(&d);
		} else {
			CHECK(0, "inf manifest parses: %s", err.msg);
		}
		if (m.parameters.n == 2) {
			const struct kernel_param *t = MANIFEST_PARAM(&m, 0);

			CHECK(manifest_param_value(t, "inf", &v, why, sizeof(why)) == 0 && v == LLONG_MAX, "inf is LLONG_MAX");
			CHECK(manifest_param_value(t, "9223372036854775807", &v, why, sizeof(why)) == 0, "so is its number");
			CHECK(manifest_param_value(t, "101", &v, why, sizeof(why)) != 0, "101 is still out of range");
			manifest_param_text(t, LLONG_MAX, text, sizeof(text));
			CHECK(!strcmp(text, "inf"), "LLONG_MAX as text: %s", text);
			CHECK(manifest_param_value(MANIFEST_PARAM(&m, 1), "inf", &v, why, sizeof(why)) != 0,
			      "an int takes no inf");
		}
	}
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
	/* A command kernel: its argv with each {name} replaced (a parameter
	 * its variant lacks: its default), a flag after; its metric read by a
	 * JSON path past a note, or by a regular expression over stderr. */
	write_file(path, "name: k\ncommand: [prog, \"--depth={d}\", \"--{variant}-{e}x\", --fixed]\n"
		   "variants: [one, many]\nbaseline: one\nmetric: { field: iops, better: higher, json: jobs.0.iops }\n"
		   "parameters:\n  - { name: e, type: choice, choices: [sync, async], default: sync }\n"
		   "  - { name: d, type: int, min: 1, max: 64, default: 1, role: list, variants: [many] }\n"
		   "  - { name: s, type: int, min: 1, max: 9, default: 2, flag: --size }\n");
	CHECK(manifest_load("k", &m, &err) == 0, "a command kernel: %s", err.msg);
	if (m.command.n) {
		long long values[] = { 1, 16, 3 };
		struct trial t;
		struct manifest_argv a;
		struct run_place place = { 0, NULL, -1 };
		struct conf_ints none;
		double v = 0;
		char why[256];
		int cpu;

		memset(&none, 0, sizeof(none));
		place.cpus = &none;
		CHECK(manifest_trial(&m, 1, values, 42, 3, 1, &t) == 0, "its trial");
		CHECK(manifest_program_args(&t, &place, &a, &cpu) == 0 && a.argc == 6 && cpu == -1, "its argv: %d", a.argc);
		CHECK(a.argc == 6 && !strcmp(a.argv[0], "prog") && !strcmp(a.argv[1], "--depth=16") &&
		      !strcmp(a.argv[2], "--many-asyncx") && !strcmp(a.argv[3], "--fixed") && !strcmp(a.argv[4], "--size") &&
		      !strcmp(a.argv[5], "3") && !a.argv[6], "its argv, filled");
		CHECK(manifest_trial(&m, 0, values, 42, 3, 1, &t) == 0 && manifest_program_args(&t, &place, &a, &cpu) == 0 &&
		      !strcmp(a.argv[1], "--depth=1"), "a list its variant lacks: its default (%s)", a.argv[1]);
		CHECK(manifest_program_metric(&m, "note: capped\n{\"jobs\": [{\"iops\": 1234.5}]}\n", "", &v, why,
					      sizeof(why)) == 0 && v == 1234.5, "JSON past a note: %g", v);
		CHECK(manifest_program_metric(&m, "{\"jobs\": []}", "", &v, why, sizeof(why)) == -1, "no such index");
		CHECK_CONTAINS(why, "its JSON output has no number at 'jobs.0.iops'");
		CHECK(manifest_program_metric(&m, "fio: bad option", "", &v, why, sizeof(why)) == -1, "not JSON");
		CHECK_CONTAINS(why, "its output is not JSON");
		free(m.metric.json);
		m.metric.json = NULL;
		m.metric.regex = strdup("took ([0-9.]+) s");
		m.metric.output = OUTPUT_STDERR;
		CHECK(manifest_program_metric(&m, "took 9 s", "copied; took 0.25 s\n", &v, why, sizeof(why)) == 0 &&
		      v == 0.25, "a regex over stderr: %g", v);
		CHECK(manifest_program_metric(&m, "", "took x s", &v, why, sizeof(why)) == -1, "no match");
		CHECK_CONTAINS(why, "its output does not match 'took ([0-9.]+) s'");
	}
	manifest_free(&m);
	/* One that is not there names those that are. */
	write_file(path, good);
	CHECK(manifest_load("nope", &m, &err) == TUNE_ERR_CONFIG, "missing kernel");
	manifest_free(&m);
	CHECK_CONTAINS(err.msg, "kernel 'nope' not found");
	CHECK_CONTAINS(err.msg, "kernels there: chase, ipa, ipa_hybrid, k, sched");
	CHECK_CONTAINS(err.msg, "--kernels-dir");
	unlink(path);
	snprintf(path, sizeof(path), "%s/k", dir);
	rmdir(path);
	rmdir(dir);
	return check_done("test_manifest");
}
