/* The shipped kernels whose manifest says `report: own`: each one's report
 * hooks, in the order their tables, charts and header blocks appear. A
 * kernel adds its line here and its report*.c in its folder. */
#include "../report/report.h"

extern const struct kernel_report chase_report, ipa_report, sched_report;

const struct kernel_report *const kernel_reports[] = { &chase_report, &ipa_report, &sched_report, NULL };
