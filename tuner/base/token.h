/* token: the secret an agent and its clients share, in a file of its own. */
#ifndef TUNER_TOKEN_H
#define TUNER_TOKEN_H

#include <stddef.h>

#include "errors.h"

#define TOKEN_MAX 510  /* characters of a token */

/* Constant-time comparison of a presented token with the expected one. */
int token_equal(const char *presented, const char *expected);

/* Reads a token file: its first line, trimmed; at least 16 characters, and
 * at most len - 2. A file others can read or write is refused (chmod 600). */
int token_read(const char *path, char *out, size_t len, struct tune_error *err);

#endif
