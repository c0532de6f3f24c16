/* tune agent --listen ADDR:PORT --token-file F [--tls-cert C --tls-key K]
 * [--platform P] [--name HOST] [--max-timeout S] [--kernels-dir DIR]: serve this host to an orchestrator
 * (see agent.h). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../agent/agent.h"
#include "../base/signals.h"
#include "cli.h"

int cmd_agent(int argc, char **argv, struct tune_error *err)
{
	static const struct option longs[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "token-file", required_argument, NULL, 't' },
		{ "tls-cert", required_argument, NULL, 'c' },
		{ "tls-key", required_argument, NULL, 'k' },
		{ "platform", required_argument, NULL, 'p' },
		{ "name", required_argument, NULL, 'n' },
		{ "max-timeout", required_argument, NULL, 'm' },
		{ "kernels-dir", required_argument, NULL, 'K' },
		{ NULL, 0, NULL, 0 },
	};
	struct agent_options o;
	int c;

	memset(&o, 0, sizeof(o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (c) {
		case 'l': o.listen = optarg; break;
		case 't': o.token_file = optarg; break;
		case 'c': o.tls_cert = optarg; break;
		case 'k': o.tls_key = optarg; break;
		case 'p': o.platform = optarg; break;
		case 'n': o.name = optarg; break;
		case 'K': {
			int rc = cmd_add_kernels_dir("agent", optarg, err);

			if (rc)
				return rc;
			break;
		}
		case 'm': {
			char *end = NULL;

			o.max_timeout_s = strtoll(optarg, &end, 10);
			if (!*optarg || *end || o.max_timeout_s < 1 || o.max_timeout_s > 86400)
				return tune_fail(err, TUNE_ERR_USAGE, "agent: option '--max-timeout': '%s' is not a number "
						 "of seconds in 1..86400", optarg);
			break;
		}
		default:
			return tune_fail(err, TUNE_ERR_USAGE, "agent: %s option '%s' (see 'tune help agent')",
					 c == ':' || (optopt && optopt != '?') ? "missing value of" : "unknown",
					 argv[optind - 1]);
		}
	}
	if (optind < argc)
		return tune_fail(err, TUNE_ERR_USAGE, "agent: unexpected argument '%s' (see 'tune help agent')",
				 argv[optind]);
	if (!o.token_file)
		return tune_fail(err, TUNE_ERR_USAGE, "agent: every request needs a token: give --token-file F (a file "
				 "holding a secret of 16 or more characters)");
	o.stop = signals_install();
	return agent_serve(&o, err);
}
