/* tune man: the manual page, in roff, made from the tables the help is made
 * of (commands, options, exit codes), so that it never says other than
 * `tune COMMAND --help`. */
#include <stdio.h>
#include <string.h>

#include "../base/version.h"
#include "cli.h"

/* Text for roff: backslashes as \e, hyphens as \- (so they copy as ASCII),
 * and a zero-width \& before a '.' or '\'' that would start a line. */
static void roff(const char *s)
{
	if (*s == '.' || *s == '\'')
		fputs("\\&", stdout);
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", stdout);
		else if (*s == '-')
			fputs("\\-", stdout);
		else
			putchar(*s);
	}
}

static void synopsis(const struct cmd_entry *c)
{
	fputs(".B tune", stdout);
	if (c != &tune_main_command)
		printf(" %s", c->name);
	putchar('\n');
	if (c->operands[0]) {
		roff(c->operands);
		putchar('\n');
	}
	for (const struct cmd_option *op = c->options; op->name; op++) {
		char text[96];

		snprintf(text, sizeof(text), "%s--%s%s%s%s%s", op->flags & CMD_OPT_REQUIRED ? "" : "[", op->name,
			 op->value ? " " : "", op->value ? op->value : "", op->flags & CMD_OPT_REPEAT ? " ..." : "",
			 op->flags & CMD_OPT_REQUIRED ? "" : "]");
		roff(text);
		putchar('\n');
	}
}

static void command(const struct cmd_entry *c)
{
	printf(".SS \"tune%s%s\"\n", c == &tune_main_command ? "" : " ", c == &tune_main_command ? "" : c->name);
	synopsis(c);
	fputs(".PP\n", stdout);
	roff(c->summary);
	putchar('\n');
	for (const struct cmd_option *op = c->options; op->name; op++) {
		fputs(".TP\n.B ", stdout);
		if (op->flags & CMD_OPT_SHORT)
			printf("\\-%c, ", op->key);
		fputs("\\-\\-", stdout);
		roff(op->name);
		if (op->value)
			printf(" \\fI%s\\fR", op->value);
		putchar('\n');
		roff(op->help);
		putchar('\n');
	}
	fputs(".PP\nExample:\n.RS\n.nf\n", stdout);
	roff(c->example);
	fputs("\n.fi\n.RE\n", stdout);
}

int cmd_man(int argc, char **argv, struct tune_error *err)
{
	(void)argv;
	if (argc > 1)
		return tune_fail(err, TUNE_ERR_USAGE, "man: takes no arguments (tune man > tune.1)");
	printf(".TH TUNE 1 \"\" \"tune %s\" \"User Commands\"\n.SH NAME\ntune \\- an autotuner and sweep "
	       "orchestrator for latency\\-hiding kernels, per machine\n.SH SYNOPSIS\n", TUNE_VERSION);
	synopsis(&tune_main_command);
	fputs(".br\n.B tune\n.I command\n[options]\n.SH DESCRIPTION\n"
	      "tune compiles kernel variants per platform, runs them pinned on this host, agents or Slurm nodes, "
	      "records every sample in an SQLite database, searches each machine's best settings and exports them "
	      "as a C header.\nThe database is \\fB\\-\\-db\\fR \\fIFILE\\fR, else \\fB$TUNE_DB\\fR, else "
	      "\\fI./tune.db\\fR.\n.SH COMMANDS\n", stdout);
	command(&tune_main_command);
	for (const struct cmd_entry *c = tune_commands; c->name; c++)
		command(c);
	fputs(".SH \"KERNEL PROTOCOL\"\n.nf\n", stdout);
	for (const char *const *line = tune_protocol_help; *line; line++) {
		roff(*line);
		putchar('\n');
	}
	fputs(".fi\n.SH \"EXIT STATUS\"\n", stdout);
	for (const struct cmd_exit_code *e = tune_exit_codes; e->meaning; e++) {
		printf(".TP\n.B %d\n", e->code);
		roff(e->meaning);
		putchar('\n');
	}
	fputs(".SH ENVIRONMENT\n.TP\n.B TUNE_DB\nthe database when no \\-\\-db is given\n"
	      ".TP\n.B TUNE_CACHE_DIR\nwhere kernel builds are kept\n"
	      ".SH \"SEE ALSO\"\n\\fBtune help platform\\fR, \\fBtune help sweep\\fR, \\fBtune help kernel\\fR: the keys of "
	      "the YAML files; \\fBtune help protocol\\fR: the kernel protocol.\n", stdout);
	return 0;
}
