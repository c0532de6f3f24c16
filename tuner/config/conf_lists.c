/* Small helpers for the lists that decoded keys hold and that code builds:
 * integers (values, indices) and strings (names). */
#include <stdlib.h>

#include "../base/strbuf.h"
#include "config.h"

int conf_ints_push(struct conf_ints *l, long long v)
{
	long long *nv = realloc(l->v, (l->n + 1) * sizeof(*nv));

	if (!nv)
		return -1;
	nv[l->n++] = v;
	l->v = nv;
	return 0;
}

int conf_ints_copy(struct conf_ints *dst, const struct conf_ints *src)
{
	dst->v = NULL;
	dst->n = 0;
	for (size_t i = 0; i < src->n; i++)
		if (conf_ints_push(dst, src->v[i]))
			return -1;
	return 0;
}

static int ascending(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

void conf_ints_sort(struct conf_ints *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), ascending);
}

int conf_ints_contains(const struct conf_ints *l, long long v)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i] == v)
			return 1;
	return 0;
}

void conf_strs_join(const struct conf_strs *l, const char *sep, char *out, size_t len)
{
	size_t used = 0;

	if (len)
		out[0] = '\0';
	for (size_t i = 0; i < l->n; i++)
		str_appendf(out, len, &used, "%s%s", i ? sep : "", l->v[i]);
}

const char *conf_strs_suggest(const struct conf_strs *l, const char *word)
{
	const char *names[257];
	size_t n = 0;

	for (; n < l->n && n < 256; n++)
		names[n] = l->v[n];
	names[n] = NULL;
	return tune_suggest(word, names);
}

void conf_ints_join(const struct conf_ints *l, const char *sep, char *out, size_t len)
{
	size_t used = 0;

	if (len)
		out[0] = '\0';
	for (size_t i = 0; i < l->n; i++)
		str_appendf(out, len, &used, "%s%lld", i ? sep : "", l->v[i]);
}
