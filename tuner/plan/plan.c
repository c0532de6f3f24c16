#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../kernels/chase/chase.h"
#include "../base/strbuf.h"
#include "plan.h"

static int is_interleaved(int v)
{
	return v == CHASE_VARIANT_INTERLEAVED || v == CHASE_VARIANT_INTERLEAVED_PREFETCH;
}

static int uses_prefetch(int v)
{
	return v == CHASE_VARIANT_SCALAR_PREFETCH || v == CHASE_VARIANT_INTERLEAVED_PREFETCH;
}

int plan_add_trial(struct plan *pl, size_t *cap, const struct trial *t)
{
	if (pl->ntrials == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		struct trial *nt = realloc(pl->trials, ncap * sizeof(*nt));

		if (!nt)
			return -1;
		pl->trials = nt;
		*cap = ncap;
	}
	pl->trials[pl->ntrials++] = *t;
	return 0;
}

int plan_add_batch(struct plan *pl, size_t first, size_t count)
{
	struct batch *nb = realloc(pl->batches, (pl->nbatches + 1) * sizeof(*nb));

	if (!nb)
		return -1;
	nb[pl->nbatches].first = first;
	nb[pl->nbatches].count = count;
	pl->batches = nb;
	pl->nbatches++;
	return 0;
}

static void make_key(struct trial *t)
{
	snprintf(t->key, sizeof(t->key), "chase/%s/%s/%lldMB/d%lld/q%lld/g%lld/hp%d/s%lld/r%lld+%lld",
		 chase_variant_names[t->variant], t->hint >= 0 ? chase_hint_names[t->hint] : "none",
		 t->size_mb, t->depth, t->queries, t->group_size, t->hugepages, t->seed, t->runs, t->warmup);
}

int plan_build(const struct platform *p, const struct sweep *s, struct plan *pl, struct tune_error *err)
{
	const struct conf_ints *sizes = s->sizes_mb.n ? &s->sizes_mb : &p->sizes_mb;
	const struct conf_ints *groups = s->group_sizes.n ? &s->group_sizes : &p->group_sizes;
	const struct conf_ints *hints = s->hints.n ? &s->hints : &p->hints;
	const struct conf_ints *pages = s->hugepages.n ? &s->hugepages : &p->hugepages;
	struct conf_ints every_g = { NULL, 0 };
	size_t cap = 0;

	memset(pl, 0, sizeof(*pl));
	if (s->manifest)
		return manifest_plan(p, s, pl, err);
	if (s->strategy == STRATEGY_ADAPTIVE || conf_ints_contains(&s->group_sizes, CONF_AUTO_VALUE)) {
		for (long long g = s->g_min; g <= s->g_max; g++)
			if (conf_ints_push(&every_g, g))
				goto oom;
		groups = &every_g;
	}
	for (size_t si = 0; si < sizes->n; si++) {
		long long size = sizes->v[si];

		if (size * 2 > p->usable_memory_mb) {
			fprintf(stderr, "tune: skipping %lld MB in sweep '%s': more than half of the %lld MB "
					"memory of platform '%s' on this host\n", size, s->name, p->usable_memory_mb,
				p->name);
			pl->skipped_sizes++;
			continue;
		}
		for (size_t hp = 0; hp < pages->n; hp++) {
			/* Variants in their canonical order: the scalar baseline first. */
			for (int v = CHASE_VARIANT_SCALAR; v <= CHASE_VARIANT_INTERLEAVED_PREFETCH; v++) {
				size_t nh = uses_prefetch(v) ? hints->n : 1;

				if (!conf_ints_contains(&s->variants, v))
					continue;
				for (size_t h = 0; h < nh; h++) {
					size_t first = pl->ntrials;
					size_t ng = is_interleaved(v) ? groups->n : 1;

					for (size_t g = 0; g < ng; g++) {
						struct trial t = { 0 };

						t.variant = v;
						t.hint = uses_prefetch(v) ? (int)hints->v[h] : -1;
						t.size_mb = size;
						t.depth = s->depth;
						t.queries = s->queries;
						t.group_size = is_interleaved(v) ? groups->v[g] : 1;
						t.seed = s->seed;
						t.runs = s->runs;
						t.warmup = s->warmup;
						t.hugepages = (int)pages->v[hp];
						make_key(&t);
						if (plan_add_trial(pl, &cap, &t))
							goto oom;
					}
					if (plan_add_batch(pl, first, pl->ntrials - first))
						goto oom;
				}
			}
		}
	}
	free(every_g.v);
	if (!pl->ntrials)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: sweep '%s' has no trial to run on platform '%s' "
				 "(every size is over half its memory, or no variant is listed)", s->path, s->name, p->name);
	return 0;
oom:
	free(every_g.v);
	plan_free(pl);
	return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory planning sweep '%s'", s->name);
}

void plan_free(struct plan *pl)
{
	free(pl->trials);
	free(pl->batches);
	memset(pl, 0, sizeof(*pl));
}

double plan_cost(struct trial *const *trials, size_t n)
{
	/* Operations (links followed, calls, a manifest kernel's runs), plus
	 * setting up a working set once per process: linking the chase's cycle,
	 * a random swap per node, costs about as much as two links. Trials
	 * without a size or a depth count one operation per query. */
	double cost = n ? (double)trials[0]->size_mb * 16384.0 * 2.0 : 0;

	for (size_t i = 0; i < n; i++)
		cost += (double)(trials[i]->runs + trials[i]->warmup) * (double)trials[i]->queries *
			(double)(trials[i]->depth ? trials[i]->depth : 1);
	return cost;
}

void plan_trial_label(const struct trial *t, char *out, size_t len)
{
	if (t->manifest) {
		manifest_label(t, t, out, len);
		return;
	}
	size_t used = 0;

	str_appendf(out, len, &used, "%s", chase_variant_names[t->variant]);
	if (t->hint >= 0)
		str_appendf(out, len, &used, " %s", chase_hint_names[t->hint]);
	str_appendf(out, len, &used, " %lld MB", t->size_mb);
	if (is_interleaved(t->variant))
		str_appendf(out, len, &used, " g=%lld", t->group_size);
	if (t->hugepages)
		str_appendf(out, len, &used, " hugepages");
}

void plan_batch_label(struct trial *const *todo, size_t n, char *out, size_t len)
{
	char *eq, last[160], first[64];

	if (todo[0]->manifest) {
		manifest_label(todo[0], todo[n ? n - 1 : 0], out, len);
		return;
	}
	/* chase's label ends with its g. */
	plan_trial_label(todo[0], out, len);
	eq = strrchr(out, '=');
	if (n < 2 || !eq)
		return;
	plan_trial_label(todo[n - 1], last, sizeof(last));
	if (strrchr(last, '=')) {
		snprintf(first, sizeof(first), "%s", eq + 1);
		first[strcspn(first, " ")] = '\0';
		snprintf(eq + 1, len - (size_t)(eq + 1 - out), "%.40s..%.40s", first, strrchr(last, '=') + 1);
	}
}

long long plan_trial_point(const struct trial *t)
{
	if (t->manifest)
		return manifest_point(t);
	return t->group_size;
}

int plan_same_process(const struct trial *a, const struct trial *b)
{
	if (a->kernel != b->kernel)
		return 0;
	if (a->manifest)
		return manifest_same_process(a, b);
	return a->variant == b->variant && a->hint == b->hint && a->size_mb == b->size_mb &&
	       a->hugepages == b->hugepages;
}
