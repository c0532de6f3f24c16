/* tune: an autotuner and sweep orchestrator for latency-hiding kernels. */
#include <stdio.h>
#include <string.h>

#include "../report/report.h"
#include "cli/cli.h"
#include "config/config.h"

/* Sorted by name. */
const struct cmd_entry tune_commands[] = {
	{ "agent", cmd_agent,
	  "tune agent --token-file F [--listen ADDR:PORT] [--tls-cert C --tls-key K] [--platform P]\n"
	  "       [--name HOST] [--max-timeout S] [--kernels-dir DIR]",
	  "serve this host to an orchestrator: its facts, and trials run with its own compiler and CPUs" },
	{ "export", cmd_export,
	  "tune export csv|header|json [--platform P ...] [--db F] [-o FILE]\n       tune export header --check FILE",
	  "write samples as amaco2's CSV, or the optima as a C header or JSON" },
	{ "facts", cmd_facts, "tune facts", "print this host's facts as JSON (what a Slurm node reports)" },
	{ "help", cmd_help, "tune help [COMMAND|platform|sweep|kernel|exit-codes]", "show help" },
	{ "hosts", cmd_hosts, "tune hosts [--platform P ...] [--require-tls]", "list the platforms' hosts, whether they answer, and their facts" },
	{ "kernels", cmd_kernels, "tune kernels [--kernels-dir DIR ...]",
	  "list the kernels (their manifests: variants, parameters, metric, sources)" },
	{ "report", cmd_report, "tune report --platform P [--platform Q ...] [-o DIR] [--db F]",
	  "charts (PNG, SVG) and a self-contained HTML report in DIR (default tune-report)" },
	{ "results", cmd_results, "tune results [--platform P ...] [--format table|md|csv|json] [--db F]",
	  "print the amaco2-style tables, the optima and the warnings" },
	{ "run", cmd_run, "tune run SWEEP --platform P [--quick] [--fresh] [--require-tls] [--kernels-dir DIR] [--db F]",
	  "run one sweep" },
	{ "version", cmd_version, "tune version", "print tune's version" },
	{ NULL, NULL, NULL, NULL },
};

/* The kernels whose report is compiled in, by name, for the manifest loader. */
static void own_reports(void)
{
	static const char *names[32];
	size_t n = 0;

	for (size_t k = 0; kernel_reports[k] && n + 1 < sizeof(names) / sizeof(names[0]); k++)
		names[n++] = kernel_reports[k]->kernel;
	manifest_own_reports(names);
}

int main(int argc, char **argv)
{
	const struct cmd_entry *c;
	struct tune_error err = { "" };
	int rc;

	own_reports();
	if (argc < 2) {
		cmd_help(1, argv, &err);
		return 2;
	}
	if (argv[1][0] == '-') {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
			return cmd_help(1, argv, &err) ? 2 : 0;
		if (!strcmp(argv[1], "--version"))
			return cmd_version(1, argv, &err);
		/* tune --platform P [...]: tune everything for that platform. */
		rc = cmd_tune(argc, argv, &err);
	} else {
		for (c = tune_commands; c->name; c++)
			if (!strcmp(c->name, argv[1]))
				break;
		if (!c->name) {
			const char *hint = tune_suggest_in(argv[1], tune_commands, sizeof(*tune_commands));

			fprintf(stderr, "tune: '%s' is not a tune command%s%s%s (see 'tune help')\n", argv[1],
				hint ? " (did you mean '" : "", hint ? hint : "", hint ? "'?)" : "");
			return 2;
		}
		rc = c->fn(argc - 1, argv + 1, &err);
	}
	if (rc) {
		if (err.msg[0])
			fprintf(stderr, "tune: %s\n", err.msg);
		return tune_exit_code(rc);
	}
	return 0;
}
