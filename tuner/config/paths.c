#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/strbuf.h"
#include "config.h"

#ifndef TUNE_SOURCE_DIR
#define TUNE_SOURCE_DIR "."
#endif

const char *paths_home(void)
{
	const char *h = getenv("TUNE_HOME");

	return h && *h ? h : TUNE_SOURCE_DIR;
}

static int exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int paths_is_file(const char *name)
{
	size_t n = strlen(name);

	return strchr(name, '/') || (n > 5 && !strcmp(name + n - 5, ".yaml"));
}

int paths_find(const char *dir, const char *name, char *out, size_t len)
{
	if (paths_is_file(name)) {
		snprintf(out, len, "%s", name);
		return exists(out) ? 0 : -1;
	}
	snprintf(out, len, "%s/%s.yaml", dir, name);
	if (exists(out))
		return 0;
	snprintf(out, len, "%s/%s/%s.yaml", paths_home(), dir, name);
	return exists(out) ? 0 : -1;
}

static int is_yaml(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 5 && !strcmp(e->d_name + n - 5, ".yaml");
}

int paths_names(const char *dir, char ***out)
{
	char path[4096];
	struct dirent **names = NULL;
	int n, k = 0;

	*out = NULL;
	snprintf(path, sizeof(path), "%s/%s", paths_home(), dir);
	n = scandir(path, &names, is_yaml, alphasort);
	if (n > 0 && !(*out = calloc((size_t)n, sizeof(**out))))
		n = 0;
	for (int i = 0; i < n; i++) {
		if (((*out)[k] = strndup(names[i]->d_name, strlen(names[i]->d_name) - 5)) != NULL)
			k++;
		free(names[i]);
	}
	free(names);
	return k;
}

void paths_list(const char *dir, char *out, size_t len)
{
	char **names;
	int n = paths_names(dir, &names);
	size_t used = 0;

	out[0] = '\0';
	for (int i = 0; i < n; i++) {
		str_appendf(out, len, &used, "%s%s", used ? ", " : "", names[i]);
		free(names[i]);
	}
	free(names);
}

/* The process's kernel search path: what the command line and the platform
 * add, like an environment variable, read by every stage that finds a kernel. */
static char *added_dirs[PATHS_MAX_KERNEL_DIRS];
static size_t nadded;

int paths_add_kernels_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return PATHS_NOT_A_FOLDER;
	for (size_t i = 0; i < nadded; i++)
		if (!strcmp(added_dirs[i], dir))
			return 0;
	if (nadded == PATHS_MAX_KERNEL_DIRS || !(added_dirs[nadded] = strdup(dir)))
		return PATHS_TOO_MANY;
	nadded++;
	return 0;
}

size_t paths_kernels_dirs(const char **dirs, size_t max)
{
	static char env[4096], shipped[4096];
	const char *v = getenv("TUNE_KERNELS_DIR");
	size_t n = 0;

	for (size_t i = 0; i < nadded && n < max; i++)
		dirs[n++] = added_dirs[i];
	snprintf(env, sizeof(env), "%s", v ? v : "");
	for (char *p = env; *p && n < max;) {
		char *end = p + strcspn(p, ":");
		int last = *end == '\0';

		*end = '\0';
		if (*p)
			dirs[n++] = p;
		p = last ? end : end + 1;
	}
	snprintf(shipped, sizeof(shipped), "%s/kernels", paths_home());
	if (n < max)
		dirs[n++] = shipped;
	return n;
}

void paths_cache_dir(char *out, size_t len)
{
	const char *v;

	if ((v = getenv("TUNE_CACHE_DIR")) && *v)
		snprintf(out, len, "%s", v);
	else if ((v = getenv("XDG_CACHE_HOME")) && *v)
		snprintf(out, len, "%s/tune", v);
	else if ((v = getenv("HOME")) && *v)
		snprintf(out, len, "%s/.cache/tune", v);
	else
		snprintf(out, len, ".tune-cache");
}

int paths_mkdirs(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0755) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* 0 when fd is a regular file, ENXIO when it is not, else fstat's errno. */
static int not_regular(int fd)
{
	struct stat st;

	if (fstat(fd, &st) != 0)
		return errno;
	return S_ISREG(st.st_mode) ? 0 : ENXIO;
}

FILE *paths_fopen_regular(const char *path, int flags)
{
	/* O_NONBLOCK: opening a FIFO with no writer returns at once. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | flags);
	FILE *f;
	int e;

	if (fd < 0)
		return NULL;
	/* O_NONBLOCK stays: it changes nothing for a regular file. */
	if (!(e = not_regular(fd)) && (f = fdopen(fd, "rb")) != NULL)
		return f;
	if (!e)
		e = errno;
	close(fd);
	errno = e;
	return NULL;
}

const char *paths_strerror(int e)
{
	return e == ENXIO ? "not a regular file (a FIFO, a device or a directory)" : strerror(e);
}

static char *read_file(const char *path, size_t max, int flags)
{
	FILE *f = paths_fopen_regular(path, flags);
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
		errno = errno ? errno : EIO;
	else if ((size_t)len > max)
		errno = EFBIG;
	else if ((buf = malloc((size_t)len + 1)) != NULL)
		buf[fread(buf, 1, (size_t)len, f)] = '\0';
	fclose(f);
	return buf;
}

char *paths_read_file(const char *path, size_t max)
{
	return read_file(path, max, 0);
}

char *paths_read_file_nofollow(const char *path, size_t max)
{
	return read_file(path, max, O_NOFOLLOW);
}
