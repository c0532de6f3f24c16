/* A command kernel: a program tune does not build (fio, dd), run as the
 * manifest's argv with {name} replaced by a parameter's value, once a run;
 * its metric is read from its output by a JSON path or a regular
 * expression. What only such a manifest says is checked here, where it
 * enters; the plan makes its command lines (manifest_command.c), the runner
 * its runs (run/command_run.c). */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "config.h"

const char *const metric_output_names[] = { "stdout", "stderr", NULL };

int command_placeholder(const char *s, size_t *at, size_t *start, size_t *len)
{
	const char *open = strchr(s + *at, '{'), *close;

	if (!open || !(close = strchr(open, '}')))
		return 0;
	*start = (size_t)(open - s) + 1;
	*len = (size_t)(close - open) - 1;
	*at = (size_t)(close - s) + 1;
	return 1;
}

int command_uses(const struct kernel_manifest *m, const char *name)
{
	for (size_t i = 0; i < m->command.n; i++) {
		size_t at = 0, start, len;

		while (command_placeholder(m->command.v[i], &at, &start, &len))
			if (len == strlen(name) && !strncmp(m->command.v[i] + start, name, len))
				return 1;
	}
	return 0;
}

/* Every {name} of the argv names a parameter (or the variant). */
static int check_placeholders(const struct kernel_manifest *m, struct tune_error *err)
{
	for (size_t i = 0; i < m->command.n; i++) {
		const char *arg = m->command.v[i];
		size_t at = 0, start, len;

		if (strchr(arg, '{') && !strchr(arg, '}'))
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'command': '%.64s' opens a '{' it does not close "
					 "(write {name} for a parameter's value)", m->path, arg);
		while (command_placeholder(arg, &at, &start, &len)) {
			char name[64];
			const struct kernel_param *p;

			snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), arg + start);
			if (i == 0)
				return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'command': the program '%.64s' is a "
						 "placeholder: name the program itself, its arguments may take values",
						 m->path, arg);
			if (!strcmp(name, "variant"))
				continue;
			if (!(p = manifest_param(m, name))) {
				const char *names[65], *like;
				size_t n = 0;

				for (size_t k = 0; k < m->parameters.n && n < 64; k++)
					names[n++] = MANIFEST_PARAM(m, k)->name;
				names[n] = NULL;
				like = tune_suggest(name, names);

				return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'command': '{%s}' in '%.64s' is no "
						 "parameter's%s%s%s (a parameter's name, or {variant})", m->path, name, arg,
						 like ? " (did you mean '{" : "", like ? like : "", like ? "}'?)" : "");
			}
			if (p->define)
				return tune_fail(err, TUNE_ERR_CONFIG, "%s: parameter '%s': a command kernel is not "
						 "compiled: drop 'define', its value reaches the program as {%s}", m->path,
						 name, name);
		}
	}
	return 0;
}

/* The metric's source: a JSON path or a regular expression with a group. */
static int check_metric_source(const struct kernel_manifest *m, struct tune_error *err)
{
	const struct kernel_metric *mt = &m->metric;
	regex_t re;
	int rc;

	if (!mt->json == !mt->regex)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'metric': a command kernel reads its metric from the "
				 "program's output: give json (a path: jobs.0.read.iops) or regex (its first group), one of "
				 "them", m->path);
	if (!mt->regex)
		return 0;
	if ((rc = regcomp(&re, mt->regex, REG_EXTENDED)) != 0) {
		char why[160];

		regerror(rc, &re, why, sizeof(why));
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'metric.regex': '%.64s' is not a regular expression: %s",
				 m->path, mt->regex, why);
	}
	rc = re.re_nsub < 1;
	regfree(&re);
	if (rc)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'metric.regex': '%.64s' has no group: put the number in "
				 "parentheses ('IOPS=([0-9.]+)')", m->path, mt->regex);
	return 0;
}

int manifest_check_command(const struct kernel_manifest *m, struct tune_error *err)
{
	/* Keys that reach a build, or a process that speaks the protocol. */
	const char *const compiled[] = { "main", "link_flags", "variant_define", "variant_field", "cpu_flag",
					 "app_cpus_flag", "device_cpu_flag", "correctness", "probe", NULL };
	const int given[] = { m->main != NULL, m->link_flags.n > 0, m->variant_define != NULL,
			      m->variant_field != NULL, m->cpu_flag != NULL, m->app_cpus_flag != NULL,
			      m->device_cpu_flag != NULL, m->correctness != NULL, m->probe.name != NULL };
	int rc;

	if (!m->command.n && !m->main)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'main' is missing: give the file compiled (main: "
				 "%s/main.c), or the program run as it is (command: [program, args...])", m->path, m->name);
	if (!m->command.n && (m->metric.json || m->metric.regex || m->version_flag))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key '%s': only a command kernel (command:) has it; a "
				 "compiled kernel prints its metric as a field of its lines", m->path, m->version_flag ?
				 "version_flag" : m->metric.json ? "metric.json" : "metric.regex");
	if (!m->command.n)
		return 0;
	for (size_t i = 0; compiled[i]; i++)
		if (given[i])
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key '%s': a command kernel (command:) is run as it "
					 "is and speaks no protocol: drop '%s'", m->path, compiled[i], compiled[i]);
	if (!m->command.v[0][0])
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'command': the program's name is empty", m->path);
	/* A program's name has no space: one string holding it all is a shell's line. */
	if (strchr(m->command.v[0], ' '))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'command': '%.64s' is one string: give the argv as a "
				 "list, an argument a string ([dd, if=/dev/zero, ...]); tune runs no shell", m->path,
				 m->command.v[0]);
	if ((rc = check_placeholders(m, err)) != 0 || (rc = check_metric_source(m, err)) != 0)
		return rc;
	return 0;
}
