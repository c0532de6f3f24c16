/* Keys of sweeps and platforms that a kernel's parameters replaced: each
 * manifest declares its own (moved:), so that a file still giving one is
 * told what to write, and the core names no kernel's parameters. */
#include <stdio.h>
#include <string.h>

#include "../base/strbuf.h"
#include "config.h"

int manifest_check_moved(const struct kernel_manifest *m, struct tune_error *err)
{
	for (size_t i = 0; i < m->moved.n; i++) {
		const struct conf_entry *e = &m->moved.v[i];

		/* A key still read would never reach the kernel's message. */
		if (manifest_param(m, e->name) || conf_key_named(sweep_keys, e->name) || conf_key_named(platform_keys, e->name))
			return conf_fail_at(err, m->path, e->at, "key 'moved': '%.64s' is %s: only a key no longer read "
					    "moves (remove it)", e->name, manifest_param(m, e->name) ? "a parameter of "
					    "the kernel" : "a key of sweeps or platforms themselves");
		for (size_t k = 0; k < e->n; k++)
			if (strcmp(e->values[k].text, "variant") != 0 && !manifest_param(m, e->values[k].text))
				return conf_fail_at(err, m->path, e->values[k].at, "key 'moved': '%.64s' is not a "
						    "parameter (or variant): name what took the place of '%.64s'",
						    e->values[k].text, e->name);
	}
	return 0;
}

/* "write params: { a: ..., b: ... }" for the names, inside section's key;
 * inside params: itself, "write a: ..., b: ... in its place". */
static void params_to_write(const char *section, const struct conf_value *names, size_t n, const char *one,
			    char *buf, size_t len)
{
	int inside = section && !strcmp(section, "params");
	size_t used = 0;

	if (inside)
		str_appendf(buf, len, &used, "write");
	else
		str_appendf(buf, len, &used, "write %s%sparams: {", section ? section : "", section ? ": { " : "");
	for (size_t i = 0; i < (names ? n : 1); i++)
		str_appendf(buf, len, &used, "%s %s: ...", i ? "," : "", names ? names[i].text : one);
	str_appendf(buf, len, &used, "%s", inside ? " in its place" : section ? " } }" : " }");
}

int manifest_moved_explain(const struct kernel_manifest *m, const char *key, const char *section, char *buf,
			   size_t len)
{
	for (size_t k = 0; k < m->moved.n; k++) {
		const struct conf_entry *e = &m->moved.v[k];
		char what[240];

		if (strcmp(e->name, key) != 0)
			continue;
		params_to_write(section, e->values, e->n, NULL, what, sizeof(what));
		snprintf(buf, len, "kernel %s's parameter%s replaced it: %s (see 'tune kernels')", m->name,
			 e->n > 1 ? "s" : "", what);
		return 1;
	}
	return 0;
}

/* What kernel m says of key: CONF_EXPLAINED_MOVED with the message in buf,
 * CONF_EXPLAINED_ELSEWHERE when it is one of its parameters, else 0. */
static int explained_by(const struct kernel_manifest *m, const char *key, const char *section, char *buf,
			size_t len)
{
	if (manifest_moved_explain(m, key, section, buf, len))
		return CONF_EXPLAINED_MOVED;
	return manifest_param(m, key) ? CONF_EXPLAINED_ELSEWHERE : 0;
}

/* The scalar value of key in the mapping top, or NULL. */
static const char *scalar_of(const struct ynode *top, const char *key)
{
	for (size_t i = 0; top && top->kind == YNODE_MAP && i + 1 < top->n; i += 2)
		if (!strcmp(top->items[i]->value, key) && top->items[i + 1]->kind == YNODE_SCALAR)
			return top->items[i + 1]->value;
	return NULL;
}

int kernel_key_explain(const char *key, const char *section, const struct ynode *top, char *buf, size_t len)
{
	const char *own = scalar_of(top, "kernel");
	char kernels[256] = "", what[240];
	size_t used = 0, nk = 0;
	int found = 0;

	if (section && strcmp(section, "quick") != 0)
		return 0;
	kernel_choices_load();
	/* A file naming its kernel (a sweep) is told of that kernel's alone:
	 * another's parameter would not be taken. */
	for (size_t i = 0; (own ? i < 1 : kernel_choices[i] != NULL) && found != CONF_EXPLAINED_MOVED; i++) {
		const char *name = own ? own : kernel_choices[i];
		struct kernel_manifest m;
		struct tune_error err;
		int says;

		memset(&m, 0, sizeof(m));
		if (manifest_load(name, &m, &err) != 0) {
			/* The manifest that may say where the key went is broken: say that. */
			if (own && tune_name_index(kernel_choices, own) >= 0) {
				snprintf(buf, len, "(kernel %s's manifest, which may say where it went, does not load: %s)",
					 own, err.msg);
				found = CONF_EXPLAINED_UNREAD;
			}
			manifest_free(&m);
			continue;
		}
		if ((says = explained_by(&m, key, section, buf, len)) == CONF_EXPLAINED_ELSEWHERE)
			str_appendf(kernels, sizeof(kernels), &used, "%s%s", nk++ ? ", " : "", m.name);
		found = says > found ? says : found;
		manifest_free(&m);
	}
	if (found == CONF_EXPLAINED_ELSEWHERE) {
		params_to_write(section, NULL, 1, key, what, sizeof(what));
		snprintf(buf, len, "'%s' is a parameter of kernel%s %s: %s (see 'tune kernels')", key, nk > 1 ? "s" : "",
			 kernels, what);
	}
	return found;
}
