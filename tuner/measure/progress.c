/* The progress of a round of trials. On a terminal: one line, redrawn every
 * second by a thread of its own (so a long batch does not freeze it), clipped
 * to the terminal's width. In a pipe, or with several hosts at once: a
 * timestamped line per batch. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "../base/duration.h"
#include "measure.h"

#define REDRAW_S 1

static int plain_only;
static double run_end; /* when the whole run should end (clock_now_s); 0: unknown */

void progress_plain(void)
{
	plain_only = 1;
}

void progress_run_end(double when)
{
	run_end = when;
}

/* The time left: the cost still to measure at the pace so far, less the time
 * the running batch has already taken; "--" before anything has finished. */
static void eta(const struct progress *p, double now, char *out, size_t len)
{
	double left;

	if (p->cost_done <= 0 || p->t_end - p->t0 < 0.5) {
		snprintf(out, len, "--");
		return;
	}
	left = (p->t_end - p->t0) * (p->cost_total - p->cost_done) / p->cost_done - (now - p->t_end);
	duration_format(left > 0 ? left : 0, out, len);
}

static size_t terminal_width(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* title [#####.....] 5/12 42%  0m12s, ETA 20s  label; cut to the width so
 * it never wraps (a wrapped line leaves fragments behind each redraw). */
static void draw(const struct progress *p)
{
	double now = tk_now_s(), frac = p->cost_total > 0 ? p->cost_done / p->cost_total : 0;
	char line[512], bar[12], el[16], e[16], run[40] = "";
	size_t width = terminal_width(), filled = (size_t)(frac * 10 + 0.5);

	for (size_t i = 0; i < 10; i++)
		bar[i] = i < filled ? '#' : '.';
	bar[10] = '\0';
	duration_format(now - p->t0, el, sizeof(el));
	eta(p, now, e, sizeof(e));
	if (run_end > 0) {
		char left[16];

		duration_format(run_end > now ? run_end - now : 0, left, sizeof(left));
		snprintf(run, sizeof(run), ", run ~%s", left);
	}
	snprintf(line, sizeof(line), "%s [%s] %zu/%zu %.0f%%  %s, ETA %s%s  %s", p->title, bar, p->done, p->total,
		 100 * frac, el, e, run, p->label);
	if (strlen(line) > width - 1)
		line[width - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
}

static void *ticker(void *arg)
{
	struct progress *p = arg;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		struct timespec until;

		draw(p);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += REDRAW_S;
		pthread_cond_timedwait(&p->wake, &p->lock, &until);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

void progress_init(struct progress *p, const char *title, size_t total, double cost_total)
{
	memset(p, 0, sizeof(*p));
	p->tty = !plain_only && isatty(STDERR_FILENO);
	p->title = title;
	p->total = total;
	p->cost_total = cost_total;
	p->t0 = p->t_end = tk_now_s();
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
}

void progress_begin(struct progress *p, const char *label)
{
	pthread_mutex_lock(&p->lock);
	snprintf(p->label, sizeof(p->label), "%s", label);
	if (p->tty && !p->ticking) {
		sigset_t all, old;

		/* Signals stay with the measuring thread: Ctrl-C interrupts its wait. */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		p->ticking = pthread_create(&p->thread, NULL, ticker, p) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	} else if (p->tty) {
		pthread_cond_signal(&p->wake);
	}
	pthread_mutex_unlock(&p->lock);
}

/* A log line's time, UTC ("2026-12-05T03:07:27Z "); "" on a terminal. */
static const char *stamp(const struct progress *p, char *out, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	out[0] = '\0';
	if (!p->tty && gmtime_r(&now, &tm))
		strftime(out, len, "%Y-%m-%dT%H:%M:%SZ ", &tm);
	return out;
}

void progress_end(struct progress *p, size_t trials, double cost, const char *label, const char *note)
{
	char at[32], e[16];

	pthread_mutex_lock(&p->lock);
	p->done += trials;
	p->cost_done += cost;
	p->t_end = tk_now_s();
	if (p->tty) {
		/* What went wrong stays on the screen, above the line. */
		if (note && *note && strcmp(note, "ok") != 0)
			fprintf(stderr, "\r\033[K%s: %s: %s\n", p->title, label, note);
		draw(p);
	} else {
		eta(p, p->t_end, e, sizeof(e));
		fprintf(stderr, "%s%s [%zu/%zu, ETA %s] %s: %s\n", stamp(p, at, sizeof(at)), p->title, p->done, p->total,
			e, label, note ? note : "ok");
	}
	pthread_mutex_unlock(&p->lock);
}

/* The line cleared and the thread gone; safe to call again. */
static void stop_ticker(struct progress *p)
{
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	if (p->ticking)
		pthread_join(p->thread, NULL);
	p->ticking = 0;
	if (p->tty)
		fprintf(stderr, "\r\033[K");
}

void progress_finish(struct progress *p)
{
	char d[32], at[32];

	stop_ticker(p);
	if (p->done) {
		duration_format(tk_now_s() - p->t0, d, sizeof(d));
		fprintf(stderr, "%s%s: %zu trial%s in %s\n", stamp(p, at, sizeof(at)), p->title, p->done,
			p->done == 1 ? "" : "s", d);
	}
	pthread_cond_destroy(&p->wake);
	pthread_mutex_destroy(&p->lock);
}
