/* manifest: a kernel described as data, in kernel.yaml in its folder in one
 * of the kernel directories (paths_kernels_dirs()): its sources, its main
 * file, what it links, its variants, its parameters, its metric, the field
 * that proves a result correct and what the header exports. `tune kernels`
 * lists the manifests and `tune help kernel` their keys, from the same table
 * the loader reads.
 *
 * A kernel binary takes --runs, --warmup and --seed, then each run-time
 * parameter's flag (a list parameter's values joined by commas), and prints
 * one JSON object per run and list value: the list parameter's field, "run",
 * "warmup" (true or false), the metric's field and the correctness field.
 *
 * Ownership: manifest_load() fills a manifest that manifest_free() frees,
 * also after an error. */
#ifndef TUNER_MANIFEST_H
#define TUNER_MANIFEST_H

#include "conf.h"
#include "../base/errors.h"

enum param_type { PARAM_INT, PARAM_CHOICE, PARAM_BOOL, PARAM_DURATION };
/* fixed: one value per sweep; context: each value decided apart (a working
 * set); searched: tuned, one kernel process per value; list: tuned, every
 * value measured interleaved in one kernel process. */
enum param_role { ROLE_FIXED, ROLE_CONTEXT, ROLE_SEARCHED, ROLE_LIST };
enum metric_better { BETTER_LOWER, BETTER_HIGHER };

extern const char *const param_type_names[];
extern const char *const param_role_names[];
extern const char *const metric_better_names[];

struct kernel_param {
	struct conf_where at;       /* first: filled by the loader */
	char *name;
	char *help;
	int type;                   /* enum param_type */
	long long min, max;         /* int and duration */
	struct conf_strs choices;   /* choice */
	char *def;                  /* the default, as written */
	char *define;               /* compile time: -D<define>=<value> (a choice: its index) */
	char *flag;                 /* run time: <flag> <value> */
	int role;                   /* enum param_role */
	struct conf_strs variants;  /* the variants it applies to; empty: all */
	int memory_mb;              /* a working set in MiB: over half the host's memory is not run */
};

struct kernel_metric {
	char *field;                /* of the kernel's JSON line */
	char *unit;
	int better;                 /* enum metric_better */
	struct conf_strs per;       /* fields the value is divided by (a run's wall time per call) */
};

struct kernel_manifest {
	char *name;                 /* as a sweep's kernel key names it; the folder's name */
	char *description;
	char *main;                 /* the file compiled, relative to the kernels directory */
	struct conf_strs sources;   /* everything main includes, main first: the build hash covers them */
	struct conf_strs link_flags;/* after the sources on the compiler's command line */
	struct conf_strs variants;  /* the variant names, as stored with the trials */
	char *baseline;             /* the variant others are compared with */
	char *variant_define;       /* the variant reaches the compiler as -D<it>=<index> */
	char *variant_flag;         /* or the kernel as <it> <name> */
	struct conf_list parameters;/* of struct kernel_param */
	struct kernel_metric metric;
	char *correctness;          /* a field that must equal the baseline's in every run */
	struct conf_strs exports;   /* parameters (or "variant") the header gives per context */
	char *path;                 /* the kernel.yaml it came from */
	char *dir;                  /* the kernels directory it was found in: sources are relative to it */
};

extern const struct conf_key manifest_keys[];

/* Loads <dir>/<name>/kernel.yaml from the first kernel directory holding
 * it. TUNE_ERR_CONFIG with the file, line, column and key for a bad
 * manifest, or naming the kernels found when there is none. */
int manifest_load(const char *name, struct kernel_manifest *m, struct tune_error *err);
void manifest_free(struct kernel_manifest *m);
/* The same checks on a parsed document (its path for messages), named name:
 * what manifest_load() does once the file is found. */
int manifest_decode(const char *path, const struct ynode *root, const char *name, struct kernel_manifest *m,
		    struct tune_error *err);

/* The index of the variant named name, or -1. */
int manifest_variant(const struct kernel_manifest *m, const char *name);
/* The parameter named name, or NULL. */
const struct kernel_param *manifest_param(const struct kernel_manifest *m, const char *name);
#define MANIFEST_PARAM(m, i) CONF_ITEM(&(m)->parameters, struct kernel_param, i)
/* The parameter measured as a list in one process, or NULL. */
const struct kernel_param *manifest_list_param(const struct kernel_manifest *m);
/* Does p apply to variant v (an index into m->variants)? */
int manifest_param_applies(const struct kernel_manifest *m, const struct kernel_param *p, size_t v);
/* Checks text as a value of p: 0 with *value (an integer, a choice's index,
 * 0 or 1), or -1 with why. */
int manifest_param_value(const struct kernel_param *p, const char *text, long long *value, char *why, size_t len);
/* A value as text: a choice's name, on or off, the number. */
void manifest_param_text(const struct kernel_param *p, long long value, char *out, size_t len);

/* The names of the kernels with a manifest in the kernel directories,
 * sorted, each once; free each and the array. Returns how many. */
int manifest_names(char ***names);

#endif
