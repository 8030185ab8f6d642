/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading a file that holds a secret (a host key, a host-keys table, a
 * grant key, aggd's peer key). Every program reads its secrets through
 * spare_key_file_read(), so that all refuse the same unsafe files the same
 * way (Documentation/admin-guide.md, "Key files").
 */
#ifndef SPARE_KEYFILE_H
#define SPARE_KEYFILE_H

#include <stddef.h>
#include <sys/stat.h>

/*
 * Why a file with status @st may not hold a secret, or NULL if it may: not
 * a regular file; readable or writable by group or others; owned by a user
 * other than root and @euid. The reason names @path, its mode or owner and
 * the fix, and never quotes the file.
 */
const char *spare_key_file_unsafe(const char *path, const struct stat *st, uid_t euid,
				  char *why, size_t whylen);

/*
 * Read the secret file @path into @buf (NUL-terminated, @cap bytes with the
 * NUL) after checking it with spare_key_file_unsafe(). Returns the number of
 * bytes read, or -1 with the reason in @why (it names @path). A file of
 * @cap bytes or more is refused. On failure nothing of the file is left in
 * @buf. A root-owned file under $CREDENTIALS_DIRECTORY (systemd's
 * LoadCredential=) is not checked: systemd lets only the unit's user read
 * it, through an ACL that the mode bits show as group read.
 */
long spare_key_file_read(const char *path, char *buf, size_t cap, char *why, size_t whylen);

#endif /* SPARE_KEYFILE_H */
