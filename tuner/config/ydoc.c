#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "config.h"

/* Bounds that keep a hostile or broken file from exhausting memory. */
#define YDOC_MAX_BYTES (1u << 20)
#define YDOC_MAX_DEPTH 32

struct parser {
	yaml_parser_t yp;
	const char *path;
	struct tune_error *err;
	const char *text; /* the source, and where a mark's character index last was in it */
	size_t len, at_char, at_byte;
};

const char *ynode_kind_name(enum ynode_kind kind)
{
	switch (kind) {
	case YNODE_SCALAR: return "a scalar";
	case YNODE_SEQ: return "a list";
	case YNODE_MAP: return "a mapping";
	}
	return "a node";
}

static void ynode_free(struct ynode *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++)
		ynode_free(n->items[i]);
	free(n->items);
	free(n->value);
	free(n->raw);
	free(n);
}

static int parse_fail(struct parser *p)
{
	const yaml_mark_t *m = p->yp.problem ? &p->yp.problem_mark : &p->yp.context_mark;

	return tune_fail(p->err, TUNE_ERR_CONFIG, "%s:%zu:%zu: invalid YAML: %s%s%s (fix the syntax there)",
			 p->path, m->line + 1, m->column + 1, p->yp.problem ? p->yp.problem : "error",
			 p->yp.context ? " " : "", p->yp.context ? p->yp.context : "");
}

static int next_event(struct parser *p, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&p->yp, ev))
		return parse_fail(p);
	return 0;
}

static int add_item(struct ynode *parent, struct ynode *child)
{
	/* An array of pointers to nodes. */
	struct ynode **items = realloc(parent->items, (parent->n + 1) * sizeof(*items)); /* NOLINT(bugprone-sizeof-expression) */

	if (!items)
		return -1;
	items[parent->n++] = child;
	parent->items = items;
	return 0;
}

/* The byte offset of character index ch (a mark's) in the source: marks
 * count characters, UTF-8 takes up to 4 bytes for one. */
static size_t byte_at(struct parser *p, size_t ch)
{
	if (ch < p->at_char)
		p->at_char = p->at_byte = 0;
	while (p->at_char < ch && p->at_byte < p->len) {
		p->at_byte++;
		while (p->at_byte < p->len && ((unsigned char)p->text[p->at_byte] & 0xC0) == 0x80)
			p->at_byte++;
		p->at_char++;
	}
	return p->at_byte;
}

/* n->raw for scalar n of ev when its value is not its source as written. */
static int keep_raw(struct parser *p, const yaml_event_t *ev, struct ynode *n)
{
	size_t from = byte_at(p, ev->start_mark.index), to = byte_at(p, ev->end_mark.index), q = n->plain ? 0 : 1;
	size_t len = ev->data.scalar.length;

	if (to < from || (to - from == len + 2 * q && !memcmp(p->text + from + q, n->value, len)))
		return 0;
	return (n->raw = strndup(p->text + from, to - from)) ? 0 : -1;
}

/* Builds the node that starts with ev (already read); consumes its end. */
static int build_node(struct parser *p, yaml_event_t *ev, int depth, struct ynode **out)
{
	struct ynode *n = calloc(1, sizeof(*n));
	yaml_event_type_t end;
	int rc = TUNE_ERR_SYSTEM;

	*out = NULL;
	if (!n)
		return tune_fail(p->err, TUNE_ERR_SYSTEM, "out of memory reading '%s'", p->path);
	n->line = ev->start_mark.line + 1;
	n->col = ev->start_mark.column + 1;
	if (depth > YDOC_MAX_DEPTH) {
		rc = tune_fail(p->err, TUNE_ERR_CONFIG, "%s:%zu:%zu: nesting deeper than %d levels",
			       p->path, n->line, n->col, YDOC_MAX_DEPTH);
		goto fail;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		n->kind = YNODE_SCALAR;
		n->value = strndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		if (!n->value || keep_raw(p, ev, n))
			goto oom;
		*out = n;
		return 0;
	case YAML_ALIAS_EVENT:
		rc = tune_fail(p->err, TUNE_ERR_CONFIG, "%s:%zu:%zu: aliases ('*name') are not supported (write the value out)",
			       p->path, n->line, n->col);
		goto fail;
	case YAML_SEQUENCE_START_EVENT:
		n->kind = YNODE_SEQ;
		end = YAML_SEQUENCE_END_EVENT;
		break;
	case YAML_MAPPING_START_EVENT:
		n->kind = YNODE_MAP;
		end = YAML_MAPPING_END_EVENT;
		break;
	default:
		rc = tune_fail(p->err, TUNE_ERR_CONFIG, "%s:%zu:%zu: unexpected YAML event", p->path, n->line, n->col);
		goto fail;
	}
	for (;;) {
		yaml_event_t child_ev;
		struct ynode *child = NULL;

		if ((rc = next_event(p, &child_ev)) != 0)
			goto fail;
		if (child_ev.type == end) {
			yaml_event_delete(&child_ev);
			break;
		}
		rc = build_node(p, &child_ev, depth + 1, &child);
		yaml_event_delete(&child_ev);
		if (rc || !child)
			goto fail;
		if (n->kind == YNODE_MAP && n->n % 2 == 0 && child->kind != YNODE_SCALAR) {
			rc = tune_fail(p->err, TUNE_ERR_CONFIG, "%s:%zu:%zu: a key must be a plain word, not %s",
				       p->path, child->line, child->col, ynode_kind_name(child->kind));
			ynode_free(child);
			goto fail;
		}
		if (add_item(n, child)) {
			ynode_free(child);
			goto oom;
		}
	}
	*out = n;
	return 0;
oom:
	rc = tune_fail(p->err, TUNE_ERR_SYSTEM, "out of memory reading '%s'", p->path);
fail:
	ynode_free(n);
	return rc;
}

int ydoc_parse(const char *path, const char *text, size_t len, struct ydoc *doc, struct tune_error *err)
{
	struct parser p = { .path = path, .err = err, .text = text, .len = len };
	yaml_event_t ev;
	int rc = 0, done = 0;

	memset(doc, 0, sizeof(*doc));
	doc->path = strdup(path);
	if (!doc->path)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (!yaml_parser_initialize(&p.yp))
		return tune_fail(err, TUNE_ERR_SYSTEM, "cannot initialise the YAML parser");
	yaml_parser_set_input_string(&p.yp, (const unsigned char *)text, len);
	while (!done) {
		if ((rc = next_event(&p, &ev)) != 0)
			break;
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = 1;
			break;
		case YAML_SCALAR_EVENT:
		case YAML_SEQUENCE_START_EVENT:
		case YAML_MAPPING_START_EVENT:
		case YAML_ALIAS_EVENT:
			if (doc->root) {
				rc = tune_fail(err, TUNE_ERR_CONFIG, "%s:%zu:%zu: more than one document (keep one)",
					       path, ev.start_mark.line + 1, ev.start_mark.column + 1);
				done = 1;
				break;
			}
			rc = build_node(&p, &ev, 0, &doc->root);
			if (rc)
				done = 1;
			break;
		default:
			break;
		}
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p.yp);
	if (rc)
		ydoc_free(doc);
	return rc;
}

int ydoc_load(const char *path, struct ydoc *doc, struct tune_error *err)
{
	FILE *f = paths_fopen_regular(path, 0);
	char *buf = NULL;
	size_t len;
	int rc;

	memset(doc, 0, sizeof(*doc));
	if (!f)
		return tune_fail(err, TUNE_ERR_CONFIG, "cannot open '%s': %s", path, paths_strerror(errno));
	buf = malloc(YDOC_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	len = fread(buf, 1, YDOC_MAX_BYTES + 1, f);
	if (ferror(f)) {
		rc = tune_fail(err, TUNE_ERR_CONFIG, "cannot read '%s': %s", path, strerror(errno));
	} else if (len > YDOC_MAX_BYTES) {
		rc = tune_fail(err, TUNE_ERR_CONFIG, "'%s' is larger than %u bytes (is it the right file?)",
			       path, YDOC_MAX_BYTES);
	} else {
		rc = ydoc_parse(path, buf, len, doc, err);
	}
	fclose(f);
	free(buf);
	return rc;
}

void ydoc_free(struct ydoc *doc)
{
	ynode_free(doc->root);
	free(doc->path);
	doc->root = NULL;
	doc->path = NULL;
}
