/* Durations as the progress line and the report's sweeps table print them:
 * rounded to the second before splitting, so 119.6 s is 2m00s, not 1m60s. */
#include "../../tuner/base/duration.h"
#include "../check.h"

int main(void)
{
	static const struct {
		double s;
		const char *want;
	} cases[] = {
		{ 0, "0s" },	     { 0.4, "0s" },	   { 12.5, "13s" },    { 59.6, "1m00s" },
		{ 119.6, "2m00s" },  { 185, "3m05s" },	   { 3599.5, "1h00m" }, { 3720, "1h02m" },
		{ 90061, "25h01m" },
	};
	char out[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		duration_format(cases[i].s, out, sizeof(out));
		CHECK(strcmp(out, cases[i].want) == 0, "%g s: '%s', want '%s'", cases[i].s, out, cases[i].want);
	}
	return check_done("duration");
}
