// SPDX-License-Identifier: GPL-2.0
/*
 * The table of held slabs a restarting spared hands to its next image.
 * See keep.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "keep.h"

#define KEEP_MAX_LINE	512
#define KEEP_MAX_WORDS	8

static void hex_of(char *out, const uint8_t *b, size_t n)
{
	static const char x[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = x[b[i] >> 4];
		out[2 * i + 1] = x[b[i] & 15];
	}
	out[2 * n] = '\0';
}

int keep_table_write(FILE *f, const struct keep_table *t)
{
	char uuid[33];
	unsigned int i;

	fprintf(f, "spared-keep %d\nslab-size %" PRIu64 "\n",
		SPARED_KEEP_VERSION, t->slab_size);
	for (i = 0; i < t->nheld; i++) {
		const struct keep_held *h = &t->held[i];

		hex_of(uuid, h->uuid, sizeof(h->uuid));
		fprintf(f, "held %u uuid=%s client=%s owner=%s token=%016" PRIx64
			" until=%" PRIu64 " host=%s\n", i, uuid, h->client,
			h->owner, h->token, h->until_s, h->host);
	}
	for (i = 0; i < t->nslabs; i++)
		fprintf(f, "slab %u held=%u id=%" PRIu32 "\n", t->slab[i].index,
			t->slab[i].held, t->slab[i].id);
	return fflush(f) || ferror(f) ? -1 : 0;
}

void keep_table_free(struct keep_table *t)
{
	free(t->held);
	free(t->slab);
	memset(t, 0, sizeof(*t));
}

/* A decimal number, all of @s, at most @max. */
static bool parse_dec(const char *s, uint64_t max, uint64_t *out)
{
	char *end;
	uint64_t v;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return false;
	*out = v;
	return true;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Exactly 2 * @n lower-case hex digits. */
static bool parse_hex(const char *s, uint8_t *out, size_t n)
{
	size_t i;

	if (strlen(s) != 2 * n)
		return false;
	for (i = 0; i < n; i++) {
		int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

/* "key=value": the value of @key in @word, or NULL. */
static const char *value_of(const char *word, const char *key)
{
	size_t k = strlen(key);

	if (strncmp(word, key, k) || word[k] != '=')
		return NULL;
	return word + k + 1;
}

static bool copy_name(char *dst, size_t size, const char *v)
{
	if (strlen(v) >= size)
		return false;
	strcpy(dst, v);
	return true;
}

static const char *parse_held(struct keep_table *t, char **w, unsigned int nw)
{
	struct keep_held *h;
	const char *v;
	uint64_t n;
	uint8_t tok[8];
	unsigned int i;

	if (nw != 8)
		return "a held line has 8 words";
	if (!parse_dec(w[1], UINT32_MAX, &n) || n != t->nheld)
		return "held sessions are numbered 0, 1, ... in order";
	if (t->nheld == SPARED_KEEP_MAX_HELD)
		return "too many held sessions";
	h = &t->held[t->nheld];
	memset(h, 0, sizeof(*h));
	if (!(v = value_of(w[2], "uuid")) || !parse_hex(v, h->uuid, 16))
		return "uuid= is not 32 hex digits";
	if (!(v = value_of(w[3], "client")) ||
	    !copy_name(h->client, sizeof(h->client), v))
		return "client= is missing or too long";
	if (!(v = value_of(w[4], "owner")) || !*v ||
	    !copy_name(h->owner, sizeof(h->owner), v))
		return "owner= is missing, empty or too long";
	if (!(v = value_of(w[5], "token")) || !parse_hex(v, tok, 8))
		return "token= is not 16 hex digits";
	for (i = 0; i < 8; i++)
		h->token = h->token << 8 | tok[i];
	if (!h->token)
		return "token= is 0 (a held session always has one)";
	if (!(v = value_of(w[6], "until")) || !parse_dec(v, UINT64_MAX, &h->until_s))
		return "until= is not a time in seconds";
	if (!(v = value_of(w[7], "host")) || !*v ||
	    !copy_name(h->host, sizeof(h->host), v))
		return "host= is missing, empty or too long";
	t->nheld++;
	return NULL;
}

static const char *parse_slab(struct keep_table *t, char **w, unsigned int nw,
			      unsigned int nslabs, uint8_t *seen)
{
	struct keep_slab *s;
	const char *v;
	uint64_t n;

	if (nw != 4)
		return "a slab line has 4 words";
	if (t->nslabs == nslabs)
		return "more slabs than the pool has";
	s = &t->slab[t->nslabs];
	if (!parse_dec(w[1], UINT32_MAX, &n) || n >= nslabs)
		return "slab index is not a slab of this pool";
	s->index = (unsigned int)n;
	if (seen[s->index])
		return "slab named twice";
	if (!(v = value_of(w[2], "held")) || !parse_dec(v, UINT32_MAX, &n) ||
	    n >= t->nheld)
		return "held= names no held session listed before";
	s->held = (unsigned int)n;
	if (!(v = value_of(w[3], "id")) || !parse_dec(v, UINT32_MAX, &n))
		return "id= is not a slab id";
	s->id = (uint32_t)n;
	seen[s->index] = 1;
	t->nslabs++;
	return NULL;
}

static const char *parse_line(struct keep_table *t, char *buf,
			      unsigned int lineno, uint64_t slab_size,
			      unsigned int nslabs, uint8_t *seen)
{
	char *w[KEEP_MAX_WORDS + 1], *save = NULL, *tok;
	unsigned int nw = 0;
	uint64_t n;

	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (nw == KEEP_MAX_WORDS + 1)
			return "too many words";
		w[nw++] = tok;
	}
	if (lineno == 1) {
		if (nw != 2 || strcmp(w[0], "spared-keep"))
			return "not a spared-keep table";
		if (!parse_dec(w[1], UINT32_MAX, &n) || n != SPARED_KEEP_VERSION)
			return "unknown version";
		return NULL;
	}
	if (!nw)
		return "empty line";
	if (lineno == 2) {
		if (nw != 2 || strcmp(w[0], "slab-size") ||
		    !parse_dec(w[1], UINT64_MAX, &n))
			return "no slab-size line";
		if (n != slab_size)
			return "slab-size differs from this donor's";
		t->slab_size = n;
		return NULL;
	}
	if (!strcmp(w[0], "held")) {
		if (t->nslabs)
			return "held line after a slab line";
		return parse_held(t, w, nw);
	}
	if (!strcmp(w[0], "slab"))
		return parse_slab(t, w, nw, nslabs, seen);
	return "unknown line";
}

const char *keep_table_parse(const char *text, size_t len, uint64_t slab_size,
			     unsigned int nslabs, struct keep_table *t,
			     unsigned int *line)
{
	const char *why = NULL, *p = text, *end = text + len;
	char buf[KEEP_MAX_LINE];
	uint8_t *seen = NULL;
	unsigned int lineno = 0;

	memset(t, 0, sizeof(*t));
	*line = 0;
	if (nslabs > SPARED_KEEP_MAX_SLABS)
		return "pool too large";
	if (memchr(text, '\0', len))
		return "a NUL byte in the table";
	if (!len || text[len - 1] != '\n')
		return "the table is cut short (no final newline)";
	t->held = calloc(SPARED_KEEP_MAX_HELD, sizeof(*t->held));
	t->slab = calloc(nslabs ? nslabs : 1, sizeof(*t->slab));
	seen = calloc(nslabs ? nslabs : 1, 1);
	if (!t->held || !t->slab || !seen) {
		why = "out of memory";
		goto out;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)(nl - p);

		lineno++;
		if (n >= sizeof(buf)) {
			why = "line too long";
			goto out;
		}
		memcpy(buf, p, n);
		buf[n] = '\0';
		why = parse_line(t, buf, lineno, slab_size, nslabs, seen);
		if (why)
			goto out;
		p = nl + 1;
	}
	if (lineno < 2)
		why = "no slab-size line";
out:
	free(seen);
	if (why) {
		*line = lineno;
		keep_table_free(t);
	}
	return why;
}
