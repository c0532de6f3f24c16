/* tune hosts [--platform P ...]: the hosts of the platforms (all in
 * platforms/ when none is given), whether they answer and can run the
 * platform ("no" with why: another architecture, CPUs it does not have),
 * and their facts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../build/build.h"
#include "../config/config.h"
#include "../run/run.h"
#include "cli.h"

static void show(const char *platform, const char *host, const char *state, const struct host_facts *f,
		 const char *fingerprint, const char *detail)
{
	if (f)
		printf("%-12s %-28s %-5s %-16s %-7s %3d PUs %6lld MB LLC %5lld MB  %s  %s\n", platform, host, state,
		       f->hostname, f->arch, f->pus, f->llc_bytes >> 20, f->memory_bytes >> 20, fingerprint, f->cpu_model);
	else
		printf("%-12s %-28s %-5s %s\n", platform, host, state, detail);
}

int cmd_hosts(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	char **found = NULL;
	const char *const *names;
	size_t n;
	int nfound = 0, rc, down = 0;

	if ((rc = cmd_parse_options("hosts", argc, argv, &o, err)) != 0)
		return rc;
	/* Every platform file there is, when none is named. */
	if (!o.nplatforms)
		nfound = paths_names("platforms", &found);
	names = o.nplatforms ? o.platforms : (const char *const *)found;
	n = o.nplatforms ? o.nplatforms : (size_t)nfound;
	printf("%-12s %-28s %-5s %s\n", "PLATFORM", "HOST", "STATE", "FACTS");
	for (size_t i = 0; i < n; i++) {
		struct platform p;
		static char *const local_only[] = { "local" };
		char *const *hosts;
		size_t nh;

		memset(&p, 0, sizeof(p));
		if ((rc = platform_load(names[i], &p, err)) != 0) {
			platform_free(&p);
			goto out;
		}
		if (p.executor == EXECUTOR_SLURM) {
			struct slurm_client sc;
			struct tune_error herr;
			char nodes[256][256];
			size_t nn = 0;

			if (slurm_client_open(&sc, &p.slurm, p.require_tls || o.require_tls, &herr) != 0 ||
			    slurm_client_nodes(&sc, &p.slurm, nodes, 256, &nn, &herr) != 0) {
				show(p.name, p.slurm.url, "down", NULL, NULL, herr.msg);
				down++;
			}
			for (size_t k = 0; k < nn; k++)
				show(p.name, nodes[k], "up", NULL, NULL, "a node of Slurm partition (its facts come with its first sweep)");
			platform_free(&p);
			continue;
		}
		hosts = p.hosts.n ? p.hosts.v : local_only;
		nh = p.hosts.n ? p.hosts.n : 1;
		for (size_t h = 0; h < nh; h++) {
			struct tune_error herr;

			if (!strcmp(hosts[h], "local")) {
				struct host_facts f;
				char fp[17] = "-";

				if (hostinfo_read(&f, &herr) != 0) {
					show(p.name, "local", "error", NULL, NULL, herr.msg);
					continue;
				}
				/* Up, but this host cannot run the platform (its architecture, its CPUs): said. */
				if (platform_resolve(&p, &f, &herr) != 0) {
					show(p.name, "local", "no", NULL, NULL, herr.msg);
					continue;
				}
				build_fingerprint(&p, &f, fp, &herr);
				show(p.name, "local", "up", &f, fp, "");
			} else {
				struct agent_client c;

				if (agent_client_open(&c, hosts[h], p.token_file, p.ca_file, p.require_tls || o.require_tls,
						      &herr) != 0) {
					show(p.name, hosts[h], "down", NULL, NULL, herr.msg);
					down++;
				} else {
					show(p.name, hosts[h], "up", &c.facts, c.fingerprint, "");
				}
			}
		}
		platform_free(&p);
	}
	rc = down ? tune_fail(err, TUNE_ERR_HOST, "%d host%s did not answer", down, down == 1 ? "" : "s") : 0;
out:
	for (int i = 0; i < nfound; i++)
		free(found[i]);
	free(found);
	return rc;
}
