// SPDX-License-Identifier: GPL-2.0
/*
 * key = value configuration files. See spare_conf.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "spare_conf.h"
#include "spare_log.h"

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

int spare_conf_parse_stream(FILE *f, const char *name, spare_conf_fn fn,
			    void *ctx)
{
	char line[512];
	unsigned int lineno = 0;

	while (fgets(line, sizeof(line), f)) {
		const char *why;
		char *key, *value, *eq;
		size_t len = strlen(line);

		lineno++;
		if (len == sizeof(line) - 1 && line[len - 1] != '\n' && !feof(f)) {
			log_err("%s:%u: line too long", name, lineno);
			return -1;
		}
		key = trim(line);
		if (!*key || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			log_err("%s:%u: expected 'key = value'", name, lineno);
			return -1;
		}
		*eq = '\0';
		key = trim(key);
		value = trim(eq + 1);
		if (!*key) {
			log_err("%s:%u: empty key", name, lineno);
			return -1;
		}
		why = fn(key, value, ctx);
		if (why) {
			log_err("%s:%u: %s: %s", name, lineno, key, why);
			return -1;
		}
	}
	if (ferror(f)) {
		log_err("%s: read error", name);
		return -1;
	}
	return 0;
}

int spare_conf_parse_file(const char *path, int missing_ok, spare_conf_fn fn,
			  void *ctx)
{
	FILE *f;
	int ret;

	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT && missing_ok)
			return 0;
		log_err("%s: %s", path, strerror(errno));
		return -1;
	}
	ret = spare_conf_parse_stream(f, path, fn, ctx);
	fclose(f);
	return ret;
}
