// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for spare-broker's request handling after
 * authentication: the daemon's own frame parser and handlers
 * (userspace/broker/broker_main.c: parse(), on_frame() and every on_*())
 * over its own state (bstate.c), driven in memory without sockets.
 *
 * Each input is one peer's session on a fresh broker with three live
 * donors. The peer first authenticates for real, with a test host key:
 * the broker's CHALLENGE nonce, a HELLO whose proof the harness computes
 * with the key, the broker's check and its WELCOME. Input byte 0 picks the
 * role (even: client, odd: donor, as a key holder of either kind); the
 * rest is what the peer sends after WELCOME, as records (a type, a body;
 * see below). Byte 1 picks legacy-renew (bit 1) and whether the first
 * grant the broker signs in the session is sent back as a RENEW_GRANT
 * (bit 0), so that renewals of real grants are reached.
 * fuzz-ldlibs: build/lib/libspare-sched.a build/lib/libspare.a -linih -lsystemd -lmicrohttpd -lsodium -lz -lm -lpthread
 *
 * Checks beyond "no crash": the broker's counts stay consistent (the
 * placement tree's total is the sum of the donors' free counts, live
 * donors are counted right, no more domains than live donors), no donor
 * is believed to have more free slabs than max-donor-bytes allows, no
 * client holds more grants than max-client-grants, and every GRANT_REP
 * the broker sends decodes, each grant verifies with the broker's key and
 * names the authenticated client.
 */
#define main broker_main
#include "../../userspace/broker/broker_main.c"
#undef main
#include "../../userspace/broker/bstate.c"

static void check(int cond)
{
	if (!cond)
		__builtin_trap();
}

static const char fuzz_name[BROKER_NAME_LEN] = "fuzzpeer";
static const struct spare_grant_key test_grant_key = {
	.id = 7, .key = "fuzz-grant-key-0123456789abcdef",
};
/*
 * a key of every role (client, donor and admin: no host-keys line gives
 * that, but it lets one key reach every handler), bound to 10.0.0.0/8
 * (host-keys role=, addr=): where its donor registers and its client
 * connects from
 */
static struct spare_host_addr host_addr = { .family = AF_INET, .ip = { 10 }, .bits = 8 };
static struct spare_host_key host_key = { .name = "fuzzpeer",
					  .key = "fuzz-host-key-0123456789abcdef!",
					  .roles = SPARE_ROLE_CLIENT | SPARE_ROLE_DONOR |
						   SPARE_ROLE_ADMIN,
					  .addrs = &host_addr, .naddrs = 1 };
static struct broker b;

/* Three live donors, as heartbeats would make them. */
static void add_donors(void)
{
	static const char *const ids[] = { "fuzzpeer", "d1", "d2" };

	for (unsigned int i = 0; i < 3; i++) {
		struct broker_donor d;

		memset(&d, 0, sizeof(d));
		snprintf(d.donor_id, sizeof(d.donor_id), "%s", ids[i]);
		snprintf(d.addr, sizeof(d.addr), "10.0.0.%u:18515", i + 1);
		snprintf(d.domain, sizeof(d.domain), "rack-%u", i);
		d.free_slabs = 64;
		d.hb_interval_ms = 1000;
		d.slab_shift = 30;
		check(!bstate_heartbeat(&b.st, &d, spare_now_ms()));
	}
}

/* Check every frame the broker queued for @c since @from; drop them. */
static void check_output(struct conn *c, size_t from, struct spare_grant *first, bool *have)
{
	size_t off = from;

	while (c->out_len - off >= BROKER_HDR_SIZE) {
		struct broker_hdr h;
		struct broker_grant_rep rep;

		check(!broker_hdr_decode(c->out + off, &h));
		check(c->out_len - off >= BROKER_HDR_SIZE + h.len);
		if (h.type == BROKER_GRANT_REP) {
			const uint8_t *body = c->out + off + BROKER_HDR_SIZE;

			check(!broker_grant_rep_decode(body, h.len, &rep));
			for (unsigned int i = 0; i < (unsigned int)rep.slabs * rep.copies; i++) {
				struct spare_grant g;
				struct spare_grant_info gi;

				broker_grant_rep_entry(&rep, i, &g, NULL);
				check(!spare_grant_decode(&g, &gi));
				check(!spare_grant_verify(&g, &test_grant_key, 1, gi.donor_id,
							  fuzz_name, gi.not_before, NULL, NULL));
				if (!*have) {
					*first = g;
					*have = true;
				}
			}
		}
		if (h.type == BROKER_DONORS_REP) {
			struct broker_donors_rep dr;

			/* the broker's own table, every entry well formed */
			check(!broker_donors_rep_decode(c->out + off + BROKER_HDR_SIZE, h.len, &dr));
			check(dr.total == b.st.n && dr.n <= dr.total);
		}
		off += BROKER_HDR_SIZE + h.len;
	}
	c->out_len = c->out_off = 0;
}

static void check_state(void)
{
	uint64_t sum = 0;
	unsigned int live = 0;

	for (size_t i = 0; i < b.st.n; i++) {
		sum += b.st.pd[i].free_slabs;
		live += b.st.donors[i].live;
		check(b.st.donors[i].reported <= bstate_donor_cap(&b.st, b.st.donors[i].slab_shift));
	}
	check(sum == bstate_total_free(&b.st));
	check(live == b.st.live);
	check(b.st.ndomains <= b.st.live);
	for (size_t i = 0; i < b.st.nclients; i++)
		check(b.st.clients[i].grants <= b.st.max_client_grants);
}

/* Feed @len bytes to @c as the socket would, then let it parse. */
static void feed(struct conn *c, const uint8_t *p, size_t len)
{
	while (len && c->state != C_CLOSING) {
		size_t n = c->in_cap - c->in_len;

		if (!n)
			break;	/* a full buffer waits for output room: not here */
		if (n > len)
			n = len;
		memcpy(c->in + c->in_len, p, n);
		c->in_len += n;
		p += n;
		len -= n;
		parse(&b, c);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool once;
	struct broker_hello hello;
	uint8_t frame[BROKER_HDR_SIZE + BROKER_HELLO_SIZE];
	struct spare_grant first;
	bool have = false, renew_first;
	struct conn *c;

	if (!once) {
		once = true;
		spare_log_init("fuzz", SPARE_LOG_ERR);
		check(sodium_init() >= 0);
	}
	if (size < 2)
		return 0;
	memset(&b, 0, sizeof(b));
	b.cfg.max_conns = 64;
	b.cfg.max_handshakes = 8;
	b.cfg.hello_timeout_ms = 5000;
	b.cfg.max_donors = 8;
	b.cfg.client_share_pct = 50;
	b.cfg.max_client_grants = 64;
	b.cfg.max_donor_bytes = UINT64_C(1) << 40;
	b.cfg.legacy_renew = data[1] & 2;
	memcpy(b.cfg.broker_id, "fuzzbroker", 11);
	b.hk.v = &host_key;
	b.hk.n = 1;
	b.epfd = -1;
	check(!bstate_init(&b.st, 8, 3, 60, 5, &test_grant_key, 1));
	check(!bstate_set_caps(&b.st, b.cfg.max_donor_bytes, b.cfg.client_share_pct,
			       b.cfg.max_client_grants));
	add_donors();

	c = calloc(1, sizeof(*c));
	check(c != NULL);
	c->in_cap = c->out_cap = BUF_START;
	c->in = malloc(c->in_cap);
	c->out = malloc(c->out_cap);
	check(c->in && c->out);
	c->src.fd = -1;
	c->state = C_HELLO;
	snprintf(c->peer, sizeof(c->peer), "fuzz");
	/* connecting from inside the key's addr=, which binds its client too */
	snprintf(c->ip, sizeof(c->ip), "10.0.0.200");
	b.conns = c;
	b.nconns = 1;

	/* authenticate for real: CHALLENGE, HELLO with the proof, WELCOME */
	send_challenge(&b, c);
	c->out_len = c->out_off = 0;
	memset(&hello, 0, sizeof(hello));
	hello.role = data[0] % 3 == 0 ? BROKER_ROLE_DONOR :
		     data[0] % 3 == 1 ? BROKER_ROLE_CLIENT : BROKER_ROLE_ADMIN;
	memcpy(hello.name, fuzz_name, sizeof(hello.name));
	randombytes_buf(hello.nonce, sizeof(hello.nonce));
	hello.nonce[0] |= 1;
	broker_auth_mac(hello.mac, host_key.key, BROKER_DIR_PEER, hello.role, hello.name,
			b.cfg.broker_id, hello.nonce, c->bnonce);
	broker_hdr_encode(frame, BROKER_HELLO, 1, BROKER_HELLO_SIZE);
	check(broker_hello_encode(&hello, frame + BROKER_HDR_SIZE, BROKER_HELLO_SIZE) ==
	      BROKER_HELLO_SIZE);
	feed(c, frame, sizeof(frame));
	check(c->state == C_READY);
	c->out_len = c->out_off = 0;
	renew_first = data[1] & 1;

	/*
	 * The session, as records: byte t, then a body. t & 15 is a frame
	 * type (0: raw bytes, header and all, for the parser's own checks),
	 * t & 32 STRIPE_REQ (16) whatever t & 15;
	 * t & 16: the body is the type's exact size, else its length is the
	 * next byte. The harness writes the header (magic, version, type,
	 * seq, the body's length), so the bodies are what gets fuzzed.
	 */
	data += 2;
	size -= 2;
	while (size >= 2 && c->state == C_READY) {
		static const uint16_t exact[BROKER_TYPE_MAX + 1] = {
			[BROKER_REGISTER] = BROKER_DONOR_SIZE, [BROKER_HEARTBEAT] = BROKER_DONOR_SIZE,
			[BROKER_GRANT_REQ] = BROKER_GRANT_REQ_SIZE,
			[BROKER_RENEW_REQ] = BROKER_RENEW_REQ_SIZE,
			[BROKER_MOVE_REQ] = BROKER_MOVE_REQ_SIZE,
			[BROKER_ROOM_REQ] = BROKER_RENEW_REQ_SIZE,
			[BROKER_RENEW_GRANT] = BROKER_RENEW_GRANT_SIZE(1),
			[BROKER_DONORS_REQ] = BROKER_DONORS_REQ_SIZE,
			[BROKER_STRIPE_REQ] = BROKER_STRIPE_REQ_SIZE,
		};
		static uint8_t rec[BROKER_HDR_SIZE + BROKER_MOVE_REQ_SIZE];
		unsigned int type = data[0] & 32 ? BROKER_STRIPE_REQ : data[0] & 15;
		size_t n = data[1], skip = 2;

		if (data[0] & 16 && exact[type]) {
			n = exact[type];
			skip = 1;
		}
		data += skip;
		size -= skip;
		if (n > size)
			n = size;
		if (!type) {
			feed(c, data, n);
		} else {
			broker_hdr_encode(rec, (uint16_t)type, 2, (uint32_t)n);
			memcpy(rec + BROKER_HDR_SIZE, data, n);
			feed(c, rec, BROKER_HDR_SIZE + n);
		}
		check_output(c, 0, &first, &have);
		check_state();
		data += n;
		size -= n;
		if (have && renew_first && c->state == C_READY) {
			uint8_t rf[BROKER_HDR_SIZE + BROKER_RENEW_GRANT_SIZE(1)];

			renew_first = false;
			broker_hdr_encode(rf, BROKER_RENEW_GRANT, 9, BROKER_RENEW_GRANT_SIZE(1));
			check(broker_renew_grant_encode(0, 1, &first, rf + BROKER_HDR_SIZE,
							BROKER_RENEW_GRANT_SIZE(1)) > 0);
			feed(c, rf, sizeof(rf));
			check_output(c, 0, &first, &have);
			check_state();
		}
	}
	conn_close(&b, c);
	free_dead(&b);
	bstate_free(&b.st);
	return 0;
}
