// SPDX-License-Identifier: GPL-2.0
/*
 * spare-dio: one O_DIRECT read or write whose user buffer starts at a
 * chosen offset from a page boundary, so that a test can make the block
 * layer see sub-page segments (dd always uses a page-aligned buffer).
 *
 * usage: spare-dio read|write DEV FILE OFFSET LENGTH BUFOFF
 *   write: LENGTH bytes of FILE (from its start) to DEV at byte OFFSET;
 *   read:  LENGTH bytes of DEV at byte OFFSET into FILE.
 *   The buffer starts BUFOFF bytes (0-4095) past a page boundary.
 * Exit status 0 when the whole transfer was done, 3 when the device
 * refused the buffer with EINVAL (its DMA alignment), 1 on any other
 * error, 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE	4096UL

static int usage(void)
{
	fprintf(stderr, "usage: spare-dio read|write DEV FILE OFFSET LENGTH BUFOFF\n");
	return 2;
}

/* All of @len bytes through @fd (read or write), or -1 with errno set. */
static int full_io(int fd, char *buf, size_t len, off_t off, int write)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write ? pwrite(fd, buf + done, len - done, off + done) :
				    pread(fd, buf + done, len - done, off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = EIO;	/* short transfer at the device's end */
			return -1;
		}
		done += n;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long off, len, bufoff;
	int write, dev, file, err;
	char *mem, *buf, *end;

	if (argc != 7)
		return usage();
	if (!strcmp(argv[1], "write"))
		write = 1;
	else if (!strcmp(argv[1], "read"))
		write = 0;
	else
		return usage();
	errno = 0;
	off = strtoull(argv[4], &end, 0);
	if (errno || *end)
		return usage();
	len = strtoull(argv[5], &end, 0);
	if (errno || *end || !len)
		return usage();
	bufoff = strtoull(argv[6], &end, 0);
	if (errno || *end || bufoff >= PAGE)
		return usage();

	if (posix_memalign((void **)&mem, PAGE, len + PAGE)) {
		fprintf(stderr, "spare-dio: cannot allocate %llu bytes\n", len);
		return 1;
	}
	buf = mem + bufoff;
	dev = open(argv[2], (write ? O_WRONLY : O_RDONLY) | O_DIRECT);
	if (dev < 0) {
		fprintf(stderr, "spare-dio: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	file = open(argv[3], write ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (file < 0) {
		fprintf(stderr, "spare-dio: %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	if (write && full_io(file, buf, len, 0, 0)) {
		fprintf(stderr, "spare-dio: reading %llu bytes of %s: %s\n",
			len, argv[3], strerror(errno));
		return 1;
	}
	if (full_io(dev, buf, len, off, write)) {
		err = errno;
		fprintf(stderr, "spare-dio: O_DIRECT %s of %llu bytes at %llu, buffer at page offset %llu: %s\n",
			argv[1], len, off, bufoff, strerror(err));
		return err == EINVAL ? 3 : 1;
	}
	if (!write && full_io(file, buf, len, 0, 1)) {
		fprintf(stderr, "spare-dio: writing %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	close(file);
	close(dev);
	free(mem);
	return 0;
}
