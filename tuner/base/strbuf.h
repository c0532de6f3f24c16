/* strbuf: text built by appending, never past the end of its buffer.
 *
 * struct strbuf grows as it is appended to: for text that must be whole (a
 * command line, a hashed flag list, a script). str_appendf() appends to a
 * fixed buffer and cuts the text at its end: for messages, where a cut is
 * better than no message. Whatever the lengths, neither writes out of bounds.
 *
 * Ownership: a strbuf owns its text until strbuf_detach() hands it to the
 * caller (free() it) or strbuf_release() frees it. */
#ifndef TUNER_STRBUF_H
#define TUNER_STRBUF_H

#include <stddef.h>

struct strbuf {
	char *v;
	size_t len, cap;
	int oom; /* an append ran out of memory: the text is incomplete */
};

#define STRBUF_INIT { NULL, 0, 0, 0 }

void strbuf_addf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_add(struct strbuf *b, const char *s);
/* The text so far; "" when empty. Borrowed: valid until the next append. */
const char *strbuf_str(const struct strbuf *b);
/* The text (free() it), or NULL when an append ran out of memory. */
char *strbuf_detach(struct strbuf *b);
void strbuf_release(struct strbuf *b);

/* Appends to buf (size bytes, NUL-terminated at *used); the text is cut at
 * the end of buf and *used never passes size - 1. */
void str_appendf(char *buf, size_t size, size_t *used, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
