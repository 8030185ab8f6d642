// SPDX-License-Identifier: GPL-2.0
/*
 * What every sparectl command shares (cli.h): usage errors, JSON
 * output, writes to a device's configfs attributes, and the broker
 * settings of `device create`, `renew` and `monitor`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "spare_json.h"
#include "spare_log.h"
#include "spare_util.h"

int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "sparectl: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (sparectl --help)\n");
	return EXIT_USAGE;
}

int print_json(struct json_object *o)
{
	if (!o) {
		log_err("out of memory");
		return 1;
	}
	return spare_json_print(stdout, o) ? 1 : 0;
}

/* One write of @value to attribute @a; @oflags adds to O_WRONLY. */
static int put_attr(const struct sparectl *c, const char *name, const char *a,
		    const char *value, int oflags)
{
	char path[512];
	size_t len = strlen(value);
	int fd, err = 0;

	snprintf(path, sizeof(path), "%s/%s/%s", c->roots.configfs, name, a);
	fd = open(path, O_WRONLY | O_CLOEXEC | oflags);
	if (fd < 0)
		return -1;
	if (write(fd, value, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	if (close(fd) && !err)
		err = errno;
	errno = err;
	return err ? -1 : 0;
}

int write_attr(const struct sparectl *c, const char *name, const char *a,
	       const char *value)
{
	return put_attr(c, name, a, value, 0);
}

bool broker_arg(const char *arg, struct create_broker *b)
{
	static const struct {
		const char	*key;
		size_t		off;
	} keys[] = {
		{ "broker=",		offsetof(struct create_broker, brokers) },
		{ "broker-name=",	offsetof(struct create_broker, name) },
		{ "broker-key=",	offsetof(struct create_broker, key_file) },
		{ "lease=",		offsetof(struct create_broker, lease) },
		{ "key-file=",		offsetof(struct create_broker, dev_key_file) },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strncmp(arg, keys[i].key, strlen(keys[i].key))) {
			*(const char **)((char *)b + keys[i].off) = arg + strlen(keys[i].key);
			return true;
		}
	return false;
}

/*
 * Append one line to attribute @a (configfs `grants` takes one per write).
 * O_APPEND: configfs ignores the offset; a fake tree's file grows.
 */
int append_attr(const struct sparectl *c, const char *name, const char *a,
		const char *value)
{
	return put_attr(c, name, a, value, O_APPEND);
}
