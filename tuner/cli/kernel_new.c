/* tune kernel new NAME: a kernel folder that tune tunes at once, made from
 * the templates in kernels/sdk/new/ (a manifest, a main on the kernel SDK
 * with a placeholder loop, a sweep), with NAME in place of @name@. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../store/store.h"
#include "../base/strbuf.h"
#include "../config/config.h"
#include "cli.h"

#define NEW_NAME_MAX 32

static const char *const templates[] = { "kernel.yaml", "main.c", "sweep.yaml", NULL };

/* A kernel's name is a C identifier in lower case: it names its views
 * (NAME_results), its header macros (TUNED_NAME_...) and its folder. */
static int name_ok(const char *name, struct tune_error *err)
{
	size_t len = strlen(name);
	const char *reserved = store_kernel_name_reserved(name);

	if (!len || len > NEW_NAME_MAX || name[0] < 'a' || name[0] > 'z' ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != len)
		return tune_fail(err, TUNE_ERR_USAGE, "kernel new: '%.64s' is not a kernel name: 1 to %d lower-case "
				 "letters, digits or '_', starting with a letter (it names the kernel's views and header "
				 "macros)", name, NEW_NAME_MAX);
	if (reserved)
		return tune_fail(err, TUNE_ERR_USAGE, "kernel new: '%s' is reserved: its views would be named like "
				 "tune's own %s (pick another name)", name, reserved);
	return 0;
}

/* The template's text with every @name@ replaced by name. */
static char *filled(const char *text, const char *name)
{
	struct strbuf out = STRBUF_INIT;
	const char *at;

	while ((at = strstr(text, "@name@"))) {
		strbuf_addf(&out, "%.*s%s", (int)(at - text), text, name);
		text = at + strlen("@name@");
	}
	strbuf_add(&out, text);
	return strbuf_detach(&out);
}

/* Writes text to path, which must not exist. */
static int write_new(const char *path, const char *text, struct tune_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	size_t len = strlen(text);

	if (fd < 0)
		return tune_fail(err, TUNE_ERR_SYSTEM, "kernel new: cannot create '%s': %s", path, strerror(errno));
	if (write(fd, text, len) != (ssize_t)len) {
		int e = errno;

		close(fd);
		return tune_fail(err, TUNE_ERR_SYSTEM, "kernel new: cannot write '%s': %s", path, strerror(e));
	}
	return close(fd) == 0 ? 0 : tune_fail(err, TUNE_ERR_SYSTEM, "kernel new: cannot write '%s': %s", path,
					      strerror(errno));
}

int kernel_new(const char *name, const char *dir, struct tune_error *err)
{
	char folder[4096], from[4200], to[4200];
	struct kernel_manifest m;
	struct tune_error lerr;
	int rc;

	if ((rc = name_ok(name, err)) != 0)
		return rc;
	if (manifest_load(name, &m, &lerr) == 0) {
		rc = tune_fail(err, TUNE_ERR_USAGE, "kernel new: a kernel named '%s' exists already (%s): pick another "
			       "name", name, m.path);
		manifest_free(&m);
		return rc;
	}
	manifest_free(&m);
	snprintf(folder, sizeof(folder), "%s/%s", dir, name);
	if (paths_mkdirs(dir) != 0 || mkdir(folder, 0755) != 0)
		return tune_fail(err, errno == EEXIST ? TUNE_ERR_USAGE : TUNE_ERR_SYSTEM, "kernel new: cannot create the "
				 "folder '%s': %s%s", folder, strerror(errno), errno == EEXIST ? " (kernel new never "
				 "writes into a folder that exists: pick another name or --dir)" : "");
	for (size_t i = 0; templates[i]; i++) {
		char *text, *out;

		snprintf(from, sizeof(from), "%s/kernels/sdk/new/%s", paths_home(), templates[i]);
		snprintf(to, sizeof(to), "%s/%s", folder, templates[i]);
		if (!(text = paths_read_file(from, 1 << 20)))
			return tune_fail(err, TUNE_ERR_SYSTEM, "kernel new: cannot read the template '%s': %s (set "
					 "TUNE_HOME to tune's source tree)", from, strerror(errno));
		out = filled(text, name);
		free(text);
		if (!out)
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		rc = write_new(to, out, err);
		free(out);
		if (rc)
			return rc;
	}
	printf("wrote %s/: kernel.yaml (its manifest), main.c (its benchmark, on the kernel SDK) and sweep.yaml\n\n"
	       "next:\n"
	       "  edit %s/main.c: run() holds the placeholder loop to replace (tune help protocol)\n"
	       "  tune kernel check %s --kernels-dir %s\n"
	       "  tune run %s/sweep.yaml --kernels-dir %s --platform local\n",
	       folder, folder, name, dir, folder, dir);
	return 0;
}
