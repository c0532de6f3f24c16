/* cli: the subcommands, one file each (cmd_<name>.c), dispatched from the
 * sorted table in main.c, and the options they share. Each command returns
 * 0 or a negative tune_err with the message; main() alone prints it and
 * picks the exit code. */
#ifndef TUNER_CLI_STAGE_H
#define TUNER_CLI_STAGE_H

#include <stddef.h>

#include "../base/errors.h"

/* main.c and cmd_*.c: one file per subcommand (cmd_<name>.c), dispatched from the
 * sorted table in main.c. Each returns 0 or a negative tune_err with the
 * message in err; main() prints it and picks the exit code. */
struct cmd_entry {
	const char *name;
	int (*fn)(int argc, char **argv, struct tune_error *err);
	const char *usage;
	const char *summary;
};

extern const struct cmd_entry tune_commands[];

int cmd_agent(int argc, char **argv, struct tune_error *err);
int cmd_export(int argc, char **argv, struct tune_error *err);
int cmd_facts(int argc, char **argv, struct tune_error *err);
int cmd_help(int argc, char **argv, struct tune_error *err);
int cmd_hosts(int argc, char **argv, struct tune_error *err);
int cmd_kernels(int argc, char **argv, struct tune_error *err);
int cmd_report(int argc, char **argv, struct tune_error *err);
int cmd_results(int argc, char **argv, struct tune_error *err);
int cmd_run(int argc, char **argv, struct tune_error *err);
int cmd_tune(int argc, char **argv, struct tune_error *err);
int cmd_version(int argc, char **argv, struct tune_error *err);

struct cmd_options;
/* Runs the sweeps (all of the platform's when nsweeps is 0) into o->db. */
int cmd_run_sweeps(const char *platform, char *const *sweeps, size_t nsweeps, const struct cmd_options *o,
		   struct tune_error *err);

struct store;
/* Opens a database that must exist already, read-only (for reading results;
 * a writable one of an older schema is migrated first). */
int cmd_open_store(const char *path, struct store **st, struct tune_error *err);

/* The database path: --db, else TUNE_DB, else ./tune.db. Borrowed. */
const char *cmd_db_path(const char *opt);

/* cmd_options.c: the options the subcommands share, parsed in one place. */
#define CMD_MAX_PLATFORMS 16

struct cmd_options {
	const char *db;
	const char *platforms[CMD_MAX_PLATFORMS];
	size_t nplatforms;
	int quick, fresh;
	int require_tls; /* --require-tls */
	const char *output;
	const char *check;
	int format;      /* enum report_format, from --format */
	char **args; /* what is left: positional arguments */
	int nargs;
};

/* accepted lists the options the command takes, by letter: d (--db),
 * p (--platform), q (--quick), f (--fresh), o (-o/--output), c (--check),
 * F (--format table|md|csv|json), T (--require-tls), K (--kernels-dir DIR, added to
 * the kernel search path as it is read). */
/* --kernels-dir DIR of command cmd: added to the kernel search path, or
 * TUNE_ERR_USAGE saying why not. */
int cmd_add_kernels_dir(const char *cmd, const char *dir, struct tune_error *err);
int cmd_parse_options(const char *cmd, int argc, char **argv, const char *accepted, struct cmd_options *o,
		      struct tune_error *err);

#endif
