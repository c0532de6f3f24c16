/* One error contract for the whole tuner: functions return 0 or a negative
 * tune_err and fill a tune_error with the message; only main() turns a code
 * into an exit status (tune_exit_code). Messages follow git's style:
 * lowercase, no full stop, subject in quotes, what to do in the end. */
#ifndef TUNER_ERRORS_H
#define TUNER_ERRORS_H

#include <stddef.h>

enum tune_err {
	TUNE_OK = 0,
	TUNE_ERR_USAGE = -1,    /* bad command line */
	TUNE_ERR_CONFIG = -2,   /* bad platform or sweep file */
	TUNE_ERR_STORE = -3,    /* database cannot be opened, read or written */
	TUNE_ERR_BUILD = -4,    /* a kernel did not compile, or no compiler */
	TUNE_ERR_SYSTEM = -5,   /* the OS refused: memory, fork, files */
	TUNE_ERR_TRIALS = -6,   /* the sweep finished but some trials failed */
	TUNE_ERR_INTERRUPTED = -7,
	TUNE_ERR_STALE = -8,    /* export header --check: the header is out of date */
	TUNE_ERR_HOST = -9,     /* a remote host stopped answering */
	TUNE_ERR_BUSY = -10,    /* another tune is measuring the same sweep into the database */
	TUNE_ERR_EMPTY = -11,   /* the database holds nothing for what was asked: run its sweeps first */
};

/* Exit codes, documented in README.md. */
enum tune_exit {
	TUNE_EXIT_OK = 0,
	TUNE_EXIT_TRIALS_FAILED = 1,
	TUNE_EXIT_USAGE = 2,
	TUNE_EXIT_CONFIG = 3,
	TUNE_EXIT_STORE = 4,
	TUNE_EXIT_BUILD = 5,
	TUNE_EXIT_SYSTEM = 6,
	TUNE_EXIT_STALE = 7,
	TUNE_EXIT_HOST = 8,
	TUNE_EXIT_BUSY = 9,
	TUNE_EXIT_EMPTY = 10,
	TUNE_EXIT_INTERRUPTED = 130,
};

struct tune_error {
	char msg[4096];
};

/* err's message buffer (or NULL), for a module outside the tuner that
 * writes its own messages, such as store/ (store.h says how). */
static inline char *tune_msg(struct tune_error *err)
{
	return err ? err->msg : NULL;
}

/* printf-style; returns code so callers can write `return tune_fail(...)`. */
int tune_fail(struct tune_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

const char *tune_strerror(int code);
int tune_exit_code(int code);

/* The index of name among the NULL-terminated names, or -1 (also for NULL). */
int tune_name_index(const char *const *names, const char *name);

/* The best match for word among the NULL-terminated names, or NULL when none
 * is close enough to suggest. */
const char *tune_suggest(const char *word, const char *const *names);
/* Same over an array of structs whose first member is a const char *name. */
const char *tune_suggest_in(const char *word, const void *table, size_t stride);

#endif
