/* hashprobe: a bucket-chained hash table, probed one key at a time or with
 * g probes in flight. Each probe reads a random bucket slot, then walks a
 * chain of 64-byte nodes spread over the table: two or three dependent
 * cache misses. The interleaved probe keeps g probes as small state
 * machines and moves each one step at a time, prefetching the line the next
 * step needs, so that up to g misses overlap (AMAC's hash join probe).
 *
 * Header-only: the benchmark main and production code include the same
 * code. The prefetch hint is a template argument in C: hp_probe_hint()
 * dispatches to one instantiation per hint (HP_HINT_T0 .. HP_HINT_NTA, the
 * manifest's choices in order). */
#ifndef HASHPROBE_H
#define HASHPROBE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define HP_MAX_GROUP 1024
enum { HP_HINT_T0, HP_HINT_T1, HP_HINT_T2, HP_HINT_NTA };

struct hp_node {
	uint64_t key, value;
	struct hp_node *next;
	char pad[64 - 2 * sizeof(uint64_t) - sizeof(void *)]; /* one cache line each */
};

struct hp_table {
	struct hp_node **buckets;
	struct hp_node *nodes;
	size_t n;        /* keys */
	unsigned shift;  /* 64 - log2(buckets) */
};

/* A bijection of 64-bit words: distinct keys from distinct indices. */
static inline uint64_t hp_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

static inline uint64_t hp_bucket(const struct hp_table *t, uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ull) >> t->shift;
}

/* A table of about bytes: 64-byte nodes and one bucket slot per two keys.
 * Returns 0, or -1 when out of memory. */
static inline int hp_build(struct hp_table *t, size_t bytes, uint64_t seed)
{
	size_t nb = 1;

	memset(t, 0, sizeof(*t));
	t->n = bytes / (sizeof(struct hp_node) + sizeof(void *) / 2);
	if (t->n < 2)
		t->n = 2;
	while (nb * 2 <= t->n / 2)
		nb *= 2;
	t->shift = 64;
	for (size_t b = nb; b > 1; b /= 2)
		t->shift--;
	t->buckets = calloc(nb, sizeof(*t->buckets));
	t->nodes = malloc(t->n * sizeof(*t->nodes));
	if (!t->buckets || !t->nodes) {
		free(t->buckets);
		free(t->nodes);
		return -1;
	}
	for (size_t i = 0; i < t->n; i++) {
		struct hp_node *node = &t->nodes[i];
		uint64_t b;

		node->key = hp_mix(i ^ seed);
		node->value = i + 1;
		b = hp_bucket(t, node->key);
		node->next = t->buckets[b];
		t->buckets[b] = node;
	}
	return 0;
}

static inline void hp_free(struct hp_table *t)
{
	free(t->buckets);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

/* nq query keys, every other one present in the table. */
static inline void hp_queries(const struct hp_table *t, uint64_t *keys, size_t nq, uint64_t seed)
{
	for (size_t i = 0; i < nq; i++) {
		uint64_t r = hp_mix(i * 2 + 1 + (seed << 1));

		keys[i] = i % 2 ? hp_mix((r % t->n) ^ seed) : hp_mix((t->n + r % t->n) ^ seed);
	}
}

/* The sum of the values found, plus one per key not found. */
static inline uint64_t hp_probe_scalar(const struct hp_table *t, const uint64_t *keys, size_t nq)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < nq; i++) {
		const struct hp_node *node = t->buckets[hp_bucket(t, keys[i])];

		while (node && node->key != keys[i])
			node = node->next;
		sum += node ? node->value : 1;
	}
	return sum;
}

/* One probe in flight: its key, then the slot it reads, then the node. */
struct hp_lane {
	uint64_t key;
	struct hp_node *const *slot;
	const struct hp_node *node;
	int stage; /* 0: read the slot, 1: compare the node, 2: idle */
};

#define HP_DEFINE_PROBE(name, locality)                                                                          \
	static inline uint64_t name(const struct hp_table *t, const uint64_t *keys, size_t nq, unsigned g)        \
	{                                                                                                        \
		struct hp_lane lanes[HP_MAX_GROUP];                                                              \
		size_t next = 0, done = 0;                                                                       \
		uint64_t sum = 0;                                                                                \
		unsigned l = 0;                                                                                  \
                                                                                                                 \
		if (g > HP_MAX_GROUP)                                                                            \
			g = HP_MAX_GROUP;                                                                        \
		if (g < 1)                                                                                       \
			g = 1;                                                                                   \
		for (unsigned i = 0; i < g; i++) {                                                               \
			lanes[i].stage = 2;                                                                      \
			if (next < nq) {                                                                         \
				lanes[i].key = keys[next++];                                                     \
				lanes[i].slot = &t->buckets[hp_bucket(t, lanes[i].key)];                         \
				__builtin_prefetch(lanes[i].slot, 0, locality);                                  \
				lanes[i].stage = 0;                                                              \
			}                                                                                        \
		}                                                                                                \
		while (done < nq) {                                                                              \
			struct hp_lane *ln = &lanes[l];                                                          \
			int finished = 0;                                                                        \
                                                                                                                 \
			if (ln->stage == 0) {                                                                    \
				ln->node = *ln->slot;                                                            \
				if (ln->node) {                                                                  \
					__builtin_prefetch(ln->node, 0, locality);                               \
					ln->stage = 1;                                                           \
				} else {                                                                         \
					sum += 1;                                                                \
					finished = 1;                                                            \
				}                                                                                \
			} else if (ln->stage == 1) {                                                             \
				if (ln->node->key == ln->key) {                                                  \
					sum += ln->node->value;                                                  \
					finished = 1;                                                            \
				} else if (ln->node->next) {                                                     \
					ln->node = ln->node->next;                                               \
					__builtin_prefetch(ln->node, 0, locality);                               \
				} else {                                                                         \
					sum += 1;                                                                \
					finished = 1;                                                            \
				}                                                                                \
			}                                                                                        \
			if (finished) {                                                                          \
				done++;                                                                          \
				ln->stage = 2;                                                                   \
				if (next < nq) {                                                                 \
					ln->key = keys[next++];                                                  \
					ln->slot = &t->buckets[hp_bucket(t, ln->key)];                           \
					__builtin_prefetch(ln->slot, 0, locality);                               \
					ln->stage = 0;                                                           \
				}                                                                                \
			}                                                                                        \
			l = l + 1 == g ? 0 : l + 1;                                                              \
		}                                                                                                \
		return sum;                                                                                      \
	}

HP_DEFINE_PROBE(hp_probe_t0, 3)
HP_DEFINE_PROBE(hp_probe_t1, 2)
HP_DEFINE_PROBE(hp_probe_t2, 1)
HP_DEFINE_PROBE(hp_probe_nta, 0)

/* The interleaved probe with hint (HP_HINT_*). */
static inline uint64_t hp_probe_hint(const struct hp_table *t, const uint64_t *keys, size_t nq, unsigned g, int hint)
{
	switch (hint) {
	case HP_HINT_T1:
		return hp_probe_t1(t, keys, nq, g);
	case HP_HINT_T2:
		return hp_probe_t2(t, keys, nq, g);
	case HP_HINT_NTA:
		return hp_probe_nta(t, keys, nq, g);
	default:
		return hp_probe_t0(t, keys, nq, g);
	}
}

#endif
