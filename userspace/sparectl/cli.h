/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What sparectl's commands share (cli.c): the CLI's context, the broker
 * settings of `device create`, `renew` and `monitor`, usage errors, JSON
 * output and writes to a device's configfs attributes.
 */
#ifndef SPARECTL_CLI_H
#define SPARECTL_CLI_H

#include <stdbool.h>

#include <json-c/json.h>

#include "devstat.h"
#include "ublkdev.h"

#define EXIT_USAGE 2

struct sparectl {
	bool		json;
	unsigned int	broker_timeout_ms;	/* --timeout, SPARECTL_TIMEOUT */
	struct dev_roots roots;
	struct ublk_paths ublk;
};

/* `device create` settings that are sparectl's own, not configfs's. */
struct create_broker {
	const char	*brokers, *name, *key_file, *lease;
	const char	*dev_key_file;	/* key-file=: the device's host key */
};

/* "sparectl: " @fmt with @arg and a pointer to --help; EXIT_USAGE. */
int usage_error(const char *fmt, const char *arg);
/* @o printed and put; 0, or 1 (logged) when it is NULL or the print fails. */
int print_json(struct json_object *o);
/* One write of @value to device @name's configfs attribute @a; 0 or -1 (errno). */
int write_attr(const struct sparectl *c, const char *name, const char *a,
	       const char *value);
/* The same, appending one line (configfs `grants` takes one per write). */
int append_attr(const struct sparectl *c, const char *name, const char *a,
		const char *value);
/* @arg one of the broker keys (broker=, broker-name=, ...): stored in @b. */
bool broker_arg(const char *arg, struct create_broker *b);

#endif
