/* tune run SWEEP --platform P: one sweep; also the engine of `tune --platform`. */
#include <stdio.h>
#include <string.h>

#include "cmd_options.h"
#include "commands.h"
#include "exec.h"
#include "signals.h"

int cmd_run_sweeps(const char *platform, char *const *sweeps, size_t nsweeps, const struct cmd_options *o,
		   struct tune_error *err)
{
	struct exec_options eo = { o->quick, o->fresh, signals_install() };
	struct store *st = NULL;
	struct host_facts facts;
	struct platform p;
	struct exec_context ctx;
	struct tune_error serr;
	int rc, failed = 0;

	memset(&p, 0, sizeof(p));
	if ((rc = store_open(o->db, &st, err)) != 0)
		goto out;
	if ((rc = exec_context_open(&ctx, st, &facts, &p, platform, err)) != 0)
		goto out;
	if (!nsweeps) {
		sweeps = p.sweeps.v;
		nsweeps = p.sweeps.n;
	}
	if (!nsweeps) {
		rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: platform '%s' lists no sweeps (add 'sweeps: [chase-sizes, "
			       "chase-g]', or name one: tune run SWEEP --platform %s)", p.path, p.name, p.name);
		goto out;
	}
	for (size_t i = 0; i < nsweeps; i++) {
		struct exec_summary sum;

		rc = exec_sweep(&ctx, sweeps[i], &eo, &sum, &serr);
		if (rc == TUNE_ERR_TRIALS) {
			/* Later sweeps still run; the exit code says some trials failed. */
			fprintf(stderr, "tune: %s\n", serr.msg);
			failed = 1;
			rc = 0;
			continue;
		}
		if (rc) {
			*err = serr;
			goto out;
		}
	}
	if (failed)
		rc = tune_fail(err, TUNE_ERR_TRIALS, "some trials failed on platform '%s' (their reasons are above)",
			       p.name);
out:
	platform_free(&p);
	store_close(st);
	return rc;
}

int cmd_run(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	int rc;

	if ((rc = cmd_parse_options("run", argc, argv, "dpqf", &o, err)) != 0)
		return rc;
	if (o.nargs < 1)
		return tune_fail(err, TUNE_ERR_USAGE, "run: which sweep? (tune run SWEEP --platform P; sweeps are "
				 "in sweeps/, e.g. chase-g)");
	if (o.nplatforms > 1)
		return tune_fail(err, TUNE_ERR_USAGE, "run: one --platform at a time");
	return cmd_run_sweeps(o.nplatforms ? o.platforms[0] : "local", o.args, (size_t)o.nargs, &o, err);
}
