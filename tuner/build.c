#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../kernels/chase/chase.h"
#include "build.h"
#include "paths.h"
#include "runner.h"

#define BUILD_TIMEOUT_S 120.0

/* What chase_main.c includes, relative to kernels/: all of it goes into the hash. */
static const char *const chase_sources[] = {
	"chase/chase_main.c", "chase/chase.h", "common/flags.h", "common/pin.h", "common/rng.h", "common/timing.h",
	NULL,
};

static void kernels_dir(char *out, size_t len)
{
	const char *v = getenv("TUNE_KERNELS_DIR");

	if (v && *v)
		snprintf(out, len, "%s", v);
	else
		snprintf(out, len, "%s/kernels", paths_home());
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv1a(h, s, strlen(s) + 1);
}

static int hash_file(uint64_t *h, const char *path)
{
	char buf[65536];
	size_t n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		*h = fnv1a(*h, buf, n);
	fclose(f);
	return 0;
}

static int sources_hash(const char *kdir, uint64_t *h, struct tune_error *err)
{
	for (int i = 0; chase_sources[i]; i++) {
		char path[4200];

		snprintf(path, sizeof(path), "%s/%s", kdir, chase_sources[i]);
		*h = fnv_str(*h, chase_sources[i]);
		if (hash_file(h, path) != 0)
			return tune_fail(err, TUNE_ERR_BUILD, "cannot read kernel source '%s': %s (set TUNE_HOME to "
					 "tune's source tree)", path, strerror(errno));
	}
	return 0;
}

int build_sources_hash(char out[17], struct tune_error *err)
{
	char kdir[2048];
	uint64_t h = 0xcbf29ce484222325ull;
	int rc;

	kernels_dir(kdir, sizeof(kdir));
	if ((rc = sources_hash(kdir, &h, err)) != 0)
		return rc;
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}

int build_compiler_version(const char *compiler, char *out, size_t len, struct tune_error *err)
{
	char *argv[] = { (char *)compiler, "--version", NULL };
	struct run_result res;
	int rc;

	if ((rc = runner_exec(argv, -1, 30.0, NULL, &res, err)) != 0)
		return rc;
	if (!res.exited || res.status != 0) {
		rc = tune_fail(err, TUNE_ERR_BUILD, "compiler '%s' does not run: %s (install it, e.g. "
			       "'apt-get install gcc', or set 'compiler:' in the platform file)",
			       compiler, res.errout[0] ? strtok(res.errout, "\n") : "no output");
	} else {
		res.out[strcspn(res.out, "\n")] = '\0';
		snprintf(out, len, "%s", res.out);
	}
	run_result_free(&res);
	return rc;
}

int build_kernel(const struct build_spec *spec, struct build_result *out, struct tune_error *err)
{
	char kdir[2048], cache[2048], dir[2400], tmp[2600], src[2600], inc[2600];
	char *argv[96];
	size_t argc = 0, used = 0;
	uint64_t h = 0xcbf29ce484222325ull;
	struct run_result res;
	struct stat st;
	int rc;

	memset(out, 0, sizeof(*out));
	if ((rc = build_compiler_version(spec->compiler, out->compiler_version, sizeof(out->compiler_version), err)))
		return rc;
	kernels_dir(kdir, sizeof(kdir));
	if ((rc = sources_hash(kdir, &h, err)) != 0)
		return rc;
	if (spec->hint >= 0)
		snprintf(out->defines, sizeof(out->defines), "-DCHASE_VARIANT=%d -DCHASE_HINT=%d", spec->variant,
			 spec->hint);
	else
		snprintf(out->defines, sizeof(out->defines), "-DCHASE_VARIANT=%d", spec->variant);
	for (size_t i = 0; i < spec->cflags->n; i++)
		used += (size_t)snprintf(out->cflags + used, sizeof(out->cflags) - used, "%s%s", i ? " " : "",
					 spec->cflags->v[i]);
	h = fnv_str(h, spec->compiler);
	h = fnv_str(h, out->compiler_version);
	h = fnv_str(h, out->cflags);
	h = fnv_str(h, out->defines);
	snprintf(out->hash, sizeof(out->hash), "%016llx", (unsigned long long)h);

	paths_cache_dir(cache, sizeof(cache));
	snprintf(dir, sizeof(dir), "%s/builds/%s", cache, out->hash);
	snprintf(out->path, sizeof(out->path), "%s/chase", dir);
	if (stat(out->path, &st) == 0 && (st.st_mode & S_IXUSR)) {
		out->cached = 1;
		return 0;
	}
	if (paths_mkdirs(dir) != 0)
		return tune_fail(err, TUNE_ERR_SYSTEM, "cannot create build cache '%s': %s (set TUNE_CACHE_DIR to a "
				 "writable directory)", dir, strerror(errno));
	snprintf(tmp, sizeof(tmp), "%s/chase.tmp.%ld", dir, (long)getpid());
	snprintf(src, sizeof(src), "%s/chase/chase_main.c", kdir);
	snprintf(inc, sizeof(inc), "-I%s", kdir);

	char vdef[48], hdef[48];

	argv[argc++] = (char *)spec->compiler;
	argv[argc++] = "-std=c11";
	for (size_t i = 0; i < spec->cflags->n && argc < 80; i++)
		argv[argc++] = spec->cflags->v[i];
	snprintf(vdef, sizeof(vdef), "-DCHASE_VARIANT=%d", spec->variant);
	argv[argc++] = vdef;
	if (spec->hint >= 0) {
		snprintf(hdef, sizeof(hdef), "-DCHASE_HINT=%d", spec->hint);
		argv[argc++] = hdef;
	}
	argv[argc++] = inc;
	argv[argc++] = "-o";
	argv[argc++] = tmp;
	argv[argc++] = src;
	argv[argc] = NULL;
	if ((rc = runner_exec(argv, -1, BUILD_TIMEOUT_S, NULL, &res, err)) != 0)
		return rc;
	if (!res.exited || res.status != 0) {
		char why[128];

		runner_describe(&res, BUILD_TIMEOUT_S, why, sizeof(why));
		rc = tune_fail(err, TUNE_ERR_BUILD, "cannot compile '%s' (%s%s%s) with '%s %s %s': %s\n%.3000s",
			       src, chase_variant_names[spec->variant], spec->hint >= 0 ? ", " : "",
			       spec->hint >= 0 ? chase_hint_names[spec->hint] : "", spec->compiler, out->cflags,
			       out->defines, why, res.errout);
		unlink(tmp);
	} else if (rename(tmp, out->path) != 0) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "cannot place the build in '%s': %s", out->path, strerror(errno));
		unlink(tmp);
	}
	run_result_free(&res);
	return rc;
}
