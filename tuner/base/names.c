#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "names.h"

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
	       c == '_';
}

int names_check(const char *name, char *why, size_t len)
{
	size_t n = name ? strlen(name) : 0;

	if (!n) {
		snprintf(why, len, "a name cannot be empty");
		return -1;
	}
	if (n > NAMES_MAX_LEN) {
		snprintf(why, len, "'%.24s...' is %zu characters long, over %d", name, n, NAMES_MAX_LEN);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!name_char(name[i])) {
			unsigned char c = (unsigned char)name[i];

			/* A control byte is not echoed: it could be a terminal escape. */
			if (c >= 0x20 && c < 0x7f && names_printable(name))
				snprintf(why, len, "'%s' has '%c' at character %zu", name, c, i + 1);
			else
				snprintf(why, len, "the name has byte 0x%02x at character %zu", c, i + 1);
			return -1;
		}
	if (name[0] == '.' || name[0] == '-' || name[0] == '_') {
		snprintf(why, len, "'%s' starts with '%c'", name, name[0]);
		return -1;
	}
	if (strstr(name, "..")) {
		snprintf(why, len, "'%s' holds '..'", name);
		return -1;
	}
	return 0;
}

int names_printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s == 0x7f)
			return 0;
	return 1;
}

/* The length of the valid UTF-8 sequence at p, or 0 (overlong forms,
 * surrogates and code points past U+10FFFF are not valid). */
static size_t utf8_at(const unsigned char *p)
{
	size_t n = p[0] < 0x80 ? 1 : (p[0] & 0xe0) == 0xc0 ? 2 : (p[0] & 0xf0) == 0xe0 ? 3 : (p[0] & 0xf8) == 0xf0 ? 4 : 0;
	unsigned long cp = n == 1 ? p[0] : n == 2 ? p[0] & 0x1fu : n == 3 ? p[0] & 0x0fu : p[0] & 0x07u;

	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3fu);
	}
	if (!n || (n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* A C1 control in UTF-8: U+0080..U+009F, bytes C2 80..C2 9F. */
static int c1_at(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

size_t names_show(const char *s, int lines, char *out, size_t len)
{
	size_t used = 0, i = 0;
	const unsigned char *p = (const unsigned char *)s;

	while (p[i] && used + 1 < len) {
		size_t k = utf8_at(p + i);
		int control = !k || p[i] < 0x20 || p[i] == 0x7f || c1_at(p + i);

		if (control && !(lines && (p[i] == '\n' || p[i] == '\t'))) {
			/* Each byte of it: a C1 control is two. */
			for (size_t b = 0; b < (k ? k : 1); b++) {
				if (used + 5 > len)
					goto cut;
				snprintf(out + used, 5, "\\x%02x", p[i + b]);
				used += 4;
			}
			i += k ? k : 1;
		} else {
			if (used + k + 1 > len)
				break;
			memcpy(out + used, p + i, k);
			used += k;
			i += k;
		}
	}
cut:
	if (len)
		out[used < len ? used : len - 1] = '\0';
	return used;
}

char *names_shown(const char *s, int lines)
{
	size_t n = strlen(s) * 4 + 1;
	char *out = malloc(n);

	if (out)
		names_show(s, lines, out, n);
	return out;
}
