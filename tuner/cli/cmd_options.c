#include <getopt.h>
#include <stdio.h>
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
	int copied = 0;

	/* Reading needs no write access and writes nothing: an older schema is
	 * read from a migrated copy. */
	if (store_open_readonly(path, st, &copied, tune_msg(err)) != 0)
		return TUNE_ERR_STORE;
	if (copied)
		fprintf(stderr, "tune: note: database '%s' has an older schema: read from a migrated copy, the file left "
			"as it is (any tune run migrates it)\n", path);
	return 0;
}

size_t cmd_platforms_with_optima(sqlite3 *db, const char **out, size_t max, char names[][CMD_PLATFORM_NAME_MAX])
{
	sqlite3_stmt *q = NULL;
	size_t n = 0;

	if (sqlite3_prepare_v2(db, "SELECT DISTINCT platform FROM optima ORDER BY platform", -1, &q, NULL) != SQLITE_OK)
		return 0;
	while (n < max && sqlite3_step(q) == SQLITE_ROW) {
		snprintf(names[n], CMD_PLATFORM_NAME_MAX, "%s", (const char *)sqlite3_column_text(q, 0));
		out[n] = names[n];
		n++;
	}
	sqlite3_finalize(q);
	return n;
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

const struct cmd_entry *cmd_find(const char *name)
{
	if (!strcmp(name, tune_main_command.name))
		return &tune_main_command;
	for (const struct cmd_entry *c = tune_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* "tune run", or "tune" for tune --platform P: how the user calls c. */
static const char *invocation(const struct cmd_entry *c, char *out, size_t len)
{
	snprintf(out, len, "tune%s%s", c == &tune_main_command ? "" : " ", c == &tune_main_command ? "" : c->name);
	return out;
}

void cmd_print_help(FILE *out, const struct cmd_entry *c)
{
	char call[40];

	fprintf(out, "usage: %s", invocation(c, call, sizeof(call)));
	if (c->operands[0])
		fprintf(out, " %s", c->operands);
	for (const struct cmd_option *op = c->options; op->name; op++) {
		int req = op->flags & CMD_OPT_REQUIRED;

		fprintf(out, " %s--%s%s%s%s%s", req ? "" : "[", op->name, op->value ? " " : "", op->value ? op->value : "",
			op->flags & CMD_OPT_REPEAT ? " ..." : "", req ? "" : "]");
	}
	fprintf(out, "\n\n%s\n\noptions:\n", c->summary);
	for (const struct cmd_option *op = c->options; op->name; op++) {
		char left[64];

		/* "-o, --output FILE", and "    --db FILE" under it. */
		if (op->flags & CMD_OPT_SHORT)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", op->key, op->name, op->value ? " " : "",
				 op->value ? op->value : "");
		else
			snprintf(left, sizeof(left), "    --%s%s%s", op->name, op->value ? " " : "", op->value ? op->value : "");
		fprintf(out, "  %-26s %s\n", left, op->help);
	}
	fprintf(out, "  %-26s %s\n\nexample:\n  %s\n", "-h, --help", "this help", c->example);
}

/* The option of c filed under key, or NULL. */
static const struct cmd_option *option_of(const struct cmd_entry *c, int key)
{
	for (const struct cmd_option *op = c->options; op->name; op++)
		if (op->key == key)
			return op;
	return NULL;
}

/* An unknown option, or one without its value: what it is, and the
 * option of c meant when the spelling is near one. */
static int bad_option(const struct cmd_entry *c, const char *prefix, const char *arg, int missing,
		      struct tune_error *err)
{
	char word[64], call[40];
	const char *suggestion;

	invocation(c, call, sizeof(call));
	if (missing)
		return tune_fail(err, TUNE_ERR_USAGE, "%soption '%s' needs a value (see '%s --help')", prefix, arg, call);
	snprintf(word, sizeof(word), "%s", arg + strspn(arg, "-"));
	word[strcspn(word, "=")] = '\0';
	suggestion = tune_suggest_in(word, c->options, sizeof(*c->options));
	return tune_fail(err, TUNE_ERR_USAGE, "%sunknown option '%s' (%s%s%ssee '%s --help')", prefix, arg,
			 suggestion ? "did you mean '--" : "", suggestion ? suggestion : "", suggestion ? "'? " : "", call);
}

/* Whether the platform being added (platforms[nplatforms]) is given already. */
static int platform_given(const struct cmd_options *o)
{
	for (size_t k = 0; k < o->nplatforms; k++)
		if (!strcmp(o->platforms[k], o->platforms[o->nplatforms]))
			return 1;
	return 0;
}

void cmd_no_results_advice(const char *platform, char *buf, size_t len)
{
	if (paths_is_file(platform) && access(platform, F_OK) != 0)
		snprintf(buf, len, "and no file '%s' either: give a platform's name (as 'tune results' lists them) or "
			 "its YAML file", platform);
	else
		snprintf(buf, len, "run 'tune --platform %s' first", platform);
}

/* A platform given as a YAML file where results are looked up by the
 * platform's name: its name: (what a run stored them under). No such file:
 * the name itself (a name stored from elsewhere may hold a '/'). */
static int name_of_file(struct cmd_options *o, const char *prefix, const char *arg, struct tune_error *err)
{
	struct platform p;
	int rc;

	if (!paths_is_file(arg) || access(arg, F_OK) != 0)
		return 0;
	memset(&p, 0, sizeof(p));
	if ((rc = platform_load(arg, &p, err)) == 0) {
		snprintf(o->platform_names[o->nplatforms], CMD_PLATFORM_NAME_MAX, "%s", p.name);
		o->platforms[o->nplatforms] = o->platform_names[o->nplatforms];
	} else {
		char why[sizeof(err->msg)];

		snprintf(why, sizeof(why), "%s", err->msg);
		rc = tune_fail(err, rc, "%s--platform %s: results are stored under a platform's name:, and this "
			       "file's cannot be read: %s", prefix, arg, why);
	}
	platform_free(&p);
	return rc;
}

int cmd_parse_options(const char *cmd, int argc, char **argv, struct cmd_options *o, struct tune_error *err)
{
	const struct cmd_entry *c = cmd_find(cmd);
	struct option longs[32];
	char shorts[64] = ":", prefix[48] = "";
	size_t n = 0, ns = 1;
	int key, rc;

	memset(o, 0, sizeof(*o));
	if (!c)
		return tune_fail(err, TUNE_ERR_USAGE, "'%s' is not a tune command", cmd);
	if (c != &tune_main_command)
		snprintf(prefix, sizeof(prefix), "%s: ", c->name);
	for (const struct cmd_option *op = c->options; op->name && n + 1 < sizeof(longs) / sizeof(longs[0]); op++) {
		longs[n++] = (struct option){ op->name, op->value ? required_argument : no_argument, NULL, op->key };
		if ((op->flags & CMD_OPT_SHORT) && ns + 3 < sizeof(shorts)) {
			shorts[ns++] = (char)op->key;
			if (op->value)
				shorts[ns++] = ':';
			shorts[ns] = '\0';
		}
	}
	longs[n] = (struct option){ NULL, 0, NULL, 0 };
	optind = 1;
	opterr = 0;
	while ((key = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		const struct cmd_option *op = option_of(c, key);

		if (key == ':' || key == '?' || !op)
			return bad_option(c, prefix, argv[optind - 1], key == ':', err);
		switch (key) {
		case 'd': o->db = optarg; break;
		case 'q': o->quick = 1; break;
		case 'f': o->fresh = 1; break;
		case 'y': o->yes = 1; break;
		case 'T': o->require_tls = 1; break;
		case 'o': o->output = optarg; break;
		case 'c': o->check = optarg; break;
		case 'b': o->table = optarg; break;
		case 'L':
			o->columns = -1;
			for (int i = 0; report_csv_column_names[i]; i++)
				if (!strcmp(optarg, report_csv_column_names[i]))
					o->columns = i;
			if (o->columns < 0)
				return tune_fail(err, TUNE_ERR_USAGE, "%sunknown column set '%s' (own, the kernel's: amaco2's "
						 "for the chase; or all)", prefix,
						 optarg);
			o->columns_given = 1;
			break;
		case 'l': o->listen = optarg; break;
		case 't': o->token_file = optarg; break;
		case 'C': o->tls_cert = optarg; break;
		case 'k': o->tls_key = optarg; break;
		case 'n': o->name = optarg; break;
		case 'm': o->max_timeout = optarg; break;
		case 'r': o->from = optarg; break;
		case 'B': o->bridge = optarg; break;
		case 'V': o->serve = 1; break;
		case 'P': o->probes = 1; break;
		case 'D': o->dir = optarg; break;
		case 'W': o->timeout = optarg; break;
		case 's': o->seeds = optarg; break;
		case 'x': o->drift = optarg; break;
		case 'S': o->strategies = optarg; break;
		case 'G': o->start = optarg; break;
		case 'J': o->kernel_tuner = optarg; break;
		case 'U': o->budgets = optarg; break;
		case 'p':
			if (o->nplatforms == ((op->flags & CMD_OPT_REPEAT) ? CMD_MAX_PLATFORMS : 1))
				return tune_fail(err, TUNE_ERR_USAGE, "%sat most %d --platform option%s", prefix,
						 (op->flags & CMD_OPT_REPEAT) ? CMD_MAX_PLATFORMS : 1,
						 (op->flags & CMD_OPT_REPEAT) ? "s" : "");
			o->platforms[o->nplatforms] = optarg;
			if ((op->flags & CMD_OPT_BY_NAME) && (rc = name_of_file(o, prefix, optarg, err)) != 0)
				return rc;
			/* The same platform again (by name and by its file): once. */
			if (!(op->flags & CMD_OPT_BY_NAME) || !platform_given(o))
				o->nplatforms++;
			break;
		case 'N':
			if (o->nkernels == CMD_MAX_KERNELS)
				return tune_fail(err, TUNE_ERR_USAGE, "%sat most %d --kernel options", prefix,
						 CMD_MAX_KERNELS);
			o->kernels[o->nkernels++] = optarg;
			break;
		case 'K':
			if ((rc = cmd_add_kernels_dir(c->name, optarg, err)) != 0)
				return rc;
			break;
		case 'F':
			o->format = -1;
			for (int i = 0; i < REPORT_HTML; i++)
				if (!strcmp(optarg, report_format_names[i]))
					o->format = i;
			if (o->format < 0)
				return tune_fail(err, TUNE_ERR_USAGE, "%sunknown format '%s' (one of: table, md, csv, "
						 "json)", prefix, optarg);
			o->format_given = 1;
			break;
		default:
			return bad_option(c, prefix, argv[optind - 1], 0, err);
		}
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	/* A command that takes no operands says so of the first. */
	if (o->nargs && !c->operands[0])
		return c == &tune_main_command ?
			tune_fail(err, TUNE_ERR_USAGE, "'%s' is not a tune command (see 'tune help')", o->args[0]) :
			tune_fail(err, TUNE_ERR_USAGE, "%sunexpected argument '%s' (see 'tune %s --help')", prefix,
				  o->args[0], c->name);
	o->db = cmd_db_path(o->db);
	return 0;
}
