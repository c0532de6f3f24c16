/* tune help [COMMAND|platform|sweep|kernel|protocol|exit-codes] */
#include <stdio.h>
#include <string.h>

#include "../config/config.h"
#include "cli.h"

const struct cmd_exit_code tune_exit_codes[] = {
	{ 0, "success" },
	{ 1, "the sweep finished but some trials failed (reasons are shown and stored); kernel check: the kernel breaks the protocol (each problem shown)" },
	{ 2, "usage error: unknown command or option, missing argument" },
	{ 3, "invalid platform, sweep or kernel file (manifest, views), or a platform this host cannot run" },
	{ 4, "database error: cannot open, read or write the database, or its schema is newer" },
	{ 5, "a tool is missing or failed: the platform's compiler, or gnuplot for reports" },
	{ 6, "system error: out of memory, cannot start a process" },
	{ 7, "export header --check: the header is stale (other fingerprint, or newer optima)" },
	{ 8, "a remote host stopped answering: its trials stay pending; run again to resume" },
	{ 9, "another tune is measuring the same sweep into the database: wait for it, or use --db" },
	{ 10, "nothing recorded for what was asked (results, report, export of a platform not tuned yet)" },
	{ 130, "interrupted (Ctrl-C, SIGTERM): what was measured is kept; run again to resume" },
	{ -1, NULL },
};

static void exit_codes(void)
{
	printf("exit codes:\n");
	for (const struct cmd_exit_code *e = tune_exit_codes; e->meaning; e++)
		printf("  %-4d %s\n", e->code, e->meaning);
}

int cmd_help(int argc, char **argv, struct tune_error *err)
{
	const char *topic = argc > 1 ? argv[1] : NULL;

	if (!topic) {
		printf("usage: tune --platform P [options]   %s\n"
		       "       tune <command> [options]\n\ncommands:\n", tune_main_command.summary);
		for (const struct cmd_entry *c = tune_commands; c->name; c++)
			printf("  %-11s %s\n", c->name, c->summary);
		printf("\nhelp topics: platform, sweep, kernel, protocol, exit-codes; tune <command> --help for its options\n"
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
		printf("\nconstraints: each a condition over the parameters (by name; a duration in ns, and inf where it\n"
		       "takes it), variant, integers, a choice's values (by name; quote one that is not a bare word:\n"
		       "'posix-aio'), on and off, with + - * / %%, == != < <= > >=, and, or, not and parentheses; a\n"
		       "long one may be folded over lines (- > then its lines). No strategy measures a trial that\n"
		       "breaks one; a list's values it excludes leave that process's list alone. One naming a parameter\n"
		       "the variant does not take holds; x / 0, x %% 0 and an overflow break it (guard: tile == 0 or\n"
		       "block %% tile == 0). A sweep listing a value no allowed combination takes is an error at that\n"
		       "value; tune kernel check says when a variant's defaults break one.\n");
		return 0;
	}
	if (!strcmp(topic, "protocol")) {
		for (const char *const *line = tune_protocol_help; *line; line++)
			puts(*line);
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
	return tune_fail(err, TUNE_ERR_USAGE, "help: no help on '%s' (topics: platform, sweep, kernel, protocol, exit-codes, "
			 "or a "
			 "command)", topic);
}
