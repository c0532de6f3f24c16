/* tune agent: serve this host to an orchestrator (see agent.h); its
 * options are commands.c's agent_options. */
#include <stdlib.h>
#include <string.h>

#include "../agent/agent.h"
#include "../base/signals.h"
#include "cli.h"

int cmd_agent(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options co;
	struct agent_options o;
	int rc;

	if ((rc = cmd_parse_options("agent", argc, argv, &co, err)) != 0)
		return rc;
	memset(&o, 0, sizeof(o));
	o.listen = co.listen;
	o.token_file = co.token_file;
	o.tls_cert = co.tls_cert;
	o.tls_key = co.tls_key;
	o.platform = co.nplatforms ? co.platforms[0] : NULL;
	o.name = co.name;
	if (co.max_timeout) {
		char *end = NULL;

		o.max_timeout_s = strtoll(co.max_timeout, &end, 10);
		if (!*co.max_timeout || *end || o.max_timeout_s < 1 || o.max_timeout_s > 86400)
			return tune_fail(err, TUNE_ERR_USAGE, "agent: option '--max-timeout': '%s' is not a number "
					 "of seconds in 1..86400", co.max_timeout);
	}
	if (!o.token_file)
		return tune_fail(err, TUNE_ERR_USAGE, "agent: every request needs a token: give --token-file F (a file "
				 "holding a secret of 16 or more characters)");
	o.stop = signals_install();
	return agent_serve(&o, err);
}
