// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the host-keys parser and the donor address check
 * (userspace/lib/spare_auth.c): spared and spare-broker read host-keys
 * files, and the broker matches every REGISTER's address against them.
 * Self-contained: it includes the sources.
 * fuzz-ldlibs: -lsodium -lz
 *
 * Input: host-keys text, then optionally "\0ADDR\0FROM" (a registered
 * address and the address the donor connects from). Checks beyond "no
 * crash": a file that parses has keys with a role of 1..4 (admin, 4, never
 * with another role), at most SPARE_HOST_ADDRS_MAX addresses, host names
 * in addr= only on donors (a client's or an admin's addr= binds where it
 * connects from: IP addresses and prefixes), prefixes no longer than their
 * family, and NUL-terminated names; a refusal's reason is a string. Until
 * session 43 the target still said roles 1..3 and addr= on donors only,
 * from before role=admin and clients' addr=; two check runs' fuzzers found
 * those files (seeds/fuzz_host_keys/admin-role, admin-addr).
 * Secrets are valid SPARE-1: text in the seed corpus only by luck, so the
 * target builds one: each "@" in the text becomes a fixed valid secret.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../userspace/lib/spare_auth.c"
#include "../../userspace/lib/spare_keyfile.c"
#include "../../userspace/lib/spare_log.c"

static void check(int cond)
{
	if (!cond)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char secret[] = "SPARE-1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh+KfiaR";
	const char *text_end = memchr(data, '\0', size);
	size_t tlen = text_end ? (size_t)(text_end - (const char *)data) : size;
	struct spare_host_keys hk;
	char why[320], *text, *p;
	size_t n = 0;

	if (tlen > 4096)
		return 0;
	text = malloc(tlen * (sizeof(secret) - 1) + 1);
	if (!text)
		return 0;
	for (size_t i = 0; i < tlen; i++) {
		if (data[i] == '@') {
			memcpy(text + n, secret, sizeof(secret) - 1);
			n += sizeof(secret) - 1;
		} else {
			text[n++] = (char)data[i];
		}
	}
	text[n] = '\0';
	if (!spare_host_keys_parse(text, &hk, why, sizeof(why))) {
		check(hk.n > 0);
		for (unsigned int i = 0; i < hk.n; i++) {
			const struct spare_host_key *k = &hk.v[i];

			check((k->roles >= SPARE_ROLE_CLIENT && k->roles <= SPARE_ROLE_BOTH) ||
			      k->roles == SPARE_ROLE_ADMIN);
			check(memchr(k->name, '\0', sizeof(k->name)) != NULL);
			check(k->naddrs <= SPARE_HOST_ADDRS_MAX);
			for (unsigned int j = 0; j < k->naddrs; j++) {
				const struct spare_host_addr *a = &k->addrs[j];

				check(a->family != AF_INET || a->bits <= 32);
				check(a->family != AF_INET6 || a->bits <= 128);
				check(a->family || a->host[0]);
				check(a->family || (k->roles & SPARE_ROLE_DONOR));
			}
		}
		if (text_end) {
			const char *addr = text_end + 1;
			const char *aend = memchr(addr, '\0', size - tlen - 1);
			char abuf[128], from[64];
			size_t alen = aend ? (size_t)(aend - addr) : size - tlen - 1;
			size_t flen = aend ? size - tlen - 2 - alen : 0;

			snprintf(abuf, sizeof(abuf), "%.*s", (int)(alen < 127 ? alen : 127), addr);
			snprintf(from, sizeof(from), "%.*s", (int)(flen < 63 ? flen : 63),
				 aend ? aend + 1 : "");
			for (unsigned int i = 0; i < hk.n; i++)
				if (spare_host_key_addr_refused(&hk.v[i], abuf, from, why, sizeof(why)))
					check(memchr(why, '\0', sizeof(why)) != NULL);
		}
		spare_host_keys_free(&hk);
	} else {
		check(memchr(why, '\0', sizeof(why)) != NULL);
		/* never the secret */
		check(!strstr(why, "SPARE-1:AAEC"));
	}
	p = text;
	free(p);
	return 0;
}
