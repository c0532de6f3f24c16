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
