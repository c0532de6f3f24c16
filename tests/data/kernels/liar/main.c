/* A kernel that breaks the protocol as --defect says, written without the
 * SDK, for tests/e2e/kernel_check.sh: tune kernel check must name each
 * defect. LIAR_VARIANT 1 computes another checksum when the defect is
 * "checksum", and alone takes no g over 16 when it is "range". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef LIAR_VARIANT
#define LIAR_VARIANT 0
#endif

int main(int argc, char **argv)
{
	long runs = 1, warmup = 0, g[16];
	size_t ng = 0;
	const char *defect = "none";

	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--runs"))
			runs = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--warmup"))
			warmup = strtol(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "--defect"))
			defect = argv[i + 1];
		else if (!strcmp(argv[i], "--g"))
			for (char *p = argv[i + 1]; *p && ng < 16; p += *p == ',')
				g[ng++] = strtol(p, &p, 10);
	}
	if (!ng)
		g[ng++] = 1;
	for (size_t k = 0; k < ng && LIAR_VARIANT && !strcmp(defect, "range"); k++)
		if (g[k] > 16) {
			fprintf(stderr, "liar: option '--g': %ld is out of range [1, 16]\n", g[k]);
			return 2;
		}
	if (!strcmp(defect, "slow"))
		sleep(30);
	if (!strcmp(defect, "fails")) {
		fprintf(stderr, "liar: the device is gone\n");
		return 3;
	}
	for (long r = 0; r < warmup + runs; r++)
		for (size_t k = 0; k < ng; k++) {
			int warm = r < warmup;

			if (!strcmp(defect, "unreported") && k == ng - 1)
				continue;
			if (!strcmp(defect, "garbage") && r == 0 && k == 0)
				printf("measuring...\n");
			printf("{\"g\":%ld,\"run\":%ld,\"warmup\":%s,\"%s\":%.1f", g[k], warm ? r : r - warmup,
			       warm ? "true" : "false", strcmp(defect, "mistyped") ? "ns_per_item" : "ns_per_itme", 10.0 + g[k]);
			if (strcmp(defect, "missing"))
				printf(",\"checksum\":%d", strcmp(defect, "zero") ? 42 + (LIAR_VARIANT && !strcmp(defect, "checksum")) : 0);
			printf("}\n");
		}
	fflush(stdout);
	if ((!strcmp(defect, "background") || !strcmp(defect, "linger")) && fork() == 0) {
		sleep(!strcmp(defect, "linger") ? 3 : 30); /* holds standard output after its parent exits */
		return 0;
	}
	return 0;
}
