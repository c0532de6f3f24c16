#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

static int grow(struct strbuf *b, size_t need)
{
	size_t cap = b->cap ? b->cap : 64;
	char *nv;

	if (b->len + need + 1 <= b->cap)
		return 0;
	while (cap < b->len + need + 1)
		cap *= 2;
	if (!(nv = realloc(b->v, cap))) {
		b->oom = 1;
		return -1;
	}
	b->v = nv;
	b->cap = cap;
	return 0;
}

static void vaddf(struct strbuf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0 || b->oom || grow(b, (size_t)n) != 0) {
		b->oom = 1;
		va_end(again);
		return;
	}
	vsnprintf(b->v + b->len, (size_t)n + 1, fmt, again);
	va_end(again);
	b->len += (size_t)n;
}

void strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vaddf(b, fmt, ap);
	va_end(ap);
}

void strbuf_add(struct strbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->oom || grow(b, n) != 0)
		return;
	memcpy(b->v + b->len, s, n + 1);
	b->len += n;
}

const char *strbuf_str(const struct strbuf *b)
{
	return b->v ? b->v : "";
}

char *strbuf_detach(struct strbuf *b)
{
	char *v = b->oom ? NULL : b->v ? b->v : strdup("");

	if (b->oom)
		free(b->v);
	b->v = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
	return v;
}

void strbuf_release(struct strbuf *b)
{
	free(b->v);
	b->v = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}

void str_appendf(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return;
	if (*used >= size)
		*used = size - 1;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n < 0)
		buf[*used] = '\0';
	else
		*used = *used + (size_t)n >= size ? size - 1 : *used + (size_t)n;
}
