/* tune help [COMMAND|platform|sweep|kernel|exit-codes] */
#include <stdio.h>
#include <string.h>

#include "../config/config.h"
#include "cli.h"

static void exit_codes(void)
{
	printf("exit codes:\n"
	       "  0    success\n"
	       "  1    the sweep finished but some trials failed (reasons are shown and stored)\n"
	       "  2    usage error: unknown command or option, missing argument\n"
	       "  3    invalid platform, sweep or kernel file (manifest, views), or a platform this host cannot run\n"
	       "  4    database error: cannot open, read or write the database, or its schema is newer\n"
	       "  5    a tool is missing or failed: the platform's compiler, or gnuplot for reports\n"
	       "  6    system error: out of memory, cannot start a process\n"
	       "  7    export header --check: the header is stale (other fingerprint, or newer optima)\n"
	       "  8    a remote host stopped answering: its trials stay pending; run again to resume\n"
	       "  9    another tune is measuring the same sweep into the database: wait for it, or use --db\n"
	       "  10   nothing recorded for what was asked (results, report, export of a platform not tuned yet)\n"
	       "  130  interrupted (Ctrl-C, SIGTERM): what was measured is kept; run again to resume\n");
}

int cmd_help(int argc, char **argv, struct tune_error *err)
{
	const char *topic = argc > 1 ? argv[1] : NULL;

	if (!topic) {
		printf("usage: tune --platform P [options]   %s\n"
		       "       tune <command> [options]\n\ncommands:\n", tune_main_command.summary);
		for (const struct cmd_entry *c = tune_commands; c->name; c++)
			printf("  %-9s %s\n", c->name, c->summary);
		printf("\nhelp topics: platform, sweep, kernel, exit-codes; tune <command> --help for its options\n"
		       "database: --db F, else $TUNE_DB, else ./tune.db\n");
		return 0;
	}
	if (!strcmp(topic, "platform")) {
		printf("platform files (platforms/<name>.yaml) take these keys:\n\n");
		conf_help(stdout, platform_keys, 2);
		return 0;
	}
	if (!strcmp(topic, "sweep")) {
		printf("sweep files (sweeps/<name>.yaml) take these keys:\n\n");
		kernel_choices_load(); /* the kernel key's choices: the kernels found */
		conf_help(stdout, sweep_keys, 2);
		return 0;
	}
	if (!strcmp(topic, "kernel")) {
		printf("kernel manifests (<kernels dir>/<name>/kernel.yaml) take these keys:\n\n");
		conf_help(stdout, manifest_keys, 2);
		return 0;
	}
	if (!strcmp(topic, "exit-codes")) {
		exit_codes();
		return 0;
	}
	if (cmd_find(topic)) {
		cmd_print_help(stdout, cmd_find(topic));
		return 0;
	}
	return tune_fail(err, TUNE_ERR_USAGE, "help: no help on '%s' (topics: platform, sweep, kernel, exit-codes, or a "
			 "command)", topic);
}
