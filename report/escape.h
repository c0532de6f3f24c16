/* escape: text from the database written into another language. Each sink
 * escapes for its own syntax, whatever the store holds (names are checked
 * where they enter, see tuner/base/names.h, but a database may be older than
 * that check, or edited by hand):
 *  - a C string literal: escape_c_string();
 *  - a C block comment: escape_c_comment();
 *  - a file name: escape_file_name();
 *  - a CSV field: escape_csv_field();
 *  - a JSON string: escape_json_text();
 *  - part of a C identifier: escape_c_identifier();
 *  - HTML: doc.c's html_text();
 *  - gnuplot: names never enter a script's text; they are passed as the
 *    script's arguments (ARG1...), which gnuplot holds as string data. */
#ifndef REPORT_ESCAPE_H
#define REPORT_ESCAPE_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* s between double quotes, as a C string literal, into out: quotes,
 * backslashes and '?' (trigraphs) escaped, every byte outside printable
 * ASCII as three octal digits. Cut between escapes to fit len (at least 3),
 * always closed. Returns out. */
const char *escape_c_string(const char *s, char *out, size_t len);

/* s for the inside of a C block comment, into out: printable ASCII only
 * (others become '?'), a space after a '*' that a '/' follows or that ends
 * s, before a leading '/', and between a '/' and a '*', so the comment
 * cannot end early and no comment seems to start in it. Cut to fit len.
 * Returns out. */
const char *escape_c_comment(const char *s, char *out, size_t len);

/* s as one file name component: letters, digits, '.', '-', '_' kept, every
 * other byte '_', a leading '.' '_', cut to fit len; never empty. */
void escape_file_name(const char *s, char *out, size_t len);

/* s as one CSV field to out (RFC 4180): as it is, or between double quotes
 * with its quotes doubled when it holds a comma, a quote or a line break;
 * other control characters and invalid UTF-8 as \xNN (names_show());
 * a text a spreadsheet would run as a formula (=, +, -, @ first, but not a
 * number) starts with a quote ('=1+1). */
void escape_csv_field(FILE *out, const char *s);

/* s as part of a C identifier (after a prefix such as TUNED_), into out:
 * letters and digits kept (upper-cased when upper, else lower-cased), every
 * other byte '_', cut to fit len. */
void escape_c_identifier(const char *s, int upper, char *out, size_t len);
/* Do two of names[0..n) (n < 0: up to a NULL) become the same C
 * identifier ("a-b" and "a_b", "Fast" and "fast")? 1 with their indices. */
int escape_c_identifier_clash(const char *const *names, long n, size_t *a, size_t *b);

/* s as a JSON string: as it is when valid UTF-8, else with each byte that
 * is not as \xNN text (jansson refuses invalid UTF-8, and a value would
 * vanish). NULL only when out of memory. */
json_t *escape_json_text(const char *s);

#endif
