/* hostinfo: facts about the machine tune runs on (hwloc topology, /proc and
 * /sys), recorded with every sweep so that results can be told apart. */
#ifndef TUNER_HOSTINFO_H
#define TUNER_HOSTINFO_H

#include "../base/errors.h"

struct host_facts {
	char hostname[256];
	char arch[32];       /* uname machine: x86_64, aarch64 */
	char cpu_model[256];
	char microcode[64];
	char kernel[256];    /* uname release */
	char governor[64];   /* cpufreq governor of CPU 0, or "unknown" */
	char thp[64];        /* transparent_hugepage/enabled, the bracketed choice */
	int cores, pus;
	int smt;             /* PUs per core > 1 */
	long long llc_bytes; /* largest cache seen */
	long long memory_bytes;
	double loadavg1;
	int last_core_pu;    /* a PU of the last core: the default CPU to pin to */
};

/* Fills facts; fields it cannot read say "unknown" or 0. Returns 0, or
 * TUNE_ERR_SYSTEM when the topology cannot be read at all. */
int hostinfo_read(struct host_facts *facts, struct tune_error *err);

/* The name of the machine tune runs on (gethostname; "localhost" when it
 * has none): what marks a lease or a temporary file as this machine's. */
void hostinfo_machine(char *out, size_t len);

/* How many other processes are running (state R) on cpu now; the first one's
 * name goes to who. */
int hostinfo_busy_cpu(int cpu, char *who, size_t len);

/* A fingerprint of what makes measurements comparable: CPU model and
 * microcode, kernel, governor, SMT, THP, plus extra (compiler, flags,
 * kernel sources). 16 hex digits in out. */
void hostinfo_fingerprint(const struct host_facts *facts, const char *extra, char out[17]);

/* A JSON object of the facts; the caller frees it with free(). */
char *hostinfo_json(const struct host_facts *facts);
/* The facts back from such an object (a remote host's); returns 0, or -1
 * with what is wrong in why when it is not one: a field missing, a host name
 * that is not a name (names.h), a control character in a text field. */
struct json_t;
int hostinfo_from_json(const struct json_t *o, struct host_facts *facts, char *why, size_t len);

#endif
