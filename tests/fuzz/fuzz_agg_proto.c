// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the spare-aggd wire decoder (userspace/aggd/
 * agg_proto.c). Self-contained: it includes the codec source, so
 *   clang-14 -fsanitize=fuzzer,address,undefined tests/fuzz/fuzz_agg_proto.c
 * builds it. Input: a 32-byte header followed by the payload; the whole
 * input is also tried as a REGISTER body on its own.
 *
 * Checks beyond "no crash": a header that decodes re-encodes to the same
 * bytes; a REGISTER body (an IMPORT's after its tenant name) that decodes
 * re-encodes to the same bytes and its partitions tile every tensor
 * exactly; an IMPORT's tenant name field decodes only as a printable,
 * NUL-padded name (or all zero) that re-encodes to the same bytes;
 * MIGRATE, REDIRECT and REPORT bodies that decode re-encode to the same
 * bytes. Until session 44 an IMPORT body went to the REGISTER checks
 * whole, from before IMPORT carried the tenant (a3167bc), so a real
 * IMPORT's REGISTER part was never reached.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../userspace/lib/agg_proto.c"

static void check(int cond)
{
	if (!cond)
		__builtin_trap();
}

static void fuzz_register(const uint8_t *body, size_t len)
{
	struct agg_job_spec s;
	uint8_t *again;
	uint32_t p = 0;

	if (agg_register_decode(body, len, &s))
		return;
	check(len == agg_register_size(s.n_tensors));
	again = malloc(len);
	check(again != NULL);
	check(agg_register_encode(&s, again, len) == (int)len);
	check(memcmp(again, body, len) == 0);
	free(again);
	for (uint32_t t = 0; t < s.n_tensors; t++) {
		uint64_t covered = 0;

		for (; p < s.tensor_first_part[t + 1]; p++) {
			uint32_t ti, n;
			uint64_t off;

			check(agg_spec_part(&s, p, &ti, &off, &n) == 0);
			check(ti == t && off == covered && n > 0 &&
			      n <= s.part_elems);
			covered += n;
		}
		check(covered == s.tensors[t].nelem);
	}
	check(p == s.n_parts);
	agg_spec_free(&s);
}

static void fuzz_migrate(const uint8_t *body, size_t len)
{
	struct agg_migrate_req m;
	uint8_t again[AGG_MIGRATE_SIZE];

	if (agg_migrate_decode(body, len, &m))
		return;
	check(len == AGG_MIGRATE_SIZE);
	check(agg_migrate_encode(&m, again) == AGG_MIGRATE_SIZE);
	check(memcmp(again, body, len) == 0);
}

static void fuzz_redirect(const uint8_t *body, size_t len)
{
	struct agg_target t;
	uint8_t again[AGG_REDIRECT_SIZE];

	if (agg_redirect_decode(body, len, &t))
		return;
	check(len == AGG_REDIRECT_SIZE);
	check(agg_redirect_encode(&t, again) == AGG_REDIRECT_SIZE);
	check(memcmp(again, body, len) == 0);
}

static void fuzz_report(const uint8_t *body, size_t len)
{
	struct agg_report r;
	uint8_t again[AGG_REPORT_SIZE];

	if (agg_report_decode(body, len, &r))
		return;
	check(len == AGG_REPORT_SIZE);
	check(agg_report_encode(&r, again) == AGG_REPORT_SIZE);
	check(memcmp(again, body, len) == 0);
}

/* IMPORT: the job's tenant (all zero: an open daemon's job), then REGISTER. */
static void fuzz_import(const uint8_t *body, size_t len)
{
	char tenant[AGG_NAME_LEN + 1];
	uint8_t again[AGG_NAME_LEN];

	if (len < AGG_IMPORT_TENANT_LEN || agg_name_decode(body, tenant))
		return;
	memset(again, 0, sizeof(again));
	agg_name_encode(again, tenant);
	check(memcmp(again, body, AGG_NAME_LEN) == 0);
	fuzz_register(body + AGG_IMPORT_TENANT_LEN, len - AGG_IMPORT_TENANT_LEN);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agg_hdr h;
	uint8_t again[AGG_HDR_SIZE];
	uint32_t n_parts;

	/* the whole input as a REGISTER body too: reached without first
	 * finding a valid header whose length matches */
	fuzz_register(data, size);
	fuzz_migrate(data, size);
	fuzz_redirect(data, size);
	fuzz_report(data, size);
	fuzz_import(data, size);
	if (size < AGG_HDR_SIZE)
		return 0;
	if (agg_hdr_decode(data, &h, 1U << 24))
		return 0;
	agg_hdr_encode(&h, again);
	check(memcmp(again, data, AGG_HDR_SIZE) == 0);
	data += AGG_HDR_SIZE;
	size -= AGG_HDR_SIZE;
	if (h.len != size)
		return 0;
	if (h.type == AGG_MSG_REGISTER)
		fuzz_register(data, size);
	else if (h.type == AGG_MSG_IMPORT)
		fuzz_import(data, size);
	else if (h.type == AGG_MSG_REPORT)
		fuzz_report(data, size);
	else if (h.type == AGG_MSG_REGISTER_REPLY)
		(void)agg_reg_reply_decode(data, size, &n_parts);
	else if (h.type == AGG_MSG_MIGRATE)
		fuzz_migrate(data, size);
	else if (h.type == AGG_MSG_REDIRECT)
		fuzz_redirect(data, size);
	else if (h.type == AGG_MSG_IMPORT_COMMIT)
		(void)agg_departed_check(data, size, h.rank % (AGG_MAX_WORKERS + 1));
	return 0;
}
