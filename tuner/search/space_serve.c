/* The replay of a recorded space as an objective for an optimizer of
 * another program (space.h; bench/replay_kt_tpe.py drives Optuna's TPE
 * with it): a request a line on in, an answer a line on out, in the style
 * of the sweep replay's --serve (replay.c). A configuration is named by its
 * values joined by commas, as the record's keys are ("32,4,1,3,1,0,1,1,15,15"),
 * excluded ones too. Each measurement is one kernel process of its own,
 * under the same drift walk and draws as the replay's batch of one. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

/* The point named by key (its values joined by commas), or SPACE_NONE. */
static size_t point_of_key(const struct search_space *sp, const char *key, size_t *coord)
{
	const char *at = key;

	for (size_t i = 0; i < sp->nparams; i++) {
		size_t len = strcspn(at, ","), k;

		for (k = 0; k < sp->params[i].nvalues; k++)
			if (strlen(sp->params[i].values[k]) == len && !strncmp(at, sp->params[i].values[k], len))
				break;
		if (k == sp->params[i].nvalues || (i + 1 < sp->nparams) != (at[len] == ','))
			return SPACE_NONE;
		coord[i] = k;
		at += len + (at[len] == ',');
	}
	return *at ? SPACE_NONE : search_space_point(sp, coord);
}

/* The space as one line of JSON: its parameters' values, as keys write
 * them, and every valid configuration's cost summed; NULL if out of memory. */
static char *space_json(const struct search_space *sp)
{
	json_t *params = json_array(), *o;
	char *text;

	for (size_t i = 0; params && i < sp->nparams; i++) {
		json_t *values = json_array();

		for (size_t k = 0; values && k < sp->params[i].nvalues; k++)
			json_array_append_new(values, json_string(sp->params[i].values[k]));
		json_array_append_new(params, json_pack("{s:s, s:o}", "name", sp->params[i].name, "values", values));
	}
	o = json_pack("{s:s, s:o, s:I, s:I, s:f}", "kernel", sp->kernel, "params", params, "points",
		      (json_int_t)sp->npoints, "valid", (json_int_t)sp->nvalid, "total_ms", sp->total_ms);
	text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(o);
	return text;
}

int search_space_serve(const struct search_space *sp, double sigma, FILE *in, FILE *out)
{
	struct space_measurer m = { 0 };
	size_t *coord = calloc(sp->nparams ? sp->nparams : 1, sizeof(*coord));
	char line[4096], *space = space_json(sp);
	int rc = 0;

	if (!coord || !space || search_space_measurer_init(&m, sp, 0, sigma) != 0)
		rc = -1;
	while (rc == 0 && fgets(line, sizeof(line), in)) {
		size_t len = strcspn(line, "\n"), point;
		char *arg = strchr(line, ' ');
		int32_t c;

		if (!line[len] && !feof(in)) {
			int ch;

			while ((ch = fgetc(in)) != EOF && ch != '\n')
				;
			fprintf(out, "error: a request is one line of at most %zu bytes\n", sizeof(line) - 2);
			fflush(out);
			continue;
		}
		line[len] = '\0';
		if (arg)
			*arg++ = '\0';
		if (!strcmp(line, "space") && !arg) {
			fprintf(out, "%s\n", space);
		} else if (!strcmp(line, "seed") && arg) {
			char *end;
			unsigned long long seed = strtoull(arg, &end, 10);

			if (end == arg || *end) {
				fprintf(out, "error: 'seed N' takes a number, not '%s'\n", arg);
			} else {
				search_space_measurer_free(&m);
				if (search_space_measurer_init(&m, sp, (size_t)seed, sigma) != 0) {
					rc = -1;
					break;
				}
				fprintf(out, "ok\n");
			}
		} else if ((strcmp(line, "measure") != 0 && strcmp(line, "judge") != 0) || !arg) {
			fprintf(out, "error: say 'space', 'seed N', 'measure CONFIG' or 'judge CONFIG'\n");
		} else if ((point = point_of_key(sp, arg, coord)) == SPACE_NONE) {
			fprintf(out, "error: '%s' is not a configuration of the space (its %zu values joined by commas)\n",
				arg, sp->nparams);
		} else if (!strcmp(line, "measure")) {
			double v = search_space_measure(&m, point);

			c = sp->config_of[point];
			if (isnan(v))
				fprintf(out, "invalid %.17g\n", c >= 0 ? sp->configs[c].cost_ms : 0.0);
			else
				fprintf(out, "%.17g %.17g\n", v, sp->configs[c].cost_ms);
		} else {
			c = sp->config_of[point];
			if (c >= 0 && sp->configs[c].valid)
				fprintf(out, "%.17g\n", sp->configs[c].time / sp->configs[sp->best].time);
			else
				fprintf(out, "invalid\n");
		}
		fflush(out);
	}
	search_space_measurer_free(&m);
	free(coord);
	free(space);
	return rc;
}
