/* tune facts: this host's facts as one JSON object, as the store records
 * them; what a Slurm job on a node reports to the orchestrator. */
#include <stdio.h>
#include <stdlib.h>

#include "../config/config.h"
#include "cli.h"

int cmd_facts(int argc, char **argv, struct tune_error *err)
{
	struct host_facts f;
	char *json;
	int rc;

	(void)argv;
	if (argc > 1)
		return tune_fail(err, TUNE_ERR_USAGE, "facts: no arguments (tune facts)");
	if ((rc = hostinfo_read(&f, err)) != 0)
		return rc;
	if (!(json = hostinfo_json(&f)))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	printf("%s\n", json);
	free(json);
	return 0;
}
