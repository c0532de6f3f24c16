/* Tables by name: a table's name from its title, keeping the tables of a
 * name (tune results --table), and one CSV file per table (-o DIR). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/strbuf.h"
#include "../tuner/config/config.h"
#include "doc_internal.h"
#include "escape.h"

/* A table's name: its title up to the first ':' or '(', lower-case words
 * joined by '-' ("Summary: scalar vs ..." is "summary"). */
static void table_name(const char *title, char *out, size_t len)
{
	size_t n = 0;
	int gap = 0;

	for (const char *p = title; *p && *p != ':' && *p != '(' && n + 2 < len; p++) {
		if (isalnum((unsigned char)*p)) {
			if (gap && n)
				out[n++] = '-';
			out[n++] = (char)tolower((unsigned char)*p);
			gap = 0;
		} else {
			gap = 1;
		}
	}
	out[n] = 0;
}

static int name_matches(const char *name, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(name, want, n) && (!name[n] || name[n] == '-');
}

int rdoc_keep_tables(struct rdoc *d, const char *want, struct tune_error *err)
{
	struct strbuf names = STRBUF_INIT;
	size_t kept = 0, out = 0;
	char name[128];

	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].kind == BLOCK_TABLE) {
			table_name(d->v[i].title, name, sizeof(name));
			if (name_matches(name, want))
				kept++;
			else if (!strstr(strbuf_str(&names), name))
				strbuf_addf(&names, "%s%s", names.len ? ", " : "", name);
		}
	if (!kept) {
		int rc = tune_fail(err, TUNE_ERR_USAGE, "results: no table is named '%s' (the tables: %s)", want,
				   names.len ? strbuf_str(&names) : "none");

		strbuf_release(&names);
		return rc;
	}
	strbuf_release(&names);
	/* The tables asked for, and each section that still heads one. */
	for (size_t i = 0; i < d->n; i++) {
		struct block *b = &d->v[i];
		int keep = b->kind == BLOCK_SECTION;

		if (b->kind == BLOCK_TABLE) {
			table_name(b->title, name, sizeof(name));
			keep = name_matches(name, want);
		}
		if (keep)
			d->v[out++] = *b;
		else
			rdoc_block_free(b);
	}
	d->n = out;
	out = 0;
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].kind != BLOCK_SECTION || (i + 1 < d->n && d->v[i + 1].kind != BLOCK_SECTION))
			d->v[out++] = d->v[i];
		else
			rdoc_block_free(&d->v[i]); /* a section heading nothing now: its detail too */
	d->n = out;
	return 0;
}

static int taken(char *const *names, size_t n, const char *name)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(names[k], name))
			return 1;
	return 0;
}

int rdoc_csv_files(const struct rdoc *d, const char *dir, FILE *list, struct tune_error *err)
{
	const struct block *sec = NULL;
	char **made = NULL;
	size_t nmade = 0;
	int rc = 0;

	if (d->oom)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory building the report");
	if (paths_mkdirs(dir) != 0)
		return tune_fail(err, TUNE_ERR_SYSTEM, "results: cannot create '%s': %s", dir, strerror(errno));
	for (size_t i = 0; !rc && i < d->n; i++) {
		const struct block *b = &d->v[i];
		char name[128], platform[96], host[96], file[400], path[4096];
		unsigned again = 1;
		char **grown;
		FILE *f;

		if (b->kind == BLOCK_SECTION)
			sec = b;
		if (b->kind != BLOCK_TABLE)
			continue;
		/* PLATFORM-HOST-TABLE.csv; names are data, escaped as file names. */
		table_name(b->title, name, sizeof(name));
		escape_file_name(sec && sec->platform[0] && !sec->heading ? sec->platform : "all", platform,
				 sizeof(platform));
		escape_file_name(sec && sec->host[0] ? sec->host : "all", host, sizeof(host));
		snprintf(file, sizeof(file), "%s-%s-%s.csv", platform, host, name);
		while (taken(made, nmade, file))
			snprintf(file, sizeof(file), "%s-%s-%s-%u.csv", platform, host, name, ++again);
		grown = realloc(made, (nmade + 1) * sizeof(*made));
		if (!grown || !(grown[nmade] = strdup(file))) {
			made = grown ? grown : made;
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
			break;
		}
		made = grown;
		nmade++;
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		if (!(f = fopen(path, "w"))) {
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "results: cannot write '%s': %s", path, strerror(errno));
			break;
		}
		rdoc_csv_table(sec, b, 0, f);
		if (fclose(f) != 0)
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "results: cannot write '%s': %s", path, strerror(errno));
		else if (list)
			fprintf(list, "%s\n", path);
	}
	for (size_t k = 0; k < nmade; k++)
		free(made[k]);
	free(made);
	return rc;
}
