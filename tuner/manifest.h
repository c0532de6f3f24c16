/* manifest: a kernel described as data, in kernel.yaml in its folder under
 * the kernels directory (paths_kernels_dir()): its sources, its main file,
 * what it links and its variants. The build reads its sources and flags
 * from here; `tune kernels` lists the manifests and `tune help kernel` their
 * keys, from the same table the loader reads.
 *
 * Ownership: manifest_load() fills a manifest that manifest_free() frees,
 * also after an error. */
#ifndef TUNER_MANIFEST_H
#define TUNER_MANIFEST_H

#include "conf.h"
#include "errors.h"

struct kernel_manifest {
	char *name;                 /* as a sweep's kernel key names it; the folder's name */
	char *description;
	char *main;                 /* the file compiled, relative to the kernels directory */
	struct conf_strs sources;   /* everything main includes, main first: the build hash covers them */
	struct conf_strs link_flags;/* after the sources on the compiler's command line */
	struct conf_strs variants;  /* the variant names, as stored with the trials */
	char *baseline;             /* the variant others are compared with */
	char *path;                 /* the kernel.yaml it came from */
};

extern const struct conf_key manifest_keys[];

/* Loads <kernels dir>/<name>/kernel.yaml. TUNE_ERR_CONFIG with the file,
 * line, column and key for a bad manifest, or naming the kernels found when
 * there is none. */
int manifest_load(const char *name, struct kernel_manifest *m, struct tune_error *err);
void manifest_free(struct kernel_manifest *m);

/* The names of the kernels with a manifest in the kernels directory, sorted;
 * free each and the array. Returns how many, or -1 when the directory cannot
 * be read. */
int manifest_names(char ***names);

#endif
