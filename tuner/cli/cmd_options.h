/* cmd_options: the options the subcommands share, parsed in one place. */
#ifndef TUNER_CMD_OPTIONS_H
#define TUNER_CMD_OPTIONS_H

#include <stddef.h>

#include "../base/errors.h"

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
