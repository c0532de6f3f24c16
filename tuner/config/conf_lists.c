/* Small helpers for the lists that decoded keys hold and that code builds:
 * integers (values, indices), strings (names), and where a place in a text
 * list's item was written. */
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

/* Does source character r stand for text character t? A line break
 * folded into a blank does. */
static int stands_for(char r, char t)
{
	return r == t || (t == ' ' && (r == '\n' || r == '\r'));
}

/* Past source character r at *at: a line break starts a line, a UTF-8
 * continuation byte is no character of its own. */
static void step(char r, struct conf_where *at)
{
	if (r == '\n') {
		at->line++;
		at->col = 1;
	} else if (r != '\r' && ((unsigned char)r & 0xC0) != 0x80) {
		at->col++;
	}
}

struct conf_where conf_text_where(const struct conf_value *v, size_t offset)
{
	struct conf_where at = v->at;
	size_t j = 0;

	if (!v->raw) {
		at.col += offset;
		return at;
	}
	/* Each character of the text up to offset found in the source in
	 * turn, passing over what the source has besides (quotes, escapes,
	 * line breaks and indentation); where one is not found, the start. */
	for (size_t i = 0; i <= offset && v->text[i]; i++) {
		while (v->raw[j] && !stands_for(v->raw[j], v->text[i]))
			step(v->raw[j++], &at);
		if (!v->raw[j])
			return v->at;
		if (i < offset)
			step(v->raw[j++], &at);
	}
	return at;
}
