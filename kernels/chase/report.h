/* The chase's own report (kernels/reports.c lists chase_report): its header
 * macros with their lookup functions and its optima as JSON (its tables,
 * charts and CSV are declared in views.sql). The tuner never sees it. */
#ifndef KERNELS_CHASE_REPORT_H
#define KERNELS_CHASE_REPORT_H

#include "../../report/report.h"

/* SQL: the chase's parameters of optimum o, as the columns they once were
 * (schema 14 keeps them in o.params only): working set, g, hint ('' none),
 * huge pages (0 or 1). */
#define CHASE_OPT_SIZE_MB "json_extract(o.params, '$.size_mb')"
#define CHASE_OPT_G "COALESCE(json_extract(o.params, '$.group_size'), 0)"
#define CHASE_OPT_HINT "COALESCE(json_extract(o.params, '$.hint'), '')"
#define CHASE_OPT_HUGEPAGES "(json_extract(o.params, '$.hugepages') IN ('on', 1))"

#endif
