/* The measured samples as CSV: the columns are those of the kernel whose
 * report writes them (the chase's are amaco2's, byte for byte). */
#include "report.h"

const char *const report_csv_column_names[] = { "amaco2", "all", NULL };

int report_csv(sqlite3 *db, const char *platform, int columns, FILE *out, size_t *rows, struct tune_error *err)
{
	*rows = 0;
	for (size_t k = 0; kernel_reports[k]; k++)
		if (kernel_reports[k]->csv)
			return kernel_reports[k]->csv(db, platform, columns, out, rows, err);
	return tune_fail(err, TUNE_ERR_USAGE, "no kernel writes its samples as CSV");
}
