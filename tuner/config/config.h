/* config: the inputs, read and checked. In: YAML files (a platform, a sweep,
 * each kernel's manifest) and this host. Out: plain structs (struct
 * platform resolved for the host, struct sweep, struct kernel_manifest,
 * struct host_facts) in which every value is in range and every name
 * checked; an error names file:line:column and the key, and says what to
 * write instead. Nothing here runs, builds or stores anything. */
#ifndef TUNER_CONFIG_STAGE_H
#define TUNER_CONFIG_STAGE_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "../base/errors.h"

#include "ydoc.h"

/* conf.c: YAML keys as data. One table per file kind (platform, sweep) names
 * each key, its type, where it goes in the struct, its range and its help;
 * the loader, the validation and `tune help <kind>` all read that table.
 *
 * Ownership: strings and lists that conf_decode() stores belong to the
 * destination struct; conf_release() frees them. */
enum conf_type {
	CONF_STRING,      /* char * */
	CONF_INT,         /* long long */
	CONF_BOOL,        /* int */
	CONF_ENUM,        /* int: index into choices */
	CONF_STRING_LIST, /* struct conf_strs */
	CONF_INT_LIST,    /* struct conf_ints */
	CONF_ENUM_LIST,   /* struct conf_ints of indices into choices */
	CONF_BOOL_LIST,   /* struct conf_ints of 0 and 1 */
	CONF_SECTION,     /* a nested mapping decoded with .section */
	CONF_SECTION_LIST,/* struct conf_list: a sequence of mappings, each an item of max bytes decoded with .section */
	CONF_VALUE_MAP,   /* struct conf_entries: names to a value or a list, kept as text with where each was written */
	CONF_TEXT_LIST,   /* struct conf_texts: strings, each with where its text starts (read further later) */
	CONF_MOVED,       /* a key no longer read: its help says what to write instead; no field */
};

#define CONF_REQUIRED 1u /* the key must be present */
#define CONF_AUTO 2u     /* an INT or INT_LIST key that also takes "auto" */
#define CONF_AUTO_VALUE (-1LL)
#define CONF_INF 4u      /* an INT or INT_LIST key that also takes "inf" */
#define CONF_INF_VALUE LLONG_MAX
#define CONF_NAME 8u     /* a STRING or STRING_LIST key whose values are names (names.h) */
#define CONF_RELPATH 16u /* a STRING or STRING_LIST key of paths inside a folder: no leading '/', no '..' */
/* A STRING key with max > 0 holds at most max bytes; a STRING_LIST key, at
 * most max bytes when its items are joined by spaces. */

struct conf_ints {
	long long *v;
	size_t n;
};

struct conf_strs {
	char **v;
	size_t n;
};

/* Where a node was written (1-based), for errors found after decoding. */
struct conf_where {
	size_t line, col;
};

/* A CONF_SECTION_LIST's items; each item's struct begins with a struct
 * conf_where that the decoder fills with where the item was written. */
struct conf_list {
	void *v;
	size_t n;
};

/* A CONF_VALUE_MAP: what the names mean is checked later, against another
 * file (a sweep's params against its kernel's manifest). */
struct conf_value {
	char *text;
	struct conf_where at;
	/* CONF_TEXT_LIST: the source as written from at, when the text is
	 * not it (struct ynode's raw); else NULL and at is where the text
	 * starts (within its quotes). */
	char *raw;
};
struct conf_entry {
	char *name;
	struct conf_where at;
	struct conf_value *values; /* a single scalar is a list of one */
	size_t n;
};
struct conf_entries {
	struct conf_entry *v;
	size_t n;
};
struct conf_texts {
	struct conf_value *v;
	size_t n;
};

struct conf_key {
	const char *name; /* first member: tune_suggest_in() walks the table */
	enum conf_type type;
	size_t offset;
	long long min, max;
	const char *const *choices;     /* ENUM and ENUM_LIST */
	const struct conf_key *section; /* SECTION */
	unsigned flags;
	const char *help;
};

/* What a key unknown to a file's table means elsewhere, into buf (section:
 * where it is, NULL at the top; top: the file's mapping): MOVED, no longer
 * read; ELSEWHERE, it belongs under another key; UNREAD, why unknown. */
typedef int (*conf_explain_fn)(const char *key, const char *section, const struct ynode *top, char *buf,
			       size_t len);
#define CONF_EXPLAINED_ELSEWHERE 1
#define CONF_EXPLAINED_MOVED 2
#define CONF_EXPLAINED_UNREAD 3

/* Decodes the mapping node into dest per table; what names the file kind in
 * messages ("platform", "sweep"). Returns 0 or TUNE_ERR_CONFIG. */
int conf_decode(const char *path, const struct ynode *map, const struct conf_key *table,
		void *dest, const char *what, struct tune_error *err);
/* Finds <dir>/<name>.yaml (see paths_find), parses it and decodes it into
 * dest; *path_out is the file's path, which the caller frees. An unknown
 * key is explained by explain first when it is given. */
int conf_load(const char *dir, const char *what, const char *name, const struct conf_key *table, void *dest,
	      conf_explain_fn explain, char **path_out, struct tune_error *err);
void conf_release(const struct conf_key *table, void *dest);
/* The key of table named name, or NULL. */
const struct conf_key *conf_key_named(const struct conf_key *table, const char *name);
/* TUNE_ERR_CONFIG with "path:line:column: " and the formatted message. */
int conf_fail_at(struct tune_error *err, const char *path, struct conf_where at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The item i of a CONF_SECTION_LIST whose items are size bytes. */
#define CONF_ITEM(list, type, i) (&((type *)(list)->v)[i])
void conf_help(FILE *out, const struct conf_key *table, int indent);

/* Small helpers for lists built in code. */
int conf_ints_push(struct conf_ints *l, long long v);
int conf_ints_copy(struct conf_ints *dst, const struct conf_ints *src);
int conf_ints_contains(const struct conf_ints *l, long long v);
/* Sorts the values ascending. */
void conf_ints_sort(struct conf_ints *l);
/* The items joined by sep into out (cut at len). */
void conf_strs_join(const struct conf_strs *l, const char *sep, char *out, size_t len);
/* The entry of l closest to a mistyped word, or NULL (tune_suggest). */
const char *conf_strs_suggest(const struct conf_strs *l, const char *word);
void conf_ints_join(const struct conf_ints *l, const char *sep, char *out, size_t len);
/* Where character offset of a CONF_TEXT_LIST value's text was written in
 * its file (through its raw source when the text is not it as written). */
struct conf_where conf_text_where(const struct conf_value *v, size_t offset);

/* hostinfo.c: facts about the machine tune runs on (hwloc topology, /proc and
 * /sys), recorded with every sweep so that results can be told apart. */
struct host_facts {
	char hostname[256];
	char arch[32];       /* uname machine: x86_64, aarch64 */
	char cpu_model[256];
	char microcode[64];
	char kernel[256];    /* uname release */
	char governor[64];   /* cpufreq governor of CPU 0, or "unknown" */
	char thp[64];        /* transparent_hugepage/enabled, the bracketed choice */
	int cores, pus;
	int smt;             /* PUs per core > 1 */
	long long llc_bytes; /* largest cache seen */
	long long l1d_bytes, l2_bytes; /* the first core's level-1 data and level-2 caches; 0: unknown */
	long long memory_bytes;
	double loadavg1;
	int last_core_pu;    /* a PU of the last core: the default CPU to pin to */
};

/* Fills facts; fields it cannot read say "unknown" or 0. Returns 0, or
 * TUNE_ERR_SYSTEM when the topology cannot be read at all. */
int hostinfo_read(struct host_facts *facts, struct tune_error *err);

/* The name of the machine tune runs on (gethostname; "localhost" when it
 * has none): what marks a lease or a temporary file as this machine's. */
void hostinfo_machine(char *out, size_t len);

/* How many other processes are running (state R) on cpu now; the first one's
 * name goes to who. Kernel threads (kworker/0:1, ksoftirqd/0) are not
 * counted: they run on every CPU and are not another workload. */
int hostinfo_busy_cpu(int cpu, char *who, size_t len);
/* One /proc/PID/stat line: 1 when it is a running process on cpu that is
 * not a kernel thread, with "comm (pid PID)" in who; else 0. */
int hostinfo_stat_busy(char *line, int cpu, char *who, size_t len);

/* A fingerprint of what makes measurements comparable: CPU model and
 * microcode, kernel, governor, SMT, THP, plus extra (compiler, flags,
 * kernel sources). 16 hex digits in out. */
void hostinfo_fingerprint(const struct host_facts *facts, const char *extra, char out[17]);

/* A JSON object of the facts; the caller frees it with free(). */
char *hostinfo_json(const struct host_facts *facts);
/* The facts back from such an object (a remote host's); returns 0, or -1
 * with what is wrong in why when it is not one: a field missing, a host name
 * that is not a name (names.h), a control character in a text field. */
struct json_t;
int hostinfo_from_json(const struct json_t *o, struct host_facts *facts, char *why, size_t len);

/* paths.c: where tune finds its kernels, platforms and sweeps, and where it
 * keeps its build cache. Each can be overridden from the environment. */
/* TUNE_HOME, else the source tree tune was built from. Borrowed string. */
const char *paths_home(void);

/* Resolves a platform or sweep given as a name ("epyc") or a path
 * ("sweeps/chase-g.yaml"): a path is taken as it is; a name is looked up as
 * ./<dir>/<name>.yaml, then <home>/<dir>/<name>.yaml. Returns 0 and the path
 * in out, or -1 when no file exists (out then holds the last candidate). */
int paths_find(const char *dir, const char *name, char *out, size_t len);
/* Whether name is a path (a '/' or .yaml), not a name to look up. */
int paths_is_file(const char *name);

/* Names of the YAML files in <home>/<dir>, sorted, without .yaml: how many,
 * in *names (free each, then the array). */
int paths_names(const char *dir, char ***names);
/* The same, comma-separated, for messages. */
void paths_list(const char *dir, char *out, size_t len);

/* Where the kernels' folders are looked for, in this order: the folders
 * added by paths_add_kernels_dir() (--kernels-dir, a platform's
 * kernels_dir), those of TUNE_KERNELS_DIR (separated by ':'), then
 * <home>/kernels, the shipped ones. The first folder holding a kernel wins.
 * Returns how many, at most max, into dirs (borrowed strings). */
#define PATHS_MAX_KERNEL_DIRS 16
size_t paths_kernels_dirs(const char **dirs, size_t max);
/* Adds a folder to look in before TUNE_KERNELS_DIR's and the shipped one:
 * 0, PATHS_NOT_A_FOLDER, or PATHS_TOO_MANY when PATHS_MAX_KERNEL_DIRS are
 * already added (or out of memory). */
#define PATHS_NOT_A_FOLDER (-1)
#define PATHS_TOO_MANY (-2)
int paths_add_kernels_dir(const char *dir);

/* TUNE_CACHE_DIR, else $XDG_CACHE_HOME/tune, else $HOME/.cache/tune. */
void paths_cache_dir(char *out, size_t len);

/* path opened for reading as a stream, when it is a regular file (a FIFO
 * or a device would block or never end): NULL with errno set otherwise
 * (ENXIO: not a regular file; paths_strerror() says so). flags adds to
 * open()'s, e.g. O_NOFOLLOW. */
FILE *paths_fopen_regular(const char *path, int flags);
/* strerror(e), but "not a regular file" for paths_fopen_regular's ENXIO. */
const char *paths_strerror(int e);
/* The whole file, NUL-terminated (free() it), when it is a regular file of
 * at most max bytes; NULL with errno set otherwise (EFBIG: larger than max). */
char *paths_read_file(const char *path, size_t max);
/* The same, but a symbolic link is refused (errno ELOOP): for files in a
 * directory others can write to. */
char *paths_read_file_nofollow(const char *path, size_t max);

/* mkdir -p; returns 0 or -1 with errno set. */
int paths_mkdirs(const char *path);

/* platform.c: one machine type, read from platforms/<name>.yaml. Keys marked
 * auto are filled in from this host's facts by platform_resolve(). */
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
	struct conf_entries params; /* values of any kernel's parameters of these names a sweep leaves out */
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

/* manifest.c: a kernel described as data, in kernel.yaml in its folder in one
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
enum param_type { PARAM_INT, PARAM_CHOICE, PARAM_BOOL, PARAM_DURATION };
/* fixed: one value per sweep; context: each value decided apart (a working
 * set); searched: tuned, one kernel process per value; list: tuned, every
 * value measured interleaved in one kernel process. */
/* probe: set by the kernel's probe run only, never part of a trial. */
enum param_role { ROLE_FIXED, ROLE_CONTEXT, ROLE_SEARCHED, ROLE_LIST, ROLE_PROBE };
enum metric_better { BETTER_LOWER, BETTER_HIGHER };
/* The values a metric may take; always finite. */
enum metric_range { RANGE_POSITIVE, RANGE_NONNEGATIVE, RANGE_ANY };

extern const char *const param_type_names[];
extern const char *const param_role_names[];
/* What the decision prefers among a numeric list's values within tolerance
 * of the best: the smallest (fewer in flight at the same speed), or none. */
enum param_knee { KNEE_SMALLEST, KNEE_NONE };
extern const char *const param_knee_names[];
extern const char *const metric_better_names[];
extern const char *const metric_range_names[];
enum metric_output { OUTPUT_STDOUT, OUTPUT_STDERR };
extern const char *const metric_output_names[];

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
	int knee;                   /* a numeric list: enum param_knee */
	int inf;                    /* a duration that also takes inf (never): passed as the largest integer */
	struct conf_strs always;    /* a list: values measured whatever the sweep lists (reference points) */
	char *at_least;             /* a parameter this one's value must not be below (a range's high end) */
	char *auto_from;            /* "kernel.param": the value auto is that kernel's optimum's (else the default) */
};
/* A value given as auto (see auto_from), until the sweep is resolved on a host. */
#define PARAM_AUTO (LLONG_MIN + 1)
/* The value of a parameter a trial's variant does not take. */
#define PARAM_NA LLONG_MIN

/* constraint.c: conditions between a kernel's parameters (manifest key
 * constraints: "engine != psync or iodepth == 1"), parsed and checked
 * against the parameters when the manifest loads; the plan never makes a
 * trial that breaks one. Integers, parameters (a choice compared by its
 * values' names, a bool with on and off), variant, + - * / %, == != < <= >
 * >=, and, or, not, parentheses. A constraint naming a parameter the
 * trial's variant does not take holds; x / 0, x % 0 and an overflow break
 * it (guard them: tile == 0 or block % tile == 0). */
#define CONSTRAINT_MAX 32
struct constraint_node;
struct kernel_constraint {
	struct constraint_node *nodes;
	size_t n;
	int root;
};
struct kernel_manifest;
/* text as a constraint of m's parameters: 0, or -1 with what is wrong in
 * why and its offset in text in *where. */
int constraint_parse(const struct kernel_manifest *m, const char *text, struct kernel_constraint *c, size_t *where,
		     char *why, size_t len);
/* Does c hold for variant at values (one per parameter, PARAM_NA: not taken)? */
int constraint_holds(const struct kernel_constraint *c, int variant, const long long *values);
/* Does c name parameter param (param == nparams: the variant)? */
int constraint_names(const struct kernel_constraint *c, size_t param, size_t nparams);
/* m's constraints parsed into m->constraint: 0, or TUNE_ERR_CONFIG naming
 * the file, line and column in the constraint. */
int constraints_compile(struct kernel_manifest *m, struct tune_error *err);
void constraints_free(struct kernel_manifest *m);

/* A run of the kernel that measures the host, not a trial: before a sweep of
 * the kernel measures, with the sweep's values and params over them; the
 * fields of its one output line are stored with the host (host_probes). */
struct kernel_probe {
	char *name;                 /* what it measures, as stored */
	char *help;
	struct conf_entries params; /* parameter -> value for the probe run */
	struct conf_strs fields;    /* the output fields stored, numbers */
	char *per;                  /* run once per value of this parameter, or NULL */
	char *llc;                  /* a field measuring the last-level cache in MiB, or NULL */
	struct conf_strs start;     /* none, or two fields: the list's best lies between */
};

struct kernel_metric {
	char *field;                /* of the kernel's JSON line */
	char *unit;
	int better;                 /* enum metric_better */
	int range;                  /* enum metric_range: a run outside it fails */
	struct conf_strs per;       /* fields the value is divided by (a run's wall time per call) */
	char *total;                /* the field holding a run's whole time in ns, or NULL */
	char *rate;                 /* the field holding its operations per second, or NULL: 1e9 / the metric */
	char *limit;                /* a field of the probe: the best the metric can be on the host, or NULL */
	char *limit_times;          /* a parameter the limit is multiplied by (chase's depth), or NULL */
	char *count;                /* a parameter counting the metric's units in a run (chase's queries), or NULL */
	char *json;                 /* a command kernel: the metric's path in its JSON output, or NULL */
	char *regex;                /* a command kernel: a regular expression whose first group is the metric, or NULL */
	int output;                 /* a command kernel: enum metric_output, where json or regex read */
};

struct kernel_manifest {
	char *name;                 /* as a sweep's kernel key names it; the folder's name */
	char *description;
	char *main;                 /* the file compiled, relative to the kernels directory */
	struct conf_strs sources;   /* everything main includes, main first: the build hash covers them */
	struct conf_strs link_flags;/* after the sources on the compiler's command line */
	struct conf_strs variants;  /* the variant names, as stored with the trials */
	char *baseline;             /* the variant others are compared with */
	struct conf_entries baseline_as; /* variant and list value behaving as the baseline, or none */
	char *variant_define;       /* the variant reaches the compiler as -D<it>=<index> */
	char *variant_flag;         /* or the kernel as <it> <name> */
	char *variant_field;        /* the output field naming a line's variant, when one process runs several */
	/* Where it runs, told at run time: the CPU the runner pins it to; or,
	 * for a kernel that pins its own threads, the platform's CPUs (its app
	 * threads) and the CPU of a device thread (a host needs two CPUs). */
	char *cpu_flag, *app_cpus_flag, *device_cpu_flag;
	struct conf_list parameters;/* of struct kernel_param */
	struct kernel_metric metric;
	char *correctness;          /* a field that must equal the baseline's in every run */
	struct conf_strs exports;   /* parameters (or "variant") the header gives per context */
	struct conf_entries moved;  /* old keys of sweeps and platforms, each to what took its place */
	struct conf_texts constraints; /* as written, with where */
	struct kernel_constraint *constraint; /* each parsed, as many */
	struct kernel_probe probe;  /* name NULL: none */
	char *views;                /* SQL views of its results, relative to dir; NULL: none */
	/* A command kernel: a program tune runs as it is, once a run (main NULL). */
	struct conf_strs command;   /* its argv, {name} a parameter's value */
	char *version_flag;         /* what makes it print its version, or NULL */
	char *path;                 /* the kernel.yaml it came from */
	char *dir;                  /* the kernels directory it was found in: sources are relative to it */
};

extern const struct conf_key manifest_keys[];

/* Loads <dir>/<name>/kernel.yaml from the first kernel directory holding
 * it. TUNE_ERR_CONFIG with the file, line, column and key for a bad
 * manifest, or naming the kernels found when there is none. */
int manifest_load(const char *name, struct kernel_manifest *m, struct tune_error *err);
/* The same from <dir>/<name>/kernel.yaml, whatever the kernel directories. */
int manifest_load_in(const char *dir, const char *name, struct kernel_manifest *m, struct tune_error *err);
void manifest_free(struct kernel_manifest *m);
/* The same checks on a parsed document (its path for messages), named name:
 * what manifest_load() does once the file is found. */
int manifest_decode(const char *path, const struct ynode *root, const char *name, struct kernel_manifest *m,
		    struct tune_error *err);

/* command_kernel.c: a kernel whose main is a program tune does not build
 * (manifest key command). Checks what only such a manifest says; 0 or
 * TUNE_ERR_CONFIG naming the key. */
int manifest_check_command(const struct kernel_manifest *m, struct tune_error *err);
/* The next placeholder {name} in s from *at: its name at s + *start, *len
 * bytes, and *at moved past it; 0 when there is none. */
int command_placeholder(const char *s, size_t *at, size_t *start, size_t *len);
/* Whether m's command takes parameter name as {name}. */
int command_uses(const struct kernel_manifest *m, const char *name);

/* Whether the manifest says another variant at one list value behaves as
 * the baseline (baseline_as): 1 with that variant's index and list value. */
int manifest_baseline_as(const struct kernel_manifest *m, int *variant, long long *point);
/* The index of the variant named name, or -1. */
int manifest_variant(const struct kernel_manifest *m, const char *name);
/* The parameter named name, or NULL. */
const struct kernel_param *manifest_param(const struct kernel_manifest *m, const char *name);
#define MANIFEST_PARAM(m, i) CONF_ITEM(&(m)->parameters, struct kernel_param, i)
/* The parameter measured as a list in one process, or NULL. */
const struct kernel_param *manifest_list_param(const struct kernel_manifest *m);
/* Does the header give name ("variant", or a parameter of that role) per
 * context: listed in exports, or by default the variant and the searched
 * and list parameters? */
int manifest_exported(const struct kernel_manifest *m, const char *name, int role);
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
/* The same in dirs[0..nd). */
int manifest_names_in(const char *const *dirs, size_t nd, char ***names);

/* kernel.c: the names a sweep's kernel key takes: every kernel with a
 * manifest in the kernel directories (the shipped ones and a user's),
 * sorted, NULL-ended. kernel_choices_load() reads the directories again.
 * What a kernel is and how it is built and run is in its manifest. */
#define KERNEL_MAX_CHOICES 128
extern const char *kernel_choices[KERNEL_MAX_CHOICES + 1];
void kernel_choices_load(void);

/* moved_keys.c: a conf_explain_fn for sweeps and platforms (the file's
 * kernel's moved: and parameters, else every one's); the check of moved:. */
int kernel_key_explain(const char *key, const char *section, const struct ynode *top, char *buf, size_t len);
int manifest_check_moved(const struct kernel_manifest *m, struct tune_error *err);
/* Whether m's moved: names key; then what to write instead, into buf
 * (section: NULL at the top, "params" inside params: itself, or a section). */
int manifest_moved_explain(const struct kernel_manifest *m, const char *key, const char *section, char *buf,
			   size_t len);

/* sweep.c: one parameter space to measure, read from sweeps/<name>.yaml. Lists
 * it leaves out come from the platform; `quick:` overrides for --quick. */
enum sweep_strategy { STRATEGY_GRID, STRATEGY_RANDOM, STRATEGY_ADAPTIVE, STRATEGY_JOINT };

struct sweep_quick {
	long long runs, warmup, max_runs; /* -1: not overridden */
	struct conf_entries params; /* the parameters given here replace the sweep's */
};

struct sweep {
	char *name;
	char *description;
	int kernel;              /* an index into kernel_choices */
	int strategy;            /* enum sweep_strategy */
	long long runs, warmup, seed, timeout_s;
	long long max_runs;      /* repeat a trial until its interval is tight, up to this */
	long long ci_target_pct; /* tight: interval half-width under this % of the median */
	long long max_trials;    /* budget of search trials; 0: none */
	long long time_limit_s;  /* budget of time; 0: none */
	long long list_min, list_max; /* adaptive and joint: the list parameter's range (keys list_min, list_max) */
	long long tolerance_pct; /* knee: within this % of the best */
	long long final_top;     /* candidates re-measured before an optimum is recorded */
	int record_optima;       /* a sweep that only measures leaves the optima alone */
	double tolerance;        /* tolerance_pct / 100 */
	struct sweep_quick quick;
	struct conf_entries params; /* parameter (or variant) -> values */
	/* Resolved against the kernel's manifest: */
	struct kernel_manifest *manifest;
	struct conf_ints *values;         /* each parameter's values, in the manifest's order */
	struct conf_ints kvariants;       /* the variants measured, as indices */
	struct conf_ints *quick_values;   /* the quick: section's, where it gives them */
	int *defaulted;                   /* each parameter's values are the manifest's default */
	struct conf_ints quick_kvariants;
	char *path;
};

extern const struct conf_key sweep_keys[];
extern const char *const sweep_strategy_names[];

/* Loads a sweep by name or path; free with sweep_free(), also after an error. */
int sweep_load(const char *name, struct sweep *s, struct tune_error *err);
/* Applies the quick: overrides in place; 0 when the sweep has none. */
int sweep_apply_quick(struct sweep *s);
/* platform.c: the parameters sweep s leaves out take platform p's values
 * where its params: name them; a list none of whose values the parameter
 * takes is another kernel's (said, and the default kept), one that mixes
 * is an error at the value. */
int platform_param_values(const struct platform *p, struct sweep *s, struct tune_error *err);
void sweep_free(struct sweep *s);

#endif
