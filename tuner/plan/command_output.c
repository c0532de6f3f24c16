/* A command kernel's metric, read from its program's output: a JSON path
 * (jobs.0.read.iops: keys, and indices into arrays) or the first group of
 * a regular expression. Pure: the output is given. */
#include <errno.h>
#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* The number at path in the JSON text; -1 with why. */
static int json_at(const char *text, const char *path, double *value, char *why, size_t len)
{
	json_error_t jerr;
	json_t *root = json_loads(text, JSON_DISABLE_EOF_CHECK, &jerr), *v;
	const char *p = path, *object = strstr(text, "\n{");
	int rc = -1;

	/* A program may say something first (fio's notes): the object starts a line. */
	if (!root && object)
		root = json_loads(object + 1, JSON_DISABLE_EOF_CHECK, &jerr);
	v = root;
	if (!root) {
		snprintf(why, len, "its output is not JSON (%s, line %d)", jerr.text, jerr.line);
		return -1;
	}
	while (v && *p) {
		size_t n = strcspn(p, ".");
		char key[128];

		snprintf(key, sizeof(key), "%.*s", (int)(n < sizeof(key) - 1 ? n : sizeof(key) - 1), p);
		if (json_is_array(v)) {
			char *end;
			unsigned long i;

			errno = 0;
			i = strtoul(key, &end, 10);
			v = !errno && *key && !*end ? json_array_get(v, i) : NULL;
		} else {
			v = json_object_get(v, key);
		}
		p += n + (p[n] == '.');
	}
	if (json_is_number(v)) {
		*value = json_number_value(v);
		rc = 0;
	} else {
		snprintf(why, len, "its JSON output has no number at '%s'", path);
	}
	json_decref(root);
	return rc;
}

/* The number the regular expression's first group matches; -1 with why. */
static int regex_at(const char *text, const char *pattern, double *value, char *why, size_t len)
{
	regex_t re;
	regmatch_t match[2];
	char number[64], *end;
	int rc = -1;

	if (regcomp(&re, pattern, REG_EXTENDED) != 0) {
		snprintf(why, len, "'%s' is not a regular expression", pattern);
		return -1;
	}
	if (regexec(&re, text, 2, match, 0) != 0 || match[1].rm_so < 0) {
		snprintf(why, len, "its output does not match '%s'", pattern);
	} else {
		snprintf(number, sizeof(number), "%.*s", (int)(match[1].rm_eo - match[1].rm_so), text + match[1].rm_so);
		errno = 0;
		*value = strtod(number, &end);
		if (errno || end == number || *end)
			snprintf(why, len, "'%s' matched '%s', which is not a number", pattern, number);
		else
			rc = 0;
	}
	regfree(&re);
	return rc;
}

int manifest_program_metric(const struct kernel_manifest *m, const char *out, const char *errout, double *value,
			    char *why, size_t len)
{
	const char *text = m->metric.output == OUTPUT_STDERR ? errout : out;

	text = text ? text : "";
	return m->metric.json ? json_at(text, m->metric.json, value, why, len)
			      : regex_at(text, m->metric.regex, value, why, len);
}
