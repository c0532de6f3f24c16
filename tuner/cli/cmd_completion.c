/* tune completion bash|zsh: a completion script made from the command and
 * option tables (commands.c), so it offers what the parser accepts: the
 * commands, each command's options, and their values (platform and sweep
 * names, files, formats, column sets) and operands. zsh runs the bash
 * script through bashcompinit. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../../report/report.h"
#include "cli.h"

/* What an option's value is, by the name the help gives it. */
static const char *value_kind(const char *value)
{
	static const struct {
		const char *value, *kind;
	} kinds[] = { { "P", "platform" }, { "FILE", "file" }, { "DIR", "dir" }, { "FORMAT", "format" },
		      { "SET", "columns" } };

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(value, kinds[i].value))
			return kinds[i].kind;
	return "other"; /* a value tune cannot guess: a host, an address, a number */
}

/* _tune_kind CMD OPTION: the kind of OPTION's value in CMD, or nothing. */
static void print_kinds(const struct cmd_entry *c)
{
	const char *name = c == &tune_main_command ? "tune" : c->name;

	for (const struct cmd_option *op = c->options; op->name; op++) {
		if (!op->value)
			continue;
		printf("\t\"%s --%s\"", name, op->name);
		if (op->flags & CMD_OPT_SHORT)
			printf(" | \"%s -%c\"", name, op->key);
		printf(") echo %s ;;\n", value_kind(op->value));
	}
}

static void print_options(const struct cmd_entry *c)
{
	printf("\t%s) echo '", c == &tune_main_command ? "tune" : c->name);
	for (const struct cmd_option *op = c->options; op->name; op++)
		printf("--%s ", op->name);
	printf("--help' ;;\n");
}

/* The words a command takes besides its options: "csv|header|json" as
 * they are, COMMAND the commands, SWEEP the sweeps in sweeps/ and files. */
static void print_operands(const struct cmd_entry *c)
{
	char words[256], *save = NULL;
	int files = 0;

	if (!c->operands[0])
		return;
	snprintf(words, sizeof(words), "%s", c->operands);
	printf("\t%s) COMPREPLY=($(compgen -W \"", c->name);
	for (char *w = strtok_r(words, "[]|. ", &save); w; w = strtok_r(NULL, "[]|. ", &save)) {
		if (!strcmp(w, "COMMAND")) {
			for (const struct cmd_entry *e = tune_commands; e->name; e++)
				printf("%s ", e->name);
		} else if (!strcmp(w, "SWEEP")) {
			printf("$(_tune_names sweeps) ");
			files = 1;
		} else if (!isupper((unsigned char)w[0])) {
			printf("%s ", w);
		}
	}
	printf("\" -- \"$cur\")%s) ;;\n", files ? " $(compgen -f -- \"$cur\")" : "");
}

static void print_bash(void)
{
	printf("# bash completion for tune, made by 'tune completion bash' from its command tables.\n"
	       "# Use: source <(tune completion bash), or save it in ~/.local/share/bash-completion/completions/tune\n\n"
	       "# The names of the YAML files in a folder of the current directory (platforms, sweeps).\n"
	       "_tune_names() {\n\tlocal f\n\tfor f in \"$1\"/*.yaml; do\n\t\t[ -e \"$f\" ] || continue\n"
	       "\t\tf=${f##*/}\n\t\tprintf '%%s\\n' \"${f%%.yaml}\"\n\tdone\n}\n\n"
	       "# _tune_kind COMMAND OPTION: what the option's value is.\n_tune_kind() {\n\tcase \"$1 $2\" in\n");
	print_kinds(&tune_main_command);
	for (const struct cmd_entry *c = tune_commands; c->name; c++)
		print_kinds(c);
	printf("\tesac\n}\n\n# _tune_options COMMAND: its options.\n_tune_options() {\n\tcase $1 in\n");
	print_options(&tune_main_command);
	for (const struct cmd_entry *c = tune_commands; c->name; c++)
		print_options(c);
	printf("\tesac\n}\n\n_tune() {\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=tune\n"
	       "\tCOMPREPLY=()\n"
	       "\t[ \"$COMP_CWORD\" -gt 1 ] && [[ ${COMP_WORDS[1]} != -* ]] && cmd=${COMP_WORDS[1]}\n"
	       "\tif [ \"$COMP_CWORD\" = 1 ] && [[ $cur != -* ]]; then\n\t\tCOMPREPLY=($(compgen -W \"");
	for (const struct cmd_entry *c = tune_commands; c->name; c++)
		printf("%s ", c->name);
	printf("\" -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase $(_tune_kind \"$cmd\" \"$prev\") in\n"
	       "\tplatform) COMPREPLY=($(compgen -W \"$(_tune_names platforms)\" -- \"$cur\") $(compgen -f -- \"$cur\"))"
	       "; return ;;\n"
	       "\tfile) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
	       "\tdir) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n\tformat) COMPREPLY=($(compgen -W \"");
	for (int i = 0; i < REPORT_HTML; i++)
		printf("%s ", report_format_names[i]);
	printf("\" -- \"$cur\")); return ;;\n\tcolumns) COMPREPLY=($(compgen -W \"");
	for (int i = 0; report_csv_column_names[i]; i++)
		printf("%s ", report_csv_column_names[i]);
	printf("\" -- \"$cur\")); return ;;\n\tother) return ;;\n\tesac\n"
	       "\tif [[ $cur == -* ]]; then\n\t\tCOMPREPLY=($(compgen -W \"$(_tune_options \"$cmd\")\" -- \"$cur\"))\n"
	       "\t\treturn\n\tfi\n\tcase $cmd in\n");
	for (const struct cmd_entry *c = tune_commands; c->name; c++)
		print_operands(c);
	printf("\tesac\n}\ncomplete -F _tune tune\n");
}

int cmd_completion(int argc, char **argv, struct tune_error *err)
{
	const char *shell = argc > 1 ? argv[1] : "";

	if (argc != 2 || (strcmp(shell, "bash") != 0 && strcmp(shell, "zsh") != 0))
		return tune_fail(err, TUNE_ERR_USAGE, "completion: which shell? (tune completion bash, or zsh)");
	if (!strcmp(shell, "zsh"))
		printf("#compdef tune\n# zsh completion for tune: the bash one, through bashcompinit.\n"
		       "autoload -U +X bashcompinit && bashcompinit\n");
	print_bash();
	return 0;
}
