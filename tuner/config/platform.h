/* platform: one machine type, read from platforms/<name>.yaml. Keys marked
 * auto are filled in from this host's facts by platform_resolve(). */
#ifndef TUNER_PLATFORM_H
#define TUNER_PLATFORM_H

#include <stdio.h>

#include "conf.h"
#include "../base/errors.h"
#include "hostinfo.h"

/* Bytes of the compiler flags joined by spaces, with the terminator: what
 * the build, its hash and the fingerprint carry whole. */
#define PLATFORM_MAX_CFLAGS 8192

enum platform_arch { ARCH_AUTO, ARCH_X86_64, ARCH_AARCH64 };
enum platform_executor { EXECUTOR_LOCAL, EXECUTOR_SLURM };

/* Where a Slurm platform's trials run: slurmrestd and a shared directory. */
struct platform_slurm {
	char *url;           /* slurmrestd, http://HOST:PORT */
	char *partition;
	char *user;          /* X-SLURM-USER-NAME; default $USER */
	char *token_env;     /* the JWT's variable; default SLURM_JWT */
	char *token_file;    /* or a file holding it */
	char *shared_dir;    /* job outputs, on a file system the nodes and this host share */
	struct conf_strs nodes; /* default: every node of the partition */
};

struct platform {
	char *name;
	char *description;
	int arch;               /* enum platform_arch */
	char *compiler;
	struct conf_strs cflags;
	int pin;                /* pin measured threads */
	struct conf_ints cpus;  /* CPUs to pin to; auto = the last core */
	long long device_cpu;   /* ipa's device thread; auto = another CPU, -1: none */
	struct conf_ints hints;
	struct conf_ints sizes_mb;
	struct conf_ints group_sizes;
	struct conf_ints hugepages;
	struct conf_strs sweeps; /* what `tune --platform P` runs */
	struct conf_strs kernels_dirs; /* a user's kernel folders, added to the search path as loaded */
	struct conf_strs hosts;  /* where: "local", or agent URLs; empty: local */
	char *token_file;        /* the agents' token */
	char *ca_file;           /* https agents: the CA to trust */
	int require_tls;         /* plain http:// off loopback is an error, not a warning */
	int executor;            /* enum platform_executor */
	struct platform_slurm slurm;
	long long memory_mb;     /* auto = this host's */
	long long llc_kb;
	long long cores;
	long long usable_memory_mb; /* the smaller of memory_mb and this host's */
	char *path;              /* the file it came from */
};

extern const struct conf_key platform_keys[];
extern const char *const platform_arch_names[];
extern const char *const platform_executor_names[];

/* Loads a platform by name or path. Returns 0 or a negative tune_err. The
 * caller frees the platform with platform_free(), also after an error. */
int platform_load(const char *name, struct platform *p, struct tune_error *err);
/* Fills auto values from facts and checks that this host can run it. */
int platform_resolve(struct platform *p, const struct host_facts *facts, struct tune_error *err);
void platform_free(struct platform *p);

#endif
