/* Kernel command-line flags as data: one table drives parsing, range checks
 * and --help. Header-only so that every kernel binary stays self-contained.
 *
 * flags_parse() never exits: it returns FLAGS_OK, FLAGS_HELP or FLAGS_ERROR
 * with a message in err, so that the same code serves main() and a fuzzer. */
#ifndef KERNELS_COMMON_FLAGS_H
#define KERNELS_COMMON_FLAGS_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FLAGS_LIST_MAX 64

enum flag_type {
	FLAG_U64,      /* unsigned integer in [min, max] */
	FLAG_BOOL,     /* on/off, true/false, yes/no, 1/0 */
	FLAG_U64_LIST, /* comma-separated unsigned integers, each in [min, max] */
	FLAG_CHOICE,   /* one of choices; dest is an int that gets its index */
	FLAG_CHOICE_LIST, /* comma-separated choices; dest is a flag_list of their indices */
};

struct flag_list {
	uint64_t v[FLAGS_LIST_MAX];
	size_t n;
};

struct flag_spec {
	const char *name; /* without the leading "--" */
	enum flag_type type;
	void *dest;       /* uint64_t *, int *, or struct flag_list * */
	uint64_t min, max;
	const char *help;
	const char *const *choices; /* FLAG_CHOICE: NULL-terminated names */
};

enum { FLAGS_OK = 0, FLAGS_HELP = 1, FLAGS_ERROR = -1 };

static inline int flags_u64(const char *s, uint64_t *out)
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

/* One integer of option f, checked against its range. */
static inline int flags_ranged(const struct flag_spec *f, const char *text, uint64_t *v,
			       char *err, size_t errlen)
{
	if (flags_u64(text, v)) {
		snprintf(err, errlen, "option '--%s': '%s' is not a non-negative integer", f->name, text);
		return FLAGS_ERROR;
	}
	if (*v < f->min || *v > f->max) {
		snprintf(err, errlen, "option '--%s': %llu is out of range [%llu, %llu]", f->name,
			 (unsigned long long)*v, (unsigned long long)f->min, (unsigned long long)f->max);
		return FLAGS_ERROR;
	}
	return FLAGS_OK;
}

/* The index of val among f's choices. */
static inline int flags_choice(const struct flag_spec *f, const char *val, uint64_t *index, char *err, size_t errlen)
{
	size_t used;

	for (int i = 0; f->choices[i]; i++)
		if (!strcmp(val, f->choices[i]))
			return *index = (uint64_t)i, FLAGS_OK;
	snprintf(err, errlen, "option '--%s': '%.64s' is not one of", f->name, val);
	/* Appended one by one, each bounded by what is left. */
	for (int i = 0; f->choices[i] && (used = strlen(err)) + 1 < errlen; i++)
		snprintf(err + used, errlen - used, " %s", f->choices[i]);
	return FLAGS_ERROR;
}

static inline int flags_set(const struct flag_spec *f, const char *val,
			    char *err, size_t errlen)
{
	uint64_t v;

	switch (f->type) {
	case FLAG_U64:
		if (flags_ranged(f, val, &v, err, errlen) != FLAGS_OK)
			return FLAGS_ERROR;
		*(uint64_t *)f->dest = v;
		return FLAGS_OK;
	case FLAG_BOOL:
		if (!strcmp(val, "on") || !strcmp(val, "true") || !strcmp(val, "yes") || !strcmp(val, "1"))
			*(int *)f->dest = 1;
		else if (!strcmp(val, "off") || !strcmp(val, "false") || !strcmp(val, "no") || !strcmp(val, "0"))
			*(int *)f->dest = 0;
		else {
			snprintf(err, errlen, "option '--%s': '%s' is not on or off", f->name, val);
			return FLAGS_ERROR;
		}
		return FLAGS_OK;
	case FLAG_CHOICE:
		if (flags_choice(f, val, &v, err, errlen) != FLAGS_OK)
			return FLAGS_ERROR;
		*(int *)f->dest = (int)v;
		return FLAGS_OK;
	case FLAG_CHOICE_LIST:
	case FLAG_U64_LIST: {
		struct flag_list *l = f->dest;
		char item[32];
		const char *p = val;

		l->n = 0;
		for (;;) {
			size_t len = strcspn(p, ",");

			if (len == 0 || len >= sizeof(item)) {
				snprintf(err, errlen, "option '--%s': '%s' is not a comma-separated list of %s", f->name,
					 val, f->type == FLAG_CHOICE_LIST ? "names" : "integers");
				return FLAGS_ERROR;
			}
			if (l->n == FLAGS_LIST_MAX) {
				snprintf(err, errlen, "option '--%s': more than %d values", f->name, FLAGS_LIST_MAX);
				return FLAGS_ERROR;
			}
			memcpy(item, p, len);
			item[len] = '\0';
			if (f->type == FLAG_CHOICE_LIST ? flags_choice(f, item, &v, err, errlen) != FLAGS_OK
			    : flags_ranged(f, item, &v, err, errlen) != FLAGS_OK)
				return FLAGS_ERROR;
			l->v[l->n++] = v;
			if (!p[len])
				break;
			p += len + 1;
		}
		return FLAGS_OK;
	}
	}
	snprintf(err, errlen, "option '--%s': internal error", f->name);
	return FLAGS_ERROR;
}

static inline int flags_parse(const struct flag_spec *specs, int argc, char **argv,
			      char *err, size_t errlen)
{
	for (int i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *val = NULL;
		size_t nlen;
		const struct flag_spec *f;

		if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
			return FLAGS_HELP;
		if (strncmp(arg, "--", 2) != 0) {
			snprintf(err, errlen, "unexpected argument '%s' (options start with --; see --help)", arg);
			return FLAGS_ERROR;
		}
		arg += 2;
		nlen = strcspn(arg, "=");
		if (arg[nlen] == '=')
			val = arg + nlen + 1;
		for (f = specs; f->name; f++)
			if (strlen(f->name) == nlen && !strncmp(f->name, arg, nlen))
				break;
		if (!f->name) {
			snprintf(err, errlen, "unknown option '--%.*s' (see --help)", (int)(nlen > 64 ? 64 : nlen), arg);
			return FLAGS_ERROR;
		}
		if (!val) {
			if (i + 1 >= argc) {
				snprintf(err, errlen, "option '--%s' needs a value", f->name);
				return FLAGS_ERROR;
			}
			val = argv[++i];
		}
		if (flags_set(f, val, err, errlen) != FLAGS_OK)
			return FLAGS_ERROR;
	}
	return FLAGS_OK;
}

static inline void flags_usage(FILE *out, const char *prog, const struct flag_spec *specs)
{
	fprintf(out, "usage: %s [--option value]...\n\n", prog);
	for (const struct flag_spec *f = specs; f->name; f++) {
		const char *kind = f->type == FLAG_BOOL ? "on|off" : f->type == FLAG_U64_LIST ? "N[,N...]"
				 : f->type == FLAG_CHOICE ? "NAME" : f->type == FLAG_CHOICE_LIST ? "NAME[,...]" : "N";
		int choices = f->type == FLAG_CHOICE || f->type == FLAG_CHOICE_LIST;

		fprintf(out, "  --%-14s %-9s %s", f->name, kind, f->help);
		if (choices)
			for (int i = 0; f->choices[i]; i++)
				fprintf(out, "%s%s", i ? "|" : " [", f->choices[i]);
		if (choices)
			fputc(']', out);
		else if (f->type != FLAG_BOOL)
			fprintf(out, " [%llu..%llu]", (unsigned long long)f->min, (unsigned long long)f->max);
		fputc('\n', out);
	}
}

#endif
