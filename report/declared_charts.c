/* A kernel's declared charts: the views of its views file named
 * <kernel>_chart_<name>, drawn for each platform as <platform>-<kernel>-
 * <name> (.png, .svg, and the .dat and .gp they are drawn from). A row of
 * the view is a point of the platform its column platform names:
 *   series     its line's name in the key (a line per series and panel);
 *   x, y       where it is; low, high its interval (error bars), if any;
 *   title, xlabel, ylabel, caption, host   the chart's (its first row's;
 *              the title names the host when it is given);
 *   _style     how its series is drawn: line (the default), dashed, point
 *              (a ring: a chosen value), flag (a red cross: look twice),
 *              band (y and its interval across the chart, x unused), mark
 *              (a vertical line at x, y unused);
 *   _group     series of one group share a colour (a policy inline and
 *              on a worker); _panel   a panel per value, side by side,
 *              on one y scale, titled with it;
 *   _logx, _logy   a logarithmic axis of that base; _y0  1: y from 0;
 *   _ref_y     a dashed line across at that y (a speedup of 1);
 *   _break     1: the line breaks before this point;
 *   _order     orders the points (series come in the order they first do).
 * Names are data: the series' are written to the data file as gnuplot's
 * column headers, made of safe characters; the title, labels and panel
 * titles reach gnuplot as its arguments (report_plot()), never the
 * script's text, which is made of tune's own words and numbers. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../tuner/base/names.h"
#include "../tuner/base/strbuf.h"
#include "declared_internal.h"
#include "report.h"

#define CHART_MAX_SERIES 64
#define CHART_MAX_PANELS 8

enum chart_style { STYLE_LINE, STYLE_DASHED, STYLE_POINT, STYLE_FLAG, STYLE_BAND, STYLE_MARK };
static const char *const chart_styles[] = { "line", "dashed", "point", "flag", "band", "mark", NULL };

struct chart_point {
	double x, y, lo, hi;
	int interval, brk;
};

struct chart_series {
	char name[96], group[96];
	int style, panel, color;
	struct chart_point *p;
	size_t n;
};

struct chart {
	char title[200], xlabel[120], ylabel[120], caption[256], host[256];
	double logx, logy, ref_y;
	int y0, has_ref;
	char panels[CHART_MAX_PANELS][96];
	size_t npanels, ns;
	struct chart_series s[CHART_MAX_SERIES];
};

static void chart_free(struct chart *c)
{
	for (size_t i = 0; i < c->ns; i++)
		free(c->s[i].p);
}

static const char *text_at(sqlite3_stmt *q, int col)
{
	return col >= 0 ? report_text(q, col, "") : "";
}

static int number_at(sqlite3_stmt *q, int col, double *v)
{
	if (col < 0 || sqlite3_column_type(q, col) == SQLITE_NULL)
		return 0;
	*v = sqlite3_column_double(q, col);
	return isfinite(*v);
}

/* A label as one safe field of gnuplot's data: letters, digits and " .,:=_-+()%/" kept. */
static void series_label(const char *text, char *out, size_t len)
{
	size_t i = 0;

	for (; text[i] && i + 1 < len; i++)
		out[i] = (text[i] >= 'a' && text[i] <= 'z') || (text[i] >= 'A' && text[i] <= 'Z') ||
				 (text[i] >= '0' && text[i] <= '9') || strchr(" .,:=_-+()%/", text[i]) ? text[i] : '_';
	out[i] = '\0';
}

/* The series of name in panel, added when new; NULL past the limits. */
static struct chart_series *series_of(struct chart *c, const char *whole_name, const char *whole_panel,
				      const char *whole_group)
{
	char name[sizeof(c->s[0].name)], panel[sizeof(c->panels[0])], group[sizeof(c->s[0].group)];
	size_t k = 0;

	/* As they are kept: a long name is found again by what was kept of it. */
	snprintf(name, sizeof(name), "%s", whole_name);
	snprintf(panel, sizeof(panel), "%s", whole_panel);
	snprintf(group, sizeof(group), "%s", whole_group);

	while (k < c->npanels && strcmp(c->panels[k], panel) != 0)
		k++;
	if (k == c->npanels) {
		if (k == CHART_MAX_PANELS)
			return NULL;
		snprintf(c->panels[c->npanels++], sizeof(c->panels[0]), "%s", panel);
	}
	for (size_t i = 0; i < c->ns; i++)
		if (c->s[i].panel == (int)k && !strcmp(c->s[i].name, name))
			return &c->s[i];
	if (c->ns == CHART_MAX_SERIES)
		return NULL;
	snprintf(c->s[c->ns].name, sizeof(c->s[0].name), "%s", name);
	snprintf(c->s[c->ns].group, sizeof(c->s[0].group), "%s", group[0] ? group : name);
	c->s[c->ns].panel = (int)k;
	/* A colour per group, in the order groups come. */
	c->s[c->ns].color = (int)c->ns + 1;
	for (size_t i = 0; i < c->ns; i++)
		if (!strcmp(c->s[i].group, c->s[c->ns].group)) {
			c->s[c->ns].color = c->s[i].color;
			break;
		}
	return &c->s[c->ns++];
}

/* The rows of view of platform as a chart: 0; -1 (said) when its rows
 * cannot be read or are no chart's; a tune_err when the read limits
 * stopped it or memory ran out. */
static int chart_load(sqlite3 *db, const char *view, const char *platform, struct chart *c, struct tune_error *err)
{
	sqlite3_stmt *q = declared_platform_rows(db, view, platform);
	int rc, series, x, y, lo, hi, style, group, panel, brk, first = 1, warned = 0;

	if (!q || declared_column(q, "series") < 0 || declared_column(q, "x") < 0 || declared_column(q, "y") < 0 ||
	    declared_column(q, "title") < 0) {
		declared_warn("chart", view, NULL, q ? "it needs the columns platform, title, series, x and y"
						    : store_errmsg(db));
		sqlite3_finalize(q);
		return -1;
	}
	series = declared_column(q, "series"), x = declared_column(q, "x"), y = declared_column(q, "y");
	lo = declared_column(q, "low"), hi = declared_column(q, "high"), style = declared_column(q, "_style");
	group = declared_column(q, "_group"), panel = declared_column(q, "_panel"), brk = declared_column(q, "_break");
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		struct chart_series *s;
		struct chart_point pt = { 0 }, *grown;
		int kind = style >= 0 && sqlite3_column_type(q, style) != SQLITE_NULL ?
				   tune_name_index(chart_styles, text_at(q, style)) : STYLE_LINE;

		if (first) {
			double v;

			names_show(text_at(q, declared_column(q, "title")), 0, c->title, sizeof(c->title));
			names_show(text_at(q, declared_column(q, "xlabel")), 0, c->xlabel, sizeof(c->xlabel));
			names_show(text_at(q, declared_column(q, "ylabel")), 0, c->ylabel, sizeof(c->ylabel));
			names_show(text_at(q, declared_column(q, "caption")), 0, c->caption, sizeof(c->caption));
			snprintf(c->host, sizeof(c->host), "%s", text_at(q, declared_column(q, "host")));
			/* A base gnuplot takes, as a number this process prints. */
			c->logx = number_at(q, declared_column(q, "_logx"), &v) && v >= 1.5 && v <= 1000 ? v : 0;
			c->logy = number_at(q, declared_column(q, "_logy"), &v) && v >= 1.5 && v <= 1000 ? v : 0;
			c->y0 = number_at(q, declared_column(q, "_y0"), &v) && v != 0;
			c->has_ref = number_at(q, declared_column(q, "_ref_y"), &c->ref_y);
			first = 0;
		}
		if (kind < 0) {
			if (!warned++)
				declared_warn("chart", view, "_style", "not one of line, dashed, point, flag, band, mark: the "
					      "point is left out");
			continue;
		}
		if (!number_at(q, x, &pt.x) && kind != STYLE_BAND)
			continue;
		if (!number_at(q, y, &pt.y) && kind != STYLE_MARK)
			continue;
		pt.interval = number_at(q, lo, &pt.lo) && number_at(q, hi, &pt.hi);
		pt.brk = brk >= 0 && sqlite3_column_int(q, brk) != 0;
		if (!(s = series_of(c, text_at(q, series), text_at(q, panel), text_at(q, group)))) {
			if (!warned++)
				declared_warn("chart", view, "series", "more series or panels than a chart draws (64, 8): the "
					      "rest are left out");
			continue;
		}
		s->style = kind;
		if (!(grown = realloc(s->p, (s->n + 1) * sizeof(*grown)))) {
			sqlite3_finalize(q);
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		}
		s->p = grown;
		s->p[s->n++] = pt;
	}
	if (rc == SQLITE_INTERRUPT || rc == SQLITE_TOOBIG) {
		rc = tune_fail(err, TUNE_ERR_STORE, "cannot read the chart view '%s': %s", view, store_errmsg(db));
	} else if (rc != SQLITE_DONE) {
		declared_warn("chart", view, NULL, store_errmsg(db));
		rc = -1;
	} else {
		rc = 0;
	}
	sqlite3_finalize(q);
	return rc;
}

/* The ranges of the points drawn as lines and points, marks' x included,
 * for the bands across and the marks up the chart: finite, and above 0 on
 * a log axis (gnuplot refuses a log range that reaches 0). */
static void chart_ranges(const struct chart *c, double *xlo, double *xhi, double *ylo, double *yhi)
{
	*xlo = INFINITY, *xhi = -INFINITY, *ylo = INFINITY, *yhi = -INFINITY;
	for (size_t i = 0; i < c->ns; i++)
		for (size_t k = 0; k < c->s[i].n; k++) {
			const struct chart_point *p = &c->s[i].p[k];
			double lo = p->interval ? fmin(p->lo, p->y) : p->y, hi = p->interval ? fmax(p->hi, p->y) : p->y;

			if (c->s[i].style != STYLE_BAND && (!c->logx || p->x > 0) && fabs(p->x) < 1e300) {
				*xlo = fmin(*xlo, p->x);
				*xhi = fmax(*xhi, p->x);
			}
			if (c->s[i].style != STYLE_MARK && (!c->logy || lo > 0) && fabs(lo) < 1e300 && fabs(hi) < 1e300) {
				*ylo = fmin(*ylo, lo);
				*yhi = fmax(*yhi, hi);
			}
		}
	if (*xlo > *xhi)
		*xlo = *xhi = 1;
	if (*ylo > *yhi)
		*ylo = *yhi = 1;
	/* A margin: half and twice on a log axis, a twentieth of the span else. */
	if (c->logx)
		*xlo /= 2, *xhi *= 2;
	else
		*xlo -= (*xhi - *xlo) / 20 + (*xhi == *xlo), *xhi += (*xhi - *xlo) / 20 + (*xhi == *xlo);
	if (c->logy) {
		*ylo /= 2, *yhi *= 2;
	} else {
		*ylo = c->y0 ? 0 : *ylo - (*yhi - *ylo) / 10;
		*yhi += (*yhi - *ylo) / 10 + (*yhi == *ylo);
	}
}

/* The data file: a block per series, its name first. */
static int chart_data(const struct chart *c, const char *dir, const char *name, struct tune_error *err)
{
	char path[4200], label[96];
	double xlo, xhi, ylo, yhi;
	FILE *f = report_chart_data(dir, name, path, sizeof(path), err);

	if (!f)
		return TUNE_ERR_SYSTEM;
	chart_ranges(c, &xlo, &xhi, &ylo, &yhi);
	fprintf(f, "# x y low high, a block per series (a blank line: a break in its line)\n");
	for (size_t i = 0; i < c->ns; i++) {
		const struct chart_series *s = &c->s[i];

		series_label(s->name, label, sizeof(label));
		fprintf(f, "%s\"%s\"\n", i ? "\n\n" : "", label);
		for (size_t k = 0; k < s->n; k++) {
			const struct chart_point *p = &s->p[k];

			if (s->style == STYLE_BAND) {
				for (int e = 0; e < 2; e++)
					fprintf(f, "%.6g %.6g %.6g %.6g\n", e ? xhi : xlo, p->y, p->interval ? p->lo : p->y,
						p->interval ? p->hi : p->y);
			} else if (s->style == STYLE_MARK) {
				fprintf(f, "%.6g %.6g\n%.6g %.6g\n", p->x, ylo, p->x, yhi);
			} else {
				if (p->brk && k)
					fputc('\n', f);
				fprintf(f, "%.6g %.6g %.6g %.6g\n", p->x, p->y, p->interval ? p->lo : p->y,
					p->interval ? p->hi : p->y);
			}
		}
	}
	fputc('\n', f);
	if (fclose(f) != 0)
		return tune_fail(err, TUNE_ERR_SYSTEM, "report: cannot write '%s'", path);
	return 0;
}

/* The plot command of panel k: each series of it, by its style. */
static void chart_plot(struct strbuf *b, const struct chart *c, size_t k)
{
	int any = 0, marks = 0;

	strbuf_add(b, "  plot NaN notitle");
	for (size_t i = 0; i < c->ns; i++) {
		const struct chart_series *s = &c->s[i];
		int interval = 0;

		if ((size_t)s->panel != k || !s->n)
			continue;
		for (size_t p = 0; p < s->n; p++)
			interval |= s->p[p].interval;
		any = 1;
		switch (s->style) {
		case STYLE_POINT:
			strbuf_addf(b, ", datafile index %zu using 1:2 with points pt 6 ps 2.5 lw 2 lc rgb 'black' title "
				    "columnheader(1)", i);
			break;
		case STYLE_FLAG:
			strbuf_addf(b, ", datafile index %zu using 1:2 with points pt 3 ps 1.5 lw 2 lc rgb 'red' title "
				    "columnheader(1)", i);
			break;
		case STYLE_BAND:
			strbuf_addf(b, ", datafile index %zu using 1:3:4 with filledcurves lc %d notitle, datafile index %zu "
				    "using 1:2 with lines dt 2 lw 2 lc %d title columnheader(1)", i, s->color, i, s->color);
			break;
		case STYLE_MARK:
			/* Dark, each mark its own dashes: a line, not data. */
			strbuf_addf(b, ", datafile index %zu using 1:2 with lines dt %d lw 2 lc rgb 'gray25' title "
				    "columnheader(1)", i, 2 + marks++ % 4);
			break;
		default:
			strbuf_addf(b, ", datafile index %zu using 1:2%s with %s lw 2 lc %d%s title columnheader(1)", i,
				    interval ? ":3:4" : "", interval ? "yerrorlines" : "linespoints", s->color,
				    s->style == STYLE_DASHED ? " dt 2" : "");
		}
	}
	if (!any)
		strbuf_add(b, ", 0 notitle");
	strbuf_add(b, "\n");
}

/* The script's body: settings, then a plot per panel. */
static void chart_body(struct strbuf *b, const struct chart *c)
{
	double xlo, xhi, ylo, yhi;
	int fixed = c->npanels > 1;

	chart_ranges(c, &xlo, &xhi, &ylo, &yhi);
	for (size_t i = 0; i < c->ns; i++)
		fixed |= c->s[i].style == STYLE_BAND || c->s[i].style == STYLE_MARK;
	strbuf_add(b, "  set key outside right top noenhanced\n  set xlabel ARG6 noenhanced\n  set ylabel ARG7 noenhanced\n"
		      "  set bars 2\n  set style fill transparent solid 0.15 noborder\n  unset logscale\n  unset arrow\n"
		      "  set xrange [*:*]\n  set yrange [*:*]\n");
	if (c->logx)
		strbuf_addf(b, "  set logscale x %g\n", c->logx);
	if (c->logy)
		strbuf_addf(b, "  set logscale y %g\n", c->logy);
	/* Bands and marks span the range of the rest, which is fixed for them. */
	if (fixed)
		strbuf_addf(b, "  set xrange [%.6g:%.6g]\n  set yrange [%.6g:%.6g]\n", xlo, xhi, ylo, yhi);
	else if (c->y0 && !c->logy)
		strbuf_add(b, "  set yrange [0:*]\n");
	if (c->has_ref)
		strbuf_addf(b, "  set arrow 1 from graph 0, first %.6g to graph 1, first %.6g nohead dt 2 lc rgb 'gray40'\n",
			    c->ref_y, c->ref_y);
	if (c->npanels <= 1) {
		strbuf_add(b, "  set title ARG5 . ' (' . ARG2 . (strlen(ARG3) ? ', host ' . ARG3 : '') . ')' noenhanced\n");
		chart_plot(b, c, 0);
		return;
	}
	/* Panels side by side, titled by ARG8: their titles, '|' between. */
	strbuf_add(b, "  set key inside top left\n");
	strbuf_addf(b, "  field(s, i) = i <= 1 ? (strstrt(s, '|') ? s[1:strstrt(s, '|') - 1] : s) : "
		       "field(s[strstrt(s, '|') + 1:], i - 1)\n"
		       "  set multiplot layout 1,%zu title ARG5 . ' (' . ARG2 . (strlen(ARG3) ? ', host ' . ARG3 : '') . ')' "
		       "noenhanced\n",
		    c->npanels);
	for (size_t k = 0; k < c->npanels; k++) {
		strbuf_addf(b, "  set title field(ARG8, %zu) noenhanced\n", k + 1);
		chart_plot(b, c, k);
		/* The key once: the first panel's. */
		if (!k)
			strbuf_add(b, "  unset key\n");
	}
	strbuf_add(b, "  unset multiplot\n");
}

struct chart_walk {
	sqlite3 *db;
	const char *platform, *dir;
	struct report_chart *made;
	size_t *charts;
};

static int kernel_charts(const char *kernel, void *arg, struct tune_error *err)
{
	struct chart_walk *w = arg;
	char **views = NULL;
	size_t nviews = 0, klen = strlen(kernel) + 7;
	int rc = declared_views(w->db, kernel, "_chart_", &views, &nviews, err);

	for (size_t i = 0; !rc && i < nviews; i++) {
		struct chart *c = calloc(1, sizeof(*c));
		struct strbuf body = STRBUF_INIT, panels = STRBUF_INIT;
		char chart[200], name[300];
		const char *more[5];
		int loaded;

		if (!c) {
			rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
			break;
		}
		loaded = chart_load(w->db, views[i], w->platform, c, err);
		if (loaded > 0) {
			rc = loaded;
		} else if (!loaded && c->ns) {
			/* <kernel>-<name>: the view's name past <kernel>_chart_. */
			snprintf(chart, sizeof(chart), "%s-%s", kernel, views[i] + klen);
			report_chart_file(w->platform, chart, name, sizeof(name));
			for (size_t k = 0; k < c->npanels; k++) {
				char shown[96];

				series_label(c->panels[k], shown, sizeof(shown));
				strbuf_addf(&panels, "%s%s", k ? "|" : "", shown);
			}
			more[0] = c->title, more[1] = c->xlabel, more[2] = c->ylabel, more[3] = strbuf_str(&panels);
			more[4] = NULL;
			chart_body(&body, c);
			if ((rc = chart_data(c, w->dir, name, err)) == 0 &&
			    (rc = report_plot(w->dir, name, w->platform, c->host, more, &body, err)) == 0)
				report_chart_made(w->made, w->charts, chart, c->caption[0] ? c->caption : c->title);
		}
		strbuf_release(&body);
		strbuf_release(&panels);
		chart_free(c);
		free(c);
	}
	declared_views_free(views, nviews);
	return rc;
}

int report_declared_charts(sqlite3 *db, const char *platform, const char *dir, struct report_chart *made,
			   size_t *charts, struct tune_error *err)
{
	struct chart_walk w = { db, platform, dir, made, charts };

	return declared_kernels_with(db, "_chart_", kernel_charts, &w, err);
}
