/* A report as data: sections, tables and (for HTML) figures, rendered as an
 * aligned text table, Markdown, CSV, JSON or HTML from the same blocks. */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/names.h"
#include "../tuner/base/strbuf.h"
#include "../tuner/base/version.h"
#include "doc_internal.h"
#include "escape.h"

struct rdoc *rdoc_new(void)
{
	return calloc(1, sizeof(struct rdoc));
}

static struct block *push(struct rdoc *d, int kind)
{
	struct block *nv = realloc(d->v, (d->n + 1) * sizeof(*nv));

	if (!nv) {
		d->oom = 1;
		return NULL;
	}
	d->v = nv;
	memset(&d->v[d->n], 0, sizeof(d->v[0]));
	d->v[d->n].kind = kind;
	return &d->v[d->n++];
}

/* A section detail's value as text: 1 for a word or a number, else 0. */
static int detail_text(const json_t *v, char *out, size_t len)
{
	if (json_is_string(v))
		snprintf(out, len, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(out, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(out, len, "%.6g", json_real_value(v));
	else
		return 0;
	return 1;
}

void rdoc_section(struct rdoc *d, const char *platform, const char *host, const char *fingerprint,
		  const char *detail)
{
	struct block *b = push(d, BLOCK_SECTION);
	json_t *o = detail ? json_loads(detail, JSON_DECODE_ANY, NULL) : NULL;
	size_t at = 0;

	if (!b) {
		json_decref(o);
		return;
	}
	/* Text from the database is shown: a control character as \xNN. */
	names_show(platform, 0, b->platform, sizeof(b->platform));
	names_show(host, 0, b->host, sizeof(b->host));
	names_show(fingerprint ? fingerprint : "", 0, b->fingerprint, sizeof(b->fingerprint));
	/* Its detail's values that are a word or a number, "key value, ...". */
	for (void *it = json_is_object(o) ? json_object_iter(o) : NULL; it; it = json_object_iter_next(o, it)) {
		char key[64], raw[96], value[128];

		if (!detail_text(json_object_iter_value(it), raw, sizeof(raw)))
			continue;
		names_show(raw, 0, value, sizeof(value));
		names_show(json_object_iter_key(it), 0, key, sizeof(key));
		str_appendf(b->detail, sizeof(b->detail), &at, "%s%s %s", at ? ", " : "", key, value);
	}
	if (json_is_object(o) && b->detail[0])
		b->detail_json = json_incref(o);
	json_decref(o);
}

void rdoc_heading(struct rdoc *d, const char *title)
{
	rdoc_section(d, title, "", "", NULL);
	if (!d->oom)
		d->v[d->n - 1].heading = 1;
}

size_t rdoc_table(struct rdoc *d, const char *title, size_t ncols, const char *const *headers)
{
	struct block *b = push(d, BLOCK_TABLE);

	if (!b)
		return (size_t)-1;
	b->title = names_shown(title, 0);
	b->ncols = ncols;
	rdoc_row(d, d->n - 1, headers);
	return d->n - 1;
}

size_t rdoc_table_for(struct rdoc *d, const char *title, size_t ncols, const char *const *headers)
{
	const struct block *last = d->n ? &d->v[d->n - 1] : NULL;

	if (last && last->kind == BLOCK_TABLE && last->title && !strcmp(last->title, title) && last->ncols == ncols)
		return d->n - 1;
	return rdoc_table(d, title, ncols, headers);
}

/* A table's handle as rdoc_table() gave it: (size_t)-1 when memory ran out. */
static struct block *table_at(struct rdoc *d, size_t table)
{
	return table < d->n && d->v[table].kind == BLOCK_TABLE ? &d->v[table] : NULL;
}

void rdoc_row(struct rdoc *d, size_t table, const char *const *cells)
{
	struct block *b = table_at(d, table);
	char **nc;
	json_t **nv;

	if (!b)
		return;
	nc = realloc(b->cells, (b->nrows + 1) * b->ncols * sizeof(*nc));
	if (nc)
		b->cells = nc;
	nv = nc ? realloc(b->values, (b->nrows + 1) * b->ncols * sizeof(json_t *)) : NULL;
	if (!nv) {
		d->oom = 1;
		return;
	}
	b->values = nv;
	for (size_t c = 0; c < b->ncols; c++) {
		b->cells[b->nrows * b->ncols + c] = names_shown(cells[c] ? cells[c] : "", 0);
		b->values[b->nrows * b->ncols + c] = NULL;
	}
	b->nrows++;
}

void rdoc_value(struct rdoc *d, size_t table, size_t col, json_t *value)
{
	struct block *b = table_at(d, table);
	json_t **slot = b && b->nrows > 1 && col < b->ncols ? &b->values[(b->nrows - 1) * b->ncols + col] : NULL;

	if (!slot) {
		json_decref(value);
		return;
	}
	json_decref(*slot);
	*slot = value;
}

void rdoc_units(struct rdoc *d, size_t table, const char *const *units)
{
	struct block *b = table_at(d, table);

	if (!b)
		return;
	if (!b->units && !(b->units = calloc(b->ncols, sizeof(*b->units)))) {
		d->oom = 1;
		return;
	}
	for (size_t c = 0; c < b->ncols; c++)
		if (units[c] && units[c][0]) {
			free(b->units[c]);
			b->units[c] = names_shown(units[c], 0);
		}
}

void rdoc_figure(struct rdoc *d, const char *caption, const char *svg)
{
	struct block *b = push(d, BLOCK_FIGURE);

	if (!b)
		return;
	b->title = names_shown(caption, 0);
	b->html = strdup(svg);
}

void rdoc_append(struct rdoc *d, struct rdoc *from)
{
	struct block *nv;

	d->oom |= from->oom;
	if (!from->n)
		return;
	if (!(nv = realloc(d->v, (d->n + from->n) * sizeof(*nv)))) {
		d->oom = 1;
		return;
	}
	/* The blocks move: from keeps none to free. */
	memcpy(nv + d->n, from->v, from->n * sizeof(*nv));
	d->v = nv;
	d->n += from->n;
	free(from->v);
	from->v = NULL;
	from->n = 0;
}

size_t rdoc_rows(const struct rdoc *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].kind == BLOCK_TABLE && d->v[i].nrows)
			n += d->v[i].nrows - 1;
	return n;
}

void rdoc_block_free(struct block *b)
{
	for (size_t k = 0; k < b->nrows * b->ncols; k++) {
		free(b->cells[k]);
		json_decref(b->values[k]);
	}
	for (size_t c = 0; b->units && c < b->ncols; c++)
		free(b->units[c]);
	free(b->units);
	free(b->cells);
	free(b->values);
	free(b->title);
	free(b->html);
	json_decref(b->detail_json);
}

void rdoc_free(struct rdoc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++)
		rdoc_block_free(&d->v[i]);
	free(d->v);
	free(d);
}

const char *rdoc_cell(const struct block *b, size_t r, size_t c)
{
	return b->cells[r * b->ncols + c];
}

static void section_line(const struct block *b, char *out, size_t len)
{
	if (b->detail[0])
		snprintf(out, len, "Platform %s on host %s (%s, fingerprint %s)", b->platform, b->host, b->detail,
			 b->fingerprint);
	else if (b->host[0])
		snprintf(out, len, "Platform %s on host %s (fingerprint %s)", b->platform, b->host, b->fingerprint);
	else
		snprintf(out, len, "%s", b->platform);
}

static void render_text(const struct rdoc *d, FILE *out)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct block *b = &d->v[i];
		size_t w[RDOC_MAX_COLUMNS] = { 0 };
		char line[512];

		if (b->kind == BLOCK_SECTION) {
			section_line(b, line, sizeof(line));
			fprintf(out, "%s%s\n", i ? "\n" : "", line);
			continue;
		}
		if (b->kind != BLOCK_TABLE)
			continue;
		for (size_t r = 0; r < b->nrows; r++)
			for (size_t c = 0; c < b->ncols && c < RDOC_MAX_COLUMNS; c++)
				if (strlen(rdoc_cell(b, r, c)) > w[c])
					w[c] = strlen(rdoc_cell(b, r, c));
		fprintf(out, "\n%s\n\n", b->title);
		for (size_t r = 0; r < b->nrows; r++) {
			for (size_t c = 0; c < b->ncols && c < RDOC_MAX_COLUMNS; c++)
				fprintf(out, c + 1 < b->ncols ? "%-*s  " : "%-*s", c + 1 < b->ncols ? (int)w[c] : 0,
					rdoc_cell(b, r, c));
			fputc('\n', out);
		}
	}
}

static void render_md(const struct rdoc *d, FILE *out)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct block *b = &d->v[i];
		char line[512];

		if (b->kind == BLOCK_SECTION) {
			section_line(b, line, sizeof(line));
			fprintf(out, "%s## %s\n", i ? "\n" : "", line);
			continue;
		}
		if (b->kind != BLOCK_TABLE)
			continue;
		fprintf(out, "\n### %s\n\n", b->title);
		for (size_t r = 0; r < b->nrows; r++) {
			for (size_t c = 0; c < b->ncols; c++) {
				fputs("| ", out);
				for (const char *p = rdoc_cell(b, r, c); *p; p++)
					fputs(*p == '|' ? "\\|" : (char[2]){ *p, 0 }, out);
				fputc(' ', out);
			}
			fputs("|\n", out);
			if (r == 0) {
				for (size_t c = 0; c < b->ncols; c++)
					fputs("|---", out);
				fputs("|\n", out);
			}
		}
	}
}

/* The column of b headed name, or ncols. */
static size_t column(const struct block *b, const char *name)
{
	size_t c = 0;

	while (c < b->ncols && strcmp(rdoc_cell(b, 0, c), name) != 0)
		c++;
	return c;
}

/* A table's rows as CSV, each led by its platform and host (and, when
 * title, the table's title). */
/* What a section is of besides its host (its detail's values), as CSV
 * fields after platform and host: the keys for the header, else the values. */
static void csv_detail(const struct block *sec, int header, FILE *out)
{
	json_t *o = sec && !sec->heading ? sec->detail_json : NULL;

	for (void *it = o ? json_object_iter(o) : NULL; it; it = json_object_iter_next(o, it)) {
		char text[96];

		if (!detail_text(json_object_iter_value(it), text, sizeof(text)))
			continue;
		fputc(',', out);
		escape_csv_field(out, header ? json_object_iter_key(it) : text);
	}
}

void rdoc_csv_table(const struct block *sec, const struct block *b, int title, FILE *out)
{
	/* Under a heading, each row's own platform and host. */
	size_t pc = sec && sec->heading ? column(b, "Platform") : b->ncols;
	size_t hc = sec && sec->heading ? column(b, "Host") : b->ncols;

	fputs("platform,host", out);
	csv_detail(sec, 1, out);
	if (title)
		fputs(",table", out);
	for (size_t c = 0; c < b->ncols; c++) {
		fputc(',', out);
		escape_csv_field(out, rdoc_cell(b, 0, c));
	}
	fputc('\n', out);
	for (size_t r = 1; r < b->nrows; r++) {
		escape_csv_field(out, pc < b->ncols ? rdoc_cell(b, r, pc) : sec && !sec->heading ? sec->platform : "");
		fputc(',', out);
		escape_csv_field(out, hc < b->ncols ? rdoc_cell(b, r, hc) : sec && !sec->heading ? sec->host : "");
		csv_detail(sec, 0, out);
		if (title) {
			fputc(',', out);
			escape_csv_field(out, b->title);
		}
		for (size_t c = 0; c < b->ncols; c++) {
			fputc(',', out);
			escape_csv_field(out, rdoc_cell(b, r, c));
		}
		fputc('\n', out);
	}
}

/* One CSV table after another, each led by its section and title. */
static void render_csv(const struct rdoc *d, FILE *out)
{
	const struct block *sec = NULL;

	for (size_t i = 0; i < d->n; i++) {
		const struct block *b = &d->v[i];

		if (b->kind == BLOCK_SECTION)
			sec = b;
		if (b->kind != BLOCK_TABLE)
			continue;
		rdoc_csv_table(sec, b, 1, out);
		fputc('\n', out);
	}
}

/* A cell's value for JSON when its table gave none: what its text says,
 * typed. "" and "-" are null; "12", "8.63x" (a ratio), "45%" and "512 MB" or "2 GB"
 * (in a column of MB) are numbers; "17.0 [13.5, 45.4]" is an interval; any
 * other text stays a string. */
static json_t *cell_json(const char *text, const char *unit)
{
	double x, lo, hi;
	char *end;
	int used = 0;

	if (!text[0] || !strcmp(text, "-"))
		return json_null();
	x = strtod(text, &end);
	if (end != text && !strpbrk(text, " \t") && (!*end || !strcmp(end, "x") || !strcmp(end, "%"))) {
		if (strcspn(text, ".eEnN") >= (size_t)(end - text) && x >= -9e15 && x <= 9e15)
			return json_integer((json_int_t)x);
		return isfinite(x) ? json_real(x) : json_string(text);
	}
	if (end != text && unit && !strcmp(unit, "MB") && (!strcmp(end, " MB") || !strcmp(end, " GB")))
		return json_integer((json_int_t)(x * (end[1] == 'G' ? 1024 : 1)));
	if (sscanf(text, "%lf [%lf, %lf]%n", &x, &lo, &hi, &used) == 3 && used > 0 &&
	    (!text[used] || text[used] == ' '))
		return json_pack("{s:f, s:f, s:f}", "median", x, "low", lo, "high", hi);
	return json_string(text);
}

static int render_json(const struct rdoc *d, FILE *out)
{
	json_t *root = json_pack("{s:s, s:i, s:s, s:[]}", "format", "tune-results", "version", 3, "tune_version",
				 TUNE_VERSION, "sections");
	json_t *sections = json_object_get(root, "sections"), *cur = NULL;
	int rc;

	for (size_t i = 0; i < d->n; i++) {
		const struct block *b = &d->v[i];

		if (b->kind == BLOCK_SECTION && b->heading) {
			cur = json_pack("{s:s, s:n, s:n, s:n, s:[]}", "heading", b->platform, "platform", "host",
					"fingerprint", "tables");
			json_array_append_new(sections, cur);
		} else if (b->kind == BLOCK_SECTION || !cur) {
			cur = json_pack("{s:s, s:s, s:s, s:[]}", "platform", b->kind == BLOCK_SECTION ? b->platform : "",
					"host", b->kind == BLOCK_SECTION ? b->host : "", "fingerprint",
					b->kind == BLOCK_SECTION ? b->fingerprint : "", "tables");
			/* The detail's keys after the section's own: a key of the
			 * same name as one of those is left out. */
			for (void *it = b->kind == BLOCK_SECTION && b->detail_json ? json_object_iter(b->detail_json)
										 : NULL;
			     it; it = json_object_iter_next(b->detail_json, it))
				if (!json_object_get(cur, json_object_iter_key(it)))
					json_object_set(cur, json_object_iter_key(it), json_object_iter_value(it));
			json_array_append_new(sections, cur);
		}
		if (b->kind == BLOCK_TABLE) {
			json_t *cols = json_array(), *rows = json_array();

			for (size_t c = 0; c < b->ncols; c++) {
				json_t *col = json_pack("{s:s}", "name", rdoc_cell(b, 0, c));

				if (b->units && b->units[c])
					json_object_set_new(col, "unit", json_string(b->units[c]));
				json_array_append_new(cols, col);
			}
			for (size_t r = 1; r < b->nrows; r++) {
				json_t *row = json_array();

				for (size_t c = 0; c < b->ncols; c++) {
					json_t *v = b->values[r * b->ncols + c];

					json_array_append_new(row, v ? json_incref(v)
								     : cell_json(rdoc_cell(b, r, c), b->units ? b->units[c] : NULL));
				}
				json_array_append_new(rows, row);
			}
			json_array_append_new(json_object_get(cur, "tables"),
					      json_pack("{s:s, s:o, s:o}", "title", b->title, "columns", cols, "rows", rows));
		}
	}
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(root);
	return rc;
}

static void html_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

static json_t *cell_json(const char *text, const char *unit);

/* A number, or a median with its interval, by the cell's typed value. */
static int numeric_cell(const struct block *b, size_t r, size_t c)
{
	json_t *v = b->values[r * b->ncols + c], *own = NULL;
	int n;

	if (!v)
		v = own = cell_json(rdoc_cell(b, r, c), b->units ? b->units[c] : NULL);
	n = json_is_number(v) || (json_is_object(v) && json_is_number(json_object_get(v, "median")));
	json_decref(own);
	return n;
}

static void render_html(const struct rdoc *d, const char *title, FILE *out)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>", out);
	html_text(out, title);
	fputs("</title>\n<style>\nbody{font-family:sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}\n"
	      "table{border-collapse:collapse;margin:0.5rem 0 1.5rem}\nth,td{border:1px solid #ccc;padding:0.2rem 0.6rem;"
	      "text-align:left;vertical-align:top}\nth{background:#f0f0f0}\n"
	      "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	      "figure{margin:1rem 0}\nfigure svg{max-width:100%;height:auto}\nh2{border-bottom:1px solid #ccc}\n"
	      "</style></head><body>\n<h1>", out);
	html_text(out, title);
	fputs("</h1>\n", out);
	for (size_t i = 0; i < d->n; i++) {
		const struct block *b = &d->v[i];
		char line[512];

		if (b->kind == BLOCK_SECTION) {
			section_line(b, line, sizeof(line));
			fputs("<h2>", out);
			html_text(out, line);
			fputs("</h2>\n", out);
		} else if (b->kind == BLOCK_FIGURE) {
			fputs("<figure class=\"chart\">\n", out);
			fputs(b->html, out);
			fputs("<figcaption>", out);
			html_text(out, b->title);
			fputs("</figcaption></figure>\n", out);
		} else {
			fputs("<h3>", out);
			html_text(out, b->title);
			fputs("</h3>\n<table>\n", out);
			for (size_t r = 0; r < b->nrows; r++) {
				fputs("<tr>", out);
				for (size_t c = 0; c < b->ncols; c++) {
					/* Numbers to the right, text to the left. */
					fputs(!r ? "<th>" : numeric_cell(b, r, c) ? "<td class=\"n\">" : "<td>", out);
					html_text(out, rdoc_cell(b, r, c));
					fputs(r ? "</td>" : "</th>", out);
				}
				fputs("</tr>\n", out);
			}
			fputs("</table>\n", out);
		}
	}
	/* Counts the charts that really drew lines, for a browser-driven check. */
	fputs("<script>document.body.dataset.chartsRendered = Array.from(document.querySelectorAll("
	      "'figure.chart svg')).filter(function (s) { var r = s.getBoundingClientRect(); return r.width > 0 && "
	      "r.height > 0 && s.querySelector('path'); }).length;</script>\n", out);
	fputs("</body></html>\n", out);
}

int rdoc_render(const struct rdoc *d, int format, const char *title, FILE *out, struct tune_error *err)
{
	if (d->oom)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory building the report");
	switch (format) {
	case REPORT_TABLE: render_text(d, out); break;
	case REPORT_MD: render_md(d, out); break;
	case REPORT_CSV: render_csv(d, out); break;
	case REPORT_JSON:
		if (render_json(d, out) != 0)
			return tune_fail(err, TUNE_ERR_SYSTEM, "cannot write the JSON");
		break;
	default: render_html(d, title, out); break;
	}
	return ferror(out) ? tune_fail(err, TUNE_ERR_SYSTEM, "cannot write the report") : 0;
}
