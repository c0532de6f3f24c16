/* hash: FNV-1a over bytes, the one hash behind build-cache keys, sweep spec
 * hashes and host fingerprints (identity, not security). */
#ifndef TUNER_HASH_H
#define TUNER_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define HASH_INIT 0xcbf29ce484222325ull

static inline uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static inline uint64_t hash_str(uint64_t h, const char *s)
{
	return hash_bytes(h, s, strlen(s));
}

#endif
