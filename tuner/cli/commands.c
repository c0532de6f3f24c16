/* The subcommands and `tune --platform P`, each with its option table: what
 * the parser accepts, what the usage line and --help show, and what
 * did-you-mean suggests from (cmd_options.c reads them; main.c dispatches). */
#include "cli.h"

static const struct cmd_option agent_options[] = {
	{ "token-file", 't', "FILE", CMD_OPT_REQUIRED, "the secret every request must carry (16 or more characters)" },
	{ "listen", 'l', "ADDR:PORT", 0, "where to listen (default 127.0.0.1:7781)" },
	{ "tls-cert", 'C', "FILE", 0, "serve HTTPS with this certificate (PEM), with --tls-key" },
	{ "tls-key", 'k', "FILE", 0, "the certificate's private key (PEM)" },
	CMD_OPT_PLATFORM(0, "the platform whose compiler, flags and CPUs it uses (default local)"),
	{ "name", 'n', "HOST", 0, "the host name it reports (default this host's)" },
	{ "max-timeout", 'm', "SECONDS", 0, "the longest trial a run may ask for, 1..86400 (default 3600)" },
	CMD_OPT_KERNELS_DIR,
	CMD_OPT_END,
};
static const struct cmd_option export_options[] = {
	CMD_OPT_PLATFORMS(CMD_OPT_BY_NAME), CMD_OPT_OUTPUT("FILE", "write to FILE (default: standard output)"), CMD_OPT_CHECK,
	{ "columns", 'L', "SET", 0, "csv: own (the kernel's columns, amaco2's for the chase, byte for byte; the "
	  "default; also named amaco2) or all (and those its view adds: the chase's platform, host, fingerprint, "
	  "hugepages, trial, phase, outlier)" },
	{ "kernel", 'N', "K", CMD_OPT_REPEAT, "header: the kernels it holds, K again for several (default: every "
	  "kernel with optima on the platforms); csv: the kernel whose samples (default: the one that declares a "
	  "CSV, its view K_csv)" },
	CMD_OPT_DB, CMD_OPT_END,
};
static const struct cmd_option facts_options[] = {
	{ "probes", 'P', NULL, 0, "with what the kernels' probes (their manifests' probe:) measured of this host, from "
	  "the database" },
	CMD_OPT_DB, CMD_OPT_END,
};
static const struct cmd_option hosts_options[] = {
	CMD_OPT_PLATFORMS(0), CMD_OPT_REQUIRE_TLS, CMD_OPT_END,
};
static const struct cmd_option kernel_options[] = {
	{ "dir", 'D', "DIR", 0, "new: the folder to write the kernel's folder in (default: the current one)" },
	CMD_OPT_KERNELS_DIR,
	CMD_OPT_PLATFORM(0, "check: the platform whose compiler, flags and CPUs it builds and runs with (default local)"),
	{ "timeout", 'W', "SECONDS", 0, "check: the longest a kernel process may take on tiny parameters, 1..86400 "
	  "(default 60)" },
	CMD_OPT_END,
};
static const struct cmd_option kernels_options[] = { CMD_OPT_KERNELS_DIR, CMD_OPT_END };
static const struct cmd_option replay_options[] = {
	{ "from", 'r', "SWEEP", 0, "the recorded sweep whose runs are replayed: its name in the database (a grid over "
	  "the points the search may ask for, several runs each); needed with SWEEP" },
	{ "kernel-tuner", 'J', "FILE", 0, "instead of a sweep: replay a search space Kernel Tuner recorded, its cache "
	  "file (.json or .json.gz): each measurement a recorded run of the configuration under the drift, costing its "
	  "compile and benchmark time; failed or absent configurations are constraint violations" },
	{ "budgets", 'U', "LIST", 0, "with --kernel-tuner: the measuring budgets, comma-separated percentages of the "
	  "space's total time (every valid configuration measured once; default 0.2,0.5,1,2,5)" },
	{ "bridge", 'B', "SWEEP", 0, "a recorded sweep that measured points of each of --from's kernel processes in one "
	  "process: each of those is scaled to it, so that the record reads as measured side by side" },
	{ "seeds", 's', "N", 0, "replays per strategy, 1..100000 (default 100)" },
	{ "drift", 'x', "PCT", 0, "the drift's step from one kernel process to the next, in %, 0..100 (default 10)" },
	{ "start", 'G', "LO,HI", 0, "also replay the adaptive search started in [LO, HI] of the list parameter, as a "
	  "kernel's probe starts it (chase's Little's law bounds on g: the probe fields g_low and g_high)" },
	{ "strategies", 'S', "LIST", 0, "comma-separated, of grid, random, adaptive, joint (default the first three; random gets "
	  "the adaptive search's number of trials unless the sweep sets max_trials; with --kernel-tuner: grid, "
	  "random, joint, default all three)" },
	{ "format", 'F', "FORMAT", 0, "with --kernel-tuner: table or json (an object per strategy and budget; "
	  "default table)" },
	{ "serve", 'V', NULL, 0, "be the replay's objective for another optimizer instead: answer 'seed N', "
	  "'measure G' and 'judge G' lines on standard input (bench/replay_tpe.py); with --kernel-tuner: 'space', "
	  "'seed N', 'measure CONFIG' and 'judge CONFIG' (bench/replay_kt_tpe.py)" },
	CMD_OPT_PLATFORM(0, "the platform the sweep is planned for (default local)"), CMD_OPT_KERNELS_DIR, CMD_OPT_DB,
	CMD_OPT_END,
};
static const struct cmd_option report_options[] = {
	CMD_OPT_PLATFORMS(CMD_OPT_BY_NAME), CMD_OPT_OUTPUT("DIR", "the folder to write (default tune-report)"),
	CMD_OPT_DB, CMD_OPT_END,
};
static const struct cmd_option results_options[] = {
	CMD_OPT_PLATFORMS(CMD_OPT_BY_NAME), CMD_OPT_FORMAT,
	{ "table", 'b', "NAME", 0, "only the tables of this name: its title's first words (summary, optima, ...)" },
	CMD_OPT_OUTPUT("DIR", "with --format csv: one CSV file per table in DIR, named PLATFORM-HOST-TABLE.csv"),
	CMD_OPT_DB, CMD_OPT_END,
};
static const struct cmd_option run_options[] = {
	CMD_OPT_PLATFORM(0, "the platform to run on: a name in platforms/ or a YAML file (none: local, once its plan "
			 "is confirmed)"),
	CMD_OPT_QUICK, CMD_OPT_FRESH, CMD_OPT_YES, CMD_OPT_REQUIRE_TLS, CMD_OPT_KERNELS_DIR, CMD_OPT_DB, CMD_OPT_END,
};
static const struct cmd_option tune_options[] = {
	CMD_OPT_PLATFORM(0, "the platform to tune: a name in platforms/ or a YAML file (none: local, once its plan is "
			 "confirmed)"),
	CMD_OPT_QUICK, CMD_OPT_FRESH, CMD_OPT_YES, CMD_OPT_REQUIRE_TLS, CMD_OPT_KERNELS_DIR, CMD_OPT_DB, CMD_OPT_END,
};
static const struct cmd_option no_options[] = { CMD_OPT_END };
static const struct cmd_option db_options[] = { CMD_OPT_DB, CMD_OPT_END };

/* Sorted by name. */
const struct cmd_entry tune_commands[] = {
	{ "agent", cmd_agent, "", agent_options,
	  "serve this host to an orchestrator: its facts, and trials run with its own compiler and CPUs",
	  "tune agent --token-file ~/.tune-token --listen 0.0.0.0:7781" },
	{ "completion", cmd_completion, "bash|zsh", no_options,
	  "print a shell completion script for tune's commands, options and their values",
	  "source <(tune completion bash)" },
	{ "export", cmd_export, "csv|header|json", export_options,
	  "write samples as amaco2's CSV, or the optima as a C header or JSON",
	  "tune export header --platform local -o tuned_config.h" },
	{ "facts", cmd_facts, "", facts_options, "print this host's facts as JSON (what a Slurm node reports)",
	  "tune facts --probes" },
	{ "help", cmd_help, "[COMMAND|platform|sweep|kernel|protocol|exit-codes]", no_options, "show help",
	  "tune help sweep" },
	{ "hosts", cmd_hosts, "", hosts_options, "list the platforms' hosts, whether they answer, and their facts",
	  "tune hosts --platform local" },
	{ "kernel", cmd_kernel, "new|check NAME", kernel_options,
	  "write a new kernel folder on the kernel SDK (new), or build a kernel and hold its output to the protocol on "
	  "tiny parameters (check)",
	  "tune kernel new mykernel --dir ~/kernels && tune kernel check mykernel --kernels-dir ~/kernels" },
	{ "kernels", cmd_kernels, "", kernels_options,
	  "list the kernels (their manifests: variants, parameters, metric, sources)",
	  "tune kernels --kernels-dir examples" },
	{ "man", cmd_man, "", no_options, "print tune's manual page (roff), made from the same tables as the help",
	  "tune man > tune.1 && man -l tune.1" },
	{ "migrate", cmd_migrate, "", db_options,
	  "bring a database of an older schema to this tune's, in place (reading commands leave it and read a "
	  "migrated copy)",
	  "tune migrate --db old.db" },
	{ "replay", cmd_replay, "[SWEEP]", replay_options,
	  "prove a search on recorded runs: each strategy of SWEEP replayed over many seeds against a recorded grid, "
	  "with drift; how often it lands in the plateau, at what cost. With --kernel-tuner FILE, the strategies "
	  "searching a space Kernel Tuner recorded, per budget: their best over the best recorded",
	  "tune replay sweeps/chase-tune.yaml --from bench-grid --seeds 200" },
	{ "report", cmd_report, "", report_options,
	  "charts (PNG, SVG) and a self-contained HTML report in a folder",
	  "tune report --platform local -o tune-report" },
	{ "results", cmd_results, "", results_options, "print the amaco2-style tables, the optima and the warnings",
	  "tune results --platform local --format md" },
	{ "run", cmd_run, "SWEEP...", run_options, "run sweeps: names in sweeps/ or YAML files",
	  "tune run chase-g --platform local --quick" },
	{ "version", cmd_version, "", no_options, "print tune's version", "tune version" },
	{ NULL, NULL, NULL, NULL, NULL, NULL },
};

const struct cmd_entry tune_main_command = {
	"tune", cmd_tune, "", tune_options, "tune everything the platform lists, then print the tables",
	"tune --platform local --quick",
};
