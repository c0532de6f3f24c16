/* A kernel parameter's value from its text in a manifest, a sweep or a
 * run spec (a choice's name, on or off, an integer in range, inf, auto), and
 * back to text. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "config.h"

int manifest_param_value(const struct kernel_param *p, const char *text, long long *value, char *why, size_t len)
{
	char *end = NULL;
	long long v;
	int i;

	switch (p->type) {
	case PARAM_CHOICE:
		for (i = 0; (size_t)i < p->choices.n; i++)
			if (!strcmp(p->choices.v[i], text))
				return *value = i, 0;
		{
			const char *suggestion = conf_strs_suggest(&p->choices, text);
			size_t used = 0;

			str_appendf(why, len, &used, "'%.64s' is not one of", text);
			for (size_t k = 0; k < p->choices.n; k++)
				str_appendf(why, len, &used, " %s", p->choices.v[k]);
			if (suggestion)
				str_appendf(why, len, &used, " (did you mean '%s'?)", suggestion);
		}
		return -1;
	case PARAM_BOOL:
		if (!strcmp(text, "on") || !strcmp(text, "true") || !strcmp(text, "yes"))
			return *value = 1, 0;
		if (!strcmp(text, "off") || !strcmp(text, "false") || !strcmp(text, "no"))
			return *value = 0, 0;
		snprintf(why, len, "'%.64s' is not on or off", text);
		return -1;
	default:
		if (p->inf && !strcmp(text, "inf"))
			return *value = LLONG_MAX, 0;
		if (p->auto_from && !strcmp(text, "auto"))
			return *value = PARAM_AUTO, 0;
		errno = 0;
		v = strtoll(text, &end, 10);
		if (!*text || *end || errno == ERANGE) {
			snprintf(why, len, "'%.64s' is %s%s", text, errno == ERANGE ? "too large" : "not an integer",
				 p->inf && errno != ERANGE ? " (or inf)" : "");
			return -1;
		}
		if ((v < p->min || v > p->max) && !(p->inf && v == LLONG_MAX)) {
			snprintf(why, len, "%lld is out of range [%lld, %lld]", v, p->min, p->max);
			return -1;
		}
		*value = v;
		return 0;
	}
}

void manifest_param_text(const struct kernel_param *p, long long value, char *out, size_t len)
{
	if (p->type == PARAM_CHOICE && value >= 0 && (size_t)value < p->choices.n)
		snprintf(out, len, "%s", p->choices.v[value]);
	else if (p->type == PARAM_BOOL)
		snprintf(out, len, "%s", value ? "on" : "off");
	else if (p->inf && value == LLONG_MAX)
		snprintf(out, len, "inf");
	else if (p->auto_from && value == PARAM_AUTO)
		snprintf(out, len, "auto");
	else
		snprintf(out, len, "%lld", value);
}
