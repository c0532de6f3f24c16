/* conf: YAML keys as data. One table per file kind (platform, sweep) names
 * each key, its type, where it goes in the struct, its range and its help;
 * the loader, the validation and `tune help <kind>` all read that table.
 *
 * Ownership: strings and lists that conf_decode() stores belong to the
 * destination struct; conf_release() frees them. */
#ifndef TUNER_CONF_H
#define TUNER_CONF_H

#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "../base/errors.h"
#include "ydoc.h"

enum conf_type {
	CONF_STRING,      /* char * */
	CONF_INT,         /* long long */
	CONF_BOOL,        /* int */
	CONF_ENUM,        /* int: index into choices */
	CONF_STRING_LIST, /* struct conf_strs */
	CONF_INT_LIST,    /* struct conf_ints */
	CONF_ENUM_LIST,   /* struct conf_ints of indices into choices */
	CONF_BOOL_LIST,   /* struct conf_ints of 0 and 1 */
	CONF_SECTION,     /* a nested mapping decoded with .section */
	CONF_SECTION_LIST,/* struct conf_list: a sequence of mappings, each an item of max bytes decoded with .section */
	CONF_VALUE_MAP,   /* struct conf_entries: names to a value or a list, kept as text with where each was written */
};

#define CONF_REQUIRED 1u /* the key must be present */
#define CONF_AUTO 2u     /* an INT or INT_LIST key that also takes "auto" */
#define CONF_AUTO_VALUE (-1LL)
#define CONF_INF 4u      /* an INT or INT_LIST key that also takes "inf" */
#define CONF_INF_VALUE LLONG_MAX
#define CONF_NAME 8u     /* a STRING or STRING_LIST key whose values are names (names.h) */
#define CONF_RELPATH 16u /* a STRING or STRING_LIST key of paths inside a folder: no leading '/', no '..' */
/* A STRING key with max > 0 holds at most max bytes; a STRING_LIST key, at
 * most max bytes when its items are joined by spaces. */

struct conf_ints {
	long long *v;
	size_t n;
};

struct conf_strs {
	char **v;
	size_t n;
};

/* Where a node was written (1-based), for errors found after decoding. */
struct conf_where {
	size_t line, col;
};

/* A CONF_SECTION_LIST's items; each item's struct begins with a struct
 * conf_where that the decoder fills with where the item was written. */
struct conf_list {
	void *v;
	size_t n;
};

/* A CONF_VALUE_MAP: what the names mean is checked later, against another
 * file (a sweep's params against its kernel's manifest). */
struct conf_value {
	char *text;
	struct conf_where at;
};
struct conf_entry {
	char *name;
	struct conf_where at;
	struct conf_value *values; /* a single scalar is a list of one */
	size_t n;
};
struct conf_entries {
	struct conf_entry *v;
	size_t n;
};

struct conf_key {
	const char *name; /* first member: tune_suggest_in() walks the table */
	enum conf_type type;
	size_t offset;
	long long min, max;
	const char *const *choices;     /* ENUM and ENUM_LIST */
	const struct conf_key *section; /* SECTION */
	unsigned flags;
	const char *help;
};

/* Decodes the mapping node into dest per table; what names the file kind in
 * messages ("platform", "sweep"). Returns 0 or TUNE_ERR_CONFIG. */
int conf_decode(const char *path, const struct ynode *map, const struct conf_key *table,
		void *dest, const char *what, struct tune_error *err);
/* Finds <dir>/<name>.yaml (see paths_find), parses it and decodes it into
 * dest; *path_out is the file's path, which the caller frees. */
int conf_load(const char *dir, const char *what, const char *name, const struct conf_key *table, void *dest,
	      char **path_out, struct tune_error *err);
void conf_release(const struct conf_key *table, void *dest);
/* TUNE_ERR_CONFIG with "path:line:column: " and the formatted message. */
int conf_fail_at(struct tune_error *err, const char *path, struct conf_where at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The item i of a CONF_SECTION_LIST whose items are size bytes. */
#define CONF_ITEM(list, type, i) (&((type *)(list)->v)[i])
void conf_help(FILE *out, const struct conf_key *table, int indent);

/* Small helpers for lists built in code. */
int conf_ints_push(struct conf_ints *l, long long v);
int conf_ints_copy(struct conf_ints *dst, const struct conf_ints *src);
int conf_ints_contains(const struct conf_ints *l, long long v);
/* Sorts the values ascending. */
void conf_ints_sort(struct conf_ints *l);
/* The items joined by sep into out (cut at len). */
void conf_strs_join(const struct conf_strs *l, const char *sep, char *out, size_t len);

#endif
