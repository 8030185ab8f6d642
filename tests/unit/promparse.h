/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A strict checker of the Prometheus text exposition format (0.0.4), for
 * tests: Debian's promtool comes with the 96 MB prometheus package, so the
 * rules it enforces that matter to us are checked here instead.
 *
 *  - every family has "# HELP name text" then "# TYPE name counter|gauge",
 *    once, before its samples, and every sample belongs to the family
 *    declared last; no other comment lines;
 *  - metric and label names are valid, label values use only the escapes
 *    \\ \" \n, and no series appears twice;
 *  - values are numbers (or NaN, +Inf, -Inf); counters are not negative;
 *  - HELP text uses only the escapes \\ and \n; the page ends with '\n'.
 *
 * prom_check() returns the number of samples, or -1 with the line number
 * and reason in @why.
 */
#ifndef SPARE_PROMPARSE_H
#define SPARE_PROMPARSE_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROM_MAX_SERIES 512

static bool prom_name_ok(const char *s, size_t len, bool colon)
{
	size_t i;

	if (!len || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; i < len; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || (colon && c == ':')))
			return false;
	}
	return true;
}

static int prom_fail(char *why, size_t whylen, int line, const char *msg)
{
	snprintf(why, whylen, "line %d: %s", line, msg);
	return -1;
}

static int prom_check(const char *page, char *why, size_t whylen)
{
	static char series[PROM_MAX_SERIES][256];
	char family[128] = "", helped[128] = "", type[16] = "";
	char seen_families[64][128];
	int nseen = 0, nseries = 0, lineno = 0, f;
	const char *line, *end;

	if (!*page || page[strlen(page) - 1] != '\n')
		return prom_fail(why, whylen, 0, "page does not end with a newline");
	for (line = page; *line; line = end + 1) {
		end = strchr(line, '\n');
		lineno++;
		if (end == line)
			return prom_fail(why, whylen, lineno, "empty line");
		if (!strncmp(line, "# HELP ", 7)) {
			const char *n = line + 7, *sp = memchr(n, ' ', (size_t)(end - n)), *p;

			if (!sp || !prom_name_ok(n, (size_t)(sp - n), true) ||
			    (size_t)(sp - n) >= sizeof(helped))
				return prom_fail(why, whylen, lineno, "bad HELP line");
			for (p = sp + 1; p < end; p++)
				if (*p == '\\' && (p + 1 >= end || (p[1] != '\\' && p[1] != 'n')))
					return prom_fail(why, whylen, lineno, "bad escape in HELP");
				else if (*p == '\\')
					p++;
			memcpy(helped, n, (size_t)(sp - n));
			helped[sp - n] = '\0';
			for (f = 0; f < nseen; f++)
				if (!strcmp(seen_families[f], helped))
					return prom_fail(why, whylen, lineno, "family declared twice");
			if (nseen == 64)
				return prom_fail(why, whylen, lineno, "too many families");
			strcpy(seen_families[nseen++], helped);
			family[0] = '\0';
			continue;
		}
		if (!strncmp(line, "# TYPE ", 7)) {
			const char *n = line + 7, *sp = memchr(n, ' ', (size_t)(end - n));
			size_t tl;

			if (!sp || (size_t)(sp - n) != strlen(helped) || memcmp(n, helped, strlen(helped)))
				return prom_fail(why, whylen, lineno, "TYPE does not follow its HELP");
			tl = (size_t)(end - sp - 1);
			if (!((tl == 7 && !memcmp(sp + 1, "counter", 7)) ||
			      (tl == 5 && !memcmp(sp + 1, "gauge", 5))))
				return prom_fail(why, whylen, lineno, "TYPE not counter or gauge");
			memcpy(type, sp + 1, tl);
			type[tl] = '\0';
			strcpy(family, helped);
			continue;
		}
		if (line[0] == '#')
			return prom_fail(why, whylen, lineno, "unexpected comment");
		{
			const char *p = line, *name_end;
			char key[256];
			size_t klen;
			double v;
			char *vend, vbuf[64];

			while (p < end && *p != '{' && *p != ' ')
				p++;
			name_end = p;
			if (!family[0] || (size_t)(name_end - line) != strlen(family) ||
			    memcmp(line, family, strlen(family)))
				return prom_fail(why, whylen, lineno, "sample outside its family");
			if (*p == '{') {
				p++;
				while (1) {
					const char *ln = p;

					while (p < end && *p != '=')
						p++;
					if (p >= end || !prom_name_ok(ln, (size_t)(p - ln), false) ||
					    p[1] != '"')
						return prom_fail(why, whylen, lineno, "bad label");
					for (p += 2; p < end && *p != '"'; p++)
						if (*p == '\\') {
							if (p[1] != '\\' && p[1] != '"' && p[1] != 'n')
								return prom_fail(why, whylen, lineno,
										 "bad escape in label value");
							p++;
						}
					if (p >= end)
						return prom_fail(why, whylen, lineno, "unterminated label value");
					p++;
					if (*p == ',') {
						p++;
						continue;
					}
					if (*p == '}') {
						p++;
						break;
					}
					return prom_fail(why, whylen, lineno, "bad label list");
				}
			}
			if (*p != ' ')
				return prom_fail(why, whylen, lineno, "no space before the value");
			klen = (size_t)(p - line);
			if (klen >= sizeof(key))
				return prom_fail(why, whylen, lineno, "series too long");
			memcpy(key, line, klen);
			key[klen] = '\0';
			p++;
			if ((size_t)(end - p) >= sizeof(vbuf) || end == p)
				return prom_fail(why, whylen, lineno, "bad value");
			memcpy(vbuf, p, (size_t)(end - p));
			vbuf[end - p] = '\0';
			if (!strcmp(vbuf, "NaN") || !strcmp(vbuf, "+Inf") || !strcmp(vbuf, "-Inf")) {
				v = 0;
			} else {
				if (strchr(vbuf, ' '))
					return prom_fail(why, whylen, lineno, "time stamps are not used");
				v = strtod(vbuf, &vend);
				if (*vend || vbuf[0] == ' ' || isnan(v))
					return prom_fail(why, whylen, lineno, "value is not a number");
			}
			if (!strcmp(type, "counter") && v < 0)
				return prom_fail(why, whylen, lineno, "negative counter");
			for (f = 0; f < nseries; f++)
				if (!strcmp(series[f], key))
					return prom_fail(why, whylen, lineno, "series twice");
			if (nseries == PROM_MAX_SERIES)
				return prom_fail(why, whylen, lineno, "too many series");
			strcpy(series[nseries++], key);
		}
	}
	return nseries;
}

#endif /* SPARE_PROMPARSE_H */
