// SPDX-License-Identifier: GPL-2.0
/*
 * state: spare-ublk's state file. See state.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "state.h"

#define STATE_MAX_BYTES	(256U << 20)	/* far beyond any real map */

int ublk_state_alloc(struct ublk_state *st, uint32_t nr_slabs, uint32_t nr_slots)
{
	uint64_t n = (uint64_t)nr_slabs * nr_slots, i;

	free(st->slots);
	st->slots = NULL;
	if (!nr_slabs || !nr_slots || nr_slots > SPARE_MAX_SLOTS)
		return -EINVAL;
	st->slots = calloc(n, sizeof(*st->slots));
	if (!st->slots)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		st->slots[i].donor = SPARE_NO_DONOR;
		st->slots[i].state = UBLK_SLOT_UNMAPPED;
	}
	st->nr_slabs = nr_slabs;
	st->nr_slots = nr_slots;
	return 0;
}

void ublk_state_free(struct ublk_state *st)
{
	free(st->slots);
	st->slots = NULL;
}

static bool readable(enum spare_copy_state s)
{
	return s == SPARE_COPY_MAPPED || s == SPARE_COPY_EVICTING;
}

/* Is copy @c current wherever another readable copy is? */
static bool copy_whole(const struct spare_slab_map *map,
		       const struct spare_slab *slab, u32 c)
{
	size_t words = BITS_TO_LONGS(map->pages_per_slab), w;
	const struct spare_copy *cp = &slab->copy[c];
	u32 o;

	if (!readable(cp->state))
		return false;
	for (o = 0; o < map->nr_slots; o++) {
		const struct spare_copy *op = &slab->copy[o];

		if (o == c || op->donor == SPARE_NO_DONOR || !readable(op->state))
			continue;
		for (w = 0; w < words; w++)
			if (op->current_map[w] & ~cp->current_map[w])
				return false;
	}
	return true;
}

void ublk_state_from_map(struct ublk_state *st, struct spare_slab_map *map)
{
	u32 s, c;

	for (s = 0; s < map->nr_slabs && s < st->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];

		spin_lock(&slab->lock);
		for (c = 0; c < map->nr_slots && c < st->nr_slots; c++) {
			struct ublk_state_slot *sl = &st->slots[s * st->nr_slots + c];
			const struct spare_copy *cp = &slab->copy[c];

			sl->donor = cp->donor;
			if (cp->donor == SPARE_NO_DONOR)
				sl->state = UBLK_SLOT_UNMAPPED;
			else if (copy_whole(map, slab, c))
				sl->state = UBLK_SLOT_WHOLE;
			else if (cp->state == SPARE_COPY_UNMAPPED ||
				 cp->state == SPARE_COPY_MAPPING)
				sl->state = UBLK_SLOT_UNMAPPED;
			else
				sl->state = UBLK_SLOT_FAILED;
		}
		spin_unlock(&slab->lock);
	}
}

/* ---- writing ---- */

struct buf {
	char	*p;
	size_t	len, cap;
	bool	oom;
};

static void put(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if ((size_t)n < b->cap - b->len) {
			b->len += (size_t)n;
			return;
		}
		{
			size_t cap = b->cap * 2 + (size_t)n + 1;
			char *p = realloc(b->p, cap);

			if (!p) {
				b->oom = true;
				return;
			}
			b->p = p;
			b->cap = cap;
		}
	}
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int ublk_state_save(const char *path, const struct ublk_state *st,
		    char *why, size_t whylen)
{
	struct buf b = { .cap = 4096 };
	char tmp[4096], dir[4096], *slash;
	uint32_t i, s, c;
	int fd, ret, dfd;

	if (strlen(path) + 5 > sizeof(tmp)) {
		snprintf(why, whylen, "path too long");
		return -ENAMETOOLONG;
	}
	b.p = malloc(b.cap);
	if (!b.p) {
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	b.p[0] = 0;
	put(&b, "spare-ublk-state %d\nuuid ", UBLK_STATE_VERSION);
	for (i = 0; i < 16; i++)
		put(&b, "%02x", st->uuid[i]);
	put(&b, "\ndev %" PRIu32 "\nsize %" PRIu64 "\nslab-shift %u\ncopies %" PRIu32
	    "\ndepth %" PRIu32 "\n", st->dev_id, st->size, st->slab_shift,
	    st->copies, st->depth);
	for (i = 0; i < st->nr_donors; i++)
		put(&b, "donor %" PRIu32 " %s %s %016" PRIx64 "\n", i,
		    st->donors[i].host, st->donors[i].port, st->donors[i].token);
	for (s = 0; s < st->nr_slabs; s++) {
		put(&b, "slab %" PRIu32, s);
		for (c = 0; c < st->nr_slots; c++) {
			const struct ublk_state_slot *sl = &st->slots[s * st->nr_slots + c];

			if (sl->donor == SPARE_NO_DONOR)
				put(&b, " -:%c", sl->state);
			else
				put(&b, " %" PRIu32 ":%c", sl->donor, sl->state);
		}
		put(&b, "\n");
	}
	if (b.oom) {
		free(b.p);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	put(&b, "crc %08lx\n", crc32(0, (const Bytef *)b.p, (uInt)b.len));

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, whylen, "%s: %s", tmp, strerror(errno));
		free(b.p);
		return ret;
	}
	ret = b.oom ? -ENOMEM : write_all(fd, b.p, b.len);
	free(b.p);
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret) {
		snprintf(why, whylen, "%s: %s", tmp, strerror(-ret));
		unlink(tmp);
		return ret;
	}
	/* The rename itself must reach the disk. */
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = 0;
	else if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || fsync(dfd)) {
		ret = -errno;
		snprintf(why, whylen, "fsync of %s: %s", dir, strerror(errno));
	}
	if (dfd >= 0)
		close(dfd);
	return ret;
}

/* ---- reading ---- */

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

/* Parse an unsigned decimal of the whole token; -1 if it is not one. */
static int parse_u64(const char *t, uint64_t max, uint64_t *v)
{
	char *end;

	if (!t || !*t || *t < '0' || *t > '9')
		return -1;
	errno = 0;
	*v = strtoull(t, &end, 10);
	return errno || *end || *v > max ? -1 : 0;
}

#define BAD(...) do { snprintf(why, whylen, __VA_ARGS__); ret = -EINVAL; goto out; } while (0)

int ublk_state_load(const char *path, struct ublk_state *st, char *why,
		    size_t whylen)
{
	char *text = NULL, *line, *save = NULL, *crc_at;
	uint32_t nd = 0, ns = 0, lineno = 0, s, c;
	unsigned int seen = 0;	/* header keys, one bit each */
	unsigned long want_crc;
	size_t len = 0;
	uint64_t v;
	struct stat sb;
	int fd, ret = 0;

	memset(st, 0, sizeof(*st));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, whylen, "%s", strerror(errno));
		return ret;
	}
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size > STATE_MAX_BYTES) {
		close(fd);
		snprintf(why, whylen, "not a regular file of at most %u bytes",
			 STATE_MAX_BYTES);
		return -EINVAL;
	}
	text = malloc((size_t)sb.st_size + 1);
	if (!text) {
		close(fd);
		snprintf(why, whylen, "out of memory");
		return -ENOMEM;
	}
	while (len < (size_t)sb.st_size) {
		ssize_t n = read(fd, text + len, (size_t)sb.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	text[len] = 0;
	if (memchr(text, 0, len))
		BAD("binary content (a NUL byte): not a state file");

	/* The checksum line comes last and covers every byte before it. */
	crc_at = NULL;
	for (line = text; (line = strstr(line, "crc ")); line++)
		if (line == text || line[-1] == '\n')
			crc_at = line;
	if (!crc_at)
		BAD("no checksum line: the file is torn (a write cut short) or not a state file");
	if (strlen(crc_at) != 13 || crc_at[12] != '\n')
		BAD("bad checksum line: the file is torn or damaged");
	want_crc = 0;
	for (c = 4; c < 12; c++) {
		int h = hexval(crc_at[c]);

		if (h < 0)
			BAD("bad checksum line: the file is torn or damaged");
		want_crc = want_crc << 4 | (unsigned long)h;
	}
	if (crc32(0, (const Bytef *)text, (uInt)(crc_at - text)) != want_crc)
		BAD("checksum mismatch: the file is damaged");
	*crc_at = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[2 + SPARE_MAX_SLOTS + 2], *tsave = NULL, *t;
		unsigned int nt = 0;

		lineno++;
		for (t = strtok_r(line, " ", &tsave); t; t = strtok_r(NULL, " ", &tsave)) {
			if (nt == sizeof(tok) / sizeof(tok[0]))
				BAD("line %u: too many fields", lineno);
			tok[nt++] = t;
		}
		if (!nt)
			BAD("line %u: empty", lineno);
		if (lineno == 1) {
			if (strcmp(tok[0], "spare-ublk-state") || nt != 2)
				BAD("not a spare-ublk state file");
			if (strcmp(tok[1], "1"))
				BAD("state file version %s; this spare-ublk reads version %d",
				    tok[1], UBLK_STATE_VERSION);
			continue;
		}
		if (!strcmp(tok[0], "uuid") && nt == 2 && !(seen & 1)) {
			if (strlen(tok[1]) != 32)
				BAD("line %u: uuid: 32 hex digits expected", lineno);
			for (c = 0; c < 16; c++) {
				int hi = hexval(tok[1][2 * c]), lo = hexval(tok[1][2 * c + 1]);

				if (hi < 0 || lo < 0)
					BAD("line %u: uuid: 32 hex digits expected", lineno);
				st->uuid[c] = (uint8_t)(hi << 4 | lo);
			}
			seen |= 1;
		} else if (!strcmp(tok[0], "dev") && nt == 2 && !(seen & 2)) {
			if (parse_u64(tok[1], UINT32_MAX - 1, &v))
				BAD("line %u: dev: a ublk device id expected", lineno);
			st->dev_id = (uint32_t)v;
			seen |= 2;
		} else if (!strcmp(tok[0], "size") && nt == 2 && !(seen & 4)) {
			if (parse_u64(tok[1], UINT64_MAX, &v) || !v || v % SPARE_PAGE_SIZE)
				BAD("line %u: size: a multiple of 4096 expected", lineno);
			st->size = v;
			seen |= 4;
		} else if (!strcmp(tok[0], "slab-shift") && nt == 2 && !(seen & 8)) {
			if (parse_u64(tok[1], 63, &v) || v < 20 || v > 34)
				BAD("line %u: slab-shift: 20..34 expected", lineno);
			st->slab_shift = (uint8_t)v;
			seen |= 8;
		} else if (!strcmp(tok[0], "copies") && nt == 2 && !(seen & 16)) {
			if (parse_u64(tok[1], SPARE_MAX_REPLICAS, &v) || !v)
				BAD("line %u: copies: 1..%d expected", lineno,
				    SPARE_MAX_REPLICAS);
			st->copies = (uint32_t)v;
			seen |= 16;
		} else if (!strcmp(tok[0], "depth") && nt == 2 && !(seen & 32)) {
			if (parse_u64(tok[1], 4096, &v) || !v)
				BAD("line %u: depth: 1..4096 expected", lineno);
			st->depth = (uint32_t)v;
			seen |= 32;
		} else if (!strcmp(tok[0], "donor") && nt == 5 && seen == 63 && !ns) {
			struct ublk_state_donor *dn;

			if (nd == SPARE_MAX_DONORS)
				BAD("line %u: more than %d donors", lineno, SPARE_MAX_DONORS);
			if (parse_u64(tok[1], nd, &v) || v != nd)
				BAD("line %u: donor %u expected", lineno, nd);
			dn = &st->donors[nd];
			if (!*tok[2] || strlen(tok[2]) >= sizeof(dn->host) ||
			    strlen(tok[3]) >= sizeof(dn->port) ||
			    parse_u64(tok[3], 65535, &v) || !v || strlen(tok[4]) != 16)
				BAD("line %u: donor: INDEX HOST PORT TOKEN expected", lineno);
			strcpy(dn->host, tok[2]);
			strcpy(dn->port, tok[3]);
			for (c = 0; c < 16; c++) {
				int h = hexval(tok[4][c]);

				if (h < 0)
					BAD("line %u: donor: a 16-hex-digit token expected", lineno);
				dn->token = dn->token << 4 | (uint64_t)h;
			}
			nd++;
		} else if (!strcmp(tok[0], "slab") && seen == 63 && nd) {
			if (!ns) {
				uint64_t nslabs = (st->size + (1ULL << st->slab_shift) - 1) >>
						  st->slab_shift;

				if (st->copies > nd)
					BAD("%u copies on %u donors", st->copies, nd);
				if (nslabs > UINT32_MAX / 2 ||
				    ublk_state_alloc(st, (uint32_t)nslabs, st->copies + 1))
					BAD("a map of %" PRIu64 " slabs cannot be built", nslabs);
				st->nr_donors = nd;
			}
			if (nt != 2 + st->nr_slots || parse_u64(tok[1], ns, &v) || v != ns)
				BAD("line %u: slab %u with %u slots expected", lineno, ns,
				    st->nr_slots);
			if (ns == st->nr_slabs)
				BAD("line %u: more slabs than the size makes", lineno);
			for (c = 0; c < st->nr_slots; c++) {
				struct ublk_state_slot *sl = &st->slots[ns * st->nr_slots + c];
				char *colon = strchr(tok[2 + c], ':');

				if (!colon || colon[1] == 0 || colon[2] != 0 ||
				    (colon[1] != UBLK_SLOT_WHOLE && colon[1] != UBLK_SLOT_FAILED &&
				     colon[1] != UBLK_SLOT_UNMAPPED))
					BAD("line %u: slot %u: DONOR:M|F|U expected", lineno, c);
				*colon = 0;
				sl->state = colon[1];
				if (!strcmp(tok[2 + c], "-")) {
					sl->donor = SPARE_NO_DONOR;
					if (sl->state != UBLK_SLOT_UNMAPPED)
						BAD("line %u: slot %u: a copy without a donor", lineno, c);
					continue;
				}
				if (parse_u64(tok[2 + c], nd - 1, &v))
					BAD("line %u: slot %u: donor %s out of range", lineno, c,
					    tok[2 + c]);
				sl->donor = (uint32_t)v;
			}
			/* Two copies of a slab on one donor would be no copies. */
			for (c = 0; c < st->nr_slots; c++)
				for (s = c + 1; s < st->nr_slots; s++)
					if (st->slots[ns * st->nr_slots + c].donor != SPARE_NO_DONOR &&
					    st->slots[ns * st->nr_slots + c].donor ==
					    st->slots[ns * st->nr_slots + s].donor)
						BAD("line %u: two copies on donor %u", lineno,
						    st->slots[ns * st->nr_slots + c].donor);
			ns++;
		} else {
			BAD("line %u: unexpected '%s'", lineno, tok[0]);
		}
	}
	if (lineno == 0)
		BAD("empty file");
	if (seen != 63 || !nd)
		BAD("incomplete: the header or the donors are missing");
	if (ns != st->nr_slabs || !ns)
		BAD("incomplete: %u of %u slabs", ns, st->nr_slabs);
out:
	free(text);
	if (ret)
		ublk_state_free(st);
	return ret;
}
