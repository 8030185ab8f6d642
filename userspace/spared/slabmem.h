/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory behind spared's slabs: one memfd per slab, mapped shared, so
 * that a restarting spared can hand a held slab's memory, contents and
 * all, to its next image (keep.h). Zero when first lent (a fresh memfd)
 * and scrubbed before being lent again. No RDMA here, so that the zeroing
 * is unit-tested on the host.
 */
#ifndef SPARED_SLABMEM_H
#define SPARED_SLABMEM_H

#include <stddef.h>

/*
 * A memfd of @size zero bytes (close-on-exec), mapped shared and populated
 * (faulted in). Returns the mapping and sets *@fd, or NULL + errno.
 */
void *slab_mem_alloc(size_t size, int *fd);

/*
 * As slab_mem_alloc(), but not populated: the caller populates it a piece
 * at a time (slab_mem_populate() on a range), ahead of a MAP.
 */
void *slab_mem_map(size_t size, int *fd);

/*
 * Map a slab's memfd handed over by an earlier image (keep.h), with its
 * contents. Fails (NULL, errno EINVAL) unless the file is @size bytes.
 */
void *slab_mem_adopt(int fd, size_t size);

/*
 * Make every byte of a slab zero again and give its pages back to the host
 * until the slab is next lent: a hole punched in the memfd reads as zero.
 * Falls back to memset() if the kernel refuses. The slab must no longer be
 * registered for RDMA.
 */
void slab_mem_scrub(void *mem, int fd, size_t size);

/* Fault a scrubbed (or not yet populated) slab, or a range of one, in
 * before it is registered. */
void slab_mem_populate(void *mem, size_t size);

/* Unmap and close (NULL @mem: nothing to do). */
void slab_mem_free(void *mem, int fd, size_t size);

#endif /* SPARED_SLABMEM_H */
