/* paths: where tune finds its kernels, platforms and sweeps, and where it
 * keeps its build cache. Each can be overridden from the environment. */
#ifndef TUNER_PATHS_H
#define TUNER_PATHS_H

#include <stddef.h>

/* TUNE_HOME, else the source tree tune was built from. Borrowed string. */
const char *paths_home(void);

/* Resolves a platform or sweep given as a name ("epyc") or a path
 * ("sweeps/chase-g.yaml"): a path is taken as it is; a name is looked up as
 * ./<dir>/<name>.yaml, then <home>/<dir>/<name>.yaml. Returns 0 and the path
 * in out, or -1 when no file exists (out then holds the last candidate). */
int paths_find(const char *dir, const char *name, char *out, size_t len);

/* Names of the YAML files in <home>/<dir>, comma-separated, for messages. */
void paths_list(const char *dir, char *out, size_t len);

/* Where the kernels' folders are looked for, in this order: the folders
 * added by paths_add_kernels_dir() (--kernels-dir, a platform's
 * kernels_dir), those of TUNE_KERNELS_DIR (separated by ':'), then
 * <home>/kernels, the shipped ones. The first folder holding a kernel wins.
 * Returns how many, at most max, into dirs (borrowed strings). */
#define PATHS_MAX_KERNEL_DIRS 16
size_t paths_kernels_dirs(const char **dirs, size_t max);
/* Adds a folder to look in before TUNE_KERNELS_DIR's and the shipped one:
 * 0, PATHS_NOT_A_FOLDER, or PATHS_TOO_MANY when PATHS_MAX_KERNEL_DIRS are
 * already added (or out of memory). */
#define PATHS_NOT_A_FOLDER (-1)
#define PATHS_TOO_MANY (-2)
int paths_add_kernels_dir(const char *dir);

/* TUNE_CACHE_DIR, else $XDG_CACHE_HOME/tune, else $HOME/.cache/tune. */
void paths_cache_dir(char *out, size_t len);

/* The whole file, NUL-terminated (free() it), when it holds at most max
 * bytes; NULL with errno set otherwise (EFBIG: larger than max). */
char *paths_read_file(const char *path, size_t max);
/* The same, but a symbolic link is refused (errno ELOOP): for files in a
 * directory others can write to. */
char *paths_read_file_nofollow(const char *path, size_t max);

/* mkdir -p; returns 0 or -1 with errno set. */
int paths_mkdirs(const char *path);

#endif
