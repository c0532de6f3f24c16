#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/hash.h"
#include "../base/runner.h"
#include "../base/strbuf.h"
#include "../config/config.h"
#include "build.h"

#define BUILD_TIMEOUT_S 120.0

/* With the terminator, so that ("ab", "c") and ("a", "bc") differ. */
static uint64_t fnv_str(uint64_t h, const char *s)
{
	return hash_bytes(h, s, strlen(s) + 1);
}

static int hash_file(uint64_t *h, const char *path)
{
	char buf[65536];
	size_t n;
	FILE *f = paths_fopen_regular(path, 0);

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		*h = hash_bytes(*h, buf, n);
	fclose(f);
	return 0;
}

/* The kernel SDK (kernels/sdk/ beside tune), on every kernel's include
 * path: a kernel built on it is built again when it changes. */
static const char *const sdk_files[] = { "tune_kernel.h", "tune_protocol.h" };

static void sdk_dir(char *out, size_t len)
{
	snprintf(out, len, "%s/kernels/sdk", paths_home());
}

/* Everything the kernel's main file includes, as its manifest lists it,
 * and the SDK go into the hash. */
static int sources_hash(const char *kdir, const struct kernel_manifest *m, uint64_t *h, struct tune_error *err)
{
	char sdk[4096];

	sdk_dir(sdk, sizeof(sdk));
	for (size_t i = 0; i < sizeof(sdk_files) / sizeof(sdk_files[0]); i++) {
		char path[4200];

		snprintf(path, sizeof(path), "%s/%s", sdk, sdk_files[i]);
		*h = fnv_str(*h, sdk_files[i]);
		if (hash_file(h, path) != 0)
			return tune_fail(err, TUNE_ERR_BUILD, "cannot read the kernel SDK's '%s': %s (set TUNE_HOME to "
					 "tune's source tree)", path, paths_strerror(errno));
	}
	for (size_t i = 0; i < m->sources.n; i++) {
		char path[4200];

		snprintf(path, sizeof(path), "%s/%s", kdir, m->sources.v[i]);
		*h = fnv_str(*h, m->sources.v[i]);
		if (hash_file(h, path) != 0)
			return tune_fail(err, TUNE_ERR_BUILD, "cannot read kernel source '%s' (listed in %s): %s (%s)",
					 path, m->path, paths_strerror(errno), errno == ENXIO ? "list only files in "
					 "'sources'" : "paths in 'main' and 'sources' are relative to the folder holding the "
					 "kernel's folder: write <kernel>/main.c");
	}
	return 0;
}

/* The first line argv prints (stdout's first non-blank one, else stderr's):
 * 0 with it in line; 1 when it failed, with how (runner_describe) and its
 * stderr's first line in why; or a negative tune_err when it cannot start.
 * What a compiler's or a program's version is. */
static int first_line_of(char *const argv[], double timeout_s, char *line, size_t len, char *how, size_t howlen,
			 char *why, size_t whylen, struct tune_error *err)
{
	struct run_result res;
	const char *text;
	int rc;

	if ((rc = runner_exec(argv, -1, timeout_s, NULL, &res, err)) != 0)
		return rc;
	if (!runner_succeeded(&res)) {
		runner_describe(&res, timeout_s, how, howlen);
		snprintf(why, whylen, "%.*s", (int)strcspn(res.errout, "\n"), res.errout);
		rc = 1;
	} else {
		text = res.out[strspn(res.out, " \n")] ? res.out + strspn(res.out, " \n") : res.errout;
		snprintf(line, len, "%.*s", (int)strcspn(text, "\n"), text);
	}
	run_result_free(&res);
	return rc;
}

/* A command kernel's program's version: the first line it prints for its
 * version_flag (none: ""). TUNE_ERR_BUILD when it cannot run. */
static int program_version(const struct kernel_manifest *m, char *out, size_t len, struct tune_error *err)
{
	char *argv[] = { m->command.v[0], m->version_flag, NULL };
	char how[128] = "", why[512] = "";
	int rc;

	out[0] = '\0';
	if (!m->version_flag)
		return 0;
	if ((rc = first_line_of(argv, BUILD_TIMEOUT_S, out, len, how, sizeof(how), why, sizeof(why), err)) > 0)
		rc = tune_fail(err, TUNE_ERR_BUILD, "kernel '%s': '%s %s' failed (%s): %s (install the program, or put it "
			       "on PATH)", m->name, argv[0], argv[1], how, why);
	return rc;
}

/* A command kernel is not compiled: its build is its program, as its
 * command and version name it, where it runs. */
static int build_program(const struct kernel_manifest *m, struct build_result *out, struct tune_error *err)
{
	uint64_t h = HASH_INIT;
	int rc;

	if ((rc = program_version(m, out->compiler_version, sizeof(out->compiler_version), err)) != 0 ||
	    (rc = sources_hash(m->dir, m, &h, err)) != 0)
		return rc;
	for (size_t i = 0; i < m->command.n; i++)
		h = fnv_str(h, m->command.v[i]);
	h = fnv_str(h, out->compiler_version);
	snprintf(out->hash, sizeof(out->hash), "%016llx", (unsigned long long)h);
	snprintf(out->path, sizeof(out->path), "%s", m->command.v[0]);
	out->cached = 1;
	return 0;
}

int build_manifest_hash(const struct kernel_manifest *m, char out[17], struct tune_error *err)
{
	uint64_t h = HASH_INIT;
	int rc;

	if (hash_file(&h, m->path) != 0)
		return tune_fail(err, TUNE_ERR_BUILD, "cannot read '%s': %s", m->path, paths_strerror(errno));
	if ((rc = sources_hash(m->dir, m, &h, err)) != 0)
		return rc;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}

int build_sources_hash(char out[17], struct tune_error *err)
{
	char dir[4096];
	const char *dirs[1] = { dir };
	uint64_t h = HASH_INIT;
	char **names = NULL;
	int n, rc = 0;

	/* The shipped kernels (kernels/ beside tune), in name order. */
	snprintf(dir, sizeof(dir), "%s/kernels", paths_home());
	if ((n = manifest_names_in(dirs, 1, &names)) == 0)
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "no kernel manifest in the kernels folder '%s' (set TUNE_HOME to "
			       "tune's source tree)", dir);
	for (int i = 0; i < n; i++) {
		struct kernel_manifest m;

		if (!rc) {
			if ((rc = manifest_load_in(dir, names[i], &m, err)) == 0)
				rc = sources_hash(dir, &m, &h, err);
			manifest_free(&m);
		}
		free(names[i]);
	}
	free(names);
	if (rc)
		return rc;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}

int build_compiler_version(const char *compiler, char *out, size_t len, struct tune_error *err)
{
	char *argv[] = { (char *)compiler, "--version", NULL };
	char how[128] = "", why[512] = "";
	int rc = first_line_of(argv, 30.0, out, len, how, sizeof(how), why, sizeof(why), err);

	if (rc > 0)
		rc = tune_fail(err, TUNE_ERR_BUILD, "compiler '%s' does not run: %s (install it, e.g. 'apt-get install "
			       "gcc', or set 'compiler:' in the platform file)", compiler, why[0] ? why : "no output");
	return rc;
}

/* name is "<kernel>.tmp.<machine>.<pid>" of this machine and a dead pid. */
static int stale_temp(const char *name, const char *machine)
{
	const char *tmp = strstr(name, ".tmp."), *dot;
	char *end = NULL;
	long pid;

	if (!tmp || !(dot = strrchr(tmp + 5, '.')) || (size_t)(dot - (tmp + 5)) != strlen(machine) ||
	    strncmp(tmp + 5, machine, strlen(machine)) != 0)
		return 0;
	pid = strtol(dot + 1, &end, 10);
	return dot[1] && !*end && pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Removes the temporary binaries that builds killed on this machine left. */
static void remove_stale_temps(void)
{
	char machine[256], cache[2048], builds[2100], path[4600];
	DIR *top, *d;
	struct dirent *e, *f;

	hostinfo_machine(machine, sizeof(machine));
	paths_cache_dir(cache, sizeof(cache));
	snprintf(builds, sizeof(builds), "%s/builds", cache);
	if (!(top = opendir(builds)))
		return;
	while ((e = readdir(top)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", builds, e->d_name);
		if (!(d = opendir(path)))
			continue;
		while ((f = readdir(d)) != NULL)
			if (stale_temp(f->d_name, machine)) {
				snprintf(path, sizeof(path), "%s/%s/%s", builds, e->d_name, f->d_name);
				unlink(path);
			}
		closedir(d);
	}
	closedir(top);
}

static int build_with(const struct build_spec *spec, const struct kernel_manifest *m, struct build_result *out,
		      struct tune_error *err)
{
	static pthread_once_t cleaned = PTHREAD_ONCE_INIT;
	char kdir[2048], cache[2048], dir[2400], tmp[2600], src[2600], inc[2600], sdk[4096], sdk_inc[4200];
	char **argv = NULL;
	size_t argc = 0, flags_len = 0;
	uint64_t h = HASH_INIT;
	const char *kname = m->name, *vname = m->variants.v[spec->variant];
	char defs[1024], *save = NULL;
	struct run_result res;
	struct stat st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (m->command.n)
		return build_program(m, out, err);
	if ((rc = build_compiler_version(spec->compiler, out->compiler_version, sizeof(out->compiler_version), err)))
		return rc;
	snprintf(kdir, sizeof(kdir), "%s", m->dir);
	if ((rc = sources_hash(kdir, m, &h, err)) != 0)
		return rc;
	snprintf(out->defines, sizeof(out->defines), "%s", spec->defines ? spec->defines : "");
	/* Whole, or not at all: the hash and the command line carry every flag. */
	for (size_t i = 0; i < spec->cflags->n; i++)
		flags_len += strlen(spec->cflags->v[i]) + (i ? 1 : 0);
	if (flags_len >= sizeof(out->cflags))
		return tune_fail(err, TUNE_ERR_CONFIG, "platform key 'cflags': the flags are %zu bytes, over the limit "
				 "of %zu (shorten them)", flags_len, sizeof(out->cflags) - 1);
	conf_strs_join(spec->cflags, " ", out->cflags, sizeof(out->cflags));
	h = fnv_str(h, spec->compiler);
	h = fnv_str(h, out->compiler_version);
	h = fnv_str(h, out->cflags);
	h = fnv_str(h, out->defines);
	snprintf(out->hash, sizeof(out->hash), "%016llx", (unsigned long long)h);

	paths_cache_dir(cache, sizeof(cache));
	snprintf(dir, sizeof(dir), "%s/builds/%s", cache, out->hash);
	snprintf(out->path, sizeof(out->path), "%s/%s", dir, kname);
	if (stat(out->path, &st) == 0 && (st.st_mode & S_IXUSR)) {
		out->cached = 1;
		return 0;
	}
	if (paths_mkdirs(dir) != 0)
		return tune_fail(err, TUNE_ERR_SYSTEM, "cannot create build cache '%s': %s (set TUNE_CACHE_DIR to a "
				 "writable directory)", dir, strerror(errno));
	{
		char machine[256];

		hostinfo_machine(machine, sizeof(machine));
		snprintf(tmp, sizeof(tmp), "%s/%s.tmp.%s.%ld", dir, kname, machine, (long)getpid());
		pthread_once(&cleaned, remove_stale_temps);
	}
	snprintf(src, sizeof(src), "%s/%s", kdir, m->main);
	snprintf(inc, sizeof(inc), "-I%s", kdir);
	sdk_dir(sdk, sizeof(sdk));
	snprintf(sdk_inc, sizeof(sdk_inc), "-I%s", sdk);

	/* compiler, -std, the flags, the defines, -I twice, -o tmp, src, link flags, NULL */
	if (!(argv = calloc(spec->cflags->n + m->link_flags.n + sizeof(out->defines) / 4 + 10, sizeof(*argv))))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	argv[argc++] = (char *)spec->compiler;
	argv[argc++] = "-std=c11";
	for (size_t i = 0; i < spec->cflags->n; i++)
		argv[argc++] = spec->cflags->v[i];
	/* The defines: "-DNAME=integer" each, made by the tuner. */
	snprintf(defs, sizeof(defs), "%s", out->defines);
	for (char *d = strtok_r(defs, " ", &save); d; d = strtok_r(NULL, " ", &save))
		argv[argc++] = d;
	argv[argc++] = inc;
	argv[argc++] = sdk_inc;
	argv[argc++] = "-o";
	argv[argc++] = tmp;
	argv[argc++] = src;
	for (size_t i = 0; i < m->link_flags.n; i++)
		argv[argc++] = m->link_flags.v[i];
	argv[argc] = NULL;
	rc = runner_exec(argv, -1, BUILD_TIMEOUT_S, spec->stop, &res, err);
	free(argv);
	if (rc)
		return rc;
	if (res.interrupted) {
		rc = tune_fail(err, TUNE_ERR_INTERRUPTED, "the compile of '%s' was interrupted", src);
		unlink(tmp);
	} else if (!runner_succeeded(&res)) {
		char why[128];

		runner_describe(&res, BUILD_TIMEOUT_S, why, sizeof(why));
		rc = tune_fail(err, TUNE_ERR_BUILD, "cannot compile '%s' (%s) with '%s %s %s': %s\n%.3000s", src,
			       spec->label ? spec->label : vname, spec->compiler, out->cflags, out->defines, why, res.errout);
		unlink(tmp);
	} else if (rename(tmp, out->path) != 0) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "cannot place the build in '%s': %s", out->path, strerror(errno));
		unlink(tmp);
	}
	run_result_free(&res);
	return rc;
}

int build_kernel(const struct build_spec *spec, struct build_result *out, struct tune_error *err)
{
	return build_with(spec, spec->manifest, out, err);
}

int build_fingerprint(const struct platform *p, const struct host_facts *facts, char out[17], struct tune_error *err)
{
	char version[256], cflags[PLATFORM_MAX_CFLAGS], sources[17], extra[PLATFORM_MAX_CFLAGS + 512];
	int rc;

	conf_strs_join(&p->cflags, " ", cflags, sizeof(cflags));
	if ((rc = build_compiler_version(p->compiler, version, sizeof(version), err)) != 0 ||
	    (rc = build_sources_hash(sources, err)) != 0)
		return rc;
	snprintf(extra, sizeof(extra), "%s|%s|%s|%s", p->compiler, version, cflags, sources);
	hostinfo_fingerprint(facts, extra, out);
	return 0;
}
