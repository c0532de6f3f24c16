/* build: compiles a kernel variant once per (sources, compiler and its
 * version, flags, defines) into the cache directory and reuses it after.
 *
 * The binary is written under a temporary name and renamed into place, so a
 * build interrupted at any point never leaves a broken cached binary. */
#ifndef TUNER_BUILD_H
#define TUNER_BUILD_H

#include <signal.h>

#include "../base/errors.h"
#include "../config/config.h"

struct build_spec {
	const struct kernel_manifest *manifest; /* the kernel's */
	int variant;          /* an index into its variants, for the build's name */
	const char *defines;  /* "-DNAME=value ..." (manifest_defines()): what tells its builds apart */
	const char *label;    /* what it is, for messages (manifest_build_label()); NULL: the variant */
	const char *compiler; /* borrowed */
	const struct conf_strs *cflags;
	volatile sig_atomic_t *stop; /* set by a signal: the compile (its whole process group) is killed; may be NULL */
};

struct build_result {
	char hash[17];
	char path[4096];
	char compiler_version[256];
	char cflags[PLATFORM_MAX_CFLAGS];
	char defines[1024];
	int cached; /* found in the cache, not compiled now */
};

/* Returns 0, or TUNE_ERR_BUILD with the compiler's output in err, or
 * TUNE_ERR_INTERRUPTED. The compile writes <kernel>.tmp.<machine>.<pid> and
 * renames it into place; such files left by a killed tune of this machine
 * are removed the first time a process builds. */
int build_kernel(const struct build_spec *spec, struct build_result *out, struct tune_error *err);

/* A hash of a kernel's manifest and sources, as hex: a sweep of a kernel
 * whose code changed is another sweep. */
int build_manifest_hash(const struct kernel_manifest *m, char out[17], struct tune_error *err);

/* A hash of the shipped kernels' sources (kernels/ beside tune), as hex: part
 * of the fingerprint. */
int build_sources_hash(char out[17], struct tune_error *err);

/* The fingerprint of measurements of platform p on this host (see
 * hostinfo_fingerprint): its facts with the compiler, its version, the flags
 * and the shipped kernels' sources. */
int build_fingerprint(const struct platform *p, const struct host_facts *facts, char out[17], struct tune_error *err);

/* The first line of `compiler --version`, or TUNE_ERR_BUILD when it cannot run. */
int build_compiler_version(const char *compiler, char *out, size_t len, struct tune_error *err);

#endif
