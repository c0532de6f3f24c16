/* kernel: the shipped kernels the tuner still knows by id: their names and
 * the names of their variants as stored; and the names a sweep can give,
 * theirs and those of every manifest found. What a kernel is built from
 * (its sources, main file and link flags) is in its manifest (manifest.h).
 * A kernel binary itself knows nothing of either. */
#ifndef TUNER_KERNEL_H
#define TUNER_KERNEL_H

enum kernel_id { KERNEL_CHASE, KERNEL_IPA, KERNEL_SCHED, KERNEL_COUNT };

struct kernel_info {
	const char *name;                  /* "chase": the trials' kernel column, its manifest's folder */
	const char *const *variant_names;  /* the trials' variant column, as its manifest lists them */
};

extern const struct kernel_info kernel_table[KERNEL_COUNT];
/* "chase", "ipa", "sched", NULL: the kernels the tuner runs by id (and an
 * agent serves). */
extern const char *const kernel_names[];

/* The choices of a sweep's kernel key: the kernels above, then those of the
 * manifests in the kernel directories (index KERNEL_COUNT on), NULL-ended.
 * kernel_choices_load() reads the directories again. */
#define KERNEL_MAX_CHOICES 128
extern const char *kernel_choices[KERNEL_MAX_CHOICES + 1];
void kernel_choices_load(void);

#endif
