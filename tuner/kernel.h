/* kernel: what the tuner knows of each kernel it builds and runs: its
 * sources (for the build hash), its main file, what it links, and the names
 * of its variants as stored. A kernel binary itself knows nothing of this. */
#ifndef TUNER_KERNEL_H
#define TUNER_KERNEL_H

enum kernel_id { KERNEL_CHASE, KERNEL_IPA, KERNEL_SCHED, KERNEL_COUNT };

struct kernel_info {
	const char *name;                  /* "chase": the trials' kernel column */
	const char *main_source;           /* relative to kernels/ */
	const char *const *sources;        /* everything main_source includes, itself first */
	const char *const *link_flags;     /* after the sources */
	const char *const *variant_names;  /* the trials' variant column */
};

extern const struct kernel_info kernel_table[KERNEL_COUNT];
/* "chase", "ipa", "sched", NULL: the choices of a sweep's kernel key. */
extern const char *const kernel_names[];

#endif
