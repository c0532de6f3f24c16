/* cli: the subcommands, one file each (cmd_<name>.c), dispatched from the
 * sorted table in commands.c by main.c, and the options they share. Each command returns
 * 0 or a negative tune_err with the message; main() alone prints it and
 * picks the exit code. */
#ifndef TUNER_CLI_STAGE_H
#define TUNER_CLI_STAGE_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>

#include "../base/errors.h"

/* An option a command takes. Each command's table of them (struct
 * cmd_entry's options, in commands.c) is what the parser accepts, what its
 * usage line and `tune COMMAND --help` show, and what did-you-mean
 * suggests from; each option is defined once, below. */
struct cmd_option {
	const char *name;  /* --name */
	int key;           /* the letter the parser files it under; also -<key> with CMD_OPT_SHORT */
	const char *value; /* its value's name in the help ("FILE"); NULL: a switch */
	unsigned flags;
	const char *help;  /* what it does, and its default */
};
#define CMD_OPT_SHORT 1u    /* also -<key> */
#define CMD_OPT_REPEAT 2u   /* may be given again: each adds one */
#define CMD_OPT_REQUIRED 4u /* the command needs it (no brackets in the usage) */
#define CMD_OPT_BY_NAME 8u  /* --platform names stored results: a YAML file is read for its name: */

#define CMD_OPT_DB { "db", 'd', "FILE", 0, "the results database (default: $TUNE_DB, else ./tune.db)" }
#define CMD_OPT_PLATFORMS(flags) { "platform", 'p', "P", CMD_OPT_REPEAT | (flags), \
	"a platform: a name in platforms/ or a YAML file (again for several)" }
#define CMD_OPT_PLATFORM(flags, help) { "platform", 'p', "P", (flags), help }
#define CMD_OPT_QUICK { "quick", 'q', NULL, 0, "the sweeps' quick settings (their quick: section): a first look" }
#define CMD_OPT_YES { "yes", 'y', NULL, 0, "with no platform named: measure the default platform's plan " \
	"without asking (for scripts)" }
#define CMD_OPT_FRESH { "fresh", 'f', NULL, 0, "measure again what the database holds for these sweeps" }
#define CMD_OPT_REQUIRE_TLS { "require-tls", 'T', NULL, 0, "refuse a remote host reached without TLS" }
#define CMD_OPT_KERNELS_DIR { "kernels-dir", 'K', "DIR", CMD_OPT_REPEAT, \
	"look for kernels (DIR/<name>/kernel.yaml) in DIR too, before the shipped ones (again for several)" }
#define CMD_OPT_OUTPUT(value, help) { "output", 'o', value, CMD_OPT_SHORT, help }
#define CMD_OPT_CHECK { "check", 'c', "FILE", 0, "say whether the header FILE is out of date (exit 7) instead" }
#define CMD_OPT_FORMAT { "format", 'F', "FORMAT", 0, "table, md, csv or json (default table)" }
#define CMD_OPT_END { NULL, 0, NULL, 0, NULL }

struct cmd_entry {
	const char *name;
	int (*fn)(int argc, char **argv, struct tune_error *err);
	const char *operands;             /* what it takes besides options ("SWEEP..."), or "" */
	const struct cmd_option *options; /* ended by CMD_OPT_END */
	const char *summary;
	const char *example;              /* a command line that works from the source tree */
};

/* tune's exit codes and what each means, ended by a NULL meaning (cmd_help.c):
 * `tune help exit-codes` and the man page. */
struct cmd_exit_code {
	int code;
	const char *meaning;
};
extern const struct cmd_exit_code tune_exit_codes[];
/* protocol_help.c: the kernel protocol in prose, a line each, NULL last. */
extern const char *const tune_protocol_help[];

/* The subcommands, sorted by name, and `tune --platform P` itself (named
 * "tune"); commands.c. */
extern const struct cmd_entry tune_commands[];
extern const struct cmd_entry tune_main_command;
/* The command of that name (or "tune"), or NULL. */
const struct cmd_entry *cmd_find(const char *name);
/* Its usage line, summary, each option with what it does and its default,
 * and the example. */
void cmd_print_help(FILE *out, const struct cmd_entry *c);

int cmd_agent(int argc, char **argv, struct tune_error *err);
int cmd_completion(int argc, char **argv, struct tune_error *err);
int cmd_export(int argc, char **argv, struct tune_error *err);
int cmd_facts(int argc, char **argv, struct tune_error *err);
int cmd_help(int argc, char **argv, struct tune_error *err);
int cmd_hosts(int argc, char **argv, struct tune_error *err);
int cmd_kernel(int argc, char **argv, struct tune_error *err);
int cmd_kernels(int argc, char **argv, struct tune_error *err);
int cmd_man(int argc, char **argv, struct tune_error *err);
int cmd_migrate(int argc, char **argv, struct tune_error *err);
int cmd_replay(int argc, char **argv, struct tune_error *err);
int cmd_report(int argc, char **argv, struct tune_error *err);
int cmd_results(int argc, char **argv, struct tune_error *err);
int cmd_run(int argc, char **argv, struct tune_error *err);
int cmd_tune(int argc, char **argv, struct tune_error *err);
int cmd_version(int argc, char **argv, struct tune_error *err);

struct cmd_options;
/* Runs the sweeps (all of the platform's when nsweeps is 0) into o->db. */
int cmd_run_sweeps(const char *platform, char *const *sweeps, size_t nsweeps, const struct cmd_options *o,
		   struct tune_error *err);

/* run_plan.c: the platform measured when none is named, and its plan:
 * shown on stderr, then measured only with --yes or when a terminal
 * answers yes (0), else a usage error that starts with prefix ("run: ")
 * and shows call ("tune run chase-g") with the option. */
extern const char *const cmd_default_platform;
int cmd_confirm_plan(const char *prefix, const char *call, char *const *sweeps, size_t nsweeps,
		     const struct cmd_options *o, struct tune_error *err);

struct kernel_manifest;
struct platform;
/* kernel_check.c: kernel m built with p's compiler and run on tiny
 * parameters as tune runs it, its output held to the protocol; each problem
 * on stderr, then TUNE_ERR_TRIALS. A run past timeout_s is one. */
int kernel_check(const struct kernel_manifest *m, const struct platform *p, double timeout_s,
		 struct tune_error *err);
/* kernel_new.c: a new kernel folder dir/name (manifest, a main on the SDK,
 * a sweep) that tune runs at once; never over an existing one. */
int kernel_new(const char *name, const char *dir, struct tune_error *err);

struct store;
/* Opens a database that must exist already, read-only (for reading results;
 * a writable one of an older schema is migrated first). */
int cmd_open_store(const char *path, struct store **st, struct tune_error *err);

/* The platforms the database has optima for, at most max, their names in
 * names[] and out[] pointing at them: what a command that reads optima
 * takes when no --platform is given. */
#define CMD_PLATFORM_NAME_MAX 256
size_t cmd_platforms_with_optima(sqlite3 *db, const char **out, size_t max, char names[][CMD_PLATFORM_NAME_MAX]);

/* What to do when the database has no results for platform (as given to
 * --platform), into buf: run it, or, for a file that is not there, what
 * --platform takes. */
void cmd_no_results_advice(const char *platform, char *buf, size_t len);

/* The database path: --db, else TUNE_DB, else ./tune.db. Borrowed. */
const char *cmd_db_path(const char *opt);

/* cmd_options.c: a command's options, parsed by its table. */
#define CMD_MAX_PLATFORMS 16
#define CMD_MAX_KERNELS 32

struct cmd_options {
	const char *db;
	const char *platforms[CMD_MAX_PLATFORMS];
	size_t nplatforms;
	char platform_names[CMD_MAX_PLATFORMS][CMD_PLATFORM_NAME_MAX]; /* CMD_OPT_BY_NAME: a file's name: */
	const char *kernels[CMD_MAX_KERNELS + 1]; /* --kernel, NULL-terminated */
	size_t nkernels;
	int quick, fresh;
	int yes;         /* --yes: measure the default platform's plan without asking */
	int require_tls; /* --require-tls */
	const char *output;
	const char *check;
	const char *table; /* --table */
	int columns;       /* enum report_csv_columns, from --columns */
	int columns_given;
	int format;      /* enum report_format, from --format */
	/* tune agent's */
	const char *listen, *token_file, *tls_cert, *tls_key, *name, *max_timeout;
	/* tune replay's */
	const char *from, *bridge, *seeds, *drift, *strategies, *start;
	const char *kernel_tuner, *budgets; /* --kernel-tuner FILE, --budgets LIST */
	int format_given;
	int serve;
	int probes; /* tune facts --probes */
	const char *dir, *timeout; /* tune kernel's */
	char **args; /* what is left: positional arguments */
	int nargs;
};

/* --kernels-dir DIR of command cmd: added to the kernel search path, or
 * TUNE_ERR_USAGE saying why not. */
int cmd_add_kernels_dir(const char *cmd, const char *dir, struct tune_error *err);
/* The options of command cmd (its table, cmd_find()) into o; an unknown
 * one, with did-you-mean, or one without its value is TUNE_ERR_USAGE. */
int cmd_parse_options(const char *cmd, int argc, char **argv, struct cmd_options *o, struct tune_error *err);

#endif
