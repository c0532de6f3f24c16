#include <stdio.h>

#include "duration.h"

void duration_format(double s, char *out, size_t len)
{
	long t = (long)(s + 0.5);

	if (t >= 3600)
		snprintf(out, len, "%ldh%02ldm", t / 3600, (t / 60) % 60);
	else if (t >= 60)
		snprintf(out, len, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(out, len, "%lds", t);
}
