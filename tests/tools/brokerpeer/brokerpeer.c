// SPDX-License-Identifier: GPL-2.0
/*
 * spare-broker-peer: fake donors, clients and bad peers for spare-broker's
 * tests (tests/broker/run) and by hand.
 *
 *   spare-broker-peer donor  -b HOST:PORT -n NAME -K KEYFILE [--addr A]
 *                     [--domain D] [--free N] [--interval MS] [--count N]
 *   spare-broker-peer client -b HOST:PORT -n NAME -K KEYFILE [--slabs N]
 *                     [--copies R | --ec K+R] [--lease S] [--grant-key F --grant-key-id I]
 *                     [--grant-pub F] [--v3-key F]
 *   spare-broker-peer bad    -b HOST:PORT --kind KIND [-n NAME -K KEYFILE]
 *   spare-broker-peer link   -b HOST:PORT,HOST:PORT -n NAME -K KEYFILE [--addr A]
 *                     [--domain D] [--free N] [--interval MS] [--count SECONDS]
 *                     [--then-free N] [--v3]
 *   spare-broker-peer move   -b HOST:PORT -n NAME -K KEYFILE --move SPEC [--move SPEC...]
 *                     [--lease S] [--grant-key F --grant-key-id I]
 *   spare-broker-peer askmove -b HOST:PORT[,HOST:PORT...] -n NAME -K KEYFILE --move SPEC
 *                     [--lease S]
 *   spare-broker-peer fakebroker -n NAME -K KEYFILE --kind KIND [--count N]
 *   spare-broker-peer renew  -b HOST:PORT -n NAME -K KEYFILE --grants FILE [--count N]
 *                     [--lease S] [--kind altered|reid|mint --slabs N]
 *                     [--grant-key F --grant-key-id I]
 *                     [--grant-pub F] [--grant-sk F]
 *   spare-broker-peer legacyrenew|room -b HOST:PORT -n NAME -K KEYFILE --addr A --slabs N
 *                     [--count N]
 *   spare-broker-peer grab   -b HOST:PORT -n NAME -K KEYFILE --count N [--every MS]
 *                     [--held-file F]
 *
 * donor: REGISTER, then HEARTBEAT every --interval ms, --count times in
 *   all (0: until killed); prints "ack donors=N" after each REGISTER. If
 *   the broker goes away it reconnects every --interval ms and registers
 *   again (as spared does).
 * client: one GRANT_REQ; prints one "grant slab=S copy=C donor=ID addr=A
 *   domain=D client=C version=V expiry=T [tag=ok]" line per grant (D: the
 *   donor's failure domain, as the GRANT_REP carries it; the tag is checked
 *   with the grant key when given, a version 3 grant's with --v3-key, the
 *   broker key of its donor, which only that donor and the brokers hold),
 *   or "error NAME: text" and exits 3. With
 *   --ec K+R it sends STRIPE_REQ for --slabs stripes instead (slab= is the
 *   stripe, copy= the split); the body is written as given, unchecked, so
 *   that the broker judges a bad code.
 * link: spared's own broker link (userspace/spared/broker_link.c) for
 *   --count seconds (0: until SIGTERM), printing "connected=N" whenever the
 *   number of brokers that acknowledged the last heartbeat changes. With
 *   --then-free, the free count becomes N a second after every broker has
 *   acknowledged (prints "free=N" just before). With --v3 it announces that
 *   it takes version 3 grants (spared's grant-v3).
 * bad: sends one bad thing; prints "error NAME: text" and "closed" when the
 *   broker refuses and closes as it should, exits 0 then. KIND: noauth
 *   (GRANT_REQ before HELLO), badmac (a HELLO with a wrong proof: with
 *   -n and -K, the right proof for that name with one bit flipped), magic,
 *   version (a version-1 peer's header), oversized, bighello (a HELLO
 *   header of 60,000 bytes before authenticating), donorgrant and
 *   donorrenew (a donor sending GRANT_REQ, RENEW_REQ), badbody
 *   (a malformed GRANT_REQ after authenticating), clientheartbeat (a
 *   client sending HEARTBEAT), wrongid (a donor registering another id),
 *   noauthmove (MOVE_REQ before HELLO), donormove (a donor sending
 *   MOVE_REQ), badmove (a MOVE_REQ with a non-zero reserved field).
 * move: one MOVE_REQ per --move, in order, on one connection. SPEC is
 *   "SLABS/ADDR,ADDR.../DOMAIN,DOMAIN..." (either list may be empty):
 *   the slabs, the donor addresses to avoid, the failure domains to avoid.
 *   Prints, for each, "grant donor=ID addr=A domain=D client=C slabs=S
 *   expiry=T [tag=ok]" or "error NAME: text"; exits 0 when every request
 *   was answered so, 1 when the connection broke or a reply was malformed.
 * askrenew: sparectl's brokerask_reissue_marks() (brokerask.c) with the
 *   grants of --grants FILE, move marks asked with --marks: prints
 *   "renewed i=I addr=A slabs=S move=0|1" per grant, or exits 3 (the
 *   reasons are logged on stderr).
 * askmove: sparectl's brokerask_move() (userspace/sparectl/brokerask.c)
 *   with the first --move's SPEC over the brokers in turn: prints the
 *   grant line, or exits 3 (the reasons are logged on stderr).
 * client --save FILE also writes each grant, as hex, one a line, to FILE;
 * renew --save FILE writes there the grants each answer carried (those it
 * keeps, with --drop-marked), so that a later renewal presents fresh ones.
 * renew: RENEW_GRANT with the grants of FILE (hex lines, as --save writes
 *   them), --count times on one connection (default 1), each time the
 *   grants the last answer carried; prints "renewed i=I v=VERSION
 *   key=KEYID id=ID16 donor=D addr=A domain=M client=C slabs=S expiry=T
 *   [tag=ok|tag=BAD]" per grant or "error NAME: text" (exit 3) and "closed"
 *   if the broker then closed. --kind tampers with every grant first:
 *   altered (slabs set to --slabs, the tag kept), reid (one bit of the id
 *   flipped, the tag kept), mint (slabs set to --slabs and signed again:
 *   version 2 with the seed in --grant-sk, else version 1 with
 *   --grant-key: what a holder of that key could make). tag=ok is checked
 *   with --grant-key (version 1) and --grant-pub (public keys, version 2).
 * renew --marks asks for move marks (RENEW_GRANT flags, protocol 3) and
 *   adds " move=0|1" to each line and "round=R renewed=N marked=M kept=K"
 *   per round; an answer with marks when none were asked for, or without
 *   when they were, is a malformed GRANT_REP. --drop-marked (implies
 *   --marks): a marked grant is not renewed again (the copy moved off the
 *   pool). --every MS between rounds; --held-file F gets the count held.
 * donor --free-file F: each heartbeat reports the number in F, if any.
 * donor --held-files F,G...: each heartbeat reports --free less the
 *   numbers in those files (0 at least), read as it is sent, so that a
 *   count a client writes there reaches the broker with no other hop.
 * grab: a newcomer (do_grab()).
 * legacyrenew: RENEW_REQ (a donor address and a count, no grant) --count
 *   times; prints "grant ... slabs=S ..." for each, or at the first
 *   refusal "error NAME: text" (and "closed" if the broker closed), exit 3.
 * room: the same with ROOM_REQ (new slabs on that donor, debited).
 * fakebroker: a broker that breaks the rules, for askmove: listens on
 *   127.0.0.1 (prints "port=N"), authenticates the client NAME with
 *   KEYFILE and answers its first request by KIND: old (ERROR bad-frame,
 *   as a broker without MOVE_REQ does, and closes), avoided (a grant on
 *   the first address the MOVE_REQ avoids), otherclient (a grant for
 *   another client). Serves --count connections (0: until killed).
 */
#include <endian.h>
#include <errno.h>
#include <signal.h>
#include <getopt.h>
#include <stdbool.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "broker_link.h"
#include "brokerask.h"
#include "spare_grant_lib.h"
#include "spare_log.h"

static uint8_t body[BROKER_MAX_BODY];

#define MAX_MOVES	8

struct opts {
	const char	*broker, *name, *key_file, *addr, *domain, *kind, *grant_key;
	const char	*grant_pub, *grant_sk;	/* version 2: public keys; a signing key to mint */
	const char	*save, *grants;
	const char	*moves[MAX_MOVES];
	unsigned int	nmoves;
	uint64_t	free_slabs;
	long long	then_free;	/* link: the free count once connected; -1: none */
	unsigned int	interval_ms, count, slabs, copies, lease, grant_key_id;
	unsigned int	ec_k, ec_r;	/* client --ec K+R: STRIPE_REQ */
	/* renew --marks [--drop-marked], grab; --every MS between rounds */
	bool		marks, drop_marked;
	unsigned int	every_ms;
	const char	*held_file, *free_file;	/* slabs held, written; free, read */
	const char	*held_files;		/* donor: --free less these, read */
	bool		v3;			/* link: announce version 3 grants */
	const char	*v3_key;		/* client: a donor's broker key */
};

/* Write @v to @path (renew --held-file, grab --held-file): the test's donor reads it. */
static void write_count(const char *path, unsigned long long v)
{
	char tmp[512];
	FILE *f;

	if (!path)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f || fprintf(f, "%llu\n", v) < 0 || fclose(f) || rename(tmp, path))
		printf("cannot write %s\n", path);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int usage(void)
{
	fprintf(stderr, "usage: spare-broker-peer donor|client|bad|link|move|askmove|askrenew|fakebroker "
		"-b HOST:PORT ... (see the source)\n");
	return 2;
}

/* 0; -1 if authentication failed; -3 if the broker answered it with a refusal. */
static int auth(int fd, const struct opts *o, unsigned int role)
{
	uint8_t key[BROKER_KEY_LEN];
	char why[320];

	if (broker_read_key_file(o->key_file, key, why, sizeof(why)) ||
	    broker_authenticate(fd, role, o->name, key, NULL, why, sizeof(why))) {
		printf("auth failed: %s\n", why);
		return strncmp(why, "broker: ", 8) ? -1 : -3;
	}
	return 0;
}

static int print_error(const struct broker_hdr *h)
{
	struct broker_error e;

	if (h->type != BROKER_ERROR || broker_error_decode(body, h->len, &e)) {
		printf("unexpected %s\n", broker_type_name(h->type));
		return -1;
	}
	printf("error %s: %s\n", broker_err_name(e.code), e.text);
	return 0;
}

/* @total less the numbers in the comma-separated files @paths (unreadable: 0), at least 0. */
static uint64_t free_less_held(uint64_t total, const char *paths)
{
	char path[512];

	for (const char *p = paths; *p; ) {
		size_t len = strcspn(p, ",");
		unsigned long long v = 0;
		FILE *f;

		snprintf(path, sizeof(path), "%.*s", (int)len, p);
		f = fopen(path, "r");
		if (f && fscanf(f, "%llu", &v) == 1)
			total = v < total ? total - v : 0;
		if (f)
			fclose(f);
		p += len + (p[len] == ',');
	}
	return total;
}

/*
 * One connection's worth of REGISTER + HEARTBEATs; returns 0 when --count
 * heartbeats are done, 3 when the broker refused, 1 when the connection
 * failed (the caller reconnects).
 */
static int donor_session(int fd, const struct opts *o, unsigned int *sent)
{
	struct broker_donor d;
	struct broker_hdr h;
	struct broker_ack a;
	bool first = true;

	int ret = auth(fd, o, BROKER_ROLE_DONOR);

	if (ret)	/* refused: no retry; failed: reconnect */
		return ret == -3 ? 3 : 1;
	memset(&d, 0, sizeof(d));
	d.free_slabs = o->free_slabs;
	d.hb_interval_ms = o->interval_ms;
	d.slab_shift = 30;
	snprintf(d.donor_id, sizeof(d.donor_id), "%s", o->name);
	snprintf(d.addr, sizeof(d.addr), "%s", o->addr);
	snprintf(d.domain, sizeof(d.domain), "%s", o->domain);
	while (!o->count || *sent < o->count) {
		int n;

		if (o->free_file) {	/* the count the test keeps there, if readable */
			FILE *f = fopen(o->free_file, "r");
			unsigned long long v;

			if (f && fscanf(f, "%llu", &v) == 1)
				d.free_slabs = v;
			if (f)
				fclose(f);
		}
		if (o->held_files)
			d.free_slabs = free_less_held(o->free_slabs, o->held_files);
		n = broker_donor_encode(&d, body, sizeof(body));
		struct timespec ts = { .tv_sec = o->interval_ms / 1000,
				       .tv_nsec = (long)(o->interval_ms % 1000) * 1000000L };

		if (n < 0) {
			printf("bad donor fields\n");
			return 3;
		}
		if (broker_send(fd, first ? BROKER_REGISTER : BROKER_HEARTBEAT, *sent + 2, body,
				(size_t)n) ||
		    broker_recv(fd, &h, body, sizeof(body))) {
			printf("broker gone: %s\n", strerror(errno));
			return 1;
		}
		if (h.type != BROKER_ACK || broker_ack_decode(body, h.len, &a)) {
			print_error(&h);
			return 3;
		}
		if (first)
			printf("ack donors=%u\n", a.donors);
		first = false;
		++*sent;
		if (o->count && *sent == o->count)
			break;
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* Heartbeat until --count is done; reconnect every --interval if the broker goes. */
static int do_donor(int fd, const struct opts *o)
{
	unsigned int sent = 0;
	char why[256];
	int ret;

	for (;;) {
		struct timespec ts = { .tv_sec = o->interval_ms / 1000,
				       .tv_nsec = (long)(o->interval_ms % 1000) * 1000000L };

		if (fd >= 0) {
			ret = donor_session(fd, o, &sent);
			close(fd);
			if (ret != 1)
				return ret;
		}
		nanosleep(&ts, NULL);
		fd = broker_connect(o->broker, 5000, why, sizeof(why));
		if (fd >= 0)
			printf("reconnected\n");
	}
}

/* The keys grants are checked with: --grant-key (version 1), --grant-pub (version 2). */
static int peer_keys(const struct opts *o, struct spare_grant_keys *k)
{
	char why[512];

	if (spare_grant_keys_load(k, o->grant_key, NULL, o->grant_key_id, o->grant_pub,
				  why, sizeof(why))) {
		printf("%s\n", why);
		return -1;
	}
	return 0;
}

static int do_client(int fd, const struct opts *o)
{
	struct broker_grant_req r = { .slabs = (uint16_t)o->slabs, .copies = (uint16_t)o->copies,
				      .lease_s = o->lease };
	struct broker_grant_rep rep;
	struct broker_hdr h;
	struct spare_grant_keys gk;
	int n;

	if (peer_keys(o, &gk))
		return 1;
	if (auth(fd, o, BROKER_ROLE_CLIENT))
		return 1;
	if (o->ec_k) {
		/* STRIPE_REQ's layout (broker_proto.h), not checked here */
		body[0] = (uint8_t)o->slabs;
		body[1] = (uint8_t)(o->slabs >> 8);
		body[2] = (uint8_t)o->ec_k;
		body[3] = (uint8_t)o->ec_r;
		for (int b = 0; b < 4; b++)
			body[4 + b] = (uint8_t)(o->lease >> (8 * b));
		n = BROKER_STRIPE_REQ_SIZE;
	} else {
		n = broker_grant_req_encode(&r, body, sizeof(body));
	}
	if (n < 0) {
		printf("bad request size\n");
		return 1;
	}
	if (broker_send(fd, o->ec_k ? BROKER_STRIPE_REQ : BROKER_GRANT_REQ, 2, body, (size_t)n) ||
	    broker_recv(fd, &h, body, sizeof(body))) {
		printf("broker gone: %s\n", strerror(errno));
		return 1;
	}
	if (h.type != BROKER_GRANT_REP) {
		return print_error(&h) ? 1 : 3;
	}
	if (h.seq != 2 || broker_grant_rep_decode(body, h.len, &rep)) {
		printf("malformed GRANT_REP\n");
		return 1;
	}
	for (unsigned int i = 0; i < (unsigned int)rep.slabs * rep.copies; i++) {
		struct spare_grant g;
		struct spare_grant_info gi;
		char domain[BROKER_DOMAIN_LEN];
		const char *tag = "";

		broker_grant_rep_entry(&rep, i, &g, domain);
		memset(&gi, 0, sizeof(gi));	/* domain: checked by decode */
		if (spare_grant_decode(&g, &gi)) {
			printf("malformed grant %u\n", i);
			return 1;
		}
		if (o->v3_key && gi.version == SPARE_GRANT_VERSION_DONOR_MAC) {
			uint8_t kd[BROKER_KEY_LEN], kg[SPARE_GRANT_KEY_LEN];
			char err[256];
			int v = broker_read_key_file(o->v3_key, kd, err, sizeof(err)) ||
				spare_grant_v3_key(kg, kd, gi.donor_id) ||
				spare_grant_v3_tag_check(&g, kg);

			sodium_memzero(kd, sizeof(kd));
			sodium_memzero(kg, sizeof(kg));
			tag = v ? " tag=BAD" : " tag=ok";
		} else if (o->grant_key || o->grant_pub) {
			int v = spare_grant_check(&g, &gk, gi.donor_id, o->name,
						  (uint64_t)time(NULL), NULL, NULL);

			tag = v ? " tag=BAD" : " tag=ok";
		}
		if (o->save) {
			char hex[SPARE_GRANT_HEX_LEN + 1];
			FILE *f = fopen(o->save, i ? "a" : "w");

			spare_grant_to_hex(&g, hex, sizeof(hex));
			if (!f || fprintf(f, "%s\n", hex) < 0 || fclose(f)) {
				printf("cannot write %s\n", o->save);
				return 1;
			}
		}
		printf("grant slab=%u copy=%u donor=%s addr=%s domain=%s client=%s version=%u expiry=%"
		       PRIu64 "%s\n", i / rep.copies, i % rep.copies, gi.donor_id, gi.donor_addr,
		       domain, gi.client_id, (unsigned int)gi.version, gi.expiry, tag);
	}
	return 0;
}

/* Did the broker close after its answer? */
static void print_closed(int fd)
{
	struct broker_hdr h;

	if (broker_recv(fd, &h, body, sizeof(body)) && errno == EPIPE)
		printf("closed\n");
}

/* @n grants g[] to @path as hex lines, replaced whole (written aside, renamed). */
static int save_grants(const char *path, const struct spare_grant *g, uint32_t n)
{
	char hex[SPARE_GRANT_HEX_LEN + 1], tmp[512];
	FILE *f;
	int bad;

	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	bad = !f;
	for (uint32_t i = 0; !bad && i < n; i++) {
		spare_grant_to_hex(&g[i], hex, sizeof(hex));
		bad = fprintf(f, "%s\n", hex) < 0;
	}
	if ((f && fclose(f)) || bad || rename(tmp, path)) {
		printf("cannot write %s\n", path);
		return 1;
	}
	return 0;
}

static int do_renew(int fd, const struct opts *o)
{
	static struct spare_grant g[BROKER_MAX_RENEW_GRANTS];
	struct spare_grant_keys gk, mk;
	uint32_t n = 0;
	char why[256];

	if (peer_keys(o, &gk))
		return 1;
	/* what mints: --grant-sk (version 2), else --grant-key (version 1) */
	if (spare_grant_keys_load(&mk, o->grant_sk ? NULL : o->grant_key, o->grant_sk,
				  o->grant_key_id, NULL, why, sizeof(why))) {
		printf("%s\n", why);
		return 1;
	}
	if (spare_grant_file_read(o->grants, g, BROKER_MAX_RENEW_GRANTS, &n, why, sizeof(why)) ||
	    !n) {
		printf("--grants %s: %s\n", o->grants, n ? why : "no grants");
		return 2;
	}
	for (uint32_t i = 0; i < n && o->kind; i++) {
		struct spare_grant_info gi;

		if (!strcmp(o->kind, "altered")) {
			g[i].slabs = htole32(o->slabs);
		} else if (!strcmp(o->kind, "reid")) {
			g[i].grant_id[0] ^= 1;
		} else if (!strcmp(o->kind, "mint") && (o->grant_key || o->grant_sk)) {
			spare_grant_decode(&g[i], &gi);
			gi.slabs = o->slabs;
			spare_grant_keys_issue(&mk, &gi, &g[i]);
		} else {
			printf("unknown --kind %s\n", o->kind);
			return 2;
		}
	}
	if (auth(fd, o, BROKER_ROLE_CLIENT))
		return 1;
	write_count(o->held_file, n);
	for (unsigned int round = 0; round < (o->count ? o->count : 1); round++) {
		struct broker_grant_rep rep;
		struct broker_hdr h;
		uint32_t seq = 2 + round, kept = 0;
		int len = broker_renew_grant_encode_flags(o->lease, (uint16_t)n, g,
							  o->marks ? BROKER_RENEW_F_MOVE : 0,
							  body, sizeof(body));

		if (len < 0) {
			printf("cannot encode RENEW_GRANT\n");
			return 2;
		}
		if (broker_send(fd, BROKER_RENEW_GRANT, seq, body, (size_t)len) ||
		    broker_recv(fd, &h, body, sizeof(body))) {
			printf("broker gone: %s\n", strerror(errno));
			return 1;
		}
		if (h.type != BROKER_GRANT_REP) {
			if (print_error(&h))
				return 1;
			print_closed(fd);
			return 3;
		}
		/* marks only when asked for: a version-2 client refuses them */
		if (h.seq != seq || broker_grant_rep_decode(body, h.len, &rep) ||
		    rep.slabs != n || rep.copies != 1 ||
		    !(rep.flags & BROKER_REP_F_MOVE) != !o->marks) {
			printf("malformed GRANT_REP\n");
			return 1;
		}
		for (uint32_t i = 0; i < n; i++) {
			struct spare_grant_info gi;
			char domain[BROKER_DOMAIN_LEN];
			const char *tag = "";

			broker_grant_rep_entry(&rep, i, &g[i], domain);
			if (spare_grant_decode(&g[i], &gi)) {
				printf("malformed grant %u\n", i);
				return 1;
			}
			if (o->grant_key || o->grant_pub)
				tag = spare_grant_check(&g[i], &gk, gi.donor_id, o->name,
							(uint64_t)time(NULL), NULL, NULL) ?
				      " tag=BAD" : " tag=ok";
			printf("renewed i=%u v=%u key=%u id=%02x%02x%02x%02x%02x%02x%02x%02x donor=%s addr=%s "
			       "domain=%s client=%s slabs=%u expiry=%" PRIu64 "%s%s\n", i, gi.version,
			       gi.key_id, gi.id[0],
			       gi.id[1], gi.id[2], gi.id[3], gi.id[4], gi.id[5], gi.id[6], gi.id[7],
			       gi.donor_id, gi.donor_addr, domain, gi.client_id, gi.slabs, gi.expiry,
			       tag, !o->marks ? "" : rep.move >> i & 1 ? " move=1" : " move=0");
		}
		/* --drop-marked: a client whose copies can leave the pool moves
		 * the marked ones off it and renews them no more */
		for (uint32_t i = 0; i < n; i++)
			if (!o->drop_marked || !(rep.move >> i & 1))
				g[kept++] = g[i];
		if (o->marks)
			printf("round=%u renewed=%u marked=%u kept=%u\n", round, n, n - kept,
			       o->drop_marked ? kept : n);
		if (o->drop_marked)
			n = kept;
		if (o->save && save_grants(o->save, g, n))
			return 1;
		write_count(o->held_file, n);
		if (!n)
			break;
		if (o->every_ms && round + 1 < o->count)
			sleep_ms(o->every_ms);
	}
	return 0;
}

/*
 * grab: a newcomer, --count rounds --every MS apart: each round renews the
 * one-slab grants it holds (RENEW_GRANT, version 2: no marks) and asks for
 * one more slab at a time (GRANT_REQ) until refused; prints "round=R
 * held=N" and writes N to --held-file. Before each GRANT_REQ it writes
 * N+1 there (N again once refused), so that a donor reporting free what
 * the files say nobody holds stops counting a slab free before the broker
 * grants it, not a round later (a heartbeat landing after the grant and
 * still counting it free would have it granted twice). Exits 0 when
 * every round was answered (a refusal for room included), 1 when the
 * broker broke off or refused a renewal.
 */
static int do_grab(int fd, const struct opts *o)
{
	static struct spare_grant g[BROKER_MAX_RENEW_GRANTS];
	struct broker_grant_req r = { .slabs = 1, .copies = 1, .lease_s = o->lease };
	struct broker_grant_rep rep;
	struct broker_hdr h;
	uint32_t seq = 2, n = 0;
	int len;

	if (auth(fd, o, BROKER_ROLE_CLIENT))
		return 1;
	write_count(o->held_file, 0);
	for (unsigned int round = 0; round < (o->count ? o->count : 1); round++) {
		if (n) {
			len = broker_renew_grant_encode(o->lease, (uint16_t)n, g, body, sizeof(body));
			if (len < 0 || broker_send(fd, BROKER_RENEW_GRANT, ++seq, body, (size_t)len) ||
			    broker_recv(fd, &h, body, sizeof(body)) || h.type != BROKER_GRANT_REP ||
			    broker_grant_rep_decode(body, h.len, &rep) || rep.slabs != n || rep.flags) {
				printf("renewal of %u grant(s) failed\n", n);
				if (h.type == BROKER_ERROR)
					print_error(&h);
				return 1;
			}
			for (uint32_t i = 0; i < n; i++)
				broker_grant_rep_entry(&rep, i, &g[i], NULL);
		}
		while (n < BROKER_MAX_RENEW_GRANTS) {
			write_count(o->held_file, n + 1);	/* claimed before asked */
			len = broker_grant_req_encode(&r, body, sizeof(body));
			if (len < 0 || broker_send(fd, BROKER_GRANT_REQ, ++seq, body, (size_t)len) ||
			    broker_recv(fd, &h, body, sizeof(body))) {
				printf("broker gone: %s\n", strerror(errno));
				return 1;
			}
			if (h.type != BROKER_GRANT_REP)
				break;	/* refused: it waits (the reason is not printed) */
			if (broker_grant_rep_decode(body, h.len, &rep) || rep.slabs != 1 ||
			    rep.copies != 1 || rep.flags) {
				printf("malformed GRANT_REP\n");
				return 1;
			}
			broker_grant_rep_entry(&rep, 0, &g[n++], NULL);
		}
		printf("round=%u held=%u\n", round, n);
		write_count(o->held_file, n);
		if (o->every_ms && round + 1 < o->count)
			sleep_ms(o->every_ms);
	}
	return 0;
}

static int do_legacyrenew(int fd, const struct opts *o, unsigned int type)
{
	struct broker_renew_req r = { .slabs = o->slabs, .lease_s = o->lease };
	int ret = 0;

	snprintf(r.donor_addr, sizeof(r.donor_addr), "%s", o->addr);
	if (auth(fd, o, BROKER_ROLE_CLIENT))
		return 1;
	for (unsigned int round = 0; round < (o->count ? o->count : 1); round++) {
		struct broker_grant_rep rep;
		struct broker_hdr h;
		struct spare_grant g;
		struct spare_grant_info gi;
		int len = broker_renew_req_encode(&r, body, sizeof(body));

		if (len < 0) {
			printf("cannot encode RENEW_REQ\n");
			return 2;
		}
		if (broker_send(fd, type, 2 + round, body, (size_t)len) ||
		    broker_recv(fd, &h, body, sizeof(body))) {
			printf("broker gone: %s\n", strerror(errno));
			return 1;
		}
		if (h.type != BROKER_GRANT_REP) {
			if (print_error(&h))
				return 1;
			ret = 3;
			break;
		}
		if (broker_grant_rep_decode(body, h.len, &rep) || rep.slabs != 1 || rep.copies != 1) {
			printf("malformed GRANT_REP\n");
			return 1;
		}
		broker_grant_rep_entry(&rep, 0, &g, NULL);
		spare_grant_decode(&g, &gi);
		printf("grant donor=%s addr=%s client=%s slabs=%u expiry=%" PRIu64 "\n",
		       gi.donor_id, gi.donor_addr, gi.client_id, gi.slabs, gi.expiry);
	}
	if (ret)
		print_closed(fd);
	return ret;
}

/* Split a comma-separated list into NUL-padded fields; the count or -1. */
static int split_fields(char *list, char *out, size_t len, unsigned int max)
{
	unsigned int n = 0;
	char *p;

	if (!*list)
		return 0;
	while ((p = strsep(&list, ","))) {
		if (n == max || strlen(p) >= len)
			return -1;
		memset(out + (size_t)n * len, 0, len);
		memcpy(out + (size_t)n * len, p, strlen(p));
		n++;
	}
	return (int)n;
}

/* "SLABS/ADDR,.../DOMAIN,..." into @r (lease_s not set); 0 or -1. */
static int parse_move(const char *spec, struct broker_move_req *r)
{
	char buf[2048], *rest = buf, *slabs, *addrs, *doms;
	int na, nd;

	memset(r, 0, sizeof(*r));
	if (strlen(spec) >= sizeof(buf))
		return -1;
	strcpy(buf, spec);
	slabs = strsep(&rest, "/");
	addrs = strsep(&rest, "/");
	doms = strsep(&rest, "/");
	if (!slabs || !addrs || !doms || rest)
		return -1;
	r->slabs = (uint32_t)strtoul(slabs, NULL, 0);
	na = split_fields(addrs, r->avoid[0], BROKER_ADDR_LEN, BROKER_MAX_AVOID);
	nd = split_fields(doms, r->avoid_domains[0], BROKER_DOMAIN_LEN, BROKER_MAX_AVOID);
	if (na < 0 || nd < 0)
		return -1;
	r->n_avoid = (uint8_t)na;
	r->n_avoid_domains = (uint8_t)nd;
	return 0;
}

/* Print one grant of a GRANT_REP as a "grant ..." line; 0 or -1. */
static int print_move_grant(const struct opts *o, const struct spare_grant_keys *gk,
			    const struct spare_grant *g, const char *domain)
{
	struct spare_grant_info gi;
	const char *tag = "";

	if (spare_grant_decode(g, &gi)) {
		printf("malformed grant\n");
		return -1;
	}
	if (gk)
		tag = spare_grant_check(g, gk, gi.donor_id, o->name, (uint64_t)time(NULL),
					NULL, NULL) ? " tag=BAD" : " tag=ok";
	printf("grant donor=%s addr=%s domain=%s client=%s slabs=%u expiry=%" PRIu64 "%s\n",
	       gi.donor_id, gi.donor_addr, domain, gi.client_id, gi.slabs, gi.expiry, tag);
	return 0;
}

static int do_move(int fd, const struct opts *o)
{
	struct spare_grant_keys gk;

	if (peer_keys(o, &gk))
		return 1;
	if (auth(fd, o, BROKER_ROLE_CLIENT))
		return 1;
	for (unsigned int i = 0; i < o->nmoves; i++) {
		struct broker_move_req r;
		struct broker_grant_rep rep;
		struct broker_hdr h;
		struct spare_grant g;
		char domain[BROKER_DOMAIN_LEN];
		uint32_t seq = 2 + i;
		int n;

		if (parse_move(o->moves[i], &r)) {
			printf("bad --move %s\n", o->moves[i]);
			return 2;
		}
		r.lease_s = o->lease;
		n = broker_move_req_encode(&r, body, sizeof(body));
		if (n < 0) {
			printf("cannot encode --move %s\n", o->moves[i]);
			return 2;
		}
		if (broker_send(fd, BROKER_MOVE_REQ, seq, body, (size_t)n) ||
		    broker_recv(fd, &h, body, sizeof(body))) {
			printf("broker gone: %s\n", strerror(errno));
			return 1;
		}
		if (h.seq != seq) {
			printf("reply to %u, not %u\n", h.seq, seq);
			return 1;
		}
		if (h.type != BROKER_GRANT_REP) {
			if (print_error(&h))
				return 1;
			continue;
		}
		if (broker_grant_rep_decode(body, h.len, &rep) || rep.slabs != 1 || rep.copies != 1) {
			printf("malformed GRANT_REP\n");
			return 1;
		}
		broker_grant_rep_entry(&rep, 0, &g, domain);
		if (print_move_grant(o, o->grant_key || o->grant_pub ? &gk : NULL, &g, domain))
			return 1;
	}
	return 0;
}

/*
 * sparectl's broker client (brokerask.c) over --broker's list as NAME
 * with KEYFILE (read into @key), logging to stderr as sparectl does. 0,
 * or 1 (printed).
 */
static int peer_brokerask(const struct opts *o, struct brokerask *a,
			  uint8_t key[BROKER_KEY_LEN])
{
	char why[256];

	if (broker_read_key_file(o->key_file, key, why, sizeof(why))) {
		printf("%s\n", why);
		return 1;
	}
	*a = (struct brokerask){ .brokers = o->broker, .name = o->name, .lease_s = o->lease,
				 .timeout_ms = 5000, .key = key };
	spare_log_init("spare-broker-peer", SPARE_LOG_INFO);
	return 0;
}

/* sparectl's own client path (brokerask_move). */
static int do_askmove(const struct opts *o)
{
	struct brokerask a;
	struct broker_move_req r;
	uint8_t key[BROKER_KEY_LEN];
	struct spare_grant g;
	char domain[BROKER_DOMAIN_LEN];

	if (!o->nmoves || parse_move(o->moves[0], &r)) {
		printf("bad --move\n");
		return 2;
	}
	if (peer_brokerask(o, &a, key))
		return 1;
	if (brokerask_move(&a, r.slabs, r.avoid, r.n_avoid, r.avoid_domains, r.n_avoid_domains,
			   &g, domain)) {
		printf("failed\n");
		return 3;
	}
	return print_move_grant(o, NULL, &g, domain) ? 1 : 0;
}

/*
 * sparectl's own renewal path (brokerask_reissue_marks(), move marks asked
 * with --marks) with the grants of --grants: "renewed i=I addr=A slabs=S
 * move=0|1" per grant, or exit 3 (the reasons are logged on stderr).
 */
static int do_askrenew(const struct opts *o)
{
	static struct spare_grant g[BROKER_MAX_RENEW_GRANTS], out[BROKER_MAX_RENEW_GRANTS];
	bool move[BROKER_MAX_RENEW_GRANTS] = { 0 };
	uint8_t key[BROKER_KEY_LEN];
	struct spare_grant_info gi;
	struct brokerask a;
	char why[256];
	uint32_t n = 0;

	if (spare_grant_file_read(o->grants, g, BROKER_MAX_RENEW_GRANTS, &n, why, sizeof(why)) ||
	    !n) {
		printf("--grants %s: %s\n", o->grants, n ? why : "no grants");
		return 2;
	}
	if (peer_brokerask(o, &a, key))
		return 1;
	if (brokerask_reissue_marks(&a, g, n, out, NULL, o->marks ? move : NULL)) {
		printf("failed\n");
		return 3;
	}
	for (uint32_t i = 0; i < n; i++) {
		spare_grant_decode(&out[i], &gi);
		printf("renewed i=%u addr=%s slabs=%u move=%d\n", i, gi.donor_addr, gi.slabs,
		       move[i]);
	}
	return 0;
}

/* fakebroker: one connection, CHALLENGE to the first request's answer. */
static void fake_session(int fd, const struct opts *o, const uint8_t key[BROKER_KEY_LEN])
{
	static const char broker_id[BROKER_ID_LEN] = "fake";
	struct broker_challenge ch = { .broker_id = "fake" };
	struct broker_hello hello;
	struct broker_welcome w;
	struct broker_move_req r;
	struct spare_grant_info gi;
	struct spare_grant_key gk = { .id = 7 };
	struct spare_grant g;
	struct broker_hdr h;
	char dom[1][BROKER_DOMAIN_LEN] = { "rack-fake" };
	int n;

	randombytes_buf(ch.nonce, sizeof(ch.nonce));
	ch.nonce[0] |= 1;
	broker_challenge_encode(&ch, body, sizeof(body));
	if (broker_send(fd, BROKER_CHALLENGE, 0, body, BROKER_CHALLENGE_SIZE) ||
	    broker_recv(fd, &h, body, sizeof(body)) || h.type != BROKER_HELLO ||
	    broker_hello_decode(body, h.len, &hello) || strcmp(hello.name, o->name) ||
	    !broker_auth_mac_ok(hello.mac, key, BROKER_DIR_PEER, hello.role, hello.name,
				broker_id, hello.nonce, ch.nonce)) {
		printf("bad HELLO\n");
		return;
	}
	broker_auth_mac(w.mac, key, BROKER_DIR_BROKER, hello.role, hello.name, broker_id,
			hello.nonce, ch.nonce);
	broker_welcome_encode(&w, body, sizeof(body));
	if (broker_send(fd, BROKER_WELCOME, h.seq, body, BROKER_WELCOME_SIZE) ||
	    broker_recv(fd, &h, body, sizeof(body))) {
		printf("no request\n");
		return;
	}
	printf("request %s\n", broker_type_name(h.type));
	if (!strcmp(o->kind, "old")) {
		struct broker_error e = { .code = BROKER_E_BAD_FRAME,
					  .text = "bad frame header (magic or type)" };

		n = broker_error_encode(&e, body, sizeof(body));
		broker_send(fd, BROKER_ERROR, h.seq, body, (size_t)n);
		return;
	}
	if (h.type != BROKER_MOVE_REQ || broker_move_req_decode(body, h.len, &r)) {
		printf("not a MOVE_REQ\n");
		return;
	}
	memset(&gi, 0, sizeof(gi));
	spare_grant_new_id(gi.id);
	snprintf(gi.donor_id, sizeof(gi.donor_id), "fake");
	snprintf(gi.donor_addr, sizeof(gi.donor_addr), "%s",
		 !strcmp(o->kind, "avoided") && r.n_avoid ? r.avoid[0] : "10.99.0.1:18515");
	snprintf(gi.client_id, sizeof(gi.client_id), "%s",
		 !strcmp(o->kind, "otherclient") ? "mallory" : o->name);
	gi.slabs = r.slabs;
	gi.expiry = (uint64_t)time(NULL) + 60;
	if (spare_grant_issue(&gi, &gk, &g)) {
		printf("cannot issue\n");
		return;
	}
	if (!strcmp(o->kind, "marks")) {	/* move marks nobody asked for */
		bool mark = true;

		n = broker_grant_rep_encode_move(1, &g, dom, &mark, body, sizeof(body));
	} else {
		n = broker_grant_rep_encode(1, 1, &g, dom, body, sizeof(body));
	}
	if (n > 0)
		broker_send(fd, BROKER_GRANT_REP, h.seq, body, (size_t)n);
}

static int do_fakebroker(const struct opts *o)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	uint8_t key[BROKER_KEY_LEN];
	char why[256];
	int lfd, one = 1;

	if (broker_read_key_file(o->key_file, key, why, sizeof(why))) {
		printf("%s\n", why);
		return 1;
	}
	if (strcmp(o->kind, "old") && strcmp(o->kind, "avoided") && strcmp(o->kind, "otherclient") &&
	    strcmp(o->kind, "marks")) {
		printf("unknown --kind %s\n", o->kind);
		return 2;
	}
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 16) ||
	    getsockname(lfd, (struct sockaddr *)&sa, &sl)) {
		printf("listen: %s\n", strerror(errno));
		return 1;
	}
	printf("port=%u\n", ntohs(sa.sin_port));
	for (unsigned int served = 0; !o->count || served < o->count; served++) {
		int fd = accept(lfd, NULL, NULL);
		char c;

		if (fd < 0) {
			printf("accept: %s\n", strerror(errno));
			break;
		}
		fake_session(fd, o, key);
		shutdown(fd, SHUT_WR);
		while (recv(fd, &c, 1, 0) > 0)
			;
		close(fd);
	}
	close(lfd);
	return 0;
}

/* After a bad frame: expect ERROR, then EOF. */
static int expect_refusal(int fd)
{
	struct broker_hdr h;
	char c;

	if (broker_recv(fd, &h, body, sizeof(body))) {
		printf("no ERROR: %s\n", strerror(errno));
		return 1;
	}
	if (print_error(&h))
		return 1;
	if (recv(fd, &c, 1, 0) == 0) {
		printf("closed\n");
		return 0;
	}
	printf("not closed\n");
	return 1;
}

static int do_bad(int fd, const struct opts *o)
{
	struct broker_hdr h;
	uint8_t hdr[BROKER_HDR_SIZE];

	if (!strcmp(o->kind, "noauth")) {
		struct broker_grant_req r = { .slabs = 1, .copies = 1 };

		broker_recv(fd, &h, body, sizeof(body));	/* CHALLENGE */
		broker_grant_req_encode(&r, body, sizeof(body));
		broker_send(fd, BROKER_GRANT_REQ, 1, body, BROKER_GRANT_REQ_SIZE);
	} else if (!strcmp(o->kind, "badmac")) {
		struct broker_challenge ch;
		struct broker_hello m = { .role = BROKER_ROLE_CLIENT };

		broker_recv(fd, &h, body, sizeof(body));
		broker_challenge_decode(body, h.len, &ch);
		snprintf(m.name, sizeof(m.name), "%s", o->name ? o->name : "nobody");
		randombytes_buf(m.nonce, sizeof(m.nonce));
		m.nonce[0] |= 1;
		if (o->key_file) {
			/* the right proof for this name, one bit off */
			uint8_t key[BROKER_KEY_LEN];
			char why[256];

			if (broker_read_key_file(o->key_file, key, why, sizeof(why))) {
				printf("key: %s\n", why);
				return 1;
			}
			broker_auth_mac(m.mac, key, BROKER_DIR_PEER, m.role, m.name,
					ch.broker_id, m.nonce, ch.nonce);
			sodium_memzero(key, sizeof(key));
			m.mac[BROKER_MAC_LEN - 1] ^= 1;
		} else {
			randombytes_buf(m.mac, sizeof(m.mac));	/* no key */
		}
		broker_hello_encode(&m, body, sizeof(body));
		broker_send(fd, BROKER_HELLO, 1, body, BROKER_HELLO_SIZE);
	} else if (!strcmp(o->kind, "bighello")) {
		/* a HELLO header announcing far more than a HELLO, before authenticating */
		broker_recv(fd, &h, body, sizeof(body));
		broker_hdr_encode(hdr, BROKER_HELLO, 1, 60000);
		send(fd, hdr, sizeof(hdr), MSG_NOSIGNAL);
		memset(body, 0xa5, 4096);
		send(fd, body, 4096, MSG_NOSIGNAL);
	} else if (!strcmp(o->kind, "donorgrant") || !strcmp(o->kind, "donorrenew")) {
		/* well-formed client requests, from a donor */
		struct broker_grant_req g = { .slabs = 1, .copies = 1 };
		struct broker_renew_req r = { .donor_addr = "127.0.0.1:1", .slabs = 1 };

		if (auth(fd, o, BROKER_ROLE_DONOR))
			return 1;
		if (!strcmp(o->kind, "donorgrant")) {
			broker_grant_req_encode(&g, body, sizeof(body));
			broker_send(fd, BROKER_GRANT_REQ, 2, body, BROKER_GRANT_REQ_SIZE);
		} else {
			broker_renew_req_encode(&r, body, sizeof(body));
			broker_send(fd, BROKER_RENEW_REQ, 2, body, BROKER_RENEW_REQ_SIZE);
		}
	} else if (!strcmp(o->kind, "magic") || !strcmp(o->kind, "version") ||
		   !strcmp(o->kind, "oversized")) {
		broker_recv(fd, &h, body, sizeof(body));
		broker_hdr_encode(hdr, BROKER_HELLO, 1,
				  !strcmp(o->kind, "oversized") ? 16u << 20 : BROKER_HELLO_SIZE);
		if (!strcmp(o->kind, "magic"))
			hdr[0] = 'X';
		if (!strcmp(o->kind, "version"))
			hdr[4] = 1;	/* the broker protocol before GRANT_REP's domains */
		send(fd, hdr, sizeof(hdr), MSG_NOSIGNAL);
		memset(body, 0xa5, 4096);
		send(fd, body, 4096, MSG_NOSIGNAL);	/* part of a body the broker must not take */
	} else if (!strcmp(o->kind, "noauthmove") || !strcmp(o->kind, "donormove") ||
		   !strcmp(o->kind, "badmove")) {
		struct broker_move_req r = { .slabs = 1 };

		if (!strcmp(o->kind, "noauthmove"))
			broker_recv(fd, &h, body, sizeof(body));	/* CHALLENGE */
		else if (auth(fd, o, !strcmp(o->kind, "donormove") ? BROKER_ROLE_DONOR
								   : BROKER_ROLE_CLIENT))
			return 1;
		broker_move_req_encode(&r, body, sizeof(body));
		if (!strcmp(o->kind, "badmove"))
			body[10] = 1;	/* reserved */
		broker_send(fd, BROKER_MOVE_REQ, 2, body, BROKER_MOVE_REQ_SIZE);
	} else if (!strcmp(o->kind, "badbody")) {
		if (auth(fd, o, BROKER_ROLE_CLIENT))
			return 1;
		memset(body, 0, 8);
		body[0] = 0xff;	/* 255 slabs */
		broker_send(fd, BROKER_GRANT_REQ, 2, body, BROKER_GRANT_REQ_SIZE);
	} else if (!strcmp(o->kind, "clientheartbeat") || !strcmp(o->kind, "wrongid")) {
		struct broker_donor d = { .free_slabs = 1000, .hb_interval_ms = 1000,
					  .slab_shift = 30, .addr = "127.0.0.1:1", .domain = "evil" };

		if (auth(fd, o, !strcmp(o->kind, "wrongid") ? BROKER_ROLE_DONOR : BROKER_ROLE_CLIENT))
			return 1;
		snprintf(d.donor_id, sizeof(d.donor_id), "%s",
			 !strcmp(o->kind, "wrongid") ? "someone-else" : o->name);
		broker_donor_encode(&d, body, sizeof(body));
		broker_send(fd, BROKER_HEARTBEAT, 2, body, BROKER_DONOR_SIZE);
	} else {
		printf("unknown --kind %s\n", o->kind);
		return 2;
	}
	return expect_refusal(fd);
}

static volatile sig_atomic_t got_term;

static void on_term(int sig)
{
	got_term = 1;
}

static int do_link(const struct opts *o)
{
	struct broker_link_cfg c;
	struct broker_link *l;
	const char *why;
	char err[256];
	unsigned int last = ~0u;
	long long then_free = o->then_free;
	unsigned int settled = 0;	/* ticks with every broker connected */

	memset(&c, 0, sizeof(c));
	why = broker_link_parse_list(&c, o->broker);
	if (why) {
		printf("brokers: %s\n", why);
		return 2;
	}
	if (broker_read_key_file(o->key_file, c.key, err, sizeof(err))) {
		printf("%s\n", err);
		return 1;
	}
	snprintf(c.donor_id, sizeof(c.donor_id), "%s", o->name);
	snprintf(c.addr, sizeof(c.addr), "%s", o->addr);
	snprintf(c.domain, sizeof(c.domain), "%s", o->domain);
	c.slab_shift = 30;
	c.hb_interval_ms = o->interval_ms;
	c.flags = o->v3 ? BROKER_DONOR_F_GRANT_V3 : 0;
	c.backoff_min_ms = 200;
	c.backoff_max_ms = 2000;
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	l = broker_link_start(&c, o->free_slabs);
	if (!l)
		return 1;
	for (unsigned int t = 0; !got_term && (!o->count || t < o->count * 10); t++) {
		struct timespec ts = { .tv_nsec = 100000000L };
		unsigned int n = broker_link_connected(l);

		if (n != last)
			printf("connected=%u\n", n);
		last = n;
		if (then_free >= 0 && n == c.nbrokers && ++settled > 10) {
			/* printed first: a broker read before the line shows
			 * the old count (tests/broker/run) */
			printf("free=%lld\n", then_free);
			broker_link_set_free(l, (uint64_t)then_free);
			then_free = -1;
		}
		nanosleep(&ts, NULL);
	}
	broker_link_stop(l);
	printf("stopped\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "broker", required_argument, NULL, 'b' },
		{ "name", required_argument, NULL, 'n' },
		{ "key-file", required_argument, NULL, 'K' },
		{ "addr", required_argument, NULL, 'a' },
		{ "domain", required_argument, NULL, 'd' },
		{ "free", required_argument, NULL, 'f' },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "slabs", required_argument, NULL, 's' },
		{ "copies", required_argument, NULL, 'r' },
		{ "ec", required_argument, NULL, 'E' },
		{ "lease", required_argument, NULL, 'l' },
		{ "kind", required_argument, NULL, 'k' },
		{ "grant-key", required_argument, NULL, 'g' },
		{ "grant-key-id", required_argument, NULL, 'G' },
		{ "grant-pub", required_argument, NULL, 'P' },
		{ "grant-sk", required_argument, NULL, 'Q' },
		{ "then-free", required_argument, NULL, 'F' },
		{ "move", required_argument, NULL, 'M' },
		{ "save", required_argument, NULL, 'S' },
		{ "grants", required_argument, NULL, 'R' },
		{ "marks", no_argument, NULL, 'm' },
		{ "drop-marked", no_argument, NULL, 'D' },
		{ "every", required_argument, NULL, 'e' },
		{ "held-file", required_argument, NULL, 'H' },
		{ "free-file", required_argument, NULL, 'W' },
		{ "held-files", required_argument, NULL, 'Y' },
		{ "v3", no_argument, NULL, '3' },
		{ "v3-key", required_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .addr = "127.0.0.1:18515", .domain = "d0", .free_slabs = 8,
			  .interval_ms = 1000, .count = 0, .slabs = 1, .copies = 1,
			  .grant_key_id = 1, .then_free = -1 };
	const char *mode;
	char why[256];
	int c, fd, ret;

	if (argc < 2)
		return usage();
	mode = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "b:n:K:", lo, NULL)) != -1) {
		switch (c) {
		case 'b': o.broker = optarg; break;
		case 'n': o.name = optarg; break;
		case 'K': o.key_file = optarg; break;
		case 'a': o.addr = optarg; break;
		case 'd': o.domain = optarg; break;
		case 'f': o.free_slabs = strtoull(optarg, NULL, 0); break;
		case 'i': o.interval_ms = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'c': o.count = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 's': o.slabs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'r': o.copies = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'E':
			if (sscanf(optarg, "%u+%u", &o.ec_k, &o.ec_r) != 2 || !o.ec_k || o.ec_k > 255 ||
			    o.ec_r > 255)
				return usage();
			break;
		case 'l': o.lease = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'k': o.kind = optarg; break;
		case 'g': o.grant_key = optarg; break;
		case 'G': o.grant_key_id = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'P': o.grant_pub = optarg; break;
		case '3': o.v3 = true; break;
		case 'V': o.v3_key = optarg; break;
		case 'Q': o.grant_sk = optarg; break;
		case 'F': o.then_free = strtoll(optarg, NULL, 0); break;
		case 'S': o.save = optarg; break;
		case 'R': o.grants = optarg; break;
		case 'm': o.marks = true; break;
		case 'D': o.drop_marked = o.marks = true; break;
		case 'e': o.every_ms = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'H': o.held_file = optarg; break;
		case 'W': o.free_file = optarg; break;
		case 'Y': o.held_files = optarg; break;
		case 'M':
			if (o.nmoves == MAX_MOVES)
				return usage();
			o.moves[o.nmoves++] = optarg;
			break;
		default: return usage();
		}
	}
	if ((!o.broker && strcmp(mode, "fakebroker")) ||
	    (strcmp(mode, "bad") && (!o.name || !o.key_file)) ||
	    ((!strcmp(mode, "bad") || !strcmp(mode, "fakebroker")) && !o.kind) ||
	    ((!strcmp(mode, "move") || !strcmp(mode, "askmove")) && !o.nmoves) ||
	    ((!strcmp(mode, "renew") || !strcmp(mode, "askrenew")) && !o.grants))
		return usage();
	if (sodium_init() < 0)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "link"))
		return do_link(&o);
	if (!strcmp(mode, "askmove"))
		return do_askmove(&o);
	if (!strcmp(mode, "askrenew"))
		return do_askrenew(&o);
	if (!strcmp(mode, "fakebroker"))
		return do_fakebroker(&o);
	fd = broker_connect(o.broker, 5000, why, sizeof(why));
	if (fd < 0 && strcmp(mode, "donor")) {
		printf("connect: %s\n", why);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(mode, "donor"))
		ret = do_donor(fd, &o);
	else if (!strcmp(mode, "client"))
		ret = do_client(fd, &o);
	else if (!strcmp(mode, "bad"))
		ret = do_bad(fd, &o);
	else if (!strcmp(mode, "move"))
		ret = do_move(fd, &o);
	else if (!strcmp(mode, "renew"))
		ret = do_renew(fd, &o);
	else if (!strcmp(mode, "grab"))
		ret = do_grab(fd, &o);
	else if (!strcmp(mode, "legacyrenew"))
		ret = do_legacyrenew(fd, &o, BROKER_RENEW_REQ);
	else if (!strcmp(mode, "room"))
		ret = do_legacyrenew(fd, &o, BROKER_ROOM_REQ);
	else
		ret = usage();
	if (strcmp(mode, "donor"))
		close(fd);
	return ret;
}
