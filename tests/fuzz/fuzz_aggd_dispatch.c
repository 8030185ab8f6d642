// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for spare-aggd's message handling, not only its codec:
 * sequences of REGISTER, PUSH, PULL, SET_WEIGHTS, LEAVE, STATS, MIGRATE,
 * PEER_HELLO/PEER_PROOF, IMPORT, IMPORT_STATE, IMPORT_COMMIT, REPORT (with
 * FlowCon on in half the runs), TENANT_HELLO/TENANT_PROOF (a tenants file
 * in half the runs: two tenants, one with caps, whose keys the harness
 * holds, so a peer authenticates as a tenant and goes on from there) and raw
 * messages from up to four peers, against one daemon state.
 *
 * The daemon state is tests/agg/aggd_harness.h's: the daemon's own rooms
 * with peers as message-transport connections, a synchronous pool and no
 * io_uring. Here:
 *  - MIGRATE gets as far as its checks: the daemon has no --peer-key-file
 *    in half the runs (MIGRATE refused), and in the other half MIGRATE
 *    messages are not sent (a link would need a real io_uring).
 * The daemon's key is known to the harness, so a PEER_PROOF can be made
 * right and IMPORT reached.
 *
 * Checks beyond "no crash, no leak, no sanitizer report": after every
 * message the memory the jobs hold equals the sum of their sizes, and every
 * connection bound to a job is that job's connection of its rank.
 *
 * fuzz-ldlibs: build/lib/libspare.a -lsodium -lz -lm
 * (libspare.a for the metrics writer, which aggd_dispatch.c calls)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check(int cond)
{
	if (!cond)
		__builtin_trap();
}

#include "../agg/aggd_harness.h"

static const uint8_t key[32] = "spare-aggd fuzz key, 32 bytes!!";
static const char *const tenant_names[3] = { "alice", "bob", "mallory" };
static uint8_t tenant_keys[2][32];

/* The tenants file of a run with tenants: bob has small caps. */
static void tenants_setup(void)
{
	char text[300], k0[80], k1[80], why[200];
	struct aggd_tenants t;

	memset(tenant_keys[0], 'a', 32);
	memset(tenant_keys[1], 'b', 32);
	spare_key_format(tenant_keys[0], k0, sizeof(k0));
	spare_key_format(tenant_keys[1], k1, sizeof(k1));
	snprintf(text, sizeof(text), "alice %s\nbob %s jobs=2 conns=2 mem=4K\n", k0, k1);
	check(tenants_parse(text, &t, why, sizeof(why)) == 0);
	tenants_install(&t);
}

/* A small job spec from 4 input bytes. */
static size_t make_spec(const uint8_t *in, uint8_t *out, size_t cap, int rank0)
{
	struct agg_job_spec s;
	struct agg_tensor_desc t[2];
	int ret;

	memset(&s, 0, sizeof(s));
	snprintf(s.name, sizeof(s.name), "job%u", in[0] % 3);
	snprintf(s.token, sizeof(s.token), "tok%u", in[1] % 2);
	s.n_workers = (uint16_t)(1 + in[0] / 64 % 3);
	s.rank = rank0 ? 0 : (uint16_t)(in[1] / 2 % 4);
	s.dtype = (uint8_t)(1 + in[2] % 3);
	s.opt = in[2] & 0x80 ? AGG_OPT_SGD_MOMENTUM : AGG_OPT_NONE;
	if (s.opt)
		s.dtype = AGG_DTYPE_F32;
	s.weight = 1;
	s.part_elems = 8 + in[3] % 8;
	s.lr = 0.5f;
	s.momentum = 0.5f;
	s.n_tensors = 1 + (in[3] >> 7);
	snprintf(t[0].name, sizeof(t[0].name), "a");
	t[0].nelem = 5 + in[3] % 23;
	snprintf(t[1].name, sizeof(t[1].name), "b");
	t[1].nelem = 3;
	s.tensors = t;
	if (agg_register_size(s.n_tensors) > cap)
		return 0;
	ret = agg_register_encode(&s, out, cap);
	return ret > 0 ? (size_t)ret : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int keyed;

	if (size < 1)
		return 0;
	harness_reset("fuzz");
	keyed = data[0] & 1;
	if (keyed) {
		memcpy(g.peer_key, key, sizeof(key));
		g.peer_key_len = sizeof(key);
	}
	g.stats_open = data[0] & 2;
	if (data[0] & 4)
		report_flowcon_enable(2.0, 50000000);
	if (data[0] & 8)
		tenants_setup();
	data++;
	size--;

	while (size >= 6) {
		unsigned int who = data[0] % N_PEERS, op = data[1] % 16;
		const uint8_t *a = data + 2;	/* 4 argument bytes */
		struct conn *c = peer[who];
		struct agg_hdr h;
		uint8_t body[512];
		size_t len;

		data += 6;
		size -= 6;
		g.now_ns += 1000000;
		if (!c) {
			c = harness_peer();
			check(c != NULL);
			peer[who] = c;
		}
		memset(&h, 0, sizeof(h));
		switch (op) {
		case 0:		/* REGISTER */
			len = make_spec(a, body, sizeof(body), 0);
			if (len)
				deliver(c, AGG_MSG_REGISTER, &h, body, len);
			break;
		case 1:		/* PUSH of the right size, or not */
		case 2: {	/* SET_WEIGHTS */
			struct agg_job *j = c->job;
			size_t n = j && a[0] % j->spec.n_parts < j->spec.n_parts ?
				   j->parts[a[0] % j->spec.n_parts].bytes : a[1] % 64;

			if (a[3] & 1)
				n = a[1] % 64;
			h.job_id = j ? j->id : a[2];
			h.part = j ? a[0] % j->spec.n_parts : a[0];
			h.iter = a[2] % 8;
			memset(body, a[3], sizeof(body));
			if (n <= sizeof(body))
				deliver(c, op == 1 ? AGG_MSG_PUSH : AGG_MSG_SET_WEIGHTS,
					&h, body, n);
			break;
		}
		case 3:		/* PULL */
			h.job_id = c->job ? c->job->id : a[2];
			h.part = c->job ? a[0] % c->job->spec.n_parts : a[0];
			h.iter = a[2] % 8;
			deliver(c, AGG_MSG_PULL, &h, NULL, 0);
			break;
		case 4:
			deliver(c, AGG_MSG_LEAVE, &h, NULL, 0);
			break;
		case 5:
			deliver(c, AGG_MSG_STATS, &h, NULL, 0);
			break;
		case 6: {	/* MIGRATE */
			struct agg_migrate_req m;

			if (keyed)
				break;	/* a link would need a real io_uring */
			memset(&m, 0, sizeof(m));
			snprintf(m.name, sizeof(m.name), "job%u", a[0] % 3);
			snprintf(m.token, sizeof(m.token), "tok%u", a[1] % 2);
			snprintf(m.to.host, sizeof(m.to.host), "127.0.0.%u", a[2]);
			m.to.port = 1 + a[3];
			if (agg_migrate_encode(&m, body) == AGG_MIGRATE_SIZE)
				deliver(c, AGG_MSG_MIGRATE, &h, body, AGG_MIGRATE_SIZE);
			break;
		}
		case 7:		/* PEER_HELLO */
			memset(body, a[0], AGG_PEER_HELLO_SIZE);
			deliver(c, AGG_MSG_PEER_HELLO, &h, body, AGG_PEER_HELLO_SIZE);
			break;
		case 8:		/* PEER_PROOF: a wrong one, or a peer taken as proven */
			if (a[0] & 1 && !c->job && !c->import_job) {
				/* the proofs bind the link's TCP addresses, which
				 * the harness's peers lack: the proof itself is
				 * tested over TCP (tests/agg/run agg-doors,
				 * agg-relay); here, what a proven peer may send */
				c->peer_authed = true;
				break;
			}
			memset(body, a[1], AGG_PEER_PROOF_SIZE);
			deliver(c, AGG_MSG_PEER_PROOF, &h, body, AGG_PEER_PROOF_SIZE);
			break;
		case 9:		/* IMPORT: a tenant's job, or an open daemon's */
			len = make_spec(a, body + AGG_IMPORT_TENANT_LEN,
					sizeof(body) - AGG_IMPORT_TENANT_LEN, 1);
			agg_name_encode(body, a[2] & 0x40 ? tenant_names[a[1] % 3] : "");
			if (len)
				deliver(c, AGG_MSG_IMPORT, &h, body,
					AGG_IMPORT_TENANT_LEN + len);
			break;
		case 14: {	/* TENANT_HELLO, then a right or a wrong proof */
			uint8_t mac[AGG_TENANT_MAC_LEN];
			unsigned int t = a[0] % 3;

			agg_name_encode(body, tenant_names[t]);
			memset(body + AGG_NAME_LEN, a[1], AGG_TENANT_NONCE_LEN);
			deliver(c, AGG_MSG_TENANT_HELLO, &h, body, AGG_TENANT_HELLO_SIZE);
			if (a[2] & 1 || !alive(c) || !c->tenant_challenged)
				break;	/* half the time, the hello only */
			if (t < 2 && !(a[3] & 1))
				agg_tenant_mac(mac, tenant_keys[t], tenant_names[t],
					       body + AGG_NAME_LEN, c->tenant_nd);
			else
				memset(mac, a[3], sizeof(mac));
			memset(&h, 0, sizeof(h));
			deliver(c, AGG_MSG_TENANT_PROOF, &h, mac, sizeof(mac));
			break;
		}
		case 10: {	/* IMPORT_STATE */
			struct agg_job *j = c->import_job;

			h.part = j ? a[0] % j->spec.n_parts : a[0];
			h.rank = a[1] % 3;
			len = j && !(a[3] & 1) ?
			      (size_t)j->parts[h.part].nelem * sizeof(float) : a[2] % 64;
			memset(body, a[3], sizeof(body));
			if (len <= sizeof(body))
				deliver(c, AGG_MSG_IMPORT_STATE, &h, body, len);
			break;
		}
		case 11: {	/* IMPORT_COMMIT */
			struct agg_job *j = c->import_job;

			len = j && !(a[3] & 1) ? j->spec.n_workers : a[2] % 8;
			h.iter = a[0] % 8;
			for (size_t i = 0; i < len; i++)
				body[i] = (uint8_t)(a[1] >> i & 1 ? a[2] % 3 : 0);
			deliver(c, AGG_MSG_IMPORT_COMMIT, &h, body, len);
			break;
		}
		case 13: {	/* REPORT: a job's name, values from the input */
			static const double losses[] = { 2.0, 1.0, 0.5, 0.0, -1.0, 1e300 };
			uint8_t *b = body;

			memset(b, 0, AGG_REPORT_SIZE);
			snprintf((char *)b, 32, "job%u", a[0] % 3);
			snprintf((char *)b + 32, 32, "tok%u", a[1] % 2);
			b[64] = a[1] & 0x80 ? a[1] : AGG_REPORT_VERSION;
			b[72] = a[2];
			memcpy(b + 80, &losses[a[3] % 6], 8);
			{
				double cpu = (double)(a[3] >> 3) / 2;

				memcpy(b + 88, &cpu, 8);
			}
			b[96] = a[1] & 0x40 ? a[2] : 0;
			deliver(c, AGG_MSG_REPORT, &h, b, AGG_REPORT_SIZE);
			break;
		}
		case 12:	/* close the connection */
			conn_close(c, "fuzz: peer went away");
			settle();
			break;
		default: {	/* a raw message: header fields and length from the input */
			size_t n = size < a[3] ? size : a[3];
			uint8_t *msg = malloc(AGG_HDR_SIZE + n);

			check(msg != NULL);
			memset(&h, 0, sizeof(h));
			agg_hdr_init(&h, a[0] % (AGG_MSG_TYPE_MAX + 2), (uint32_t)n);
			h.part = a[1];
			h.iter = a[2] % 8;
			h.job_id = c->job ? c->job->id : 0;
			if (a[1] & 0x80)
				h.len ^= a[2];	/* a length that lies */
			agg_hdr_encode(&h, msg);
			memcpy(msg + AGG_HDR_SIZE, data, n);
			data += n;
			size -= n;
			if (h.type != AGG_MSG_MIGRATE || !keyed)
				conn_message(c, msg, AGG_HDR_SIZE + n);
			settle();
			free(msg);
			break;
		}
		}
		invariants();
	}
	teardown();
	return 0;
}
