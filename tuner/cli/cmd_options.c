#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../report/report.h"
#include "../../store/store.h"

#include "../config/config.h"
#include "cli.h"

const char *cmd_db_path(const char *opt)
{
	const char *env = getenv("TUNE_DB");

	if (opt && *opt)
		return opt;
	return env && *env ? env : "tune.db";
}

int cmd_open_store(const char *path, struct store **st, struct tune_error *err)
{
	if (access(path, F_OK) != 0)
		return tune_fail(err, TUNE_ERR_STORE, "database '%s' does not exist (run 'tune --platform local' "
				 "first, or give --db)", path);
	/* Reading needs no write access; an older schema is migrated where it can be. */
	if (store_open_readonly(path, st, tune_msg(err)) == 0)
		return 0;
	if (access(path, W_OK) != 0)
		return TUNE_ERR_STORE;
	return store_open(path, st, tune_msg(err));
}

int cmd_add_kernels_dir(const char *cmd, const char *dir, struct tune_error *err)
{
	switch (paths_add_kernels_dir(dir)) {
	case 0:
		return 0;
	case PATHS_NOT_A_FOLDER:
		return tune_fail(err, TUNE_ERR_USAGE, "%s: --kernels-dir '%s' is not a folder (give the folder that holds "
				 "<kernel>/kernel.yaml)", cmd, dir);
	default:
		return tune_fail(err, TUNE_ERR_USAGE, "%s: at most %d --kernels-dir folders", cmd, PATHS_MAX_KERNEL_DIRS);
	}
}

int cmd_parse_options(const char *cmd, int argc, char **argv, const char *accepted, struct cmd_options *o,
		      struct tune_error *err)
{
	static const struct option longs[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "platform", required_argument, NULL, 'p' },
		{ "quick", no_argument, NULL, 'q' },
		{ "fresh", no_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "check", required_argument, NULL, 'c' },
		{ "format", required_argument, NULL, 'F' },
		{ "require-tls", no_argument, NULL, 'T' },
		{ "kernels-dir", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	int c, rc;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "o:", longs, NULL)) != -1) {
		if (c == '?' || c == ':' || !strchr(accepted, c)) {
			const char *bad = argv[optind - 1];

			if (c == ':' || (c == '?' && optopt && strchr("o", optopt)) ||
			    (c == '?' && !strncmp(bad, "--", 2) && strchr(bad, '=') == NULL &&
			     (!strcmp(bad, "--db") || !strcmp(bad, "--platform") || !strcmp(bad, "--output") ||
			      !strcmp(bad, "--check") || !strcmp(bad, "--format") || !strcmp(bad, "--kernels-dir"))))
				return tune_fail(err, TUNE_ERR_USAGE, "%s: option '%s' needs a value (see 'tune help %s')",
						 cmd, bad, cmd);
			return tune_fail(err, TUNE_ERR_USAGE, "%s: unknown option '%s' (see 'tune help %s')", cmd, bad,
					 cmd);
		}
		switch (c) {
		case 'd':
			o->db = optarg;
			break;
		case 'p':
			if (o->nplatforms == CMD_MAX_PLATFORMS)
				return tune_fail(err, TUNE_ERR_USAGE, "%s: at most %d --platform options", cmd,
						 CMD_MAX_PLATFORMS);
			o->platforms[o->nplatforms++] = optarg;
			break;
		case 'q':
			o->quick = 1;
			break;
		case 'f':
			o->fresh = 1;
			break;
		case 'T':
			o->require_tls = 1;
			break;
		case 'K':
			if ((rc = cmd_add_kernels_dir(cmd, optarg, err)) != 0)
				return rc;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'c':
			o->check = optarg;
			break;
		case 'F':
			o->format = -1;
			for (int i = 0; i < REPORT_HTML; i++)
				if (!strcmp(optarg, report_format_names[i]))
					o->format = i;
			if (o->format < 0)
				return tune_fail(err, TUNE_ERR_USAGE, "%s: unknown format '%s' (one of: table, md, csv, "
						 "json)", cmd, optarg);
			break;
		}
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	o->db = cmd_db_path(o->db);
	return 0;
}
