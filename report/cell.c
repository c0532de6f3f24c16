/* A declared table's typed cells: a cell whose text is a JSON object asks
 * tune to format it, as C's printf does (SQLite's printf rounds a tie up,
 * C's to even) and with what JSON should know of it:
 *   {"printf": [FORMAT, ARG...]}  FORMAT takes %s, %d, %u (an integer as
 *                                 unsigned 64 bits: a checksum), %f or
 *                                 %.Nf (N < 10) and %% only, each with its
 *                                 argument, a width (below 100) and '-'
 *                                 (to the left) allowed;
 *   {"interval": [MEDIAN, LOW, HIGH], "runs": N, "digits": D}
 *                                 a median and its interval as the other
 *                                 tables give one (report_interval());
 *   {"ratios": [R, ...], "digits": D}
 *                                 the median of per-run ratios (a policy
 *                                 over another, run by run) and its
 *                                 interval, computed here as every median
 *                                 of tune's is (stats_compute());
 *   {"text": TEXT}                TEXT as it is.
 * A "value" beside "printf" or "text" is the cell's value in JSON (else
 * JSON reads the text, as for any cell).
 * The object is the database's: a format is parsed here, never handed to
 * printf whole. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/stats.h"
#include "../tuner/base/strbuf.h"
#include "report.h"

/* The flags, width and precision before a conversion at *c: "-" and up to
 * two digits of width for any, ".N" (N < 10) for %f; their length, -1 when
 * the text there is none of them. The format of the conversion is built
 * from them into spec, never copied from the database. */
static int conversion_spec(const char *c, char conv, char *spec, size_t len)
{
	const char *p = c;
	int left = 0, width = -1, digits = -1;
	size_t used = 0;

	if (*p == '-')
		left = 1, p++;
	if (*p >= '1' && *p <= '9') {
		width = *p++ - '0';
		if (*p >= '0' && *p <= '9')
			width = width * 10 + (*p++ - '0');
	}
	if (*p == '.' && p[1] >= '0' && p[1] <= '9' && p[2] == 'f')
		digits = p[1] - '0', p += 2;
	if (*p != conv)
		return -1;
	str_appendf(spec, len, &used, "%%%s", left ? "-" : "");
	if (width > 0)
		str_appendf(spec, len, &used, "%d", width);
	if (digits >= 0)
		str_appendf(spec, len, &used, ".%d", digits);
	str_appendf(spec, len, &used, "%s", conv == 'd' ? "lld" : conv == 'u' ? "llu" : conv == 's' ? "s" : "f");
	return (int)(p - c);
}

/* One conversion of fmt at *p (past its '%') with argument a into out. */
static int convert(const char **p, json_t *a, char *out, size_t len, size_t *used)
{
	const char *c = *p;
	char spec[24], num[64];
	int n;

	if (*c == '%') {
		str_appendf(out, len, used, "%%");
		*p = c + 1;
		return 0;
	}
	if (!a)
		return -1;
	if ((n = conversion_spec(c, 'f', spec, sizeof(spec))) >= 0 && json_is_number(a))
		str_appendf(out, len, used, spec, json_number_value(a));
	else if ((n = conversion_spec(c, 'd', spec, sizeof(spec))) >= 0 && json_is_integer(a))
		str_appendf(out, len, used, spec, (long long)json_integer_value(a));
	else if ((n = conversion_spec(c, 'u', spec, sizeof(spec))) >= 0 && json_is_integer(a))
		str_appendf(out, len, used, spec, (unsigned long long)json_integer_value(a));
	else if ((n = conversion_spec(c, 's', spec, sizeof(spec))) >= 0 && json_is_string(a))
		str_appendf(out, len, used, spec, json_string_value(a));
	else if ((n = conversion_spec(c, 's', spec, sizeof(spec))) >= 0 && json_is_number(a)) {
		snprintf(num, sizeof(num), "%g", json_number_value(a));
		str_appendf(out, len, used, spec, num);
	} else
		return -1;
	*p = c + n + 1;
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
			char conv[24];
			int known = conversion_spec(c, 's', conv, sizeof(conv)) >= 0 ||
				    conversion_spec(c, 'd', conv, sizeof(conv)) >= 0 ||
				    conversion_spec(c, 'u', conv, sizeof(conv)) >= 0 ||
				    conversion_spec(c, 'f', conv, sizeof(conv)) >= 0;

			snprintf(why, wlen, "format '%.40s': conversion %%%.3s %s (tune formats %%s, %%d, %%u, %%f, %%.Nf with "
				 "N below 10, each with a width below 100 and '-' to the left, and %%%%, each with its argument)",
				 fmt, c,
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

/* The median of the numbers of array a and its interval, as an interval
 * cell; an empty or non-numeric array is said so (-1). */
static int ratios_cell(json_t *a, const char *numfmt, char *out, size_t len, json_t **value, char *why, size_t wlen)
{
	size_t n = json_array_size(a);
	double *v = n && n <= 1000000 ? malloc(n * sizeof(*v)) : NULL;
	struct stats st;

	if (!v) {
		snprintf(why, wlen, "'ratios' holds %zu numbers (give 1 to 1000000)", n);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!json_is_number(json_array_get(a, i))) {
			free(v);
			snprintf(why, wlen, "'ratios' holds a value that is no number, at %zu", i);
			return -1;
		}
		v[i] = json_number_value(json_array_get(a, i));
	}
	stats_compute(v, n, &st, NULL);
	free(v);
	*value = report_interval(st.median, st.ci_low, st.ci_high, (long long)st.n, numfmt, out, len);
	return 1;
}

int report_typed_cell(const char *text, char *out, size_t len, json_t **value, char *why, size_t wlen)
{
	json_t *o, *iv;
	json_int_t digits;
	char numfmt[8];
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
		json_decref(o);
		return rc;
	}
	/* The format is built here from a digit, never taken from the cell. */
	digits = json_integer_value(json_object_get(o, "digits"));
	snprintf(numfmt, sizeof(numfmt), "%%.%df", digits >= 0 && digits <= 9 ? (int)digits : 1);
	if (json_is_array(iv = json_object_get(o, "interval")) && json_array_size(iv) == 3) {
		*value = report_interval(json_number_value(json_array_get(iv, 0)), json_number_value(json_array_get(iv, 1)),
					 json_number_value(json_array_get(iv, 2)),
					 json_integer_value(json_object_get(o, "runs")), numfmt, out, len);
	} else if (json_is_array(iv = json_object_get(o, "ratios"))) {
		rc = ratios_cell(iv, numfmt, out, len, value, why, wlen);
	} else {
		rc = 0; /* a JSON object as text, not a typed cell */
	}
	json_decref(o);
	return rc;
}
