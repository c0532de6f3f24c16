/* A shared secret: read from a file only its owner can read, compared in
 * constant time. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "token.h"

int token_equal(const char *presented, const char *expected)
{
	size_t lp = strlen(presented), le = strlen(expected);
	unsigned char diff = (unsigned char)(lp != le);

	/* Every byte of the expected token is looked at, whatever matches. */
	for (size_t i = 0; i < le; i++)
		diff |= (unsigned char)(expected[i] ^ (i < lp ? presented[i] : 0));
	return diff == 0;
}

int token_read(const char *path, char *out, size_t len, struct tune_error *err)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	size_t n;
	int whole;

	if (!f)
		return tune_fail(err, TUNE_ERR_CONFIG, "cannot read token file '%s': %s (write a secret of 16 or more "
				 "characters into it)", path, strerror(errno));
	/* Like ssh with a private key: a secret others can read is no secret. */
	if (fstat(fileno(f), &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO))) {
		fclose(f);
		return tune_fail(err, TUNE_ERR_CONFIG, "token file '%s' is accessible by others (mode %04o): refused "
				 "(chmod 600 %s)", path, (unsigned)(st.st_mode & 07777), path);
	}
	if (!fgets(out, (int)len, f))
		out[0] = '\0';
	/* A line that does not fit is an error, not a token silently cut. */
	whole = strchr(out, '\n') || fgetc(f) == EOF;
	fclose(f);
	if (!whole)
		return tune_fail(err, TUNE_ERR_CONFIG, "token file '%s' holds a token over %zu characters (use a "
				 "shorter one, e.g. head -c 24 /dev/urandom | base64)", path, len - 2);
	n = strcspn(out, "\r\n");
	out[n] = '\0';
	if (n < 16)
		return tune_fail(err, TUNE_ERR_CONFIG, "token file '%s' holds %zu characters; a token needs 16 or more "
				 "(e.g. umask 077; head -c 24 /dev/urandom | base64 > %s)", path, n, path);
	return 0;
}
