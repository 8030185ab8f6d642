// SPDX-License-Identifier: GPL-2.0
/*
 * Slab memory: map, scrub, populate. See slabmem.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slabmem.h"
#include "spare_log.h"

static void *slab_mem_create(size_t size, int *fd, int populate)
{
	void *mem;
	int mfd, err;

	mfd = memfd_create("spare-slab", MFD_CLOEXEC);
	if (mfd < 0)
		return NULL;
	if (ftruncate(mfd, (off_t)size))
		goto fail;
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_SHARED | populate, mfd, 0);
	if (mem == MAP_FAILED)
		goto fail;
	*fd = mfd;
	return mem;
fail:
	err = errno;
	close(mfd);
	errno = err;
	return NULL;
}

void *slab_mem_alloc(size_t size, int *fd)
{
	return slab_mem_create(size, fd, MAP_POPULATE);
}

void *slab_mem_map(size_t size, int *fd)
{
	return slab_mem_create(size, fd, 0);
}

void *slab_mem_adopt(int fd, size_t size)
{
	struct stat st;
	void *mem;

	if (fstat(fd, &st))
		return NULL;
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != size) {
		errno = EINVAL;
		return NULL;
	}
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_POPULATE, fd, 0);
	return mem == MAP_FAILED ? NULL : mem;
}

void slab_mem_scrub(void *mem, int fd, size_t size)
{
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      (off_t)size) == 0)
		return;
	log_warn("slab %p: fallocate(PUNCH_HOLE): %s; zeroing by hand",
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

void slab_mem_free(void *mem, int fd, size_t size)
{
	if (!mem)
		return;
	if (munmap(mem, size))
		log_warn("slab %p: munmap: %s", mem, strerror(errno));
	if (fd >= 0)
		close(fd);
}
