/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory behind spared's slabs: anonymous private mappings, zero when
 * first lent (fresh anonymous memory) and scrubbed before being lent again.
 * No RDMA here, so that the zeroing is unit-tested on the host.
 */
#ifndef SPARED_SLABMEM_H
#define SPARED_SLABMEM_H

#include <stddef.h>

/* Map @size bytes of zeroed memory, populated (faulted in). NULL + errno. */
void *slab_mem_alloc(size_t size);

/*
 * Make every byte of a slab zero again and give its pages back to the host
 * until the slab is next lent: MADV_DONTNEED on a private anonymous mapping
 * guarantees zero-fill on the next touch. Falls back to memset() if the
 * kernel refuses. The slab must no longer be registered for RDMA.
 */
void slab_mem_scrub(void *mem, size_t size);

/* Fault a scrubbed slab back in before it is registered again. */
void slab_mem_populate(void *mem, size_t size);

void slab_mem_free(void *mem, size_t size);

#endif /* SPARED_SLABMEM_H */
