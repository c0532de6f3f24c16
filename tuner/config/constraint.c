/* A manifest's constraints: each a small expression over the kernel's
 * parameters, parsed and type-checked once when the manifest loads, then
 * evaluated on a trial's values (the plan's). The language is closed: no
 * name outside the manifest, no function, no loop; a constraint is at most
 * CONSTRAINT_MAX_TEXT bytes and CONSTRAINT_MAX_NODES nodes, so that parsing
 * and evaluating it are bounded whatever a manifest says. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/names.h"
#include "../base/strbuf.h"
#include "config.h"

#define CONSTRAINT_MAX_TEXT 1024
#define CONSTRAINT_MAX_NODES 128
#define CONSTRAINT_MAX_DEPTH 32

enum cop { C_NUM, C_PARAM, C_VARIANT, C_NEG, C_ADD, C_SUB, C_MUL, C_DIV, C_MOD,
	   C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE, C_AND, C_OR, C_NOT };

struct constraint_node {
	int op;       /* enum cop */
	long long v;  /* C_NUM: the value; C_PARAM: the parameter's index */
	int a, b;     /* operands, indices of earlier nodes */
};

/* What a node is while parsing: a number, a condition, a choice's index
 * (of a parameter, or of the variants: of -1), or a word not yet known to
 * be a choice's value or on/off (it is, by what it is compared with). */
enum ctype { T_INT, T_BOOL, T_CHOICE, T_WORD };

struct parser {
	const struct kernel_manifest *m;
	const char *s;
	size_t pos;                 /* the current token */
	int tok;                    /* enum tok */
	size_t tlen;
	struct constraint_node *nodes;
	size_t n;
	struct { int type, of, quoted; size_t at, end; } info[CONSTRAINT_MAX_NODES];
	int depth;
	char why[512];
	size_t where;               /* offset of the error */
	int failed;
};

enum tok { K_END, K_NUM, K_NAME, K_QUOTED, K_OP, K_LP, K_RP };

static int name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.';
}

static int fail(struct parser *p, size_t where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct parser *p, size_t where, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
	p->where = where;
	p->failed = 1;
	return -1;
}

/* The token at p->pos (after blanks) into tok and tlen. */
static int lex(struct parser *p)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", NULL };
	const char *s;

	while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t')
		p->pos++;
	s = p->s + p->pos;
	p->tlen = 1;
	if (!*s)
		return p->tok = K_END, p->tlen = 0, 0;
	if (*s == '(' || *s == ')')
		return p->tok = *s == '(' ? K_LP : K_RP, 0;
	if (isdigit((unsigned char)*s)) {
		while (isdigit((unsigned char)s[p->tlen]))
			p->tlen++;
		if (name_char(s[p->tlen])) {
			while (name_char(s[p->tlen]))
				p->tlen++;
			return fail(p, p->pos, "'%.*s' is neither a number nor a name (a number is digits alone, a "
				    "duration's in ns; quote a choice's value that starts with a digit: '4k')",
				    (int)(p->tlen < 64 ? p->tlen : 64), s);
		}
		return p->tok = K_NUM, 0;
	}
	if (isalpha((unsigned char)*s) || *s == '_') {
		while (name_char(s[p->tlen]))
			p->tlen++;
		return p->tok = K_NAME, 0;
	}
	if (*s == '\'' || *s == '"') {
		while (s[p->tlen] && s[p->tlen] != *s && (name_char(s[p->tlen]) || s[p->tlen] == '-'))
			p->tlen++;
		if (s[p->tlen] != *s || p->tlen == 1)
			return fail(p, p->pos, "a quoted value is a choice's name (letters, digits, '.', '-', '_') "
				    "closed by %c", *s);
		p->tlen++;
		return p->tok = K_QUOTED, 0;
	}
	for (size_t i = 0; ops[i]; i++)
		if (!strncmp(s, ops[i], strlen(ops[i])))
			return p->tok = K_OP, p->tlen = strlen(ops[i]), 0;
	if (*s == '=' || *s == '!' || *s == '&' || *s == '|')
		return fail(p, p->pos, "'%c' is not an operator here (write ==, !=, and, or, not)", *s);
	if (isprint((unsigned char)*s))
		return fail(p, p->pos, "unexpected '%c' (a constraint has numbers, parameters, + - * / %%, == != < <= "
			    "> >=, and, or, not, parentheses)", *s);
	return fail(p, p->pos, "unexpected byte \\x%02x", (unsigned char)*s);
}

static int is(const struct parser *p, int tok, const char *text)
{
	return p->tok == tok && (!text || (strlen(text) == p->tlen && !strncmp(p->s + p->pos, text, p->tlen)));
}

static int advance(struct parser *p)
{
	p->pos += p->tlen;
	return lex(p);
}

static int add(struct parser *p, int op, long long v, int a, int b, int type, int of, size_t at, size_t end)
{
	if (p->n >= CONSTRAINT_MAX_NODES)
		return fail(p, at, "too long: more than %d terms (split it into several constraints)",
			    CONSTRAINT_MAX_NODES);
	p->nodes[p->n] = (struct constraint_node){ op, v, a, b };
	p->info[p->n].type = type;
	p->info[p->n].of = of;
	p->info[p->n].quoted = 0;
	p->info[p->n].at = at;
	p->info[p->n].end = end;
	return (int)p->n++;
}

/* A node's source text, for messages. */
#define SHOWN(p, i) (int)((p)->info[i].end - (p)->info[i].at), (p)->s + (p)->info[i].at

/* The name of m's first choice parameter, or variant, for an example. */
static const char *first_choice(const struct kernel_manifest *m)
{
	for (size_t i = 0; i < m->parameters.n; i++)
		if (MANIFEST_PARAM(m, i)->type == PARAM_CHOICE && MANIFEST_PARAM(m, i)->role != ROLE_PROBE)
			return MANIFEST_PARAM(m, i)->name;
	return "variant";
}

/* A word that names nothing: the closest parameter's name as a hint. */
static int unknown_word(struct parser *p, int i)
{
	const char *names[66];
	char word[72];
	size_t n = 0, len = p->info[i].end - p->info[i].at;
	const char *suggestion;

	for (; n < p->m->parameters.n && n < 64; n++)
		names[n] = MANIFEST_PARAM(p->m, n)->name;
	names[n++] = "variant";
	names[n] = NULL;
	if (p->info[i].quoted)
		return fail(p, p->info[i].at, "%.*s (quoted) is a choice's value: compare a choice with it (%s == %.*s)",
			    SHOWN(p, i), first_choice(p->m), SHOWN(p, i));
	if (len == 3 && !strncmp(p->s + p->info[i].at, "inf", 3))
		return fail(p, p->info[i].at, "inf is a value of a duration that takes it (inf: true): compare that "
			    "parameter with it (timeout_ns == inf)");
	snprintf(word, sizeof(word), "%.*s", (int)(len < 64 ? len : 64), p->s + p->info[i].at);
	suggestion = tune_suggest(word, names);
	return fail(p, p->info[i].at, "'%s' is not a parameter of kernel '%s'%s%s%s", word, p->m->name,
		    suggestion ? " (did you mean '" : " (see 'tune kernels')", suggestion ? suggestion : "",
		    suggestion ? "'?)" : "");
}

static const char *const type_names[] = { "a number", "a condition", "a choice", "a word" };

static int need_int(struct parser *p, int i, const char *op)
{
	if (i < 0 || p->info[i].type == T_INT)
		return i;
	if (p->info[i].type == T_WORD)
		return unknown_word(p, i);
	return fail(p, p->info[i].at, "'%s' takes numbers, and '%.*s' is %s", op, SHOWN(p, i),
		    type_names[p->info[i].type]);
}

/* on, off and their kin as 1 and 0, else -1. */
static int bool_word(const struct parser *p, int i)
{
	static const char *const yes[] = { "on", "true", "yes", NULL }, *const no[] = { "off", "false", "no", NULL };
	char word[8];
	size_t len = p->info[i].end - p->info[i].at;

	if (p->info[i].quoted || len >= sizeof(word))
		return -1;
	snprintf(word, sizeof(word), "%.*s", (int)len, p->s + p->info[i].at);
	return tune_name_index(yes, word) >= 0 ? 1 : tune_name_index(no, word) >= 0 ? 0 : -1;
}

static int need_bool(struct parser *p, int i, const char *op)
{
	if (i < 0 || p->info[i].type == T_BOOL)
		return i;
	if (p->info[i].type == T_WORD && bool_word(p, i) >= 0) {
		p->nodes[i].v = bool_word(p, i);
		p->info[i].type = T_BOOL;
		return i;
	}
	if (p->info[i].type == T_WORD)
		return unknown_word(p, i);
	return fail(p, p->info[i].at, "%s%s%s takes conditions, and '%.*s' is %s (compare it: ==, !=, <, ...)",
		    op ? "'" : "a constraint", op ? op : "", op ? "'" : "", SHOWN(p, i), type_names[p->info[i].type]);
}

/* Word w as a value of what node other is: a choice's name, or on/off. */
static int resolve_word(struct parser *p, int w, int other)
{
	const struct kernel_param *par = p->info[other].of >= 0 ? MANIFEST_PARAM(p->m, p->info[other].of) : NULL;
	size_t len = p->info[w].end - p->info[w].at - (p->info[w].quoted ? 2 : 0);
	char word[72], why[512];
	long long x;

	snprintf(word, sizeof(word), "%.*s", (int)(len < 64 ? len : 64), p->s + p->info[w].at + p->info[w].quoted);
	if (p->info[other].type == T_BOOL) {
		if (bool_word(p, w) < 0)
			return fail(p, p->info[w].at, "'%.*s' is a condition: compare it with on or off%s, not '%s'",
				    SHOWN(p, other), p->info[w].quoted ? " (unquoted)" : "", word);
		p->nodes[w].v = bool_word(p, w);
	} else if (p->info[other].type == T_INT && par && par->inf && !p->info[w].quoted && !strcmp(word, "inf")) {
		p->nodes[w].v = LLONG_MAX; /* as a sweep's inf reaches the kernel */
	} else if (p->info[other].type != T_CHOICE) {
		return p->info[w].quoted ? fail(p, p->info[w].at, "'%.*s' is a number: '%s' (quoted) is a choice's "
						"value", SHOWN(p, other), word) : unknown_word(p, w);
	} else if (!par) {
		const char *suggestion = conf_strs_suggest(&p->m->variants, word);

		if ((x = manifest_variant(p->m, word)) < 0)
			return fail(p, p->info[w].at, "'%s' is not a variant of kernel '%s'%s%s%s", word, p->m->name,
				    suggestion ? " (did you mean '" : "", suggestion ? suggestion : "", suggestion ? "'?)" : "");
		p->nodes[w].v = x;
	} else if (manifest_param_value(par, word, &x, why, sizeof(why)) != 0) {
		return fail(p, p->info[w].at, "parameter '%s': %s", par->name, why);
	} else {
		p->nodes[w].v = x;
	}
	p->info[w].type = p->info[other].type;
	p->info[w].of = p->info[other].of;
	return w;
}

static int parse_or(struct parser *p);

static int atom(struct parser *p)
{
	size_t at = p->pos, len = p->tlen;
	char *end;
	int i;

	if (p->failed)
		return -1;
	if (p->tok == K_NUM) {
		long long v;

		errno = 0;
		v = strtoll(p->s + at, &end, 10);
		if (errno == ERANGE)
			return fail(p, at, "%.*s is too large", (int)len, p->s + at);
		return advance(p) ? -1 : add(p, C_NUM, v, -1, -1, T_INT, -1, at, at + len);
	}
	if (p->tok == K_LP) {
		if (++p->depth > CONSTRAINT_MAX_DEPTH)
			return fail(p, at, "parentheses nested deeper than %d", CONSTRAINT_MAX_DEPTH);
		if (advance(p) || (i = parse_or(p)) < 0)
			return -1;
		if (p->tok != K_RP)
			return fail(p, p->pos, "expected ')' to close the '(' at column %zu, got %s", at + 1,
				    p->tok == K_END ? "the end" : "more");
		p->depth--;
		p->info[i].at = at;
		p->info[i].end = p->pos + 1;
		return advance(p) ? -1 : i;
	}
	if (p->tok == K_QUOTED || (p->tok == K_NAME && !is(p, K_NAME, "and") && !is(p, K_NAME, "or") &&
				   !is(p, K_NAME, "not"))) {
		char word[72];
		const struct kernel_param *par;
		int quoted = p->tok == K_QUOTED;

		snprintf(word, sizeof(word), "%.*s", (int)(len < 64 ? len : 64), p->s + at);
		if (advance(p))
			return -1;
		/* A quoted word is a value, never a parameter. */
		par = quoted || len > 64 ? NULL : manifest_param(p->m, word);
		if (par && par->role == ROLE_PROBE)
			return fail(p, at, "parameter '%s' is set by the probe run alone, never by a trial (a constraint "
				    "cannot name it)", word);
		if (par)
			return add(p, C_PARAM, par - MANIFEST_PARAM(p->m, 0), -1, -1,
				   par->type == PARAM_CHOICE ? T_CHOICE : par->type == PARAM_BOOL ? T_BOOL : T_INT,
				   (int)(par - MANIFEST_PARAM(p->m, 0)), at, at + len);
		if (!strcmp(word, "variant") && len == 7)
			return add(p, C_VARIANT, 0, -1, -1, T_CHOICE, -1, at, at + len);
		i = add(p, C_NUM, 0, -1, -1, T_WORD, -1, at, at + len);
		if (i >= 0)
			p->info[i].quoted = quoted;
		return i;
	}
	return fail(p, at, "expected a number, a parameter or '(', got %s%.*s%s", p->tok == K_END ? "the end" : "'",
		    (int)len, p->s + at, p->tok == K_END ? "" : "'");
}

static int unary(struct parser *p)
{
	size_t at = p->pos;
	int i;

	if (!is(p, K_OP, "-"))
		return atom(p);
	if (++p->depth > CONSTRAINT_MAX_DEPTH)
		return fail(p, at, "nested deeper than %d", CONSTRAINT_MAX_DEPTH);
	if (advance(p) || (i = need_int(p, unary(p), "-")) < 0)
		return -1;
	p->depth--;
	return add(p, C_NEG, 0, i, -1, T_INT, -1, at, p->info[i].end);
}

/* Left-associative binary operators of one level: ops[k] makes cops[k]. */
static int binary(struct parser *p, int (*next)(struct parser *), const char *const *ops, const int *cops)
{
	int l = next(p);

	while (l >= 0) {
		size_t k = 0;
		int r;

		while (ops[k] && !is(p, K_OP, ops[k]) && !is(p, K_NAME, ops[k]))
			k++;
		if (!ops[k])
			break;
		if (advance(p) || (r = next(p)) < 0)
			return -1;
		if (cops[k] == C_AND || cops[k] == C_OR) {
			if (need_bool(p, l, ops[k]) < 0 || need_bool(p, r, ops[k]) < 0)
				return -1;
		} else if (need_int(p, l, ops[k]) < 0 || need_int(p, r, ops[k]) < 0) {
			return -1;
		}
		l = add(p, cops[k], 0, l, r, cops[k] == C_AND || cops[k] == C_OR ? T_BOOL : T_INT, -1,
			p->info[l].at, p->info[r].end);
	}
	return l;
}

static int product(struct parser *p)
{
	static const char *const ops[] = { "*", "/", "%", NULL };
	static const int cops[] = { C_MUL, C_DIV, C_MOD };

	return binary(p, unary, ops, cops);
}

static int sum(struct parser *p)
{
	static const char *const ops[] = { "+", "-", NULL };
	static const int cops[] = { C_ADD, C_SUB };

	return binary(p, product, ops, cops);
}

/* Two sides of one kind: numbers; or for == and !=, two conditions, or a
 * choice and one of its values (or another value of the same choice). */
static int compare(struct parser *p)
{
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=", NULL };
	static const int cops[] = { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };
	int l = sum(p), r, k = 0;
	const char *op;

	if (l < 0 || p->tok != K_OP)
		return l;
	while (ops[k] && !is(p, K_OP, ops[k]))
		k++;
	if (!ops[k])
		return l;
	op = ops[k];
	if (advance(p) || (r = sum(p)) < 0)
		return -1;
	if (cops[k] != C_EQ && cops[k] != C_NE) {
		if (need_int(p, l, op) < 0 || need_int(p, r, op) < 0)
			return -1;
	} else if (p->info[l].type == T_WORD && p->info[r].type == T_WORD) {
		return unknown_word(p, l);
	} else if (p->info[l].type == T_WORD || p->info[r].type == T_WORD) {
		if (p->info[l].type == T_WORD ? resolve_word(p, l, r) < 0 : resolve_word(p, r, l) < 0)
			return -1;
	} else if (p->info[l].type != p->info[r].type ||
		   (p->info[l].type == T_CHOICE && p->info[l].of != p->info[r].of)) {
		return fail(p, p->info[l].at, "'%.*s' and '%.*s' are not of one kind (%s%s%s): compare a number "
			    "with a number, a choice with its values", SHOWN(p, l), SHOWN(p, r),
			    p->info[l].type == p->info[r].type ? "choices of two parameters" : type_names[p->info[l].type],
			    p->info[l].type == p->info[r].type ? "" : " and ",
			    p->info[l].type == p->info[r].type ? "" : type_names[p->info[r].type]);
	}
	if (p->tok == K_OP && strchr("=!<>", p->s[p->pos]))
		return fail(p, p->pos, "a comparison has two sides: join two with and (a <= b and b <= c)");
	return add(p, cops[k], 0, l, r, T_BOOL, -1, p->info[l].at, p->info[r].end);
}

static int negation(struct parser *p)
{
	size_t at = p->pos;
	int i;

	if (!is(p, K_NAME, "not"))
		return compare(p);
	if (++p->depth > CONSTRAINT_MAX_DEPTH)
		return fail(p, at, "nested deeper than %d", CONSTRAINT_MAX_DEPTH);
	if (advance(p) || (i = need_bool(p, negation(p), "not")) < 0)
		return -1;
	p->depth--;
	return add(p, C_NOT, 0, i, -1, T_BOOL, -1, at, p->info[i].end);
}

static int conjunction(struct parser *p)
{
	static const char *const ops[] = { "and", NULL };
	static const int cops[] = { C_AND };

	return binary(p, negation, ops, cops);
}

static int parse_or(struct parser *p)
{
	static const char *const ops[] = { "or", NULL };
	static const int cops[] = { C_OR };

	return binary(p, conjunction, ops, cops);
}

int constraint_parse(const struct kernel_manifest *m, const char *text, struct kernel_constraint *c, size_t *where,
		     char *why, size_t len)
{
	struct parser *p = calloc(1, sizeof(*p));
	int root = -1;

	memset(c, 0, sizeof(*c));
	*where = 0;
	if (!p || !(p->nodes = malloc(CONSTRAINT_MAX_NODES * sizeof(*p->nodes)))) {
		free(p);
		snprintf(why, len, "out of memory");
		return -1;
	}
	p->m = m;
	p->s = text;
	if (strlen(text) > CONSTRAINT_MAX_TEXT)
		fail(p, 0, "%zu bytes, over the limit of %d (split it into several constraints)", strlen(text),
		     CONSTRAINT_MAX_TEXT);
	else if (!lex(p) && (root = parse_or(p)) >= 0 && p->tok != K_END)
		fail(p, p->pos, "expected and, or, an operator or the end, got %s%.*s%s", p->tok == K_QUOTED ? "" : "'",
		     (int)p->tlen, p->s + p->pos, p->tok == K_QUOTED ? "" : "'");
	else if (root >= 0)
		root = need_bool(p, root, NULL);
	if (p->failed) {
		snprintf(why, len, "%s", p->why);
		*where = p->where;
		free(p->nodes);
		free(p);
		return -1;
	}
	c->nodes = p->nodes;
	c->n = p->n;
	c->root = root;
	free(p);
	return 0;
}

/* Node i's value into *out; -1 when it has none (x / 0, x % 0, an
 * overflow). and, or short-circuit, so that a guard (tile == 0 or ...)
 * keeps the undefined side unevaluated. */
static int eval(const struct kernel_constraint *c, int i, int variant, const long long *values, long long *out)
{
	const struct constraint_node *nd = &c->nodes[i];
	long long a = 0, b = 0;

	switch (nd->op) {
	case C_NUM: return *out = nd->v, 0;
	case C_PARAM: return *out = values[nd->v], 0;
	case C_VARIANT: return *out = variant, 0;
	case C_AND:
	case C_OR:
		if (eval(c, nd->a, variant, values, &a) != 0)
			return -1;
		if ((nd->op == C_AND) != (a != 0))
			return *out = a != 0, 0;
		if (eval(c, nd->b, variant, values, &b) != 0)
			return -1;
		return *out = b != 0, 0;
	case C_NOT:
	case C_NEG:
		if (eval(c, nd->a, variant, values, &a) != 0)
			return -1;
		if (nd->op == C_NOT)
			return *out = !a, 0;
		return __builtin_sub_overflow(0, a, out) ? -1 : 0;
	default:
		break;
	}
	if (eval(c, nd->a, variant, values, &a) != 0 || eval(c, nd->b, variant, values, &b) != 0)
		return -1;
	switch (nd->op) {
	case C_ADD: return __builtin_add_overflow(a, b, out) ? -1 : 0;
	case C_SUB: return __builtin_sub_overflow(a, b, out) ? -1 : 0;
	case C_MUL: return __builtin_mul_overflow(a, b, out) ? -1 : 0;
	case C_DIV:
		if (!b || (a == LLONG_MIN && b == -1))
			return -1;
		return *out = a / b, 0;
	case C_MOD:
		if (!b)
			return -1;
		return *out = b == -1 ? 0 : a % b, 0;
	case C_EQ: return *out = a == b, 0;
	case C_NE: return *out = a != b, 0;
	case C_LT: return *out = a < b, 0;
	case C_LE: return *out = a <= b, 0;
	case C_GT: return *out = a > b, 0;
	case C_GE: return *out = a >= b, 0;
	default: return -1;
	}
}

int constraint_holds(const struct kernel_constraint *c, int variant, const long long *values)
{
	long long v = 0;

	/* A parameter the variant does not take: nothing to constrain. */
	for (size_t i = 0; i < c->n; i++)
		if (c->nodes[i].op == C_PARAM && values[c->nodes[i].v] == PARAM_NA)
			return 1;
	return c->n && eval(c, c->root, variant, values, &v) == 0 && v;
}

int constraint_names(const struct kernel_constraint *c, size_t param, size_t nparams)
{
	for (size_t i = 0; i < c->n; i++)
		if ((c->nodes[i].op == C_PARAM && (size_t)c->nodes[i].v == param) ||
		    (c->nodes[i].op == C_VARIANT && param == nparams))
			return 1;
	return 0;
}

int constraints_compile(struct kernel_manifest *m, struct tune_error *err)
{
	const struct conf_texts *t = &m->constraints;

	if (t->n > CONSTRAINT_MAX)
		return conf_fail_at(err, m->path, t->v[CONSTRAINT_MAX].at, "key 'constraints': more than %d constraints "
				    "(join some with and)", CONSTRAINT_MAX);
	if (t->n && !(m->constraint = calloc(t->n, sizeof(*m->constraint))))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	for (size_t k = 0; k < t->n; k++) {
		char why[600], shown[200], *text = t->v[k].text;
		size_t where, len;

		/* A block scalar's line breaks are blanks, its last one no part of it. */
		for (char *ch = text; *ch; ch++)
			if (*ch == '\n' || *ch == '\r')
				*ch = ' ';
		for (len = strlen(text); len && (text[len - 1] == ' ' || text[len - 1] == '\t'); len--)
			text[len - 1] = '\0';
		if (constraint_parse(m, text, &m->constraint[k], &where, why, sizeof(why)) == 0)
			continue;
		names_show(text, 0, shown, sizeof(shown));
		return conf_fail_at(err, m->path, conf_text_where(&t->v[k], where), "key 'constraints': in '%s': %s",
				    shown, why);
	}
	return 0;
}

void constraints_free(struct kernel_manifest *m)
{
	for (size_t k = 0; m->constraint && k < m->constraints.n; k++)
		free(m->constraint[k].nodes);
	free(m->constraint);
	m->constraint = NULL;
}
