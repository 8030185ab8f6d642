// SPDX-License-Identifier: GPL-2.0
/* spare-aggd's tenant proof (agg_auth.h). */
#include <string.h>

#include <sodium.h>

#include "agg_auth.h"

void agg_tenant_mac(uint8_t mac[AGG_TENANT_MAC_LEN], const uint8_t key[AGG_TENANT_KEY_LEN],
		    const char *tenant, const uint8_t nonce_c[AGG_TENANT_NONCE_LEN],
		    const uint8_t nonce_d[AGG_TENANT_NONCE_LEN])
{
	crypto_auth_hmacsha256_state st;
	uint8_t name[AGG_NAME_LEN];

	agg_name_encode(name, tenant);
	crypto_auth_hmacsha256_init(&st, key, AGG_TENANT_KEY_LEN);
	crypto_auth_hmacsha256_update(&st, (const uint8_t *)AGG_TENANT_LABEL,
				      strlen(AGG_TENANT_LABEL));
	crypto_auth_hmacsha256_update(&st, name, sizeof(name));
	crypto_auth_hmacsha256_update(&st, nonce_c, AGG_TENANT_NONCE_LEN);
	crypto_auth_hmacsha256_update(&st, nonce_d, AGG_TENANT_NONCE_LEN);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
}
