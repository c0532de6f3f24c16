#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <hwloc.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <dirent.h>
#include <unistd.h>

#include "../base/hash.h"
#include "../base/names.h"
#include "config.h"

static void read_line(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");

	snprintf(out, len, "unknown");
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	else
		snprintf(out, len, "unknown");
	fclose(f);
}

/* "always [madvise] never" -> "madvise" */
static void read_choice(const char *path, char *out, size_t len)
{
	char line[256], *open_b, *close_b;

	read_line(path, line, sizeof(line));
	open_b = strchr(line, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (open_b && close_b) {
		*close_b = '\0';
		snprintf(out, len, "%s", open_b + 1);
	} else {
		snprintf(out, len, "%s", line);
	}
}

static void read_cpuinfo(struct host_facts *f)
{
	FILE *in = fopen("/proc/cpuinfo", "r");
	char line[512];

	if (!in)
		return;
	while (fgets(line, sizeof(line), in)) {
		char *colon = strchr(line, ':');
		char *val;

		if (!colon)
			continue;
		val = colon + 1;
		while (*val == ' ')
			val++;
		val[strcspn(val, "\n")] = '\0';
		if (!strncmp(line, "model name", 10) && !strcmp(f->cpu_model, "unknown"))
			snprintf(f->cpu_model, sizeof(f->cpu_model), "%s", val);
		else if (!strncmp(line, "microcode", 9) && !strcmp(f->microcode, "unknown"))
			snprintf(f->microcode, sizeof(f->microcode), "%s", val);
		else if (!strncmp(line, "CPU part", 8) && !strcmp(f->cpu_model, "unknown"))
			snprintf(f->cpu_model, sizeof(f->cpu_model), "arm part %s", val);
	}
	fclose(in);
}

void hostinfo_machine(char *out, size_t len)
{
	if (gethostname(out, len - 1) != 0)
		snprintf(out, len, "localhost");
	out[len - 1] = '\0';
}

int hostinfo_read(struct host_facts *f, struct tune_error *err)
{
	hwloc_topology_t topo;
	struct utsname u;
	double load[1];
	int depth;

	memset(f, 0, sizeof(*f));
	snprintf(f->cpu_model, sizeof(f->cpu_model), "unknown");
	snprintf(f->microcode, sizeof(f->microcode), "unknown");
	hostinfo_machine(f->hostname, sizeof(f->hostname));
	{
		char why[200];

		if (names_check(f->hostname, why, sizeof(why)) != 0)
			return tune_fail(err, TUNE_ERR_SYSTEM, "this host's name is not a name tune can record: %s (a name "
					 "is %s; set one with hostname, or give an agent --name)", why, NAMES_RULE);
	}
	if (uname(&u) == 0) {
		snprintf(f->arch, sizeof(f->arch), "%s", u.machine);
		snprintf(f->kernel, sizeof(f->kernel), "%s", u.release);
	}
	read_cpuinfo(f);
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", f->governor, sizeof(f->governor));
	read_choice("/sys/kernel/mm/transparent_hugepage/enabled", f->thp, sizeof(f->thp));
	if (getloadavg(load, 1) == 1)
		f->loadavg1 = load[0];

	if (hwloc_topology_init(&topo) != 0 || hwloc_topology_load(topo) != 0)
		return tune_fail(err, TUNE_ERR_SYSTEM, "cannot read this machine's topology with hwloc");
	f->cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
	f->pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
	if (f->cores <= 0)
		f->cores = f->pus;
	f->smt = f->cores > 0 && f->pus > f->cores;
	for (depth = 0; depth < hwloc_topology_get_depth(topo); depth++) {
		hwloc_obj_t o = hwloc_get_obj_by_depth(topo, depth, 0);

		if (o && hwloc_obj_type_is_cache(o->type) && o->attr &&
		    (long long)o->attr->cache.size > f->llc_bytes)
			f->llc_bytes = (long long)o->attr->cache.size;
	}
	{
		hwloc_obj_t l1 = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L1CACHE, 0);
		hwloc_obj_t l2 = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L2CACHE, 0);

		f->l1d_bytes = l1 && l1->attr ? (long long)l1->attr->cache.size : 0;
		f->l2_bytes = l2 && l2->attr ? (long long)l2->attr->cache.size : 0;
	}
	{
		hwloc_obj_t root = hwloc_get_root_obj(topo);

		long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

		/* hwloc counts NUMA-node memory, which a VM may report short. */
		f->memory_bytes = (long long)root->total_memory;
		if (pages > 0 && page > 0 && (long long)pages * page > f->memory_bytes)
			f->memory_bytes = (long long)pages * page;
	}
	{
		hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)(f->cores - 1));
		hwloc_obj_t pu = core ? hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, 0)
				      : hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)(f->pus - 1));

		f->last_core_pu = pu ? (int)pu->os_index : 0;
	}
	hwloc_topology_destroy(topo);
	return 0;
}

char *hostinfo_json(const struct host_facts *f)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:i, s:b, s:I, s:I, s:I, s:I, s:f, s:i}",
			      "hostname", f->hostname, "arch", f->arch, "cpu_model", f->cpu_model,
			      "microcode", f->microcode, "kernel", f->kernel, "governor", f->governor,
			      "thp", f->thp, "cores", f->cores, "pus", f->pus, "smt", f->smt,
			      "l1d_bytes", (json_int_t)f->l1d_bytes, "l2_bytes", (json_int_t)f->l2_bytes,
			      "llc_bytes", (json_int_t)f->llc_bytes, "memory_bytes", (json_int_t)f->memory_bytes,
			      "loadavg1", f->loadavg1, "last_core_pu", f->last_core_pu);
	char *s = o ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

	json_decref(o);
	return s;
}

static void copy_str(const json_t *o, const char *key, char *out, size_t len)
{
	const char *v = json_string_value(json_object_get(o, key));

	snprintf(out, len, "%s", v ? v : "");
}

int hostinfo_from_json(const json_t *o, struct host_facts *f, char *why, size_t len)
{
	const char *texts[] = { f->arch, f->cpu_model, f->microcode, f->kernel, f->governor, f->thp };
	char name_why[200];

	memset(f, 0, sizeof(*f));
	if (!json_is_object(o)) {
		snprintf(why, len, "the facts are not a JSON object");
		return -1;
	}
	copy_str(o, "hostname", f->hostname, sizeof(f->hostname));
	copy_str(o, "arch", f->arch, sizeof(f->arch));
	copy_str(o, "cpu_model", f->cpu_model, sizeof(f->cpu_model));
	copy_str(o, "microcode", f->microcode, sizeof(f->microcode));
	copy_str(o, "kernel", f->kernel, sizeof(f->kernel));
	copy_str(o, "governor", f->governor, sizeof(f->governor));
	copy_str(o, "thp", f->thp, sizeof(f->thp));
	f->cores = (int)json_integer_value(json_object_get(o, "cores"));
	f->pus = (int)json_integer_value(json_object_get(o, "pus"));
	f->smt = json_is_true(json_object_get(o, "smt"));
	f->llc_bytes = (long long)json_integer_value(json_object_get(o, "llc_bytes"));
	f->l1d_bytes = (long long)json_integer_value(json_object_get(o, "l1d_bytes"));
	f->l2_bytes = (long long)json_integer_value(json_object_get(o, "l2_bytes"));
	f->memory_bytes = (long long)json_integer_value(json_object_get(o, "memory_bytes"));
	f->loadavg1 = json_number_value(json_object_get(o, "loadavg1"));
	f->last_core_pu = (int)json_integer_value(json_object_get(o, "last_core_pu"));
	if (!f->hostname[0] || !f->arch[0] || f->pus <= 0) {
		snprintf(why, len, "the facts lack the host name, the architecture or the CPU count");
		return -1;
	}
	/* The host name becomes a row, a file name, a C string: it must be a name. */
	if (names_check(f->hostname, name_why, sizeof(name_why)) != 0) {
		snprintf(why, len, "its host name is not a name: %s (a name is %s)", name_why, NAMES_RULE);
		return -1;
	}
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (!names_printable(texts[i])) {
			snprintf(why, len, "a text field of its facts holds a control character");
			return -1;
		}
	return 0;
}

#define PF_KTHREAD 0x00200000u /* include/linux/sched.h: a kernel thread */

int hostinfo_stat_busy(char *line, int cpu, char *who, size_t len)
{
	char *close_p = strrchr(line, ')'), *open_p = strchr(line, '('), *tok, *save = NULL;
	unsigned long flags = 0;
	int field = 0, on = -1;
	char state = 0;

	/* pid (comm) state ...: fields counted after the last ')', as comm may hold one. */
	if (!close_p || !open_p || open_p > close_p)
		return 0;
	/* strtok_r: the host threads of a multi-host run call this at once. */
	for (tok = strtok_r(close_p + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		field++;
		if (field == 1)
			state = tok[0];
		if (field == 7)
			flags = strtoul(tok, NULL, 10);
		if (field == 37) {
			on = (int)strtol(tok, NULL, 10);
			break;
		}
	}
	if (state != 'R' || on != cpu || (flags & PF_KTHREAD))
		return 0;
	if (who && len)
		snprintf(who, len, "%.*s (pid %ld)", (int)(close_p - open_p - 1), open_p + 1, strtol(line, NULL, 10));
	return 1;
}

int hostinfo_busy_cpu(int cpu, char *who, size_t len)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int busy = 0;

	if (who && len)
		who[0] = '\0';
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char path[300], line[1024], *end = NULL;
		long pid = strtol(e->d_name, &end, 10);
		FILE *f;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' || *end || pid == (long)getpid())
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (!fgets(line, sizeof(line), f)) {
			fclose(f);
			continue;
		}
		fclose(f);
		if (hostinfo_stat_busy(line, cpu, busy ? NULL : who, len))
			busy++;
	}
	closedir(d);
	return busy;
}

void hostinfo_fingerprint(const struct host_facts *f, const char *extra, char out[17])
{
	char smt[16];
	const char *parts[] = { f->cpu_model, f->microcode, f->kernel, f->governor, smt, f->thp, extra };
	uint64_t h = HASH_INIT;

	/* Part by part, so that no length of extra (the compiler flags) is cut. */
	snprintf(smt, sizeof(smt), "%d", f->smt);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		h = hash_str(h, i ? "|" : ""), h = hash_str(h, parts[i]);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}
