// SPDX-License-Identifier: GPL-2.0
/*
 * Small helpers. See spare_util.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>

#include "spare_util.h"

int spare_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ') {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno == ERANGE || v < min || v > max) {
		errno = ERANGE;
		return -1;
	}
	if (errno || *end) {
		errno = EINVAL;
		return -1;
	}
	*out = v;
	return 0;
}

int spare_parse_size(const char *s, uint64_t *out)
{
	static const struct { const char *suffix; unsigned int shift; } units[] = {
		{ "", 0 }, { "b", 0 },
		{ "k", 10 }, { "kb", 10 }, { "kib", 10 },
		{ "m", 20 }, { "mb", 20 }, { "mib", 20 },
		{ "g", 30 }, { "gb", 30 }, { "gib", 30 },
		{ "t", 40 }, { "tb", 40 }, { "tib", 40 },
	};
	unsigned long long v;
	unsigned int i;
	char *end;

	if (!s || *s < '0' || *s > '9') {
		errno = EINVAL;
		return -1;
	}
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE) {
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcasecmp(end, units[i].suffix))
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift)) {
			errno = ERANGE;
			return -1;
		}
		*out = (uint64_t)v << units[i].shift;
		return 0;
	}
	errno = EINVAL;
	return -1;
}

int spare_ilog2_exact(uint64_t v)
{
	if (!v || (v & (v - 1)))
		return -1;
	return __builtin_ctzll(v);
}

const char *spare_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	unsigned int u = 0;

	if (bytes == 0 || (bytes & 1023)) {
		snprintf(buf, len, "%" PRIu64, bytes);
		return buf;
	}
	bytes >>= 10;
	while (!(bytes & 1023) && bytes && u + 1 < sizeof(units) - 1) {
		bytes >>= 10;
		u++;
	}
	snprintf(buf, len, "%" PRIu64 "%c", bytes, units[u]);
	return buf;
}

uint64_t spare_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t spare_now_ms(void)
{
	return spare_now_ns() / 1000000ULL;
}

int spare_random_bytes(void *buf, size_t len)
{
	uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = getrandom(p, len, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

size_t spare_find_not_byte(const void *p, size_t len, uint8_t byte)
{
	const uint8_t *b = p;
	uint64_t word;
	size_t i = 0;

	memset(&word, byte, sizeof(word));
	/* Word at a time over the bulk; the tail and the culprit byte-wise. */
	for (; i + sizeof(word) <= len; i += sizeof(word)) {
		uint64_t w;

		memcpy(&w, b + i, sizeof(w));
		if (w != word)
			break;
	}
	for (; i < len; i++)
		if (b[i] != byte)
			return i;
	return len;
}

int spare_mkdir_p(const char *dir, unsigned int mode)
{
	char p[4096];

	if (snprintf(p, sizeof(p), "%s", dir) >= (int)sizeof(p)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p, mode) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return mkdir(p, mode) && errno != EEXIST ? -1 : 0;
}
