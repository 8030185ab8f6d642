// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the spare-aggd wire decoder (userspace/aggd/
 * agg_proto.c). Self-contained: it includes the codec source, so
 *   clang-14 -fsanitize=fuzzer,address,undefined tests/fuzz/fuzz_agg_proto.c
 * builds it. Input: a 32-byte header followed by the payload; the whole
 * input is also tried as a REGISTER body on its own.
 *
 * Checks beyond "no crash": a header that decodes re-encodes to the same
 * bytes; a REGISTER body that decodes re-encodes to the same bytes and its
 * partitions tile every tensor exactly.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../userspace/aggd/agg_proto.c"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct agg_hdr h;
	uint8_t again[AGG_HDR_SIZE];
	uint32_t n_parts;

	/* the whole input as a REGISTER body too: reached without first
	 * finding a valid header whose length matches */
	fuzz_register(data, size);
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
	else if (h.type == AGG_MSG_REGISTER_REPLY)
		(void)agg_reg_reply_decode(data, size, &n_parts);
	return 0;
}
