/* The manifest's constraints in the plan: a combination of the sweep's
 * values that breaks one is never made a trial, each constraint's count of
 * those it left out is kept for the plan's output, and a sweep that lists a
 * value no allowed combination uses (or no allowed combination at all) is
 * an error naming where the value was written and the constraint. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/strbuf.h"
#include "plan.h"

int manifest_trial_allowed(const struct trial *t)
{
	const struct kernel_manifest *m = t->manifest;

	for (size_t k = 0; k < m->constraints.n; k++)
		if (!constraint_holds(&m->constraint[k], t->variant, t->values))
			return 0;
	return 1;
}

int plan_usage_init(struct plan_usage *u, const struct sweep *s)
{
	size_t np = s->manifest->parameters.n, slots = s->kvariants.n;

	memset(u, 0, sizeof(*u));
	for (size_t i = 0; i < np; i++)
		slots += s->values[i].n;
	if (!(u->off = calloc(np + 1, sizeof(*u->off))) || !(u->excluded_by = malloc((slots + 1) * sizeof(int))) ||
	    !(u->kept = calloc(slots + 1, 1)))
		return -1;
	for (size_t i = 0, at = 0; i <= np; i++) {
		u->off[i] = at;
		at += i < np ? s->values[i].n : 0;
	}
	for (size_t k = 0; k <= slots; k++)
		u->excluded_by[k] = -1;
	return 0;
}

void plan_usage_free(struct plan_usage *u)
{
	free(u->off);
	free(u->excluded_by);
	free(u->kept);
	memset(u, 0, sizeof(*u));
}

int plan_admit(struct plan *pl, struct plan_usage *u, const struct sweep *s, const size_t *at, size_t v,
	       const struct trial *t)
{
	const struct kernel_manifest *m = s->manifest;
	size_t np = m->parameters.n;
	int first = -1;

	pl->combinations++;
	for (size_t k = 0; k < m->constraints.n && k < CONSTRAINT_MAX; k++)
		if (!constraint_holds(&m->constraint[k], t->variant, t->values)) {
			pl->excluded[k]++;
			if (first < 0)
				first = (int)k;
		}
	/* Each value the trial takes: used, or left out by the first constraint. */
	for (size_t i = 0; i <= np; i++) {
		size_t slot = u->off[i] + (i < np ? at[i] : v);

		if (i < np && t->values[i] == PLAN_NA)
			continue;
		if (first < 0)
			u->kept[slot] = 1;
		else if (u->excluded_by[slot] < 0)
			u->excluded_by[slot] = first;
	}
	u->admitted += first < 0;
	return first < 0;
}

/* The entry of e named name, or NULL. */
static const struct conf_entry *entry(const struct conf_entries *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->v[i].name, name))
			return &e->v[i];
	return NULL;
}

/* Where value x of parameter i (i == parameters.n: the variant) was
 * written, into *file and *key: the quick: section's params when they
 * replaced the sweep's, the sweep's params, or the platform's for a
 * parameter the sweep leaves out. NULL when no file lists it (a default, an
 * always value, an adaptive range): such a value is not the user's choice. */
static const struct conf_value *written(const struct platform *p, const struct sweep *s, size_t i, long long x,
					const char **file, const char **key)
{
	const struct kernel_manifest *m = s->manifest;
	size_t np = m->parameters.n;
	const char *name = i < np ? MANIFEST_PARAM(m, i)->name : "variant";
	const struct conf_entry *quick = entry(&s->quick.params, name), *e;
	char why[256];

	*file = s->path;
	*key = "params";
	if (quick && !(i < np ? s->quick_values[i].n : s->quick_kvariants.n)) {
		e = quick;
		*key = "quick.params";
	} else if (!(e = entry(&s->params, name)) && i < np && s->defaulted[i] && p) {
		e = entry(&p->params, name);
		*file = p->path;
	}
	for (size_t j = 0; e && j < e->n; j++) {
		long long y;

		if (i < np ? manifest_param_value(MANIFEST_PARAM(m, i), e->values[j].text, &y, why, sizeof(why)) == 0 && y == x
			   : manifest_variant(m, e->values[j].text) == x)
			return &e->values[j];
	}
	return NULL;
}

/* The constraint that left out the most combinations. */
static size_t worst(const struct plan *pl, const struct kernel_manifest *m)
{
	size_t w = 0;

	for (size_t k = 1; k < m->constraints.n && k < CONSTRAINT_MAX; k++)
		if (pl->excluded[k] > pl->excluded[w])
			w = k;
	return w;
}

int plan_check_usage(const struct plan *pl, const struct plan_usage *u, const struct platform *p,
		     const struct sweep *s, struct tune_error *err)
{
	const struct kernel_manifest *m = s->manifest;
	size_t np = m->parameters.n;

	if (!m->constraints.n || !pl->combinations)
		return 0;
	if (!u->admitted) {
		size_t k = worst(pl, m);
		const struct conf_value *c = &m->constraints.v[k];
		struct conf_where at = { 0, 0 };
		char names[512] = "";
		size_t used = 0;

		/* At the first of the values it names that the sweep gives. */
		for (size_t i = 0; i <= np; i++) {
			const char *name = i < np ? MANIFEST_PARAM(m, i)->name : "variant";
			const struct conf_entry *e = entry(&s->params, name);

			if (!constraint_names(&m->constraint[k], i, np))
				continue;
			str_appendf(names, sizeof(names), &used, "%s%s", used ? ", " : "", name);
			if (e && !at.line)
				at = e->at;
		}
		return tune_fail(err, TUNE_ERR_CONFIG, "%s:%zu:%zu: key 'params': sweep '%s' lists no combination kernel "
				 "'%s' allows: constraint '%s' (%s:%zu:%zu) excludes %lld of %lld (change the values of %s)",
				 s->path, at.line, at.col, s->name, m->name, c->text, m->path, c->at.line, c->at.col,
				 pl->excluded[k], pl->combinations, names);
	}
	for (size_t i = 0; i <= np; i++) {
		size_t n = i < np ? s->values[i].n : s->kvariants.n;

		for (size_t j = 0; j < n; j++) {
			size_t slot = u->off[i] + j;
			long long x = i < np ? s->values[i].v[j] : s->kvariants.v[j];
			const struct conf_value *v, *c;
			const char *file, *key;
			char what[100];

			if (u->kept[slot] || u->excluded_by[slot] < 0 || !(v = written(p, s, i, x, &file, &key)))
				continue;
			c = &m->constraints.v[u->excluded_by[slot]];
			if (i < np)
				snprintf(what, sizeof(what), "parameter '%s': value", MANIFEST_PARAM(m, i)->name);
			else
				snprintf(what, sizeof(what), "variant");
			return conf_fail_at(err, file, v->at, "key '%s': %s '%s' is never measured: constraint '%s' "
					    "(%s:%zu:%zu) of kernel '%s' excludes every combination of it with the values sweep "
					    "'%s' lists (drop '%s', or list values the constraint allows with it)", key, what,
					    v->text, c->text, m->path, c->at.line, c->at.col, m->name, s->name, v->text);
		}
	}
	return 0;
}

void plan_constraint_line(const struct plan *pl, const struct kernel_manifest *m, size_t k, char *out, size_t len)
{
	const struct conf_value *c = &m->constraints.v[k];

	snprintf(out, len, "constraint '%s' (%s:%zu:%zu) excludes %lld of %lld combinations", c->text, m->path,
		 c->at.line, c->at.col, k < CONSTRAINT_MAX ? pl->excluded[k] : 0, pl->combinations);
}
