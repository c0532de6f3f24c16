/* ydoc: the YAML reader of the config stage, included by config.h. */
#ifndef TUNER_CONFIG_YDOC_H
#define TUNER_CONFIG_YDOC_H

#include <stddef.h>

#include "../base/errors.h"

/* ydoc.c: a YAML file read into a small tree that remembers where every node
 * came from (1-based line and column), so that each error can name it.
 *
 * Ownership: ydoc_load() fills a ydoc that the caller frees with
 * ydoc_free(); nodes and strings belong to the document. */
enum ynode_kind { YNODE_SCALAR, YNODE_SEQ, YNODE_MAP };

struct ynode {
	enum ynode_kind kind;
	char *value;          /* scalars only */
	int plain;            /* scalar was unquoted */
	size_t line, col;
	/* A scalar whose value is not its source as written (escapes, quotes
	 * doubled, lines folded, a block scalar): the source from (line, col)
	 * on, so that a place in the value can be found in the file. NULL
	 * when the value is the source (within its quotes). */
	char *raw;
	struct ynode **items; /* sequence items, or map keys and values alternating */
	size_t n;
};

struct ydoc {
	char *path;
	struct ynode *root; /* NULL for an empty file */
};

/* Returns 0, or a negative tune_err with the message in err. */
int ydoc_load(const char *path, struct ydoc *doc, struct tune_error *err);
/* Same for text in memory; path is only used in messages. */
int ydoc_parse(const char *path, const char *text, size_t len, struct ydoc *doc, struct tune_error *err);
void ydoc_free(struct ydoc *doc);

const char *ynode_kind_name(enum ynode_kind kind);

#endif
