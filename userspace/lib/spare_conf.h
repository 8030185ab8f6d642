/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spare's configuration files (/etc/spare/<daemon>.conf), parsed with
 * libinih, and the settings table that makes every key a long option too.
 *
 * The dialect (one for every daemon):
 *
 *   # comment            (also "; comment"; "key = v ; comment" too)
 *   key = value
 *
 * One setting per line, whitespace around key and value dropped, keys are
 * the long option names of the program. There are no sections and no
 * continuation lines: a "[section]" line is an error, and a line longer
 * than 200 characters is an error. The first bad line stops the daemon
 * with "<file>:<line>: <key>: <reason>".
 */
#ifndef SPARE_CONF_H
#define SPARE_CONF_H

#include <stdbool.h>
#include <stdio.h>

/*
 * Called for each setting. Return NULL if it was applied, or a short
 * reason ("unknown setting", "not a size") that the parser reports as
 * "<path>:<line>: <key>: <reason>".
 */
typedef const char *(*spare_conf_fn)(const char *key, const char *value,
				     void *ctx);

/*
 * Parse @path. Returns 0 if every line applied, -1 on the first bad line
 * or if the file cannot be read (message logged, and kept for
 * spare_conf_error()). If @missing_ok and the file does not exist,
 * returns 0 without calling @fn.
 */
int spare_conf_parse_file(const char *path, int missing_ok, spare_conf_fn fn,
			  void *ctx);

/* As above, from an open stream; @name is used in messages. */
int spare_conf_parse_stream(FILE *f, const char *name, spare_conf_fn fn,
			    void *ctx);

/* The message of the last failed parse ("" if none). */
const char *spare_conf_error(void);

/*
 * One setting of a program: a long option and, under the same name, a key
 * of its config file. The table of a program declares each setting once.
 */
struct spare_setting {
	const char	*key;		/* long option and config key */
	int		short_opt;	/* 0 if none */
	const char	*arg;		/* placeholder in --help; NULL: a flag */
	const char	*help;
	const char	*dflt;		/* "" if none */
};

/*
 * A flag (arg NULL) takes no argument on the command line, where it sets
 * "yes"; in the file it is "key = yes" or "key = no" (spare_conf_bool()).
 */
const char *spare_conf_bool(const char *value, bool *out);

/* Copy @value into @dst (@len bytes with the NUL), or "too long". */
const char *spare_conf_str(char *dst, size_t len, const char *value);

struct spare_cli {
	const char			*usage;		/* first lines of --help */
	const char			*epilog;	/* last lines, or NULL */
	const char			*default_conf;	/* /etc/spare/<prog>.conf */
	const struct spare_setting	*settings;
	unsigned int			nsettings;
	spare_conf_fn			set;
	void				*ctx;
};

#define SPARE_CLI_MAX_SETTINGS	48

/*
 * Apply the defaults of @cli's table, then the config file (--config PATH,
 * -f PATH, or cli->default_conf if it exists), then the command line,
 * which wins. Returns 0 when configured, 1 if --help was printed (exit 0),
 * -1 on an error (logged; exit 2). Leaves no arguments unparsed.
 */
int spare_cli_configure(const struct spare_cli *cli, int argc, char **argv);

/* Print --help for @cli to @f. */
void spare_cli_usage(const struct spare_cli *cli, FILE *f, const char *prog);

#endif /* SPARE_CONF_H */
