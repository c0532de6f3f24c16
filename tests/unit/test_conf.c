/* The YAML loader: every bad-input case gives one error naming the file,
 * line and column, the key, and what to do. Table-driven. */
#include <stdlib.h>
#include <unistd.h>

#include "../../tuner/config/config.h"
#include "../check.h"

struct bad_case {
	const char *kind; /* "platform" or "sweep" */
	const char *yaml;
	const char *expect[3]; /* substrings of the message */
};

static const struct bad_case bad_cases[] = {
	{ "platform", "name: x\nparms: { size_mb: 8 }\n", { ":2:1: unknown key 'parms'", "did you mean 'params'?" } },
	{ "platform", "name: x\nzzz: 1\n", { ":2:1: unknown key 'zzz'", "see 'tune help platform'" } },
	{ "platform", "name: x\ncores: many\n", { ":2:8: key 'cores': expected an integer, got 'many'", "auto" } },
	{ "platform", "name: x\ncpus: [8, -4]\n", { ":2:11: key 'cpus': -4 is out of range [0, 4095]" } },
	{ "platform", "name: x\ncpus: []\n", { ":2:7: key 'cpus': the list is empty", "give at least one value" } },
	{ "platform", "name: x\nparams: [1, 0]\n", { ":2:9: key 'params'" } },
	{ "platform", "name: x\nparams: { \"size_mb; id\": 8 }\n", { ":2:11: key 'params'", "'size_mb; id' has ';' at character 8" } },
	{ "platform", "name: x\narch: sparc\n", { ":2:7: key 'arch': unknown value 'sparc'", "one of: auto x86_64 aarch64" } },
	{ "platform", "name: x\npin: maybe\n", { ":2:6: key 'pin': expected true or false, got maybe" } },
	{ "platform", "name: x\ncflags: {a: 1}\n", { ":2:9: key 'cflags': expected a list, got a mapping" } },
	{ "platform", "description: no name\n", { ":1:1: key 'name' is missing", "add 'name: ...'" } },
	{ "platform", "name: x\nname: y\n", { ":2:1: key 'name' is given twice (first on line 1" } },
	{ "platform", "name: [x\n", { "invalid YAML", "fix the syntax" } },
	{ "platform", "", { "the file is empty" } },
	{ "platform", "- a\n- b\n", { ":1:1: platform file must be a mapping of keys, not a list" } },
	{ "platform", "name: x\nmemory_mb: 99999999999999999999999\n", { "key 'memory_mb': expected an integer", "too large" } },
	{ "platform", "name: x\nparams:\n  grup_size: [1, 4]\n", { ":3:3: key 'params': 'grup_size' is a parameter of no kernel (did you mean 'group_size'?)" } },
	{ "platform", "name: x\nparams: { hint: [pldl1keeep] }\n", { ":2:18: key 'params': no kernel's parameter 'hint' takes a value of this list", "did you mean 'pldl1keep'?" } },
	{ "platform", "name: x\nsize_mb: [1]\n", { ":2:1: unknown key 'size_mb': 'size_mb' is a parameter of kernel chase", "write params: { size_mb: ... }" } },
	{ "platform", "name: x\ncpus: [8, 8]\n", { ":2:11: key 'cpus': value '8' is listed twice" } },
	{ "platform", "name: &a x\ndescription: *a\n", { ":2:14: aliases", "write the value out" } },
	{ "platform", "name: ../../x\n", { ":1:7: key 'name': '../../x' has '/' at character 3", "a name is 1 to 64" } },
	{ "platform", "name: \"x'; system('id') #\"\n", { ":1:7: key 'name': 'x'; system('id') #' has ''' at character 2" } },
	{ "platform", "name: .hidden\n", { ":1:7: key 'name': '.hidden' starts with '.'" } },
	{ "platform", "name: \"a\\nb\"\n", { ":1:7: key 'name': the name has byte 0x0a at character 2" } },
	{ "platform", "name: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n", { ":1:7: key 'name':", "characters long, over 64" } },
	{ "platform", "name: x\nexecutor: slurm\nslurm:\n  url: http://s:6820\n  partition: p\n  shared_dir: /tmp\n  nodes: [n1, \"n2;reboot\"]\n", { ":7:15: key 'nodes': 'n2;reboot' has ';' at character 3" } },
	{ "sweep", "name: s/../../t\nkernel: chase\nparams: { variant: scalar }\n", { ":1:7: key 'name': 's/../../t' has '/' at character 2" } },
	{ "sweep", "name: s\nkernel: chase\nvariants: [scalar]\n", { ":3:1: key 'variants' is no longer read", "params: { variant: [...] }" } },
	{ "sweep", "name: s\nkernel: chase\nparams: { variant: [scalar, async-prefetch] }\n", { ":3:29: key 'params': 'async-prefetch' is not a variant of kernel 'chase'" } },
	{ "sweep", "name: s\nkernel: chase\nparams: { variant: [scalar, interleavd] }\n", { "did you mean 'interleaved'?" } },
	{ "sweep", "name: s\nkernel: chace\nparams: { variant: scalar }\n", { ":2:9: key 'kernel': unknown value 'chace'", "did you mean 'chase'?" } },
	{ "sweep", "name: s\nkernel: chase\nparams: { depth: 5000 }\n", { ":3:18: key 'params': parameter 'depth': 5000 is out of range [0, 4096]" } },
	{ "sweep", "name: s\nkernel: chase\nquick:\n  runz: 3\n", { ":4:3: unknown key 'runz'", "did you mean 'runs'?" } },
	{ "sweep", "name: s\nkernel: chase\nstrategy: annealing\n", { ":3:11: key 'strategy': unknown value 'annealing'" } },
	{ "sweep", "name: s\nkernel: chase\nparams: { queries: 0 }\n", { ":3:20: key 'params': parameter 'queries': 0 is out of range" } },
	{ "sweep", "name: s\nkernel: chase\nparams: { hint: pldl1kep }\n", { "'pldl1kep' is not one of", "did you mean 'pldl1keep'?" } },
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/tune-test-conf-XXXXXX";
	char path[256];
	struct tune_error err;

	if (!mkdtemp(dir))
		return 2;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];
		int rc;

		snprintf(path, sizeof(path), "%s/case%zu.yaml", dir, i);
		write_file(path, c->yaml);
		err.msg[0] = '\0';
		if (!strcmp(c->kind, "platform")) {
			struct platform p;

			rc = platform_load(path, &p, &err);
			platform_free(&p);
		} else {
			struct sweep s;

			rc = sweep_load(path, &s, &err);
			sweep_free(&s);
		}
		CHECK(rc == TUNE_ERR_CONFIG, "case %zu: rc %d", i, rc);
		CHECK(strncmp(err.msg, path, strlen(path)) == 0, "case %zu: message does not start with the file: %s", i,
		      err.msg);
		for (int k = 0; k < 3 && c->expect[k]; k++)
			CHECK_CONTAINS(err.msg, c->expect[k]);
		unlink(path);
	}

	/* A missing file names the platforms that exist. */
	{
		struct platform p;
		int rc = platform_load("no-such-platform", &p, &err);

		platform_free(&p);
		CHECK(rc == TUNE_ERR_CONFIG, "rc %d", rc);
		CHECK_CONTAINS(err.msg, "platform 'no-such-platform' not found");
		CHECK_CONTAINS(err.msg, "known platforms:");
		CHECK_CONTAINS(err.msg, "local");
	}

	/* The shipped files load, and their values are what they say. */
	{
		static const char *const names[] = { "local", "epyc", "m1", NULL };

		for (int i = 0; names[i]; i++) {
			struct platform p;
			int rc = platform_load(names[i], &p, &err);

			CHECK(rc == 0, "platform %s: %s", names[i], err.msg);
			CHECK(rc || !strcmp(p.name, names[i]), "name %s", p.name);
			CHECK(rc || p.sweeps.n == 7, "platform %s lists its sweeps", names[i]);
			platform_free(&p);
		}
	}
	{
		struct platform p;
		int rc = platform_load("epyc", &p, &err);

		CHECK(rc == 0 && p.arch == ARCH_X86_64 && p.pin == 0 && p.memory_mb == 131072, "epyc values");
		const struct conf_entry *g = NULL;

		for (size_t i = 0; rc == 0 && i < p.params.n; i++)
			if (!strcmp(p.params.v[i].name, "group_size"))
				g = &p.params.v[i];
		CHECK(g && g->n == 15 && !strcmp(g->values[13].text, "192"), "epyc has g=192 in its params");
		platform_free(&p);
	}
	{
		static const char *const names[] = { "chase-sizes", "chase-g", "chase-tune", NULL };

		for (int i = 0; names[i]; i++) {
			struct sweep s;
			int rc = sweep_load(names[i], &s, &err);

			CHECK(rc == 0, "sweep %s: %s", names[i], err.msg);
			CHECK(rc || s.quick.runs > 0, "sweep %s has quick overrides", names[i]);
			sweep_free(&s);
		}
	}
	/* A single scalar where a list is expected is a list of one. */
	{
		struct platform p;
		int rc;

		snprintf(path, sizeof(path), "%s/one.yaml", dir);
		write_file(path, "name: one\nparams: { size_mb: 64 }\ncpus: auto\n");
		rc = platform_load(path, &p, &err);
		CHECK(rc == 0 && p.params.n == 1 && p.params.v[0].n == 1 && !strcmp(p.params.v[0].values[0].text, "64"),
		      "list of one: %s", err.msg);
		CHECK(rc == 0 && p.cpus.n == 1 && p.cpus.v[0] == CONF_AUTO_VALUE, "cpus auto");
		platform_free(&p);
		unlink(path);
	}
	/* The chase's old platform keys are refused, saying what to write
	 * (its manifest's moved: and parameters). */
	{
		static const char *const old_keys[][2] = { { "sizes_mb: [8]", "no longer read: kernel chase's parameter replaced it: write params: { size_mb: ... }" },
							    { "group_sizes: [1, 8]", "no longer read: kernel chase's parameter replaced it: write params: { group_size: ... }" },
							    { "hints: [pldl1keep]", "no longer read: kernel chase's parameter replaced it: write params: { hint: ... }" },
							    { "hugepages: [false]", "'hugepages' is a parameter of kernel chase: write params: { hugepages: ... }" } };

		for (size_t i = 0; i < sizeof(old_keys) / sizeof(old_keys[0]); i++) {
			struct platform p;
			char text[128];
			int rc;

			snprintf(path, sizeof(path), "%s/old.yaml", dir);
			snprintf(text, sizeof(text), "name: old\n%s\n", old_keys[i][0]);
			write_file(path, text);
			rc = platform_load(path, &p, &err);
			CHECK(rc == TUNE_ERR_CONFIG, "old key %s: rc %d", old_keys[i][0], rc);
			CHECK_CONTAINS(err.msg, "old.yaml:2:1");
			CHECK_CONTAINS(err.msg, old_keys[i][1]);
			platform_free(&p);
			unlink(path);
		}
	}
	rmdir(dir);
	return check_done("test_conf");
}
