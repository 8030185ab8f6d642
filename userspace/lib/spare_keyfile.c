// SPDX-License-Identifier: GPL-2.0
/*
 * Secret files: one check of their mode and owner, one reader
 * (spare_keyfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "spare_keyfile.h"

const char *spare_key_file_unsafe(const char *path, const struct stat *st, uid_t euid,
				  char *why, size_t whylen)
{
	if (!S_ISREG(st->st_mode)) {
		snprintf(why, whylen, "%s: not a regular file", path);
		return why;
	}
	if (st->st_mode & 077) {
		snprintf(why, whylen,
			 "%s: mode %04o lets group or others read or change this key file (chmod 600 %s)",
			 path, (unsigned int)(st->st_mode & 07777), path);
		return why;
	}
	/* another user could make it readable again, or change the secret */
	if (st->st_uid != 0 && st->st_uid != euid) {
		snprintf(why, whylen,
			 "%s: owned by uid %u, neither root nor this user (uid %u) (chown %u %s)",
			 path, (unsigned int)st->st_uid, (unsigned int)euid,
			 (unsigned int)euid, path);
		return why;
	}
	return NULL;
}

/*
 * systemd's credentials ($CREDENTIALS_DIRECTORY, LoadCredential=) are the
 * unit's alone: root's, mode 0400, with an ACL entry for the unit's user
 * that shows as group read in the mode bits. Trusted as they are.
 */
static bool in_credentials_dir(const char *path)
{
	const char *dir = getenv("CREDENTIALS_DIRECTORY");
	size_t len = dir ? strlen(dir) : 0;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	return len && !strncmp(path, dir, len) && path[len] == '/' && !strstr(path + len, "/..");
}

long spare_key_file_read(const char *path, char *buf, size_t cap, char *why, size_t whylen)
{
	struct stat st;
	size_t n = 0;
	ssize_t r;
	int fd;

	if (cap < 2) {
		snprintf(why, whylen, "%s: no room to read it", path);
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st)) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!(in_credentials_dir(path) && S_ISREG(st.st_mode) && st.st_uid == 0) &&
	    spare_key_file_unsafe(path, &st, geteuid(), why, whylen)) {
		close(fd);
		return -1;
	}
	while (n < cap) {
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, whylen, "%s: %s", path, strerror(errno));
			break;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n == cap) {
		snprintf(why, whylen, "%s: larger than %zu bytes", path, cap - 1);
		r = -1;
	}
	if (r < 0) {
		sodium_memzero(buf, n < cap ? n : cap);
		return -1;
	}
	buf[n] = '\0';
	return (long)n;
}
