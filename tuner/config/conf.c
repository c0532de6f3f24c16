#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/names.h"
#include "../base/strbuf.h"
#include "config.h"

struct ctx {
	const char *path;
	const char *what;
	struct tune_error *err;
	conf_explain_fn explain; /* or NULL */
	const struct ynode *top; /* the file's mapping, for explain */
};

static int at(struct ctx *c, const struct ynode *n, const char *fmt, const char *key, const char *detail)
{
	char msg[640];

	snprintf(msg, sizeof(msg), fmt, key, detail);
	return tune_fail(c->err, TUNE_ERR_CONFIG, "%s:%zu:%zu: %s", c->path, n->line, n->col, msg);
}

static int parse_int(struct ctx *c, const struct conf_key *k, const struct ynode *n, long long *out)
{
	char *end = NULL;
	long long v;

	if (n->kind != YNODE_SCALAR) {
		return at(c, n, "key '%s': expected an integer, got %s", k->name, ynode_kind_name(n->kind));
	}
	if ((k->flags & CONF_AUTO) && !strcmp(n->value, "auto")) {
		*out = CONF_AUTO_VALUE;
		return 0;
	}
	if ((k->flags & CONF_INF) && !strcmp(n->value, "inf")) {
		*out = CONF_INF_VALUE;
		return 0;
	}
	errno = 0;
	v = strtoll(n->value, &end, 10);
	if (!*n->value || *end || errno == ERANGE) {
		char detail[160];

		snprintf(detail, sizeof(detail), "'%.100s'%s", n->value,
			 errno == ERANGE ? " (too large)" : (k->flags & CONF_AUTO) ? " (write a number or auto)"
			 : (k->flags & CONF_INF) ? " (write a number or inf)" : "");
		return at(c, n, "key '%s': expected an integer, got %s", k->name, detail);
	}
	if (v < k->min || v > k->max) {
		char detail[160];

		snprintf(detail, sizeof(detail), "%lld is out of range [%lld, %lld]", v, k->min, k->max);
		return at(c, n, "key '%s': %s", k->name, detail);
	}
	*out = v;
	return 0;
}

static int parse_bool(struct ctx *c, const struct conf_key *k, const struct ynode *n, int *out)
{
	static const char *const yes[] = { "true", "yes", "on", NULL };
	static const char *const no[] = { "false", "no", "off", NULL };

	if (n->kind == YNODE_SCALAR && tune_name_index(yes, n->value) >= 0)
		return *out = 1, 0;
	if (n->kind == YNODE_SCALAR && tune_name_index(no, n->value) >= 0)
		return *out = 0, 0;
	return at(c, n, "key '%s': expected true or false, got %s", k->name,
		  n->kind == YNODE_SCALAR ? n->value : ynode_kind_name(n->kind));
}

static int parse_enum(struct ctx *c, const struct conf_key *k, const struct ynode *n, int *out)
{
	char detail[512];
	size_t len = 0;
	const char *suggestion;
	int i = n->kind == YNODE_SCALAR ? tune_name_index(k->choices, n->value) : -1;

	if (i >= 0)
		return *out = i, 0;
	suggestion = n->kind == YNODE_SCALAR ? tune_suggest(n->value, k->choices) : NULL;
	str_appendf(detail, sizeof(detail), &len, "unknown value '%.64s'",
		    n->kind == YNODE_SCALAR ? n->value : ynode_kind_name(n->kind));
	if (suggestion)
		str_appendf(detail, sizeof(detail), &len, " (did you mean '%s'?)", suggestion);
	str_appendf(detail, sizeof(detail), &len, "; one of:");
	for (i = 0; k->choices[i]; i++)
		str_appendf(detail, sizeof(detail), &len, " %s", k->choices[i]);
	/* The kernels are those found: a user's folder may not be among the dirs. */
	if (k->choices == (const char *const *)kernel_choices)
		str_appendf(detail, sizeof(detail), &len, " (a kernel of your own: give the folder holding its folder with "
			    "--kernels-dir)");
	return at(c, n, "key '%s': %s", k->name, detail);
}

/* A string value against its key's rules: a name (CONF_NAME), a length in
 * bytes (max; for a list, of the items joined by spaces, total so far). */
static int check_string(struct ctx *c, const struct conf_key *k, const struct ynode *n, size_t *total)
{
	char why[256];

	if ((k->flags & CONF_NAME) && names_check(n->value, why, sizeof(why)) != 0) {
		size_t used = strlen(why);

		str_appendf(why, sizeof(why), &used, "; a name is %s", NAMES_RULE);
		return at(c, n, "key '%s': %s", k->name, why);
	}
	if ((k->flags & CONF_RELPATH) && (n->value[0] == '/' || !n->value[0] || !strcmp(n->value, "..") ||
					  !strncmp(n->value, "../", 3) || strstr(n->value, "/../") ||
					  (strlen(n->value) >= 3 && !strcmp(n->value + strlen(n->value) - 3, "/.."))))
		return at(c, n, "key '%s': '%s' is not a path inside the folder (no leading '/', no '..')", k->name,
			  n->value);
	*total += strlen(n->value) + (*total ? 1 : 0);
	if (k->max > 0 && *total > (size_t)k->max) {
		snprintf(why, sizeof(why), "%zu bytes, over the limit of %lld (shorten %s)", *total, k->max,
			 k->type == CONF_STRING_LIST ? "the list" : "it");
		return at(c, n, "key '%s': %s", k->name, why);
	}
	return 0;
}

static int decode_list(struct ctx *c, const struct conf_key *k, const struct ynode *n, void *field)
{
	const struct ynode *one[1] = { n };
	const struct ynode *const *items = one;
	size_t count = 1, total = 0;

	/* A single scalar is taken as a list of one. */
	if (n->kind == YNODE_SEQ) {
		items = (const struct ynode *const *)n->items;
		count = n->n;
	} else if (n->kind != YNODE_SCALAR) {
		return at(c, n, "key '%s': expected a list, got %s", k->name, ynode_kind_name(n->kind));
	}
	if (count == 0)
		return at(c, n, "key '%s': the list is empty%s", k->name,
			  " (give at least one value, or remove the key to get the default)");
	for (size_t i = 0; i < count; i++) {
		const struct ynode *it = items[i];
		long long v = 0;
		int iv = 0, rc = 0;

		if (k->type == CONF_STRING_LIST) {
			struct conf_strs *l = field;
			char **nv;

			if (it->kind != YNODE_SCALAR)
				return at(c, it, "key '%s': expected a string, got %s", k->name, ynode_kind_name(it->kind));
			if ((rc = check_string(c, k, it, &total)) != 0)
				return rc;
			nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
			if (!nv || !(nv[l->n] = strdup(it->value))) {
				if (nv)
					l->v = nv;
				return tune_fail(c->err, TUNE_ERR_SYSTEM, "out of memory");
			}
			l->v = nv;
			l->n++;
			continue;
		}
		if (k->type == CONF_INT_LIST)
			rc = parse_int(c, k, it, &v);
		else if (k->type == CONF_ENUM_LIST)
			rc = parse_enum(c, k, it, &iv), v = iv;
		else
			rc = parse_bool(c, k, it, &iv), v = iv;
		if (rc)
			return rc;
		if (conf_ints_contains(field, v)) {
			return at(c, it, "key '%s': value '%s' is listed twice (keep one)", k->name, it->value);
		}
		if (conf_ints_push(field, v))
			return tune_fail(c->err, TUNE_ERR_SYSTEM, "out of memory");
	}
	return 0;
}

static int decode_map(struct ctx *c, const struct ynode *map, const struct conf_key *table, void *dest,
		      const char *section);

static struct conf_where where_of(const struct ynode *n)
{
	return (struct conf_where){ n->line, n->col };
}

/* A sequence of mappings into items of k->max bytes, each zeroed, then
 * filled with where it was written and its keys. */
static int decode_section_list(struct ctx *c, const struct conf_key *k, const struct ynode *n, struct conf_list *l)
{
	size_t size = (size_t)k->max;

	if (n->kind != YNODE_SEQ)
		return at(c, n, "key '%s': expected a list of mappings, got %s", k->name, ynode_kind_name(n->kind));
	for (size_t i = 0; i < n->n; i++) {
		const struct ynode *it = n->items[i];
		char *nv, *item;
		int rc;

		if (it->kind != YNODE_MAP)
			return at(c, it, "key '%s': each item is a mapping of keys, got %s", k->name,
				  ynode_kind_name(it->kind));
		if (!(nv = realloc(l->v, (l->n + 1) * size)))
			return tune_fail(c->err, TUNE_ERR_SYSTEM, "out of memory");
		l->v = nv;
		item = nv + l->n++ * size;
		memset(item, 0, size);
		*(struct conf_where *)(void *)item = where_of(it);
		if ((rc = decode_map(c, it, k->section, item, k->name)) != 0)
			return rc;
	}
	return 0;
}

/* A scalar appended to values[0..*n) of the entry or key named name, once. */
static int value_of(struct ctx *c, const struct conf_key *k, const struct ynode *n, const char *name,
		    struct conf_value **values, size_t *count)
{
	struct conf_value *nv;

	if (n->kind != YNODE_SCALAR)
		return at(c, n, "key '%s': expected a value or a list of values, got %s", k->name,
			  ynode_kind_name(n->kind));
	for (size_t i = 0; i < *count; i++)
		if (!strcmp((*values)[i].text, n->value))
			return at(c, n, "key '%s': value '%s' is listed twice (keep one)", name, n->value);
	if (!(nv = realloc(*values, (*count + 1) * sizeof(*nv))))
		return tune_fail(c->err, TUNE_ERR_SYSTEM, "out of memory");
	*values = nv;
	nv += *count;
	nv->raw = NULL;
	if (!(nv->text = strdup(n->value)))
		return tune_fail(c->err, TUNE_ERR_SYSTEM, "out of memory");
	nv->at = where_of(n);
	/* A text list's items are read further (a constraint's offsets): the
	 * source where the text is not it as written, else where a quoted
	 * one's text starts. */
	if (k->type == CONF_TEXT_LIST && n->raw && !(nv->raw = strdup(n->raw))) {
		free(nv->text);
		return tune_fail(c->err, TUNE_ERR_SYSTEM, "out of memory");
	}
	if (k->type == CONF_TEXT_LIST && !n->raw && !n->plain)
		nv->at.col++;
	(*count)++;
	return 0;
}

/* A list of texts (or one), each kept with where it was written. */
static int decode_text_list(struct ctx *c, const struct conf_key *k, const struct ynode *n, struct conf_texts *l)
{
	int rc = 0;

	if (n->kind == YNODE_SEQ && !n->n)
		return at(c, n, "key '%s': the list is empty%s", k->name, " (give at least one, or remove the key)");
	if (n->kind != YNODE_SEQ)
		return value_of(c, k, n, k->name, &l->v, &l->n);
	for (size_t i = 0; i < n->n && !rc; i++)
		rc = value_of(c, k, n->items[i], k->name, &l->v, &l->n);
	return rc;
}

static void release_values(struct conf_value *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].text);
		free(v[i].raw);
	}
	free(v);
}

/* A mapping of names (each a name, given once) to a value or a list. */
static int decode_value_map(struct ctx *c, const struct conf_key *k, const struct ynode *n, struct conf_entries *m)
{
	if (n->kind != YNODE_MAP)
		return at(c, n, "key '%s': expected a mapping of names to values, got %s", k->name,
			  ynode_kind_name(n->kind));
	for (size_t i = 0; i + 1 < n->n; i += 2) {
		const struct ynode *key = n->items[i], *val = n->items[i + 1];
		struct conf_entry *nv, *e;
		char why[256];
		int rc = 0;

		if (names_check(key->value, why, sizeof(why)) != 0)
			return at(c, key, "key '%s': %s", k->name, why);
		for (size_t j = 0; j < m->n; j++)
			if (!strcmp(m->v[j].name, key->value))
				return at(c, key, "key '%s': '%s' is given twice (keep one)", k->name, key->value);
		if (!(nv = realloc(m->v, (m->n + 1) * sizeof(*nv))))
			return tune_fail(c->err, TUNE_ERR_SYSTEM, "out of memory");
		m->v = nv;
		e = &nv[m->n++];
		memset(e, 0, sizeof(*e));
		e->at = where_of(key);
		if (!(e->name = strdup(key->value)))
			return tune_fail(c->err, TUNE_ERR_SYSTEM, "out of memory");
		if (val->kind == YNODE_SEQ && !val->n)
			return at(c, val, "key '%s': the list of '%s' is empty (give at least one value)", k->name,
				  key->value);
		if (val->kind == YNODE_SEQ)
			for (size_t j = 0; j < val->n && !rc; j++)
				rc = value_of(c, k, val->items[j], e->name, &e->values, &e->n);
		else
			rc = value_of(c, k, val, e->name, &e->values, &e->n);
		if (rc)
			return rc;
	}
	return 0;
}

static int decode_value(struct ctx *c, const struct conf_key *k, const struct ynode *v, void *dest)
{
	void *field = (char *)dest + k->offset;

	switch (k->type) {
	case CONF_STRING:
		if (v->kind != YNODE_SCALAR)
			return at(c, v, "key '%s': expected a string, got %s", k->name, ynode_kind_name(v->kind));
		if (check_string(c, k, v, &(size_t){ 0 }) != 0)
			return TUNE_ERR_CONFIG;
		free(*(char **)field);
		if (!(*(char **)field = strdup(v->value)))
			return tune_fail(c->err, TUNE_ERR_SYSTEM, "out of memory");
		return 0;
	case CONF_INT:
		return parse_int(c, k, v, field);
	case CONF_BOOL:
		return parse_bool(c, k, v, field);
	case CONF_ENUM:
		return parse_enum(c, k, v, field);
	case CONF_STRING_LIST:
	case CONF_INT_LIST:
	case CONF_ENUM_LIST:
	case CONF_BOOL_LIST:
		return decode_list(c, k, v, field);
	case CONF_SECTION:
		if (v->kind != YNODE_MAP)
			return at(c, v, "key '%s': expected a mapping of keys, got %s", k->name, ynode_kind_name(v->kind));
		return decode_map(c, v, k->section, field, k->name);
	case CONF_SECTION_LIST:
		return decode_section_list(c, k, v, field);
	case CONF_VALUE_MAP:
		return decode_value_map(c, k, v, field);
	case CONF_TEXT_LIST:
		return decode_text_list(c, k, v, field);
	case CONF_MOVED:
		break; /* refused by decode_map with the key's position */
	}
	return tune_fail(c->err, TUNE_ERR_CONFIG, "internal error: key type");
}

const struct conf_key *conf_key_named(const struct conf_key *table, const char *name)
{
	for (; table->name; table++)
		if (!strcmp(table->name, name))
			return table;
	return NULL;
}

static int decode_map(struct ctx *c, const struct ynode *map, const struct conf_key *table, void *dest,
		      const char *section)
{
	for (size_t i = 0; i + 1 < map->n; i += 2) {
		const struct ynode *key = map->items[i], *val = map->items[i + 1];
		const struct conf_key *k = conf_key_named(table, key->value);
		int rc;

		if (!k) {
			const char *suggestion = tune_suggest_in(key->value, table, sizeof(*table));
			char detail[512];
			int explained = c->explain ? c->explain(key->value, section, c->top, detail, sizeof(detail)) : 0;

			/* A kernel's key: its manifest says where it went. */
			if (explained)
				return at(c, key, explained == CONF_EXPLAINED_MOVED ? "key '%.64s' is no longer read: %s"
					  : explained == CONF_EXPLAINED_ELSEWHERE ? "unknown key '%.64s': %s"
					  : "unknown key '%.64s' %s", key->value, detail);

			k = suggestion ? conf_key_named(table, suggestion) : NULL;
			/* Near a key no longer read: what to write instead, at once. */
			if (k && k->type == CONF_MOVED)
				snprintf(detail, sizeof(detail), "(did you mean '%s'? it is no longer read: %s)", suggestion, k->help);
			else if (suggestion)
				snprintf(detail, sizeof(detail), "(did you mean '%s'?)", suggestion);
			else
				snprintf(detail, sizeof(detail), "(see 'tune help %s' for the keys%s%s)", c->what,
					 section ? " of " : "", section ? section : "");
			return at(c, key, "unknown key '%.64s' %s", key->value, detail);
		}
		if (k->type == CONF_MOVED)
			return at(c, key, "key '%s' is no longer read: %s", k->name, k->help);
		for (size_t j = 0; j < i; j += 2) {
			if (!strcmp(map->items[j]->value, key->value)) {
				char detail[64];

				snprintf(detail, sizeof(detail), "%zu", map->items[j]->line);
				return at(c, key, "key '%s' is given twice (first on line %s; keep one)", k->name, detail);
			}
		}
		if ((rc = decode_value(c, k, val, dest)) != 0)
			return rc;
	}
	for (const struct conf_key *k = table; k->name; k++) {
		int found = 0;

		if (!(k->flags & CONF_REQUIRED))
			continue;
		for (size_t i = 0; i + 1 < map->n && !found; i += 2)
			found = !strcmp(map->items[i]->value, k->name);
		if (!found)
			return tune_fail(c->err, TUNE_ERR_CONFIG, "%s:%zu:%zu: key '%s' is missing (add '%s: ...'; %s)",
					 c->path, map->line, map->col, k->name, k->name, k->help);
	}
	return 0;
}

static int conf_decode_explained(const char *path, const struct ynode *map, const struct conf_key *table,
				 void *dest, const char *what, conf_explain_fn explain, struct tune_error *err)
{
	struct ctx c = { path, what, err, explain, map };

	if (!map)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: the file is empty (see 'tune help %s')", path, what);
	if (map->kind != YNODE_MAP)
		return at(&c, map, "%s file must be a mapping of keys, not %s", what, ynode_kind_name(map->kind));
	return decode_map(&c, map, table, dest, NULL);
}

int conf_decode(const char *path, const struct ynode *map, const struct conf_key *table,
		void *dest, const char *what, struct tune_error *err)
{
	return conf_decode_explained(path, map, table, dest, what, NULL, err);
}

void conf_release(const struct conf_key *table, void *dest)
{
	for (const struct conf_key *k = table; k->name; k++) {
		void *field = (char *)dest + k->offset;

		switch (k->type) {
		case CONF_STRING:
			free(*(char **)field);
			*(char **)field = NULL;
			break;
		case CONF_STRING_LIST: {
			struct conf_strs *l = field;

			for (size_t i = 0; i < l->n; i++)
				free(l->v[i]);
			free(l->v);
			l->v = NULL;
			l->n = 0;
			break;
		}
		case CONF_INT_LIST:
		case CONF_ENUM_LIST:
		case CONF_BOOL_LIST: {
			struct conf_ints *l = field;

			free(l->v);
			l->v = NULL;
			l->n = 0;
			break;
		}
		case CONF_SECTION:
			conf_release(k->section, field);
			break;
		case CONF_SECTION_LIST: {
			struct conf_list *l = field;

			for (size_t i = 0; i < l->n; i++)
				conf_release(k->section, (char *)l->v + i * (size_t)k->max);
			free(l->v);
			l->v = NULL;
			l->n = 0;
			break;
		}
		case CONF_VALUE_MAP: {
			struct conf_entries *m = field;

			for (size_t i = 0; i < m->n; i++) {
				release_values(m->v[i].values, m->v[i].n);
				free(m->v[i].name);
			}
			free(m->v);
			m->v = NULL;
			m->n = 0;
			break;
		}
		case CONF_TEXT_LIST: {
			struct conf_texts *l = field;

			release_values(l->v, l->n);
			l->v = NULL;
			l->n = 0;
			break;
		}
		default:
			break;
		}
	}
}

static const char *type_name(const struct conf_key *k)
{
	switch (k->type) {
	case CONF_STRING: return "string";
	case CONF_INT: return k->flags & CONF_AUTO ? "integer|auto" : "integer";
	case CONF_BOOL: return "boolean";
	case CONF_ENUM: return "choice";
	case CONF_STRING_LIST: return "list of strings";
	case CONF_INT_LIST: return k->flags & CONF_AUTO ? "list of integers|auto"
				   : k->flags & CONF_INF ? "list of integers|inf" : "list of integers";
	case CONF_ENUM_LIST: return "list of choices";
	case CONF_BOOL_LIST: return "list of booleans";
	case CONF_SECTION: return "mapping";
	case CONF_SECTION_LIST: return "list of mappings";
	case CONF_VALUE_MAP: return "mapping: name: values";
	case CONF_TEXT_LIST: return "list of strings";
	case CONF_MOVED: return "";
	}
	return "?";
}

void conf_help(FILE *out, const struct conf_key *table, int indent)
{
	for (const struct conf_key *k = table; k->name; k++) {
		if (k->type == CONF_MOVED)
			continue;
		fprintf(out, "%*s%-14s %-22s %s%s\n", indent, "", k->name, type_name(k), k->help,
			k->flags & CONF_REQUIRED ? " (required)" : "");
		if (k->type == CONF_INT || k->type == CONF_INT_LIST)
			fprintf(out, "%*s%-14s %-22s range [%lld, %lld]\n", indent, "", "", "", k->min, k->max);
		if (k->flags & CONF_NAME)
			fprintf(out, "%*s%-14s %-22s a name: %s\n", indent, "", "", "", NAMES_RULE);
		if (k->flags & CONF_RELPATH)
			fprintf(out, "%*s%-14s %-22s a path inside the folder: no leading '/', no '..'\n", indent, "", "", "");
		if ((k->type == CONF_STRING || k->type == CONF_STRING_LIST) && k->max > 0)
			fprintf(out, "%*s%-14s %-22s at most %lld bytes%s\n", indent, "", "", "", k->max,
				k->type == CONF_STRING_LIST ? ", joined by spaces" : "");
		if (k->choices) {
			fprintf(out, "%*s%-14s %-22s one of:", indent, "", "", "");
			for (int i = 0; k->choices[i]; i++)
				fprintf(out, " %s", k->choices[i]);
			fputc('\n', out);
		}
		if (k->type == CONF_SECTION || k->type == CONF_SECTION_LIST)
			conf_help(out, k->section, indent + 2);
	}
}

int conf_load(const char *dir, const char *what, const char *name, const struct conf_key *table, void *dest,
	      conf_explain_fn explain, char **path_out, struct tune_error *err)
{
	char path[4096], known[1024];
	struct ydoc doc;
	int rc;

	*path_out = NULL;
	if (paths_find(dir, name, path, sizeof(path)) != 0) {
		paths_list(dir, known, sizeof(known));
		return tune_fail(err, TUNE_ERR_CONFIG, "%s '%s' not found: no file '%s' (known %ss: %s)", what, name,
				 path, what, known[0] ? known : "none");
	}
	if ((rc = ydoc_load(path, &doc, err)) != 0)
		return rc;
	rc = conf_decode_explained(path, doc.root, table, dest, what, explain, err);
	ydoc_free(&doc);
	/* Stored absolute, so that a later command from elsewhere finds it. */
	if (!rc && !(*path_out = realpath(path, NULL)) && !(*path_out = strdup(path)))
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	return rc;
}

int conf_fail_at(struct tune_error *err, const char *path, struct conf_where at, const char *fmt, ...)
{
	char msg[900];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return tune_fail(err, TUNE_ERR_CONFIG, "%s:%zu:%zu: %s", path, at.line, at.col, msg);
}
