/* tune kernel new NAME [--dir DIR] | check NAME [--kernels-dir DIR]: a new
 * kernel folder on the kernel SDK (kernel_new.c), or a kernel held to the
 * protocol on tiny parameters (kernel_check.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../config/config.h"
#include "cli.h"

#define CHECK_TIMEOUT_S 60.0

static int check(const char *name, const struct cmd_options *o, struct tune_error *err)
{
	struct host_facts facts;
	struct platform p;
	struct kernel_manifest m;
	double timeout_s = CHECK_TIMEOUT_S;
	int rc;

	if (o->timeout) {
		char *end;

		errno = 0;
		timeout_s = strtod(o->timeout, &end);
		if (errno || end == o->timeout || *end || !(timeout_s >= 1 && timeout_s <= 86400))
			return tune_fail(err, TUNE_ERR_USAGE, "kernel: option '--timeout': '%s' is not a number of "
					 "seconds in 1..86400", o->timeout);
	}
	memset(&p, 0, sizeof(p));
	if ((rc = manifest_load(name, &m, err)) != 0) {
		manifest_free(&m);
		return rc;
	}
	if ((rc = hostinfo_read(&facts, err)) == 0 &&
	    (rc = platform_load(o->nplatforms ? o->platforms[0] : "local", &p, err)) == 0 &&
	    (rc = platform_resolve(&p, &facts, err)) == 0)
		rc = kernel_check(&m, &p, timeout_s, err);
	platform_free(&p);
	manifest_free(&m);
	return rc;
}

int cmd_kernel(int argc, char **argv, struct tune_error *err)
{
	struct cmd_options o;
	int rc;

	if ((rc = cmd_parse_options("kernel", argc, argv, &o, err)) != 0)
		return rc;
	if (o.nargs != 2 || (strcmp(o.args[0], "new") != 0 && strcmp(o.args[0], "check") != 0))
		return tune_fail(err, TUNE_ERR_USAGE, "kernel: %s (tune kernel new NAME [--dir DIR], or tune kernel "
				 "check NAME [--kernels-dir DIR])", !o.nargs ? "new or check?" : o.nargs == 1 &&
				 (!strcmp(o.args[0], "new") || !strcmp(o.args[0], "check")) ? "which kernel? give its name" :
				 "takes new or check, then a kernel's name");
	if (!strcmp(o.args[0], "new")) {
		if (o.timeout || o.nplatforms)
			return tune_fail(err, TUNE_ERR_USAGE, "kernel new: --%s applies to kernel check",
					 o.timeout ? "timeout" : "platform");
		return kernel_new(o.args[1], o.dir ? o.dir : ".", err);
	}
	if (o.dir)
		return tune_fail(err, TUNE_ERR_USAGE, "kernel check: --dir applies to kernel new (give the folder "
				 "holding the kernel with --kernels-dir)");
	return check(o.args[1], &o, err);
}
