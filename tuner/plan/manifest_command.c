/* A trial as its build and its command line: the defines that tell its
 * builds apart, and the arguments of the process that measures it with the
 * other trials of its batch (plan.h). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "plan.h"

void manifest_build_label(const struct trial *t, char *out, size_t len)
{
	const struct kernel_manifest *m = t->manifest;
	size_t used = 0;

	out[0] = '\0';
	if (m->variant_define)
		str_appendf(out, len, &used, "%s", m->variants.v[t->variant]);
	for (size_t i = 0; i < m->parameters.n; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, i);
		char text[64];

		if (!p->define || t->values[i] == PLAN_NA)
			continue;
		manifest_param_text(p, t->values[i], text, sizeof(text));
		str_appendf(out, len, &used, "%s%s", used ? ", " : "", text);
	}
	if (!used)
		snprintf(out, len, "%s", m->name);
}

void manifest_defines(const struct trial *t, struct strbuf *out)
{
	const struct kernel_manifest *m = t->manifest;

	if (m->variant_define)
		strbuf_addf(out, "-D%s=%d", m->variant_define, t->variant);
	for (size_t i = 0; i < m->parameters.n; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, i);

		if (p->define && t->values[i] != PLAN_NA)
			strbuf_addf(out, "%s-D%s=%lld", out->len ? " " : "", p->define, t->values[i]);
	}
}

/* A value as the kernel takes it: a choice's name, on or off, the number
 * (inf as the largest integer). */
static void arg_value(const struct kernel_param *p, long long value, char *out, size_t len)
{
	if (p->inf && value == LLONG_MAX)
		snprintf(out, len, "%lld", value);
	else
		manifest_param_text(p, value, out, len);
}

/* Appends one argument's text to a's storage; NULL when it is full. */
static char *arg_text(struct manifest_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static char *arg_text(struct manifest_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *at = a->text + a->used;
	size_t room = sizeof(a->text) - a->used;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(at, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room || a->argc + 2 >= (int)(sizeof(a->argv) / sizeof(a->argv[0])))
		return NULL;
	a->used += (size_t)n + 1;
	return at;
}

/* One argument listing todo[0..n)'s values of p (their variants' names when
 * p is NULL), joined by commas; NULL when a is full. */
static char *joined(struct manifest_argv *a, struct trial *const *todo, size_t n, const struct kernel_param *p)
{
	char *start = a->text + a->used;
	size_t i = p ? (size_t)(p - MANIFEST_PARAM(todo[0]->manifest, 0)) : 0;

	for (size_t k = 0; k < n; k++) {
		char text[64];
		const char *word = p ? text : todo[k]->manifest->variants.v[todo[k]->variant];

		if (p)
			arg_value(p, todo[k]->values[i], text, sizeof(text));
		/* Each value overwrites the last one's NUL. */
		if (k)
			a->used--;
		if (!arg_text(a, "%s%s", k ? "," : "", word))
			return NULL;
	}
	return start;
}

static int add(struct manifest_argv *a, const char *flag, char *value)
{
	if (!value)
		return -1;
	a->argv[a->argc++] = (char *)flag;
	a->argv[a->argc++] = value;
	return 0;
}

/* "0,1" of the platform's CPUs. */
static char *cpu_list(struct manifest_argv *a, const struct conf_ints *cpus)
{
	char text[1024];

	conf_ints_join(cpus, ",", text, sizeof(text));
	return arg_text(a, "%s", text);
}

int manifest_args(const char *binary, struct trial *const *todo, size_t n, long long runs, long long warmup,
		  const struct run_place *place, struct manifest_argv *a, int *cpu)
{
	const struct trial *t = todo[0];
	const struct kernel_manifest *m = t->manifest;
	int rc = 0;

	memset(a, 0, sizeof(*a));
	a->argv[a->argc++] = (char *)binary;
	rc |= add(a, TK_FLAG_RUNS, arg_text(a, "%lld", runs));
	rc |= add(a, TK_FLAG_WARMUP, arg_text(a, "%lld", warmup));
	rc |= add(a, TK_FLAG_SEED, arg_text(a, "%lld", t->seed));
	if (m->variant_flag && !m->variant_field)
		rc |= add(a, m->variant_flag, arg_text(a, "%s", m->variants.v[t->variant]));
	if (m->variant_field)
		rc |= add(a, m->variant_flag, joined(a, todo, n, NULL));
	for (size_t i = 0; i < m->parameters.n && !rc; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, i);
		char text[64];

		if (!p->flag || t->values[i] == PLAN_NA)
			continue;
		if (p->role != ROLE_LIST) {
			arg_value(p, t->values[i], text, sizeof(text));
			rc |= add(a, p->flag, arg_text(a, "%s", text));
			continue;
		}
		rc |= add(a, p->flag, joined(a, todo, n, p));
	}
	/* A kernel that pins its own threads is not pinned as a whole. */
	*cpu = place->pin && place->cpus->n && !m->app_cpus_flag && !m->device_cpu_flag ? (int)place->cpus->v[0] : -1;
	if (m->cpu_flag && *cpu >= 0)
		rc |= add(a, m->cpu_flag, arg_text(a, "%d", *cpu));
	if (m->app_cpus_flag && place->cpus->n)
		rc |= add(a, m->app_cpus_flag, cpu_list(a, place->cpus));
	if (m->device_cpu_flag)
		rc |= add(a, m->device_cpu_flag, arg_text(a, "%lld", place->device_cpu < 0 ? 0 : place->device_cpu));
	a->argv[a->argc] = NULL;
	return rc ? -1 : 0;
}

/* One argument of a command kernel's argv: the template's text with each
 * {name} replaced by t's value (a parameter that does not apply to t's
 * variant: its default as written); NULL when a is full. */
static char *filled_arg(struct manifest_argv *a, const struct trial *t, const char *tmpl)
{
	const struct kernel_manifest *m = t->manifest;
	char *start = a->text + a->used;
	size_t at = 0, from = 0, name, len;

	if (!arg_text(a, "%s", ""))
		return NULL;
	a->used--; /* each piece overwrites the last one's NUL */
	while (command_placeholder(tmpl, &at, &name, &len)) {
		const struct kernel_param *p = NULL;
		char text[64] = "";

		for (size_t i = 0; i < m->parameters.n; i++)
			if (strlen(MANIFEST_PARAM(m, i)->name) == len && !strncmp(MANIFEST_PARAM(m, i)->name, tmpl + name, len))
				p = MANIFEST_PARAM(m, i);
		if (p && t->values[p - MANIFEST_PARAM(m, 0)] != PLAN_NA)
			arg_value(p, t->values[p - MANIFEST_PARAM(m, 0)], text, sizeof(text));
		else if (p)
			snprintf(text, sizeof(text), "%s", p->def ? p->def : "");
		else
			snprintf(text, sizeof(text), "%s", m->variants.v[t->variant]);
		if (!arg_text(a, "%.*s%s", (int)(name - 1 - from), tmpl + from, text))
			return NULL;
		a->used--;
		from = at;
	}
	return arg_text(a, "%s", tmpl + from) ? start : NULL;
}

int manifest_program_args(const struct trial *t, const struct run_place *place, struct manifest_argv *a, int *cpu)
{
	const struct kernel_manifest *m = t->manifest;
	int rc = 0;

	memset(a, 0, sizeof(*a));
	for (size_t i = 0; i < m->command.n && !rc; i++) {
		char *arg = filled_arg(a, t, m->command.v[i]);

		if (!arg || a->argc + 2 >= (int)(sizeof(a->argv) / sizeof(a->argv[0])))
			return -1;
		a->argv[a->argc++] = arg;
	}
	for (size_t i = 0; i < m->parameters.n && !rc; i++) {
		const struct kernel_param *p = MANIFEST_PARAM(m, i);
		char text[64];

		if (!p->flag || t->values[i] == PLAN_NA)
			continue;
		arg_value(p, t->values[i], text, sizeof(text));
		rc |= add(a, p->flag, arg_text(a, "%s", text));
	}
	*cpu = place->pin && place->cpus->n ? (int)place->cpus->v[0] : -1;
	a->argv[a->argc] = NULL;
	return rc ? -1 : 0;
}
