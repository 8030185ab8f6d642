// SPDX-License-Identifier: GPL-2.0
/*
 * Slab memory: map, scrub, populate. See slabmem.h.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "slabmem.h"
#include "spare_log.h"

void *slab_mem_alloc(size_t size)
{
	void *mem;

	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (mem == MAP_FAILED)
		return NULL;
	return mem;
}

void slab_mem_scrub(void *mem, size_t size)
{
	if (madvise(mem, size, MADV_DONTNEED) == 0)
		return;
	log_warn("slab %p: madvise(DONTNEED): %s; zeroing by hand",
		 mem, strerror(errno));
	memset(mem, 0, size);
}

void slab_mem_populate(void *mem, size_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = mem;
	size_t off;

	if (madvise(mem, size, MADV_POPULATE_WRITE) == 0)
		return;
	/* Older kernels: touch each page (a read maps the shared zero page,
	 * so write the zero that is already there). */
	if (page <= 0)
		page = 4096;
	for (off = 0; off < size; off += (size_t)page)
		p[off] = 0;
}

void slab_mem_free(void *mem, size_t size)
{
	if (mem && munmap(mem, size))
		log_warn("slab %p: munmap: %s", mem, strerror(errno));
}
