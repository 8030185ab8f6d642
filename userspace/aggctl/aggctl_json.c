// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggctl -j stats: the daemon's metrics (Prometheus text) as one JSON
 * array, through json-c: [{"name": N, "labels": {K: V, ...}, "value": X}]
 * per sample, in the daemon's order; # lines are left out. Integers stay
 * integers; NaN and infinities (not JSON numbers) become strings.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aggctl.h"
#include "spare_json.h"

/* A label value in quotes from *@p, unescaped (\\, \", \n); NULL if bad. */
static struct json_object *label_value(const char **p)
{
	const char *s = *p;
	char *v = malloc(strlen(s) + 1), *o = v;
	struct json_object *j;

	if (!v || *s++ != '"') {
		free(v);
		return NULL;
	}
	while (*s && *s != '"') {
		if (*s == '\\') {
			s++;
			if (*s != '\\' && *s != '"' && *s != 'n')
				break;
			*o++ = *s == 'n' ? '\n' : *s;
			s++;
		} else {
			*o++ = *s++;
		}
	}
	if (*s != '"') {
		free(v);
		return NULL;
	}
	*o = '\0';
	*p = s + 1;
	j = json_object_new_string(v);
	free(v);
	return j;
}

static struct json_object *sample_value(const char *s)
{
	char *end;
	long long i;
	double d;

	errno = 0;
	i = strtoll(s, &end, 10);
	if (!errno && end != s && !*end)
		return json_object_new_int64(i);
	d = strtod(s, &end);
	if (end == s || *end)
		return NULL;
	return isfinite(d) ? json_object_new_double(d) : json_object_new_string(s);
}

/* One sample line into @arr; 0, or -1 if it is not one. */
static int sample(char *line, struct json_object *arr)
{
	struct json_object *o = json_object_new_object(), *labels = json_object_new_object();
	struct json_object *v;
	const char *p;
	size_t n = strcspn(line, "{ ");

	if (!n || !line[n])
		goto bad;
	json_object_object_add(o, "name", json_object_new_string_len(line, (int)n));
	p = line + n;
	if (*p == '{') {
		p++;
		while (*p != '}') {
			size_t k = strcspn(p, "=");
			char key[128];

			if (!k || !p[k] || k >= sizeof(key))
				goto bad;
			memcpy(key, p, k);
			key[k] = '\0';
			p += k + 1;
			v = label_value(&p);
			if (!v)
				goto bad;
			json_object_object_add(labels, key, v);
			if (*p == ',')
				p++;
			else if (*p != '}')
				goto bad;
		}
		p++;
	}
	if (*p++ != ' ')
		goto bad;
	v = sample_value(p);
	if (!v)
		goto bad;
	json_object_object_add(o, "labels", labels);
	json_object_object_add(o, "value", v);
	json_object_array_add(arr, o);
	return 0;
bad:
	json_object_put(labels);
	json_object_put(o);
	return -1;
}

int stats_print_json(const char *text, FILE *f)
{
	struct json_object *arr = json_object_new_array();
	char *copy = strdup(text), *save = NULL, *line;

	if (!copy) {
		json_object_put(arr);
		return -1;
	}
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (sample(line, arr)) {
			fprintf(stderr, "spare-aggctl: stats: not a sample line: %.80s\n", line);
			free(copy);
			json_object_put(arr);
			return -1;
		}
	}
	free(copy);
	return spare_json_print(f, arr);
}
