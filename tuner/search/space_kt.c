/* Kernel Tuner's cache file as a recorded space (space.h). The file is a
 * JSON object: tune_params_keys (the parameters' names, in the order of the
 * keys' values), tune_params (each one's values), objective ("time", in ms,
 * lower is better) and cache: per configuration, under its values joined by
 * commas ("16,1,1,1,0,0,0,1,15,15"), an object with each parameter's value,
 * time (the mean of times, or a string such as "RuntimeFailedConfig" for a
 * configuration that failed), times (each run, ms), compile_time and
 * benchmark_time (ms; verification_time, framework_time and strategy_time
 * are read by nothing). Everything in it is checked: the file is data. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/runner.h"
#include "../base/strbuf.h"
#include "search.h"

/* Text from the file, shown in a message: cut, and a byte that is not
 * printable ASCII shown as '?'. */
static const char *shown(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? s[i] : '?';
	buf[i] = '\0';
	if (s[i] && len > 4)
		memcpy(buf + len - 4, "...", 4);
	return buf;
}

/* A value of tune_params as a key writes it (Python's str()). */
static char *value_text(const json_t *v)
{
	char buf[64];

	switch (json_typeof(v)) {
	case JSON_INTEGER:
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		break;
	case JSON_REAL:
		/* The shortest text that reads back as the value, with a point. */
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, json_real_value(v));
			if (strtod(buf, NULL) == json_real_value(v))
				break;
		}
		if (!strpbrk(buf, ".eni")) {
			size_t used = strlen(buf);

			str_appendf(buf, sizeof(buf), &used, ".0");
		}
		break;
	case JSON_STRING:
		return strdup(json_string_value(v));
	case JSON_TRUE:
		return strdup("True");
	case JSON_FALSE:
		return strdup("False");
	default:
		return NULL;
	}
	return strdup(buf);
}

/* Whether a key's value text says the value v of its object. */
static int says(const char *text, const json_t *v)
{
	char *end;
	double d;

	switch (json_typeof(v)) {
	case JSON_INTEGER:
	case JSON_REAL:
		errno = 0;
		d = strtod(text, &end);
		return !errno && end != text && !*end && d == json_number_value(v);
	case JSON_STRING:
		return !strcmp(text, json_string_value(v));
	case JSON_TRUE:
		return !strcmp(text, "True") || !strcmp(text, "true") || !strcmp(text, "1");
	case JSON_FALSE:
		return !strcmp(text, "False") || !strcmp(text, "false") || !strcmp(text, "0");
	default:
		return 0;
	}
}

/* The same value (an integer equal to a real, too). */
static int same_value(const json_t *a, const json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_equal(a, b);
}

/* A number of a configuration's object, >= 0 and finite, into *out; absent
 * is 0 unless required. */
static int number_of(const json_t *obj, const char *field, int required, double *out, const char *name,
		     const char *key, struct tune_error *err)
{
	const json_t *v = json_object_get(obj, field);

	*out = 0;
	if (!v && !required)
		return 0;
	if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: cache key '%s': '%s' is %s (a number of ms, 0 or more)",
				 name, key, field, v ? "not a number of 0 or more" : "missing");
	*out = json_number_value(v);
	return 0;
}

/* A failure Kernel Tuner records in place of a time: InvalidConfig,
 * CompilationFailedConfig, RuntimeFailedConfig (its error classes). */
static int failure_name(const json_t *v)
{
	const char *s = json_string_value(v);
	size_t n = s ? strlen(s) : 0;

	return n > 6 && !strcmp(s + n - 6, "Config");
}

/* The runs of a valid configuration. */
static int times_of(struct space_config *c, const json_t *obj, const char *name, const char *key,
		    struct tune_error *err)
{
	const json_t *times = json_object_get(obj, "times"), *v;
	size_t i;

	if (!json_is_array(times) || !json_array_size(times))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: cache key '%s': 'times' is %s (each recorded run, ms)", name,
				 key, times ? "not an array of numbers" : "missing");
	if (!(c->times = malloc(json_array_size(times) * sizeof(*c->times))))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	json_array_foreach(times, i, v) {
		if (!json_is_number(v) || !isfinite(json_number_value(v)) || json_number_value(v) < 0)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: cache key '%s': 'times' is not an array of numbers "
					 "(item %zu)", name, key, i);
		c->times[i] = json_number_value(v);
	}
	c->ntimes = json_array_size(times);
	return 0;
}

/* One configuration of the cache, key: obj, into sp's next; vals[i] are
 * tune_params' values of parameter i. */
static int config_of(struct search_space *sp, const json_t *const *vals, const char *rawkey, const json_t *obj,
		     size_t *coord, const char *name, struct tune_error *err)
{
	struct space_config *c = &sp->configs[sp->nconfigs];
	char key[96], *text = NULL, *at;
	const json_t *time;
	double compile, bench;
	size_t point;
	int rc = 0;

	shown(rawkey, key, sizeof(key));
	if (!json_is_object(obj))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: cache key '%s': not an object", name, key);
	if (!(text = strdup(rawkey)) || !(c->key = strdup(rawkey))) {
		free(text);
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	}
	sp->nconfigs++;
	at = text;
	for (size_t i = 0; !rc && i < sp->nparams; i++) {
		const char *pname = sp->params[i].name;
		const json_t *v = json_object_get(obj, pname);
		char *comma = strchr(at, ','), shown_v[48];
		size_t j;

		if (comma)
			*comma = '\0';
		if ((i + 1 < sp->nparams && !comma) || (i + 1 == sp->nparams && comma)) {
			rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: cache key '%s': not %zu values joined by commas, one per "
				       "parameter of 'tune_params_keys'", name, key, sp->nparams);
			break;
		}
		if (!v)
			rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: cache key '%s': no '%s'", name, key, pname);
		else if (!says(at, v))
			rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: cache key '%s': its '%s' disagrees with the key's value "
				       "'%s'", name, key, pname, shown(at, shown_v, sizeof(shown_v)));
		for (j = 0; !rc && j < sp->params[i].nvalues && !same_value(v, json_array_get(vals[i], j)); j++)
			;
		if (!rc && j == sp->params[i].nvalues)
			rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: cache key '%s': '%s' %s is none of its values in "
				       "'tune_params'", name, key, pname, shown(at, shown_v, sizeof(shown_v)));
		coord[i] = j;
		at = comma ? comma + 1 : NULL;
	}
	free(text);
	if (rc)
		return rc;
	point = search_space_point(sp, coord);
	if (sp->config_of[point] >= 0) {
		char other[96];

		return tune_fail(err, TUNE_ERR_CONFIG, "%s: cache keys '%s' and '%s' are the same configuration", name,
				 shown(sp->configs[sp->config_of[point]].key, other, sizeof(other)), key);
	}
	sp->config_of[point] = (int32_t)(sp->nconfigs - 1);
	time = json_object_get(obj, "time");
	if (failure_name(time)) {
		/* An invalid configuration costs what finding it out took: a
		 * tuner compiles it before it fails, to compile or to launch
		 * (then in under a millisecond: a failure's benchmark_time). */
		if ((rc = number_of(obj, "compile_time", 0, &compile, name, key, err)) != 0 ||
		    (rc = number_of(obj, "benchmark_time", 0, &bench, name, key, err)) != 0)
			return rc;
		c->cost_ms = compile + bench;
		return 0;
	}
	if (!json_is_number(time) || !isfinite(json_number_value(time)) || json_number_value(time) <= 0)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: cache key '%s': 'time' is %s (a positive number of ms, or "
				 "a failure such as \"RuntimeFailedConfig\")", name, key, time ? "neither" : "missing");
	c->valid = 1;
	c->time = json_number_value(time);
	if ((rc = times_of(c, obj, name, key, err)) != 0 ||
	    (rc = number_of(obj, "compile_time", 1, &compile, name, key, err)) != 0 ||
	    (rc = number_of(obj, "benchmark_time", 1, &bench, name, key, err)) != 0)
		return rc;
	c->cost_ms = compile + bench;
	sp->nvalid++;
	sp->total_ms += c->cost_ms;
	if (sp->best == SPACE_NONE || c->time < sp->configs[sp->best].time)
		sp->best = sp->nconfigs - 1;
	return 0;
}

/* tune_params_keys and tune_params into sp->params; vals[i] the values of
 * parameter i. */
static int params_of(struct search_space *sp, const json_t *root, const json_t **vals, const char *name,
		     struct tune_error *err)
{
	const json_t *keys = json_object_get(root, "tune_params_keys"), *params = json_object_get(root, "tune_params");
	char shown_name[64];

	if (!json_is_array(keys) || !json_array_size(keys))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'tune_params_keys': %s (the parameters' names)", name,
				 keys ? "not a non-empty array" : "missing");
	if (!json_is_object(params) || json_object_size(params) != json_array_size(keys))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'tune_params': %s", name,
				 !params ? "missing (each parameter's values)" : !json_is_object(params) ? "not an object" :
				 "not the parameters 'tune_params_keys' names, each once");
	sp->npoints = 1;
	for (size_t i = 0; i < json_array_size(keys); i++) {
		const char *pname = json_string_value(json_array_get(keys, i));
		const json_t *v = pname ? json_object_get(params, pname) : NULL;
		struct space_param *p = &sp->params[i];

		if (!pname)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'tune_params_keys': item %zu is not a name", name, i);
		if (!json_is_array(v) || !json_array_size(v))
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'tune_params': '%s' is %s", name,
					 shown(pname, shown_name, sizeof(shown_name)), v ? "not a non-empty array of values" :
					 "missing");
		if (!(p->name = strdup(pname)) || !(p->values = calloc(json_array_size(v), sizeof(*p->values))))
			return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		sp->nparams++;
		p->nvalues = json_array_size(v);
		for (size_t j = 0; j < p->nvalues; j++)
			if (!(p->values[j] = value_text(json_array_get(v, j))))
				return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'tune_params': '%s' item %zu is not a number, "
						 "a string or a boolean", name, shown(pname, shown_name, sizeof(shown_name)), j);
		vals[i] = v;
		if (!p->nvalues || sp->npoints > SPACE_MAX_POINTS / p->nvalues)
			return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'tune_params': over %zu configurations (the most "
					 "a replay takes)", name, SPACE_MAX_POINTS);
		sp->npoints *= p->nvalues;
	}
	return 0;
}

static int parse(json_t *root, const char *name, struct search_space *sp, struct tune_error *err)
{
	const json_t *cache = json_object_get(root, "cache"), *obj, *objective = json_object_get(root, "objective");
	const json_t **vals = NULL; /* borrowed from root */
	size_t *coord = NULL, nkeys;
	const char *key;
	char shown_o[48];
	int rc;

	if (objective && (!json_is_string(objective) || strcmp(json_string_value(objective), "time") != 0))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'objective': '%s' is not one a replay takes (time, lower "
				 "is better)", name, json_is_string(objective) ?
				 shown(json_string_value(objective), shown_o, sizeof(shown_o)) : "not a name");
	if (!(sp->kernel = strdup(json_is_string(json_object_get(root, "kernel_name")) ?
				  json_string_value(json_object_get(root, "kernel_name")) : "")) ||
	    !(sp->device = strdup(json_is_string(json_object_get(root, "device_name")) ?
				  json_string_value(json_object_get(root, "device_name")) : "")))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	nkeys = json_array_size(json_object_get(root, "tune_params_keys"));
	if (!(sp->params = calloc(nkeys ? nkeys : 1, sizeof(*sp->params))) ||
	    !(vals = calloc(nkeys ? nkeys : 1, sizeof(json_t *))) || !(coord = calloc(nkeys ? nkeys : 1, sizeof(*coord)))) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		goto out;
	}
	if ((rc = params_of(sp, root, vals, name, err)) != 0)
		goto out;
	if (!json_is_object(cache)) {
		rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'cache': %s (the recorded configurations)", name,
			       cache ? "not an object" : "missing");
		goto out;
	}
	if (!(sp->config_of = malloc(sp->npoints * sizeof(*sp->config_of))) ||
	    !(sp->configs = calloc(json_object_size(cache) + 1, sizeof(*sp->configs)))) {
		rc = tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
		goto out;
	}
	memset(sp->config_of, 0xff, sp->npoints * sizeof(*sp->config_of));
	json_object_foreach((json_t *)cache, key, obj)
		if ((rc = config_of(sp, vals, key, obj, coord, name, err)) != 0)
			goto out;
	if (!sp->nvalid)
		rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: key 'cache': no valid configuration (%zu recorded%s)", name,
			       sp->nconfigs, sp->nconfigs ? ", each a failure" : "");
out:
	free(vals);
	free(coord);
	return rc;
}

int search_space_parse_kt(const char *text, size_t len, const char *name, struct search_space *sp,
			  struct tune_error *err)
{
	json_error_t jerr;
	json_t *root;
	int rc;

	memset(sp, 0, sizeof(*sp));
	sp->best = SPACE_NONE;
	if (!(sp->path = strdup(name)))
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	if (!(root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr)))
		return tune_fail(err, TUNE_ERR_CONFIG, "%s:%d:%d: not a Kernel Tuner cache file: %s", name, jerr.line,
				 jerr.column, jerr.text);
	if (!json_is_object(root))
		rc = tune_fail(err, TUNE_ERR_CONFIG, "%s: not a Kernel Tuner cache file: not a JSON object", name);
	else
		rc = parse(root, name, sp, err);
	json_decref(root);
	return rc;
}

/* path, compressed by gzip, decompressed by gzip -dc into *out. */
static int gunzip(const char *path, struct run_result *res, struct tune_error *err)
{
	char gzip[] = "gzip", dc[] = "-dc", end[] = "--", *file = strdup(path);
	char *argv[] = { gzip, dc, end, file, NULL };
	int rc;

	if (!file)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory");
	rc = runner_exec(argv, -1, 300, NULL, res, err);
	free(file);
	if (rc)
		return rc;
	if (!runner_succeeded(res)) {
		char why[160], *said = res->errout + strspn(res->errout, " \n");

		runner_describe(res, 300, why, sizeof(why));
		said[strcspn(said, "\n")] = '\0'; /* its first line said */
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: not a gzip file: gzip -dc: %s%s%s (give the cache file, "
				 "compressed by gzip or not)", path, why, said[0] ? ": " : "", said);
	}
	if (res->out_len >= RUNNER_MAX_OUT)
		return tune_fail(err, TUNE_ERR_CONFIG, "%s: decompresses to more than %u MiB (the most a replay reads)",
				 path, RUNNER_MAX_OUT >> 20);
	return 0;
}

/* The whole of a file into *text. */
static int slurp(FILE *f, const char *path, char **text, size_t *len, struct tune_error *err)
{
	size_t cap = 1 << 16, n;
	char *buf = malloc(cap);

	*len = 0;
	while (buf && (n = fread(buf + *len, 1, cap - *len, f)) > 0) {
		char *grown;

		*len += n;
		if (*len < cap)
			continue;
		if (!(grown = realloc(buf, cap * 2)))
			free(buf);
		buf = grown;
		cap *= 2;
	}
	if (!buf)
		return tune_fail(err, TUNE_ERR_SYSTEM, "out of memory reading '%s'", path);
	if (ferror(f)) {
		free(buf);
		return tune_fail(err, TUNE_ERR_CONFIG, "cannot read '%s': %s", path, strerror(errno));
	}
	*text = buf;
	return 0;
}

int search_space_load_kt(const char *path, struct search_space *sp, struct tune_error *err)
{
	struct run_result res = { 0 };
	unsigned char magic[2] = { 0, 0 };
	size_t len = strlen(path), n;
	char *text = NULL;
	FILE *f = fopen(path, "rb");
	int rc;

	memset(sp, 0, sizeof(*sp));
	sp->best = SPACE_NONE;
	if (!f)
		return tune_fail(err, TUNE_ERR_CONFIG, "cannot read '%s': %s (give a Kernel Tuner cache file, .json or "
				 ".json.gz)", path, strerror(errno));
	n = fread(magic, 1, 2, f);
	if ((n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) || (len > 3 && !strcmp(path + len - 3, ".gz"))) {
		fclose(f);
		if ((rc = gunzip(path, &res, err)) == 0)
			rc = search_space_parse_kt(res.out, res.out_len, path, sp, err);
		run_result_free(&res);
		return rc;
	}
	rewind(f);
	rc = slurp(f, path, &text, &len, err);
	fclose(f);
	if (!rc)
		rc = search_space_parse_kt(text, len, path, sp, err);
	free(text);
	return rc;
}

void search_space_free(struct search_space *sp)
{
	for (size_t i = 0; i < sp->nparams; i++) {
		for (size_t j = 0; j < sp->params[i].nvalues; j++)
			free(sp->params[i].values[j]);
		free(sp->params[i].values);
		free(sp->params[i].name);
	}
	for (size_t i = 0; i < sp->nconfigs; i++) {
		free(sp->configs[i].key);
		free(sp->configs[i].times);
	}
	free(sp->params);
	free(sp->configs);
	free(sp->config_of);
	free(sp->path);
	free(sp->kernel);
	free(sp->device);
	memset(sp, 0, sizeof(*sp));
	sp->best = SPACE_NONE;
}

void search_space_coords(const struct search_space *sp, size_t point, size_t *coord)
{
	for (size_t i = sp->nparams; i-- > 0;) {
		coord[i] = point % sp->params[i].nvalues;
		point /= sp->params[i].nvalues;
	}
}

size_t search_space_point(const struct search_space *sp, const size_t *coord)
{
	size_t point = 0;

	for (size_t i = 0; i < sp->nparams; i++)
		point = point * sp->params[i].nvalues + coord[i];
	return point;
}
