/* A declared table's typed cells (report/cell.c): formatted as C's printf
 * does, a tie to even where SQLite's printf rounds up; a format from the
 * database is parsed, never handed to printf, and one it cannot take is
 * refused with why. Table-driven. */
#include <jansson.h>
#include <string.h>

#include "../../report/report.h"
#include "../check.h"

int main(void)
{
	static const struct {
		const char *cell;
		int kind;
		const char *text; /* the formatted text, or what why says */
	} cases[] = {
		{ "plain text", 0, NULL },
		{ "{\"not\": \"typed\"}", 0, NULL },
		{ "{\"printf\": [\"%.0f ns\", 246.5]}", 1, "246 ns" },
		{ "{\"printf\": [\"%.0f ns\", 247.5]}", 1, "248 ns" },
		{ "{\"printf\": [\"%.2f (%.2fx)%s\", 12.345, 1.125, \" *\"]}", 1, "12.35 (1.12x) *" },
		{ "{\"printf\": [\"%.0f%%\", 12.5]}", 1, "12%" },
		{ "{\"printf\": [\"%dx\", 4]}", 1, "4x" },
		{ "{\"printf\": [\"%u\", -1]}", 1, "18446744073709551615" },
		{ "{\"printf\": [\"%u\", 1.5]}", -1, "takes another argument" },
		{ "{\"text\": \"inf (always poll)\", \"value\": \"inf\"}", 1, "inf (always poll)" },
		{ "{\"interval\": [17.04, 13.5, 45.4], \"runs\": 3, \"digits\": 1}", 1, "17.0 [13.5, 45.4] (75%)" },
		{ "{\"interval\": [2.5, 2, 3], \"runs\": 0, \"digits\": 2}", 1, "2.50 [2.00, 3.00]" },
		{ "{\"interval\": [1, 1, 1], \"runs\": 1000000000000000, \"digits\": 0}", 1, "1 [1, 1]" },
		{ "{\"ratios\": [0.9, 0.8, 1.1, 0.95, 0.85], \"digits\": 3}", 1, "0.900 [0.800, 1.100] (93%)" },
		{ "{\"ratios\": [], \"digits\": 3}", -1, "'ratios' holds 0 numbers" },
		{ "{\"ratios\": [1, \"x\"]}", -1, "no number, at 1" },
		{ "{\"printf\": [\"%n\", 1]}", -1, "conversion %n is not one tune formats" },
		{ "{\"printf\": [\"%x\", 1]}", -1, "conversion %x is not one tune formats" },
		{ "{\"printf\": [\"%s%s\", \"a\"]}", -1, "conversion %s lacks its argument" },
		{ "{\"printf\": [\"%.2f\", \"text\"]}", -1, "takes another argument" },
		{ "{\"printf\": [\"%d\", 1, 2]}", -1, "takes 1 arguments, given 2" },
		{ "{\"printf\": [\"%.12f\", 1.0]}", -1, "conversion %.12 is not one tune formats" },
		{ "{\"printf\": [7]}", -1, "takes [FORMAT, ARG...]" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[200] = "untouched", why[200] = "";
		json_t *value = NULL;
		int kind = report_typed_cell(cases[i].cell, out, sizeof(out), &value, why, sizeof(why));

		CHECK(kind == cases[i].kind, "%s: kind %d, not %d", cases[i].cell, kind, cases[i].kind);
		if (kind == 0)
			CHECK(!strcmp(out, "untouched"), "%s: plain text is left alone", cases[i].cell);
		else if (kind == 1)
			CHECK(!strcmp(out, cases[i].text), "%s: '%s', not '%s'", cases[i].cell, out, cases[i].text);
		else
			CHECK_CONTAINS(why, cases[i].text);
		json_decref(value);
	}
	{
		char out[64], why[64];
		json_t *value = NULL;

		CHECK(report_typed_cell("{\"text\": \"chosen\", \"value\": true}", out, sizeof(out), &value, why,
					sizeof(why)) == 1 && json_is_true(value), "a text's value for JSON");
		json_decref(value);
		CHECK(report_typed_cell("{\"interval\": [1, 0.5, 2], \"runs\": 5}", out, sizeof(out), &value, why,
					sizeof(why)) == 1 && json_is_object(value) &&
			      json_number_value(json_object_get(value, "median")) == 1.0,
		      "an interval's value: %s", out);
		json_decref(value);
	}
	return check_done("cell");
}
