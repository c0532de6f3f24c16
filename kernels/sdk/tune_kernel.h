/* tune_kernel.h: the kernel SDK. A kernel gives its flags, its setup and one
 * run of a list value; tk_main() does the rest of the protocol
 * (tune_protocol.h): --runs, --warmup, --seed and --cpu, checked flags with
 * clear errors and --help, the list's values interleaved and rotated run by
 * run, pinning, timing, and one JSON line per run and value. tune adds this
 * folder to every kernel's include path: `#include "tune_kernel.h"`.
 *
 *   static uint64_t size_mb = 64, queries = 100000;
 *   static struct tk_list g = TK_LIST(16);
 *   static struct tk_flag flags[] = {
 *           TK_U64_FLAG("size-mb", &size_mb, 1, 1 << 20, "the table in MiB"),
 *           TK_U64_FLAG("queries", &queries, 1, 1000000000, "probes per run"),
 *           TK_LIST_FLAG("g", &g, 1, 1024, "probes in flight"),
 *           TK_END_FLAG,
 *   };
 *   static int run(void *data, struct tk_run *r)
 *   {
 *           r->checksum = probe(data, r->value);  // the list's value: a g
 *           return 0;
 *   }
 *   int main(int argc, char **argv)
 *   {
 *           struct tk_kernel k = { .name = "mykernel", .flags = flags, .list = "g",
 *                                  .metric = "ns_per_probe", .per = &queries, .run = run };
 *           return tk_main(&k, argc, argv);
 *   }
 *
 * Header-only C11, also C++ (C++20 for the designated initialisers above),
 * Linux. The flag parser never exits, so that a fuzzer can drive it. */
#ifndef TUNE_KERNEL_H
#define TUNE_KERNEL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity, sched_getcpu: include this header first */
#endif
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune_protocol.h"

/* ---- Flags: one table drives parsing, range checks and --help. ---- */

enum tk_flag_type {
	TK_U64,         /* an unsigned integer in [min, max] */
	TK_BOOL,        /* on/off, true/false, yes/no, 1/0; dest is an int */
	TK_U64_LIST,    /* comma-separated integers, each in [min, max]; dest is a tk_list */
	TK_CHOICE,      /* one of choices; dest is an int that gets its index */
	TK_CHOICE_LIST, /* comma-separated choices; dest is a tk_list of their indices */
};

struct tk_list {
	uint64_t v[TK_LIST_MAX];
	size_t n;
};
/* A list holding one default value. */
#define TK_LIST(value) { { (value) }, 1 }

struct tk_flag {
	const char *name; /* without the leading "--" */
	int type;         /* enum tk_flag_type */
	void *dest;
	uint64_t min, max;
	const char *help;
	const char *const *choices; /* the choices' names, NULL last */
};

#define TK_U64_FLAG(name, dest, min, max, help) { name, TK_U64, dest, min, max, help, NULL }
#define TK_BOOL_FLAG(name, dest, help) { name, TK_BOOL, dest, 0, 1, help, NULL }
#define TK_LIST_FLAG(name, dest, min, max, help) { name, TK_U64_LIST, dest, min, max, help, NULL }
#define TK_CHOICE_FLAG(name, dest, choices, help) { name, TK_CHOICE, dest, 0, 0, help, choices }
#define TK_CHOICES_FLAG(name, dest, choices, help) { name, TK_CHOICE_LIST, dest, 0, 0, help, choices }
#define TK_END_FLAG { NULL, TK_U64, NULL, 0, 0, NULL, NULL }

enum { TK_FLAGS_OK = 0, TK_FLAGS_HELP = 1, TK_FLAGS_ERROR = -1 };

static inline int tk_u64(const char *s, uint64_t *out)
{
	char *end = NULL;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* One integer of flag f, checked against its range. */
static inline int tk_ranged(const struct tk_flag *f, const char *text, uint64_t *v, char *err, size_t errlen)
{
	if (tk_u64(text, v)) {
		snprintf(err, errlen, "option '--%s': '%.64s' is not a non-negative integer", f->name, text);
		return TK_FLAGS_ERROR;
	}
	if (*v < f->min || *v > f->max) {
		snprintf(err, errlen, "option '--%s': %llu is out of range [%llu, %llu]", f->name,
			 (unsigned long long)*v, (unsigned long long)f->min, (unsigned long long)f->max);
		return TK_FLAGS_ERROR;
	}
	return TK_FLAGS_OK;
}

/* The index of val among f's choices. */
static inline int tk_choice(const struct tk_flag *f, const char *val, uint64_t *index, char *err, size_t errlen)
{
	size_t used;

	for (int i = 0; f->choices[i]; i++)
		if (!strcmp(val, f->choices[i]))
			return *index = (uint64_t)i, TK_FLAGS_OK;
	snprintf(err, errlen, "option '--%s': '%.64s' is not one of", f->name, val);
	/* Appended one by one, each bounded by what is left. */
	for (int i = 0; f->choices[i] && (used = strlen(err)) + 1 < errlen; i++)
		snprintf(err + used, errlen - used, " %s", f->choices[i]);
	return TK_FLAGS_ERROR;
}

static inline int tk_flag_list(const struct tk_flag *f, const char *val, char *err, size_t errlen)
{
	struct tk_list *l = (struct tk_list *)f->dest;
	char item[32];
	const char *p = val;
	uint64_t v = 0;

	l->n = 0;
	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 0 || len >= sizeof(item)) {
			snprintf(err, errlen, "option '--%s': '%.64s' is not a comma-separated list of %s", f->name, val,
				 f->type == TK_CHOICE_LIST ? "names" : "integers");
			return TK_FLAGS_ERROR;
		}
		if (l->n == TK_LIST_MAX) {
			snprintf(err, errlen, "option '--%s': more than %d values", f->name, TK_LIST_MAX);
			return TK_FLAGS_ERROR;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		if (f->type == TK_CHOICE_LIST ? tk_choice(f, item, &v, err, errlen) != TK_FLAGS_OK
		    : tk_ranged(f, item, &v, err, errlen) != TK_FLAGS_OK)
			return TK_FLAGS_ERROR;
		l->v[l->n++] = v;
		if (!p[len])
			return TK_FLAGS_OK;
		p += len + 1;
	}
}

static inline int tk_flag_set(const struct tk_flag *f, const char *val, char *err, size_t errlen)
{
	uint64_t v = 0;

	switch (f->type) {
	case TK_U64:
		if (tk_ranged(f, val, &v, err, errlen) != TK_FLAGS_OK)
			return TK_FLAGS_ERROR;
		*(uint64_t *)f->dest = v;
		return TK_FLAGS_OK;
	case TK_BOOL:
		if (!strcmp(val, "on") || !strcmp(val, "true") || !strcmp(val, "yes") || !strcmp(val, "1"))
			*(int *)f->dest = 1;
		else if (!strcmp(val, "off") || !strcmp(val, "false") || !strcmp(val, "no") || !strcmp(val, "0"))
			*(int *)f->dest = 0;
		else {
			snprintf(err, errlen, "option '--%s': '%.64s' is not on or off", f->name, val);
			return TK_FLAGS_ERROR;
		}
		return TK_FLAGS_OK;
	case TK_CHOICE:
		if (tk_choice(f, val, &v, err, errlen) != TK_FLAGS_OK)
			return TK_FLAGS_ERROR;
		*(int *)f->dest = (int)v;
		return TK_FLAGS_OK;
	case TK_CHOICE_LIST:
	case TK_U64_LIST:
		return tk_flag_list(f, val, err, errlen);
	}
	snprintf(err, errlen, "option '--%s': its type %d is none of the SDK's", f->name, f->type);
	return TK_FLAGS_ERROR;
}

static inline const struct tk_flag *tk_flag_named(const struct tk_flag *specs, const char *name, size_t len)
{
	for (const struct tk_flag *f = specs; f->name; f++)
		if (strlen(f->name) == len && !strncmp(f->name, name, len))
			return f;
	return NULL;
}

/* Parses argv[1..argc) as "--name value" or "--name=value" against specs. */
static inline int tk_flags_parse(const struct tk_flag *specs, int argc, char **argv, char *err, size_t errlen)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL;
		const struct tk_flag *f;
		size_t nlen;

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
			return TK_FLAGS_HELP;
		if (strncmp(arg, "--", 2) != 0) {
			snprintf(err, errlen, "unexpected argument '%.64s' (options start with --; see --help)", arg);
			return TK_FLAGS_ERROR;
		}
		arg += 2;
		nlen = strcspn(arg, "=");
		if (arg[nlen] == '=')
			val = arg + nlen + 1;
		if (!(f = tk_flag_named(specs, arg, nlen))) {
			snprintf(err, errlen, "unknown option '--%.*s' (see --help)", (int)(nlen > 64 ? 64 : nlen), arg);
			return TK_FLAGS_ERROR;
		}
		if (!val) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "option '--%s' needs a value", f->name);
				return TK_FLAGS_ERROR;
			}
			val = argv[++i];
		}
		if (tk_flag_set(f, val, err, errlen) != TK_FLAGS_OK)
			return TK_FLAGS_ERROR;
	}
	return TK_FLAGS_OK;
}

static inline void tk_flags_usage(FILE *out, const char *prog, const struct tk_flag *specs)
{
	fprintf(out, "usage: %s [--option value]...\n\n", prog);
	for (const struct tk_flag *f = specs; f->name; f++) {
		const char *kind = f->type == TK_BOOL ? "on|off" : f->type == TK_U64_LIST ? "N[,N...]"
				 : f->type == TK_CHOICE ? "NAME" : f->type == TK_CHOICE_LIST ? "NAME[,...]" : "N";
		int choices = f->type == TK_CHOICE || f->type == TK_CHOICE_LIST;

		fprintf(out, "  --%-14s %-9s %s", f->name, kind, f->help);
		for (int i = 0; choices && f->choices[i]; i++)
			fprintf(out, "%s%s", i ? "|" : " [", f->choices[i]);
		if (choices)
			fputc(']', out);
		else if (f->type != TK_BOOL)
			fprintf(out, " [%llu..%llu]", (unsigned long long)f->min, (unsigned long long)f->max);
		fputc('\n', out);
	}
}

/* ---- Pinning. ---- */

/* Pins the calling thread to cpu. Returns 0, or -1 with errno set. */
static inline int tk_pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE)
		return errno = EINVAL, -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The CPU the caller runs on now, -1 when unknown. */
static inline int tk_cpu(void)
{
	return sched_getcpu();
}

/* ---- JSON lines. ---- */

struct tk_line {
	char text[4096];
	size_t used;
	int full; /* a field did not fit: the line is refused, not cut */
};

static inline void tk_line_add(struct tk_line *l, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;

static inline void tk_line_add(struct tk_line *l, const char *fmt, ...)
{
	char *at = l->text + l->used;
	size_t room = sizeof(l->text) - l->used;
	va_list ap;
	int n;

	if (l->full)
		return;
	/* Bounded by what is left; a field that does not fit marks the line full. */
	va_start(ap, fmt);
	n = vsnprintf(at, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		l->full = 1;
	else
		l->used += (size_t)n;
}

/* The key, as a JSON string and a colon, after a comma unless it is first. */
static inline void tk_key(struct tk_line *l, const char *key)
{
	tk_line_add(l, "%s\"", l->used ? "," : "");
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		tk_line_add(l, *p == '"' || *p == '\\' ? "\\%c" : *p < 0x20 ? "\\u%04x" : "%c", *p);
	tk_line_add(l, "\":");
}

static inline void tk_put_u64(struct tk_line *l, const char *key, uint64_t v)
{
	tk_key(l, key);
	tk_line_add(l, "%llu", (unsigned long long)v);
}

static inline void tk_put_i64(struct tk_line *l, const char *key, int64_t v)
{
	tk_key(l, key);
	tk_line_add(l, "%lld", (long long)v);
}

/* A real with digits decimals; null when it is not finite (JSON has no inf). */
static inline void tk_put_real(struct tk_line *l, const char *key, double v, int digits)
{
	tk_key(l, key);
	if (isfinite(v))
		tk_line_add(l, "%.*f", digits, v);
	else
		tk_line_add(l, "null");
}

static inline void tk_put_bool(struct tk_line *l, const char *key, int v)
{
	tk_key(l, key);
	tk_line_add(l, "%s", v ? "true" : "false");
}

static inline void tk_put_str(struct tk_line *l, const char *key, const char *v)
{
	tk_key(l, key);
	tk_line_add(l, "\"");
	for (const unsigned char *p = (const unsigned char *)v; *p; p++)
		tk_line_add(l, *p == '"' || *p == '\\' ? "\\%c" : *p < 0x20 ? "\\u%04x" : "%c", *p);
	tk_line_add(l, "\"");
}

static inline void tk_put_u64_array(struct tk_line *l, const char *key, const uint64_t *v, size_t n)
{
	tk_key(l, key);
	tk_line_add(l, "[");
	for (size_t i = 0; i < n; i++)
		tk_line_add(l, "%s%llu", i ? "," : "", (unsigned long long)v[i]);
	tk_line_add(l, "]");
}

/* Prints l as one line and flushes it, so that a kernel killed later loses
 * nothing it reported. Returns 0, or -1 when l overflowed. */
static inline int tk_line_print(struct tk_line *l, const char *prog)
{
	if (l->full) {
		fprintf(stderr, "%s: a JSON line is longer than %zu bytes (put fewer fields)\n", prog, sizeof(l->text));
		return -1;
	}
	printf("{%.*s}\n", (int)l->used, l->text);
	fflush(stdout);
	return 0;
}

/* ---- The protocol's loop. ---- */

struct tk_options { /* the flags every kernel takes */
	uint64_t runs, warmup, seed, cpu;
};
#define TK_NO_CPU UINT64_MAX

/* One run of one list value, as the kernel's run() gets it. */
struct tk_run {
	uint64_t value;  /* the list's value (a choice list's: the choice's index) */
	size_t index;    /* its position in the list */
	uint64_t run;    /* from 0: the warm-ups, then the measured runs */
	int warmup;
	const struct tk_options *options;
	/* Set by run(): */
	uint64_t checksum; /* the correctness field: the same for every variant */
	double metric;     /* the kernel's own metric; NAN (the default): the SDK's time */
	struct tk_line fields; /* the kernel's own fields: tk_put_*(&r->fields, ...) */
};

/* setup() returns 0 to go on to the runs, TK_DONE after printing its own
 * lines (a probe mode), or an exit code with err said. */
#define TK_DONE (-1)

struct tk_kernel {
	const char *name;       /* in messages and --help */
	const char *about;      /* a line for --help; may be NULL */
	struct tk_flag *flags;  /* its own flags, TK_END_FLAG last (not runs, warmup, seed, cpu) */
	const char *list;       /* the flag measured as a list, interleaved; NULL: none */
	const char *list_field; /* its field in the lines; NULL: the flag's name, '-' as '_' */
	const char *metric;     /* the metric's field */
	const uint64_t *per;    /* the SDK's metric is a run's ns over *per (work per run); NULL: the ns */
	const char *rate;       /* a field of *per per second, or NULL */
	const char *checksum;   /* the correctness field; NULL: "checksum" */
	int (*setup)(void *data, const struct tk_options *o, char *err, size_t errlen); /* may be NULL */
	int (*run)(void *data, struct tk_run *r); /* 0, or an exit code (after saying why on stderr) */
	void (*teardown)(void *data);            /* may be NULL */
	void *data;
};

#define TK_MAX_FLAGS 64

/* The kernel's flags and the SDK's in one table; -1 when they do not fit. */
static inline int tk_all_flags(const struct tk_kernel *k, struct tk_options *o, struct tk_flag *all)
{
	const struct tk_flag std[] = {
		TK_U64_FLAG("runs", &o->runs, 1, TK_RUNS_MAX, "measured runs of each list value"),
		TK_U64_FLAG("warmup", &o->warmup, 0, TK_WARMUP_MAX, "warm-up runs of each list value (reported, flagged)"),
		TK_U64_FLAG("seed", &o->seed, 0, UINT64_MAX, "seed of the kernel's data"),
		TK_U64_FLAG("cpu", &o->cpu, 0, CPU_SETSIZE - 1, "CPU to pin to (default: not pinned)"),
	};
	size_t n = 0;

	for (const struct tk_flag *f = k->flags; f && f->name; f++) {
		if (n + 5 >= TK_MAX_FLAGS)
			return -1;
		all[n++] = *f;
	}
	for (size_t i = 0; i < sizeof(std) / sizeof(std[0]); i++)
		all[n++] = std[i];
	all[n] = std[0];
	all[n].name = NULL;
	return 0;
}

/* Runs the kernel as the protocol says; returns main()'s exit code. */
static inline int tk_main(const struct tk_kernel *k, int argc, char **argv)
{
	struct tk_options o = { 5, 1, 42, TK_NO_CPU };
	struct tk_flag all[TK_MAX_FLAGS];
	const struct tk_flag *list = NULL;
	struct tk_list one = TK_LIST(0);
	const struct tk_list *values = &one;
	char err[512] = "", field[64];
	int rc = TK_EXIT_OK;

	if (tk_all_flags(k, &o, all) != 0 || !k->metric || !k->run) {
		fprintf(stderr, "%s: the kernel gives over %d flags, or no metric or run()\n", k->name, TK_MAX_FLAGS - 5);
		return TK_EXIT_USAGE;
	}
	if (k->list) {
		list = tk_flag_named(all, k->list, strlen(k->list));
		if (!list || (list->type != TK_U64_LIST && list->type != TK_CHOICE_LIST)) {
			fprintf(stderr, "%s: the list '%s' is none of the kernel's list flags (TK_LIST_FLAG, "
				"TK_CHOICES_FLAG)\n", k->name, k->list);
			return TK_EXIT_USAGE;
		}
		values = (const struct tk_list *)list->dest;
	}
	switch (tk_flags_parse(all, argc, argv, err, sizeof(err))) {
	case TK_FLAGS_HELP:
		tk_flags_usage(stdout, k->name, all);
		if (k->about)
			printf("\n%s\n", k->about);
		printf("\nmeasured by tune: tune kernel protocol %d (tune help protocol)\n", TK_PROTOCOL_VERSION);
		return TK_EXIT_OK;
	case TK_FLAGS_ERROR:
		fprintf(stderr, "%s: %s\n", k->name, err);
		return TK_EXIT_USAGE;
	}
	if (!values->n) {
		fprintf(stderr, "%s: option '--%s' gives no value\n", k->name, k->list);
		return TK_EXIT_USAGE;
	}
	snprintf(field, sizeof(field), "%s", k->list_field ? k->list_field : k->list ? k->list : "");
	for (char *p = field; *p; p++)
		*p = *p == '-' ? '_' : *p;
	if (o.cpu != TK_NO_CPU && tk_pin((int)o.cpu) != 0) {
		fprintf(stderr, "%s: cannot pin to CPU %llu: %s (pick one from the allowed set)\n", k->name,
			(unsigned long long)o.cpu, strerror(errno));
		return TK_EXIT_CANNOT;
	}
	if (k->setup && (rc = k->setup(k->data, &o, err, sizeof(err))) != 0) {
		if (rc != TK_DONE)
			fprintf(stderr, "%s: %s\n", k->name, err[0] ? err : "setup failed");
		rc = rc == TK_DONE ? TK_EXIT_OK : rc;
		goto out;
	}
	for (uint64_t r = 0; r < o.warmup + o.runs && !rc; r++)
		for (size_t i = 0; i < values->n && !rc; i++) {
			struct tk_run run;
			struct tk_line line;
			size_t at = (i + r) % values->n; /* rotated: no value always runs first */
			uint64_t t0, ns;

			memset(&run, 0, sizeof(run));
			memset(&line, 0, sizeof(line));
			run.value = values->v[at];
			run.index = at;
			run.warmup = r < o.warmup;
			run.run = run.warmup ? r : r - o.warmup;
			run.options = &o;
			run.metric = NAN;
			t0 = tk_now_ns();
			rc = k->run(k->data, &run);
			ns = tk_now_ns() - t0;
			if (rc)
				break;
			if (list && list->type == TK_CHOICE_LIST)
				tk_put_str(&line, field, list->choices[run.value]);
			else if (list)
				tk_put_u64(&line, field, run.value);
			tk_put_u64(&line, TK_FIELD_RUN, run.run);
			tk_put_bool(&line, TK_FIELD_WARMUP, run.warmup);
			tk_put_real(&line, k->metric, isnan(run.metric) ? (double)ns / (double)(k->per ? *k->per : 1)
				    : run.metric, 4);
			if (strcmp(k->metric, "ns_total") != 0)
				tk_put_u64(&line, "ns_total", ns);
			if (k->rate)
				tk_put_real(&line, k->rate, (double)(k->per ? *k->per : 1) * 1e9 / (double)(ns ? ns : 1), 1);
			tk_put_u64(&line, k->checksum ? k->checksum : "checksum", run.checksum);
			tk_put_i64(&line, TK_FIELD_CPU, tk_cpu());
			if (run.fields.full)
				line.full = 1;
			else if (run.fields.used)
				tk_line_add(&line, ",%.*s", (int)run.fields.used, run.fields.text);
			if (tk_line_print(&line, k->name) != 0)
				rc = TK_EXIT_CANNOT;
		}
out:
	if (k->teardown)
		k->teardown(k->data);
	return rc;
}

#endif
