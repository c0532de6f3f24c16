/* duration: a number of seconds as people read it, rounded to the second:
 * "1h02m", "3m05s", "12s". */
#ifndef TUNER_DURATION_H
#define TUNER_DURATION_H

#include <stddef.h>

void duration_format(double s, char *out, size_t len);

#endif
