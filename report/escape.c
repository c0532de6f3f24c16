#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "escape.h"

static int printable(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

const char *escape_c_string(const char *s, char *out, size_t len)
{
	size_t used = 0;

	if (len < 3)
		return len ? (*out = '\0', out) : out;
	out[used++] = '"';
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char piece[8];

		if (*p == '"' || *p == '\\' || *p == '?')
			snprintf(piece, sizeof(piece), "\\%c", *p);
		else if (printable(*p))
			snprintf(piece, sizeof(piece), "%c", *p);
		else /* three digits: the next character cannot extend the escape */
			snprintf(piece, sizeof(piece), "\\%03o", *p);
		if (used + strlen(piece) + 2 > len)
			break;
		memcpy(out + used, piece, strlen(piece));
		used += strlen(piece);
	}
	out[used++] = '"';
	out[used] = '\0';
	return out;
}

const char *escape_c_comment(const char *s, char *out, size_t len)
{
	size_t used = 0;

	if (!len)
		return out;
	if (*s == '/' && used + 1 < len)
		out[used++] = ' ';
	for (const unsigned char *p = (const unsigned char *)s; *p && used + 2 < len; p++) {
		out[used++] = printable(*p) ? (char)*p : '?';
		/* Neither an end nor a nested start, which -Wcomment warns of. */
		if ((*p == '*' && (p[1] == '/' || !p[1] || used + 3 >= len)) || (*p == '/' && p[1] == '*'))
			out[used++] = ' ';
	}
	out[used] = '\0';
	return out;
}

void escape_file_name(const char *s, char *out, size_t len)
{
	size_t i = 0;

	if (!len)
		return;
	for (; s[i] && i + 1 < len; i++) {
		char c = s[i];
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			   c == '_' || (c == '.' && i > 0);

		out[i] = keep ? c : '_';
	}
	if (!i && len > 1)
		out[i++] = '_';
	out[i] = '\0';
}

void escape_c_identifier(const char *s, int upper, char *out, size_t len)
{
	size_t i = 0;

	for (; s[i] && i + 1 < len; i++)
		out[i] = isalnum((unsigned char)s[i]) ? (char)(upper ? toupper((unsigned char)s[i])
								  : tolower((unsigned char)s[i])) : '_';
	if (len)
		out[i] = '\0';
}

void escape_csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
