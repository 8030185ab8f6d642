/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare-aggd's tenant proof (agg_proto.h, TENANT_PROOF), made in one place
 * for the daemon and libspare-agg: HMAC-SHA-256 through libsodium.
 */
#ifndef SPARE_AGG_AUTH_H
#define SPARE_AGG_AUTH_H

#include <stdint.h>

#include "agg_proto.h"

#define AGG_TENANT_KEY_LEN	32

/* HMAC(key, AGG_TENANT_LABEL | tenant[32] NUL padded | nonce_c | nonce_d) */
void agg_tenant_mac(uint8_t mac[AGG_TENANT_MAC_LEN], const uint8_t key[AGG_TENANT_KEY_LEN],
		    const char *tenant, const uint8_t nonce_c[AGG_TENANT_NONCE_LEN],
		    const uint8_t nonce_d[AGG_TENANT_NONCE_LEN]);

#endif /* SPARE_AGG_AUTH_H */
