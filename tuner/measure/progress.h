/* progress: one line with the trial count and an ETA, redrawn in place when
 * stderr is a terminal; a plain log line per batch when it is not. */
#ifndef TUNER_PROGRESS_H
#define TUNER_PROGRESS_H

#include <stddef.h>

struct progress {
	int tty;
	const char *title;  /* borrowed: the sweep's name */
	size_t total, done;  /* trials */
	double cost_total, cost_done;
	double t0;
};

void progress_init(struct progress *p, const char *title, size_t total, double cost_total);
/* Log lines even on a terminal: several sweeps share it. */
void progress_plain(void);
/* Shows that label is being measured now. */
void progress_begin(struct progress *p, const char *label);
/* Counts trials and cost as finished; note goes on the log line ("ok", "failed: ..."). */
void progress_end(struct progress *p, size_t trials, double cost, const char *label, const char *note);
void progress_finish(struct progress *p);

/* "1h02m", "3m05s", "12s" */
void progress_format_duration(double s, char *out, size_t len);

#endif
