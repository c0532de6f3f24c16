#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/names.h"
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

/* One character of a name as part of a C identifier. */
static char c_identifier_char(char c, int upper)
{
	if (!isalnum((unsigned char)c))
		return '_';
	return (char)(upper ? toupper((unsigned char)c) : tolower((unsigned char)c));
}

void escape_c_identifier(const char *s, int upper, char *out, size_t len)
{
	size_t i = 0;

	for (; s[i] && i + 1 < len; i++)
		out[i] = c_identifier_char(s[i], upper);
	if (len)
		out[i] = '\0';
}

int escape_c_identifier_clash(const char *const *names, long n, size_t *a, size_t *b)
{
	for (size_t i = 0; n < 0 ? names[i] != NULL : i < (size_t)n; i++)
		for (size_t j = 0; j < i; j++) {
			size_t k = 0;

			while (names[i][k] && names[j][k] &&
			       c_identifier_char(names[i][k], 1) == c_identifier_char(names[j][k], 1))
				k++;
			if (!names[i][k] && !names[j][k]) {
				*a = j;
				*b = i;
				return 1;
			}
		}
	return 0;
}

/* A spreadsheet takes a cell starting with = + - @ (or a tab or CR before
 * one) as a formula: such a cell, unless it is a number or a lone '-',
 * gets a leading quote (OWASP's CSV injection advice). */
static int formula_like(const char *s)
{
	char *end = NULL;

	if (!*s || !strchr("=+-@\t\r", *s) || !strcmp(s, "-"))
		return 0;
	(void)strtod(s, &end);
	return !end || end == s || *end;
}

void escape_csv_field(FILE *out, const char *s)
{
	/* Line breaks stay (quoted, they are CSV's own); other control characters
	 * and invalid UTF-8 are shown as \xNN, since CSV is read on terminals too. */
	char *shown = names_shown(s, 1);
	const char *p = shown ? shown : "";
	int formula = formula_like(p);

	if (!formula && !strpbrk(p, ",\"\r\n")) {
		fputs(p, out);
		free(shown);
		return;
	}
	fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *p; p++) {
		if (*p == '"')
			fputc('"', out);
		fputc(*p, out);
	}
	fputc('"', out);
	free(shown);
}

json_t *escape_json_text(const char *s)
{
	char *text;
	json_t *j;

	if (!s)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	if (!(text = names_shown(s, 1)))
		return NULL;
	j = json_string(text);
	free(text);
	return j;
}
