/* tune: an autotuner and sweep orchestrator for latency-hiding kernels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../report/report.h"
#include "base/names.h"
#include "cli/cli.h"
#include "config/config.h"

/* -h or --help among a command's arguments (before a "--"). */
static int asks_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const struct cmd_entry *c;
	struct tune_error err = { "" };
	int rc;

	if (argc < 2) {
		cmd_help(1, argv, &err);
		return 2;
	}
	if (argv[1][0] == '-') {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
			return cmd_help(1, argv, &err) ? 2 : 0;
		if (asks_help(argc, argv)) {
			cmd_print_help(stdout, &tune_main_command);
			return 0;
		}
		if (!strcmp(argv[1], "--version"))
			return cmd_version(1, argv, &err);
		/* tune --platform P [...]: tune everything for that platform. */
		rc = cmd_tune(argc, argv, &err);
	} else {
		for (c = tune_commands; c->name; c++)
			if (!strcmp(c->name, argv[1]))
				break;
		if (!c->name) {
			const char *suggestion = tune_suggest_in(argv[1], tune_commands, sizeof(*tune_commands));

			fprintf(stderr, "tune: '%s' is not a tune command%s%s%s (see 'tune help')\n", argv[1],
				suggestion ? " (did you mean '" : "", suggestion ? suggestion : "", suggestion ? "'?)" : "");
			return 2;
		}
		if (asks_help(argc - 1, argv + 1)) {
			cmd_print_help(stdout, c);
			return 0;
		}
		rc = c->fn(argc - 1, argv + 1, &err);
	}
	if (rc) {
		/* A message may quote a compiler, a kernel or a database: shown, not obeyed. */
		if (err.msg[0]) {
			char *shown = names_shown(err.msg, 1);

			fprintf(stderr, "tune: %s\n", shown ? shown : err.msg);
			free(shown);
		}
		return tune_exit_code(rc);
	}
	return 0;
}
