/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Parser for spare's configuration files (/etc/spare/<prog>.conf):
 *
 *   # comment
 *   key = value
 *
 * One setting per line; blank lines and lines starting with '#' are
 * ignored; whitespace around key and value is dropped. Keys are the long
 * command-line option names of the program, so a file and a command line
 * say the same thing the same way.
 */
#ifndef SPARE_CONF_H
#define SPARE_CONF_H

#include <stdio.h>

/*
 * Called for each setting. Return NULL if it was applied, or a short
 * reason ("unknown key", "not a size") that the parser logs as
 * "<path>:<line>: <key>: <reason>".
 */
typedef const char *(*spare_conf_fn)(const char *key, const char *value,
				     void *ctx);

/*
 * Parse @path. Returns 0 if every line applied, -1 on the first bad line
 * or if the file cannot be read (message logged). If @missing_ok and the
 * file does not exist, returns 0 without calling @fn.
 */
int spare_conf_parse_file(const char *path, int missing_ok, spare_conf_fn fn,
			  void *ctx);

/* As above, from an open stream; @name is used in messages. */
int spare_conf_parse_stream(FILE *f, const char *name, spare_conf_fn fn,
			    void *ctx);

#endif /* SPARE_CONF_H */
