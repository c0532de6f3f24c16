#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "../../kernels/common/timing.h"
#include "measure.h"

void progress_format_duration(double s, char *out, size_t len)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(out, len, "%ldh%02ldm", t / 3600, (t / 60) % 60);
	else if (t >= 60)
		snprintf(out, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(out, len, "%lds", t);
}

static int plain_only;

void progress_plain(void)
{
	plain_only = 1;
}

void progress_init(struct progress *p, const char *title, size_t total, double cost_total)
{
	p->tty = !plain_only && isatty(STDERR_FILENO);
	p->title = title;
	p->total = total;
	p->done = 0;
	p->cost_total = cost_total;
	p->cost_done = 0;
	p->t0 = timing_now_s();
}

static void eta(const struct progress *p, char *out, size_t len)
{
	double elapsed = timing_now_s() - p->t0;

	if (p->cost_done <= 0 || elapsed < 0.5) {
		snprintf(out, len, "ETA --");
		return;
	}
	progress_format_duration(elapsed * (p->cost_total - p->cost_done) / p->cost_done, out + 4, len - 4);
	out[0] = 'E', out[1] = 'T', out[2] = 'A', out[3] = ' ';
}

void progress_begin(struct progress *p, const char *label)
{
	char e[32];

	if (!p->tty)
		return;
	eta(p, e, sizeof(e));
	fprintf(stderr, "\r\033[K%s [%zu/%zu %3.0f%%] %s  %s", p->title, p->done, p->total,
		p->cost_total > 0 ? 100.0 * p->cost_done / p->cost_total : 0.0, label, e);
	fflush(stderr);
}

void progress_end(struct progress *p, size_t trials, double cost, const char *label, const char *note)
{
	p->done += trials;
	p->cost_done += cost;
	if (p->tty) {
		if (note && *note && note[0] != 'o')
			fprintf(stderr, "\r\033[K%s: %s: %s\n", p->title, label, note);
		return;
	}
	fprintf(stderr, "%s [%zu/%zu] %s: %s\n", p->title, p->done, p->total, label, note ? note : "ok");
}

void progress_finish(struct progress *p)
{
	char d[32];

	progress_format_duration(timing_now_s() - p->t0, d, sizeof(d));
	if (p->tty)
		fprintf(stderr, "\r\033[K");
	fprintf(stderr, "%s: %zu trials in %s\n", p->title, p->done, d);
}
