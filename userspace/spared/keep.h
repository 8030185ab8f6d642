/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a restarting spared hands to its next image so that held slabs
 * keep their contents (Documentation/spared.md, "Restarting for an
 * upgrade"): the held sessions (who may resume them: hold.h) and which
 * donor slab each holds, as one small text table. The memory itself
 * travels as one memfd per slab, named "slab-<index>", beside the table
 * (named "spared-keep"); server.c does the handing over.
 *
 *   spared-keep 1
 *   slab-size 16777216
 *   held 0 uuid=<32 hex> client=<name, may be empty> owner=<name> token=<16 hex> until=<unix s> host=<addr>
 *   slab 3 held=0 id=7
 *
 * Pure (no memfds, no RDMA), so that the parser, the part that reads what
 * another image wrote, is unit-tested on the host
 * (tests/unit/test_spared_keep.c).
 */
#ifndef SPARED_KEEP_H
#define SPARED_KEEP_H

#include <stdint.h>
#include <stdio.h>

#include "spare_grant.h"

#define SPARED_KEEP_VERSION	1
#define SPARED_KEEP_TABLE_NAME	"spared-keep"
#define SPARED_KEEP_MAX_HELD	4096
#define SPARED_KEEP_MAX_SLABS	(1u << 20)	/* as slab_pool_init() */

struct keep_held {
	uint8_t		uuid[16];
	char		client[SPARE_GRANT_CLIENT_LEN];	/* "" on an open donor */
	char		owner[SPARE_GRANT_CLIENT_LEN];
	char		host[64];
	uint64_t	token;		/* never 0 */
	uint64_t	until_s;	/* the hold ends then (wall clock) */
};

struct keep_slab {
	unsigned int	index;		/* the donor's slab */
	unsigned int	held;		/* index into keep_table.held */
	uint32_t	id;		/* the client's slab id */
};

struct keep_table {
	uint64_t		slab_size;
	unsigned int		nheld, nslabs;
	struct keep_held	*held;
	struct keep_slab	*slab;
};

/* Write @t in the format above. 0, or -1 (a write error: errno). */
int keep_table_write(FILE *f, const struct keep_table *t);

/*
 * Parse @len bytes of @text into @t (allocated; keep_table_free()). The
 * table must be of @slab_size, name slabs below @nslabs, each at most
 * once, each held by a session listed before it. Returns NULL, or why it
 * is refused (a static string) with *@line the offending line (1-based;
 * 0: the table as a whole); @t is then empty.
 */
const char *keep_table_parse(const char *text, size_t len, uint64_t slab_size,
			     unsigned int nslabs, struct keep_table *t,
			     unsigned int *line);

void keep_table_free(struct keep_table *t);

#endif /* SPARED_KEEP_H */
