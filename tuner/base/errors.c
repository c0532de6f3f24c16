#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "errors.h"

int tune_fail(struct tune_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

const char *tune_strerror(int code)
{
	switch (code) {
	case TUNE_OK: return "success";
	case TUNE_ERR_USAGE: return "usage error";
	case TUNE_ERR_CONFIG: return "invalid configuration";
	case TUNE_ERR_STORE: return "database error";
	case TUNE_ERR_BUILD: return "build error";
	case TUNE_ERR_SYSTEM: return "system error";
	case TUNE_ERR_TRIALS: return "some trials failed";
	case TUNE_ERR_INTERRUPTED: return "interrupted";
	case TUNE_ERR_STALE: return "stale header";
	case TUNE_ERR_HOST: return "host down";
	case TUNE_ERR_BUSY: return "sweep being measured by another tune";
	case TUNE_ERR_EMPTY: return "nothing recorded for it";
	}
	return "unknown error";
}

int tune_exit_code(int code)
{
	switch (code) {
	case TUNE_OK: return TUNE_EXIT_OK;
	case TUNE_ERR_USAGE: return TUNE_EXIT_USAGE;
	case TUNE_ERR_CONFIG: return TUNE_EXIT_CONFIG;
	case TUNE_ERR_STORE: return TUNE_EXIT_STORE;
	case TUNE_ERR_BUILD: return TUNE_EXIT_BUILD;
	case TUNE_ERR_TRIALS: return TUNE_EXIT_TRIALS_FAILED;
	case TUNE_ERR_INTERRUPTED: return TUNE_EXIT_INTERRUPTED;
	case TUNE_ERR_STALE: return TUNE_EXIT_STALE;
	case TUNE_ERR_HOST: return TUNE_EXIT_HOST;
	case TUNE_ERR_BUSY: return TUNE_EXIT_BUSY;
	case TUNE_ERR_EMPTY: return TUNE_EXIT_EMPTY;
	}
	return TUNE_EXIT_SYSTEM;
}

int tune_name_index(const char *const *names, const char *name)
{
	for (int i = 0; name && names[i]; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t row[64];

	if (la >= 63 || lb >= 63)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char *tune_suggest_in(const char *word, const void *table, size_t stride)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	size_t limit = strlen(word) / 3 + 1;

	if (limit < 2)
		limit = 2;
	for (const char *p = table;; p += stride) {
		const char *name = *(const char *const *)p;
		size_t d;

		if (!name)
			break;
		d = edit_distance(word, name);
		/* A prefix of a longer name ("group" for "group_sizes") counts too. */
		if (strlen(word) >= 3 && !strncmp(name, word, strlen(word)))
			d = 1;
		if (d < best_d) {
			best_d = d;
			best = name;
		}
	}
	return best_d <= limit ? best : NULL;
}

const char *tune_suggest(const char *word, const char *const *names)
{
	return tune_suggest_in(word, names, sizeof(*names));
}
