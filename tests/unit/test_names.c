/* Names from outside and the sinks they reach: the name rule, the escapes
 * for C strings, C comments and file names, the bounded appends, and which
 * agent URLs send a token in clear. Table-driven. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../report/escape.h"
#include "../../tuner/base/names.h"
#include "../../tuner/base/strbuf.h"
#include "../../tuner/config/config.h"
#include "../../tuner/run/http.h"
#include "../../tuner/run/run.h"
#include "../check.h"

static void test_names(void)
{
	static const struct {
		const char *name;
		int ok;
		const char *why;
	} cases[] = {
		{ "epyc", 1, NULL },
		{ "node-01.cluster_a", 1, NULL },
		{ "0abc", 1, NULL },
		{ "", 0, "cannot be empty" },
		{ "../../x", 0, "'../../x' has '/' at character 3" },
		{ ".x", 0, "'.x' starts with '.'" },
		{ "a/b", 0, "has '/' at character 2" },
		{ "a..b", 0, "holds '..'" },
		{ "-rf", 0, "starts with '-'" },
		{ "x\"y", 0, "has '\"' at character 2" },
		{ "x'y", 0, "has ''' at character 2" },
		{ "a b", 0, "has ' ' at character 2" },
		{ "a\nb", 0, "byte 0x0a at character 2" },
		{ "a\x1b[2Jb", 0, "byte 0x1b at character 2" },
		{ "caf\xc3\xa9", 0, "byte 0xc3 at character 4" },
		{ "x`id`", 0, "has '`'" },
		{ "x$(id)", 0, "has '$'" },
		{ "0123456789012345678901234567890123456789012345678901234567890123", 1, NULL },
		{ "01234567890123456789012345678901234567890123456789012345678901234", 0, "65 characters long, over 64" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char why[256] = "";
		int rc = names_check(cases[i].name, why, sizeof(why));

		CHECK((rc == 0) == cases[i].ok, "name %zu: rc %d (%s)", i, rc, why);
		if (cases[i].why)
			CHECK_CONTAINS(why, cases[i].why);
		CHECK(!strchr(why, '\n') && !strchr(why, '\x1b'), "the message echoes a control byte: %s", why);
	}
}

/* One table for both C escapes: the escape, its input and what it writes. */
static void test_c_escapes(void)
{
	static const struct {
		const char *(*escape)(const char *, char *, size_t);
		const char *in, *out;
	} cases[] = {
		{ escape_c_string, "local", "\"local\"" },
		{ escape_c_string, "a\"b", "\"a\\\"b\"" },
		{ escape_c_string, "a\\", "\"a\\\\\"" },
		{ escape_c_string, "?\?/", "\"\\?\\?/\"" },
		{ escape_c_string, "x\ny", "\"x\\012y\"" },
		{ escape_c_string, "\x01" "7", "\"\\0017\"" },
		{ escape_c_string, "\xff", "\"\\377\"" },
		{ escape_c_comment, "local", "local" },
		{ escape_c_comment, "x */ int evil; /*", "x * / int evil; / * " },
		{ escape_c_comment, "x*", "x* " },
		{ escape_c_comment, "/x", " /x" },
		{ escape_c_comment, "a\nb\x1b", "a?b?" },
		{ escape_c_comment, "**/", "** /" },
	};
	char out[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cases[i].escape(cases[i].in, out, sizeof(out));
		CHECK(!strcmp(out, cases[i].out), "escape %zu: got '%s', want '%s'", i, out, cases[i].out);
	}
	/* A string literal is cut between escapes and always closed. */
	escape_c_string("\"\"\"\"\"\"", out, 8);
	CHECK(!strcmp(out, "\"\\\"\\\"\""), "cut: %s", out);
	escape_c_string("abc", out, 3);
	CHECK(!strcmp(out, "\"\""), "tiny buffer: %s", out);
	/* A comment cut right after a '*' leaves no "*" "/" with what follows. */
	escape_c_comment("aaaaaa*/", out, 8);
	CHECK(out[strlen(out) - 1] != '*', "cut after '*': '%s'", out);
}

static void test_file_name(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "epyc", "epyc" }, { "../../x", "_._.._x" }, { "a/b", "a_b" }, { "", "_" }, { ".", "_" },
		{ "x'$(id)", "x___id_" },
	};
	char out[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		escape_file_name(cases[i].in, out, sizeof(out));
		CHECK(!strcmp(out, cases[i].out), "file name %zu: got '%s', want '%s'", i, out, cases[i].out);
	}
}

/* CSV: one field whatever it holds, and never a formula. */
static void test_csv_field(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "interleaved", "interleaved" }, { "-", "-" }, { "-1.5", "-1.5" }, { "+3", "+3" },
		{ "a,b", "\"a,b\"" }, { "x\ny", "\"x\ny\"" }, { "say \"hi\"", "\"say \"\"hi\"\"\"" },
		{ "=1+1", "\"'=1+1\"" }, { "+cmd", "\"'+cmd\"" }, { "-2+3*cmd|' /C calc'!A0", "\"'-2+3*cmd|' /C calc'!A0\"" },
		{ "@SUM(A1)", "\"'@SUM(A1)\"" }, { "\t=x", "\"'\t=x\"" }, { "=a,\"b", "\"'=a,\"\"b\"" },
		{ "a\x1b]0;t\x07", "a\\x1b]0;t\\x07" }, { "\xff", "\\xff" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[128] = "";
		FILE *f = fmemopen(out, sizeof(out) - 1, "w");

		if (!f)
			continue;
		escape_csv_field(f, cases[i].in);
		fclose(f);
		CHECK(!strcmp(out, cases[i].out), "csv %zu: got <%s>, want <%s>", i, out, cases[i].out);
	}
}

static void test_appends(void)
{
	char buf[16];
	size_t used = 0;
	struct strbuf b = STRBUF_INIT;
	char *whole;

	memset(buf, 'X', sizeof(buf));
	/* Far past the end: *used stays inside, nothing is written out of bounds. */
	for (int i = 0; i < 100; i++)
		str_appendf(buf, sizeof(buf) - 4, &used, "%s", "0123456789");
	CHECK(used == sizeof(buf) - 5, "used %zu", used);
	CHECK(strlen(buf) == sizeof(buf) - 5, "len %zu", strlen(buf));
	CHECK(!memcmp(buf + sizeof(buf) - 4, "XXXX", 4), "wrote past the given size");
	for (int i = 0; i < 200; i++)
		strbuf_addf(&b, "-DFLAG_%d=%d ", i, i);
	strbuf_add(&b, "end");
	whole = strbuf_detach(&b);
	CHECK(whole && strstr(whole, "-DFLAG_199=199 end"), "the strbuf kept everything");
	CHECK(whole && strlen(whole) > 2500, "length %zu", whole ? strlen(whole) : 0);
	free(whole);
	CHECK(!strcmp(strbuf_str(&b), ""), "detached strbuf is empty");
}

static void test_clear_remote(void)
{
	static const struct {
		const char *url;
		int clear;
	} cases[] = {
		{ "http://127.0.0.1:7781", 0 }, { "http://127.0.0.2:7781/", 0 }, { "http://localhost:7781", 0 },
		{ "http://[::1]:7781", 0 }, { "https://epyc1:7781", 0 }, { "http://epyc1:7781", 1 },
		{ "http://10.0.0.5:7781", 1 }, { "http://127.0.0.1.evil.com:7781", 1 }, { "http://localhost.evil:1", 1 },
		{ "http://[fe80::1]:7781", 1 }, { "http://u:p@epyc:7781", 1 }, { "http://u:p@127.0.0.1:7781", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(http_is_clear_remote(cases[i].url) == cases[i].clear, "url %s", cases[i].url);
}

/* The Slurm user becomes an HTTP header: a CR or LF in it is refused before
 * anything is sent. */
static void test_slurm_user(void)
{
	struct platform_slurm cfg;
	struct slurm_client c;
	struct tune_error err;

	memset(&cfg, 0, sizeof(cfg));
	cfg.url = "http://127.0.0.1:9";
	cfg.partition = "p";
	cfg.shared_dir = "/tmp";
	cfg.user = "alice\r\nX-SLURM-USER-NAME: root";
	CHECK(slurm_client_open(&c, &cfg, 0, &err) == TUNE_ERR_CONFIG, "a user with CR LF is refused");
	CHECK_CONTAINS(err.msg, "slurm user '?' has a control character");
}

/* A job output file in a directory others share: a link there is refused. */
static void test_nofollow(void)
{
	char dir[] = "/tmp/test_names.XXXXXX", real[64], link[64];
	FILE *f;
	char *text;

	CHECK(mkdtemp(dir) != NULL, "mkdtemp");
	snprintf(real, sizeof(real), "%s/real", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	f = fopen(real, "w");
	CHECK(f != NULL, "create %s", real);
	if (f) {
		fputs("secret", f);
		fclose(f);
	}
	CHECK(symlink(real, link) == 0, "symlink");
	text = paths_read_file_nofollow(link, 100);
	CHECK(text == NULL, "a symbolic link is not followed");
	free(text);
	text = paths_read_file_nofollow(real, 100);
	CHECK(text && !strcmp(text, "secret"), "a plain file is read");
	free(text);
	unlink(link);
	unlink(real);
	rmdir(dir);
}

/* Names that become one C identifier are found, with their places. */
static void test_c_identifier_clash(void)
{
	static const char *const clash[] = { "epyc", "a-b", "m1", "a_b", NULL };
	static const char *const cased[] = { "Fast", "fast" };
	static const char *const apart[] = { "a-b", "a_bc", "ab", "a.b.", NULL };
	size_t a = 9, b = 9;

	CHECK(escape_c_identifier_clash(clash, -1, &a, &b) && a == 1 && b == 3, "a-b and a_b: %zu %zu", a, b);
	CHECK(escape_c_identifier_clash(cased, 2, &a, &b) && a == 0 && b == 1, "Fast and fast");
	CHECK(!escape_c_identifier_clash(apart, -1, &a, &b), "a-b, a_bc, ab, a.b. are apart");
	CHECK(!escape_c_identifier_clash(cased, 1, &a, &b), "one name has no twin");
}

int main(void)
{
	test_names();
	test_c_escapes();
	test_c_identifier_clash();
	test_file_name();
	test_csv_field();
	test_appends();
	test_clear_remote();
	test_slurm_user();
	test_nofollow();
	return check_done("test_names");
}
