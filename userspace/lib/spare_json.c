// SPDX-License-Identifier: GPL-2.0
/*
 * JSON helpers over json-c. See spare_json.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "spare_json.h"
#include "spare_metrics.h"

static struct json_object *number(const char *s)
{
	char *end;

	if (!*s)
		return NULL;
	errno = 0;
	if (strspn(s, "0123456789") == strlen(s)) {
		unsigned long long v = strtoull(s, &end, 10);

		if (errno || *end || v > INT64_MAX)
			return NULL;
		return json_object_new_int64((int64_t)v);
	}
	{
		double d = strtod(s, &end);

		if (errno || *end)
			return NULL;
		return json_object_new_double_s(d, s);
	}
}

struct json_object *spare_json_from_counters(const char *text, char *why,
					     size_t whylen)
{
	struct json_object *obj = json_object_new_object();
	const char *line, *end;

	if (!obj) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	for (line = text; *line; line = *end ? end + 1 : end) {
		char buf[256], *sp;
		struct json_object *v;
		size_t len;

		end = strchrnul(line, '\n');
		len = (size_t)(end - line);
		if (!len)
			continue;
		if (len >= sizeof(buf))
			goto bad;
		memcpy(buf, line, len);
		buf[len] = '\0';
		sp = strchr(buf, ' ');
		if (!sp)
			goto bad;
		*sp = '\0';
		if (!spare_metrics_valid_name(buf) || json_object_object_get_ex(obj, buf, NULL))
			goto bad;
		v = number(sp + 1);
		if (!v)
			goto bad;
		json_object_object_add(obj, buf, v);
		continue;
bad:
		snprintf(why, whylen, "not a counter line: %.*s", (int)len, line);
		json_object_put(obj);
		return NULL;
	}
	return obj;
}

int spare_json_print(FILE *f, struct json_object *obj)
{
	const char *s = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	int ret = s && fprintf(f, "%s\n", s) >= 0 ? 0 : -1;

	json_object_put(obj);
	return ret;
}
