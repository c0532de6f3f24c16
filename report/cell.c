/* A declared table's typed cells: a cell whose text is a JSON object asks
 * tune to format it, as C's printf does (SQLite's printf rounds a tie up,
 * C's to even) and with what JSON should know of it:
 *   {"printf": [FORMAT, ARG...]}  FORMAT takes %s, %d, %u (an integer as
 *                                 unsigned 64 bits: a checksum), %f or
 *                                 %.Nf (N < 10) and %% only, each with its
 *                                 argument;
 *   {"interval": [MEDIAN, LOW, HIGH], "runs": N, "digits": D}
 *                                 a median and its interval as the other
 *                                 tables give one (report_interval());
 *   {"text": TEXT}                TEXT as it is.
 * A "value" beside "printf" or "text" is the cell's value in JSON (else
 * JSON reads the text, as for any cell).
 * The object is the database's: a format is parsed here, never handed to
 * printf whole. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "../tuner/base/strbuf.h"
#include "report.h"

/* One conversion of fmt at *p (past its '%') with argument a into out. */
static int convert(const char **p, json_t *a, char *out, size_t len, size_t *used)
{
	const char *c = *p;
	int digits = 6;

	if (*c == '%') {
		str_appendf(out, len, used, "%%");
		*p = c + 1;
		return 0;
	}
	if (!a)
		return -1;
	if (*c == '.' && c[1] >= '0' && c[1] <= '9' && c[2] == 'f') {
		digits = c[1] - '0';
		c += 2;
	}
	if (*c == 'f' && json_is_number(a))
		str_appendf(out, len, used, "%.*f", digits, json_number_value(a));
	else if (*c == 'd' && json_is_integer(a))
		str_appendf(out, len, used, "%lld", (long long)json_integer_value(a));
	else if (*c == 'u' && json_is_integer(a))
		str_appendf(out, len, used, "%llu", (unsigned long long)json_integer_value(a));
	else if (*c == 's' && json_is_string(a))
		str_appendf(out, len, used, "%s", json_string_value(a));
	else if (*c == 's' && json_is_number(a))
		str_appendf(out, len, used, "%g", json_number_value(a));
	else
		return -1;
	*p = c + 1;
	return 1;
}

static int format_printf(json_t *spec, char *out, size_t len, char *why, size_t wlen)
{
	const char *fmt = json_string_value(json_array_get(spec, 0));
	size_t used = 0, arg = 1;

	out[0] = '\0';
	if (!fmt) {
		snprintf(why, wlen, "\"printf\" takes [FORMAT, ARG...]");
		return -1;
	}
	for (const char *p = fmt; *p;) {
		const char *next = strchr(p, '%');
		int rc;

		if (!next) {
			str_appendf(out, len, &used, "%s", p);
			break;
		}
		str_appendf(out, len, &used, "%.*s", (int)(next - p), p);
		p = next + 1;
		rc = convert(&p, json_array_get(spec, arg), out, len, &used);
		if (rc < 0) {
			const char *c = next + 1;
			int known = *c == 's' || *c == 'd' || *c == 'u' || *c == 'f' ||
				    (c[0] == '.' && c[1] >= '0' && c[1] <= '9' && c[2] == 'f');

			snprintf(why, wlen, "format '%.40s': conversion %%%.3s %s (tune formats %%s, %%d, %%u, %%f, %%.Nf with "
				 "N below 10, and %%%%, each with its argument)", fmt, c,
				 !known ? "is not one tune formats" : json_array_get(spec, arg) ? "takes another argument"
				 : "lacks its argument");
			return -1;
		}
		arg += (size_t)rc;
	}
	if (arg != json_array_size(spec)) {
		snprintf(why, wlen, "format '%.40s' takes %zu arguments, given %zu", fmt, arg - 1, json_array_size(spec) - 1);
		return -1;
	}
	return 0;
}

int report_typed_cell(const char *text, char *out, size_t len, json_t **value, char *why, size_t wlen)
{
	json_t *o, *iv;
	int rc = 1;

	*value = NULL;
	if (!text || text[0] != '{' || !(o = json_loads(text, 0, NULL)))
		return 0;
	if (json_is_array(json_object_get(o, "printf")) || json_is_string(json_object_get(o, "text"))) {
		if (json_is_string(json_object_get(o, "text")))
			snprintf(out, len, "%s", json_string_value(json_object_get(o, "text")));
		else if (format_printf(json_object_get(o, "printf"), out, len, why, wlen) != 0)
			rc = -1;
		if (rc > 0 && json_object_get(o, "value"))
			*value = json_incref(json_object_get(o, "value"));
	} else if (json_is_array(iv = json_object_get(o, "interval")) && json_array_size(iv) == 3) {
		json_int_t digits = json_integer_value(json_object_get(o, "digits"));
		char numfmt[8];

		/* The format is built here from a digit, never taken from the cell. */
		snprintf(numfmt, sizeof(numfmt), "%%.%df", digits >= 0 && digits <= 9 ? (int)digits : 1);
		*value = report_interval(json_number_value(json_array_get(iv, 0)), json_number_value(json_array_get(iv, 1)),
					 json_number_value(json_array_get(iv, 2)),
					 json_integer_value(json_object_get(o, "runs")), numfmt, out, len);
	} else {
		rc = 0; /* a JSON object as text, not a typed cell */
	}
	json_decref(o);
	return rc;
}
