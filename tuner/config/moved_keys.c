/* Keys of sweeps and platforms that a kernel's parameters replaced: each
 * manifest declares its own (moved:), so that a file still giving one is
 * told what to write, and the core names no kernel's parameters. */
#include <stdio.h>
#include <string.h>

#include "config.h"

int manifest_check_moved(const struct kernel_manifest *m, struct tune_error *err)
{
	for (size_t i = 0; i < m->moved.n; i++)
		for (size_t k = 0; k < m->moved.v[i].n; k++)
			if (strcmp(m->moved.v[i].values[k].text, "variant") != 0 &&
			    !manifest_param(m, m->moved.v[i].values[k].text))
				return conf_fail_at(err, m->path, m->moved.v[i].values[k].at, "key 'moved': '%.64s' is "
						    "not a parameter (or variant): name what took the place of '%.64s'",
						    m->moved.v[i].values[k].text, m->moved.v[i].name);
	return 0;
}

/* "params: { a: ..., b: ... }" for the names, inside section's key. */
static void params_to_write(const char *section, const struct conf_value *names, size_t n, const char *one,
			    char *buf, size_t len)
{
	size_t at = (size_t)snprintf(buf, len, "write %s%sparams: {", section ? section : "", section ? ": { " : "");

	for (size_t i = 0; i < (names ? n : 1) && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s %s: ...", i ? "," : "", names ? names[i].text : one);
	if (at < len)
		snprintf(buf + at, len - at, " }%s", section ? " }" : "");
}

int kernel_key_explain(const char *key, const char *section, char *buf, size_t len)
{
	char kernels[256] = "";
	size_t nk = 0;
	int found = 0;

	if (section && strcmp(section, "quick") != 0)
		return 0;
	kernel_choices_load();
	for (size_t i = 0; kernel_choices[i] && found != CONF_EXPLAINED_MOVED; i++) {
		struct kernel_manifest m;
		struct tune_error err;

		memset(&m, 0, sizeof(m));
		if (manifest_load(kernel_choices[i], &m, &err) != 0) {
			manifest_free(&m);
			continue;
		}
		for (size_t k = 0; k < m.moved.n && found != CONF_EXPLAINED_MOVED; k++) {
			const struct conf_entry *e = &m.moved.v[k];
			char what[200];

			if (strcmp(e->name, key) != 0)
				continue;
			params_to_write(section, e->values, e->n, NULL, what, sizeof(what));
			snprintf(buf, len, "kernel %s's parameter%s replaced it: %s (see 'tune kernels')", m.name,
				 e->n > 1 ? "s" : "", what);
			found = CONF_EXPLAINED_MOVED;
		}
		if (found != CONF_EXPLAINED_MOVED && manifest_param(&m, key)) {
			size_t at = strlen(kernels);

			snprintf(kernels + at, sizeof(kernels) - at, "%s%s", nk++ ? ", " : "", m.name);
			found = CONF_EXPLAINED_ELSEWHERE;
		}
		manifest_free(&m);
	}
	if (found == CONF_EXPLAINED_ELSEWHERE) {
		char what[200];

		params_to_write(section, NULL, 1, key, what, sizeof(what));
		snprintf(buf, len, "'%s' is a parameter of kernel%s %s: %s", key, nk > 1 ? "s" : "", kernels, what);
	}
	return found;
}
