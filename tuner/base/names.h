/* names: one rule for the names that come from outside and are shown or
 * stored as identifiers: platform, sweep, kernel and host names.
 *
 * A name is 1 to NAMES_MAX_LEN characters of letters, digits, '.', '-' and
 * '_', starting with a letter or a digit, with no "..". So a name cannot be a
 * path, an option, or carry quotes, spaces or control characters; it is
 * checked where it enters (YAML files, an agent's facts, Slurm node names,
 * options). Sinks still escape for their own language, since a database may
 * hold names written by an older tune (see report/escape.h). */
#ifndef TUNER_NAMES_H
#define TUNER_NAMES_H

#include <stddef.h>

#define NAMES_MAX_LEN 64 /* HOST_NAME_MAX on Linux */
#define NAMES_RULE "1 to 64 letters, digits, '.', '-' or '_', starting with a letter or digit, without '..'"

/* 0 when name follows the rule; -1 with what is wrong in why ("'../x' starts
 * with '.'"), which never repeats more than 64 bytes of the name. */
int names_check(const char *name, char *why, size_t len);

/* Whether every byte of s is printable (no control characters): for text
 * that is shown but is not a name (a CPU model, a kernel release). */
int names_printable(const char *s);

/* s as text safe to show on a terminal or store as a message, and valid
 * UTF-8: each byte of a control character (C0, DEL, C1) or of invalid UTF-8
 * as \xNN, but with lines, line breaks and tabs kept. Cut between
 * characters to fit len; returns its length. */
size_t names_show(const char *s, int lines, char *out, size_t len);
/* The same, as a malloc()ed string (NULL: out of memory). */
char *names_shown(const char *s, int lines);

#endif
