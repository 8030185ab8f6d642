/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Signing grants on several threads at once: the broker encodes the grants
 * of a request on its event loop, then seals (signs) them here, the
 * calling thread and the pool's threads each taking the next unsigned grant
 * until none is left (Documentation/perf-broker.md, "Signing threads").
 * The call returns when every grant is signed, so the caller's state stays
 * single-threaded. An Ed25519 signature is deterministic: the grants come
 * out byte for byte as spare_grant_keys_seal() one after the other makes
 * them.
 */
#ifndef SPARE_GRANT_POOL_H
#define SPARE_GRANT_POOL_H

#include "spare_grant_lib.h"

/* More would only wait for the cores. */
#define SPARE_GRANT_POOL_MAX_THREADS	16

struct spare_grant_pool;

/*
 * A pool of @threads signing threads (1..SPARE_GRANT_POOL_MAX_THREADS)
 * beside the caller. NULL with errno (EINVAL, or pthread_create's) if not.
 */
struct spare_grant_pool *spare_grant_pool_new(unsigned int threads);

/* Stop and join the threads. NULL is fine. */
void spare_grant_pool_free(struct spare_grant_pool *p);

/*
 * Seal @g[0..@n) (each from spare_grant_keys_encode() with @k) with @k.
 * With @p NULL, or a single grant, the caller signs alone. One caller at a
 * time; @k and @g must stay as they are until it returns.
 */
void spare_grant_pool_seal(struct spare_grant_pool *p, const struct spare_grant_keys *k,
			   struct spare_grant *g, unsigned int n);

/* Grants the pool's threads (not the callers) have signed so far; 0 for NULL. */
unsigned long long spare_grant_pool_by_threads(struct spare_grant_pool *p);

#endif /* SPARE_GRANT_POOL_H */
