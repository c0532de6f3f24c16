#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

const char *const platform_arch_names[] = { "auto", "x86_64", "aarch64", NULL };
const char *const platform_executor_names[] = { "local", "slurm", NULL };

#define SL(field) offsetof(struct platform_slurm, field)
static const struct conf_key slurm_keys[] = {
	{ "url", CONF_STRING, SL(url), 0, 0, NULL, NULL, CONF_REQUIRED, "slurmrestd's URL, http://HOST:PORT" },
	{ "partition", CONF_STRING, SL(partition), 0, 0, NULL, NULL, CONF_REQUIRED, "the partition the jobs go to" },
	{ "user", CONF_STRING, SL(user), 0, 0, NULL, NULL, 0, "the Slurm user (default $USER)" },
	{ "token_env", CONF_STRING, SL(token_env), 0, 0, NULL, NULL, 0, "environment variable holding the JWT (default SLURM_JWT)" },
	{ "token_file", CONF_STRING, SL(token_file), 0, 0, NULL, NULL, 0, "file holding the JWT, instead of token_env" },
	{ "shared_dir", CONF_STRING, SL(shared_dir), 0, 0, NULL, NULL, CONF_REQUIRED, "a directory the nodes and this host share: job outputs (the build cache and tune must be shared too)" },
	{ "nodes", CONF_STRING_LIST, SL(nodes), 0, 0, NULL, NULL, CONF_NAME, "nodes to tune (default: every node of the partition)" },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL },
};
#undef SL

#define P(field) offsetof(struct platform, field)
const struct conf_key platform_keys[] = {
	{ "name", CONF_STRING, P(name), 0, 0, NULL, NULL, CONF_REQUIRED | CONF_NAME, "the platform's name, as given to --platform" },
	{ "description", CONF_STRING, P(description), 0, 0, NULL, NULL, 0, "one line about the machine" },
	{ "arch", CONF_ENUM, P(arch), 0, 0, platform_arch_names, NULL, 0, "instruction set; auto = this host's" },
	{ "compiler", CONF_STRING, P(compiler), 0, 0, NULL, NULL, 0, "C compiler for the kernels (default cc)" },
	{ "cflags", CONF_STRING_LIST, P(cflags), 0, PLATFORM_MAX_CFLAGS - 1, NULL, NULL, 0, "compiler flags for the kernels" },
	{ "pin", CONF_BOOL, P(pin), 0, 0, NULL, NULL, 0, "pin measured threads to cpus (default true)" },
	{ "cpus", CONF_INT_LIST, P(cpus), 0, 4095, NULL, NULL, CONF_AUTO, "CPUs to pin to; auto = a PU of the last core" },
	{ "device_cpu", CONF_INT, P(device_cpu), 0, 4095, NULL, NULL, CONF_AUTO, "ipa: the emulated accelerator's CPU (the apps run on cpus); auto = CPU 0, or 1 when cpus is 0" },
	{ "params", CONF_VALUE_MAP, P(params), 0, 0, NULL, NULL, 0, "values of kernels' parameters that a sweep leaves out, by name: name: value or [values] (e.g. size_mb: [8, 512], group_size: [1, 8, 64]); each kernel takes those of its parameters, else its manifest's default" },
	{ "sweeps", CONF_STRING_LIST, P(sweeps), 0, 0, NULL, NULL, 0, "sweeps that `tune --platform` runs" },
	{ "hosts", CONF_STRING_LIST, P(hosts), 0, 0, NULL, NULL, 0, "where the sweeps run, all at once: local, and/or agent URLs (http://HOST:PORT of `tune agent`); default local" },
	{ "token_file", CONF_STRING, P(token_file), 0, 0, NULL, NULL, 0, "file holding the agents' token" },
	{ "kernels_dirs", CONF_STRING_LIST, P(kernels_dirs), 0, 0, NULL, NULL, 0, "folders of your own kernels (<dir>/<name>/kernel.yaml), relative to this file's folder; searched before the shipped ones" },
	{ "executor", CONF_ENUM, P(executor), 0, 0, platform_executor_names, NULL, 0, "local (this host and agents) or slurm (every node of a partition, through slurmrestd)" },
	{ "slurm", CONF_SECTION, P(slurm), 0, 0, NULL, slurm_keys, 0, "executor slurm: where and how" },
	{ "require_tls", CONF_BOOL, P(require_tls), 0, 0, NULL, NULL, 0, "refuse plain http:// agents and slurmrestd off loopback (default: warn); --require-tls sets it" },
	{ "ca_file", CONF_STRING, P(ca_file), 0, 0, NULL, NULL, 0, "https agents: the CA certificate to trust (default the system's)" },
	{ "memory_mb", CONF_INT, P(memory_mb), 1, 1LL << 40, NULL, NULL, CONF_AUTO, "memory of the machine; auto = this host's" },
	{ "llc_kb", CONF_INT, P(llc_kb), 1, 1LL << 32, NULL, NULL, CONF_AUTO, "last-level cache; auto = this host's" },
	{ "cores", CONF_INT, P(cores), 1, 1 << 20, NULL, NULL, CONF_AUTO, "cores; auto = this host's" },
	{ NULL, 0, 0, 0, 0, NULL, NULL, 0, NULL },
};
#undef P

/* The values of e that parameter kp takes, into v when not NULL: how
 * many, or -1 out of memory. The first it does not take, and why, into
 * *bad and why unless *bad is set already. */
static int entry_values(const struct kernel_param *kp, const struct conf_entry *e, struct conf_ints *v,
			const struct conf_value **bad, char *why, size_t len)
{
	int fit = 0;

	for (size_t k = 0; k < e->n; k++) {
		long long x;
		char w[512];

		if (manifest_param_value(kp, e->values[k].text, &x, w, sizeof(w)) != 0) {
			if (!*bad) {
				*bad = &e->values[k];
				snprintf(why, len, "%s", w);
			}
			continue;
		}
		if (v && conf_ints_push(v, x))
			return -1;
		fit++;
	}
	return fit;
}

/* Every name in params: is a parameter of a kernel tune finds, and each
 * list has a value one such kernel takes: a misspelt name or value is an
 * error here, not a default used in silence. */
static int check_params(const struct platform *p, struct tune_error *err)
{
	char **names = NULL;
	int n = p->params.n ? manifest_names(&names) : 0, rc = 0;
	struct kernel_manifest *ms = calloc(n > 0 ? (size_t)n : 1, sizeof(*ms));
	const char **known = NULL;
	size_t nknown = 0;

	if (!ms) {
		for (int i = 0; i < n; i++)
			free(names[i]);
		free(names);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	/* A kernel whose manifest does not load says so when it is run. */
	for (int i = 0; i < n; i++) {
		struct tune_error ignored;

		if (manifest_load(names[i], &ms[i], &ignored) != 0)
			memset(&ms[i], 0, sizeof(ms[i]));
		nknown += ms[i].parameters.n;
	}
	if (!(known = calloc(nknown + 1, sizeof(*known)))) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	} else {
		nknown = 0;
		for (int i = 0; i < n; i++)
			for (size_t k = 0; k < ms[i].parameters.n; k++)
				known[nknown++] = MANIFEST_PARAM(&ms[i], k)->name;
	}
	for (size_t e = 0; !rc && e < p->params.n; e++) {
		const struct conf_entry *pe = &p->params.v[e];
		const struct conf_value *bad = NULL;
		const char *taker = NULL, *suggestion;
		char why[512] = "";
		int found = 0;

		for (int i = 0; i < n && !taker; i++) {
			const struct kernel_param *kp = manifest_param(&ms[i], pe->name);

			found |= kp != NULL;
			if (kp && entry_values(kp, pe, NULL, &bad, why, sizeof(why)) > 0)
				taker = ms[i].name;
		}
		for (int i = 0; i < n && !found && !rc; i++)
			if (manifest_moved_explain(&ms[i], pe->name, "params", why, sizeof(why)))
				rc = conf_fail_at(err, p->path, pe->at, "key 'params': '%s' is no longer read: %s", pe->name,
						  why);
		if (!found && !rc) {
			suggestion = tune_suggest(pe->name, known);
			rc = conf_fail_at(err, p->path, pe->at, "key 'params': '%s' is a parameter of no kernel%s%s%s (see "
					  "'tune kernels')", pe->name, suggestion ? " (did you mean '" : "", suggestion ? suggestion : "",
					  suggestion ? "'?)" : "");
		} else if (!taker && bad) {
			rc = conf_fail_at(err, p->path, bad->at, "key 'params': no kernel's parameter '%s' takes a value of "
					  "this list (%s)", pe->name, why);
		}
	}
	for (int i = 0; i < n; i++) {
		if (ms[i].name)
			manifest_free(&ms[i]);
		free(names[i]);
	}
	free(names);
	free(ms);
	free(known);
	return rc;
}

int platform_load(const char *name, struct platform *p, struct tune_error *err)
{
	int rc;

	memset(p, 0, sizeof(*p));
	p->pin = 1;
	p->memory_mb = p->llc_kb = p->cores = p->device_cpu = CONF_AUTO_VALUE;
	if ((rc = conf_load("platforms", "platform", name, platform_keys, p, kernel_key_explain, &p->path, err)) != 0)
		return rc;
	if (!p->compiler && !(p->compiler = strdup("cc")))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (p->executor == EXECUTOR_SLURM && !p->slurm.url)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: executor slurm needs a 'slurm:' section (url, partition, "
				 "shared_dir; see 'tune help platform')", p->path);
	if (p->executor == EXECUTOR_SLURM && p->hosts.n)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'hosts': a slurm platform runs on the nodes of its "
				 "partition (list them in slurm.nodes instead)", p->path);
	for (size_t i = 0; i < p->kernels_dirs.n; i++) {
		char dir[4096];
		const char *slash = strrchr(p->path, '/');

		/* Relative to the platform file, wherever tune runs from. */
		if (p->kernels_dirs.v[i][0] == '/' || !slash)
			snprintf(dir, sizeof(dir), "%s", p->kernels_dirs.v[i]);
		else
			snprintf(dir, sizeof(dir), "%.*s/%s", (int)(slash - p->path), p->path, p->kernels_dirs.v[i]);
		if ((rc = paths_add_kernels_dir(dir)) == PATHS_NOT_A_FOLDER)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'kernels_dirs': '%s' is not a folder (give the folder "
					 "that holds <kernel>/kernel.yaml, relative to the platform file)", p->path, dir);
		if (rc != 0)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'kernels_dirs': more than %d kernel folders", p->path,
					 PATHS_MAX_KERNEL_DIRS);
	}
	if (!p->cpus.n && conf_ints_push(&p->cpus, CONF_AUTO_VALUE))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	return check_params(p, err);
}

int platform_resolve(struct platform *p, const struct host_facts *f, struct tune_error *err)
{
	int host_arch = !strcmp(f->arch, "x86_64") ? ARCH_X86_64 : !strcmp(f->arch, "aarch64") ? ARCH_AARCH64 : -1;

	if (p->arch == ARCH_AUTO && host_arch > 0)
		p->arch = host_arch;
	if (p->arch != host_arch)
		return tune_fail(err, TUNE_ERR_CONFIG,
				 "%s: platform '%s' is %s but this host ('%s') is %s (run it on a %s host, "
				 "or use --platform local here)",
				 p->path, p->name, platform_arch_names[p->arch], f->hostname, f->arch,
				 platform_arch_names[p->arch]);
	if (p->memory_mb == CONF_AUTO_VALUE)
		p->memory_mb = f->memory_bytes >> 20;
	p->usable_memory_mb = p->memory_mb < (f->memory_bytes >> 20) ? p->memory_mb : f->memory_bytes >> 20;
	if (p->llc_kb == CONF_AUTO_VALUE)
		p->llc_kb = f->llc_bytes >> 10;
	if (p->cores == CONF_AUTO_VALUE)
		p->cores = f->cores;
	for (size_t i = 0; i < p->cpus.n; i++) {
		if (p->cpus.v[i] == CONF_AUTO_VALUE)
			p->cpus.v[i] = f->last_core_pu;
		else if (p->cpus.v[i] >= f->pus)
			return tune_fail(err, TUNE_ERR_CONFIG,
					 "%s: key 'cpus': CPU %lld does not exist on '%s' (it has %d; use auto or 0..%d)",
					 p->path, p->cpus.v[i], f->hostname, f->pus, f->pus - 1);
	}
	/* The device thread spins: it needs a CPU of its own, away from the apps. */
	if (p->device_cpu == CONF_AUTO_VALUE)
		p->device_cpu = f->pus < 2 ? -1 : p->cpus.v[0] == 0 ? 1 : 0;
	else if (p->device_cpu >= f->pus)
		return tune_fail(err, TUNE_ERR_CONFIG,
				 "%s: key 'device_cpu': CPU %lld does not exist on '%s' (it has %d; use auto or 0..%d)",
				 p->path, p->device_cpu, f->hostname, f->pus, f->pus - 1);
	else if (conf_ints_contains(&p->cpus, p->device_cpu))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'device_cpu': CPU %lld is also in cpus (give the "
				 "device a CPU the apps do not use)", p->path, p->device_cpu);
	return 0;
}

void platform_free(struct platform *p)
{
	conf_release(platform_keys, p);
	free(p->path);
	p->path = NULL;
}

int platform_param_values(const struct platform *p, struct sweep *s, struct tune_error *err)
{
	for (size_t i = 0; s->manifest && i < s->manifest->parameters.n; i++) {
		const struct kernel_param *kp = MANIFEST_PARAM(s->manifest, i);

		for (size_t e = 0; s->defaulted[i] && e < p->params.n; e++) {
			const struct conf_entry *pe = &p->params.v[e];
			struct conf_ints v = { NULL, 0 };
			const struct conf_value *bad_at = NULL;
			char why[512] = "";

			if (strcmp(kp->name, pe->name) != 0)
				continue;
			if (entry_values(kp, pe, &v, &bad_at, why, sizeof(why)) < 0) {
				free(v.v);
				return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
			}
			/* A list of another kernel's vocabulary (none of it fits: chase's
			 * hints and a user's hint) leaves the default, said; one that does
			 * not fit among those that do is a mistake. */
			if (!v.n && bad_at) {
				fprintf(stderr, "tune: %s:%zu:%zu: key 'params': kernel %s's parameter '%s' takes no value of this list "
					"(%s), another kernel's: sweep '%s' uses its default\n", p->path, bad_at->at.line,
					bad_at->at.col, s->manifest->name, kp->name, why, s->name);
				continue;
			}
			if (bad_at) {
				free(v.v);
				return conf_fail_at(err, p->path, bad_at->at, "key 'params': %s, as parameter '%s' of kernel "
						    "'%s' (sweep '%s' leaves it out: fix the platform's list, or give it in "
						    "the sweep's params)", why, kp->name, s->manifest->name, s->name);
			}
			free(s->values[i].v);
			s->values[i] = v;
		}
	}
	return 0;
}
