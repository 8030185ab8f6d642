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
 * with "<file>:<line>: <key>: <reason>" at start; on SIGHUP it refuses
 * the reload instead (spare_cli_reload()).
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

#define SPARE_CLI_MAX_SETTINGS	48

/*
 * The value each setting of a table ended up with (after the defaults, the
 * file and the command line), as text; NULL if never set. What a reload
 * compares, setting by setting. Free with spare_conf_vals_free().
 */
struct spare_conf_vals {
	char	*v[SPARE_CLI_MAX_SETTINGS];
};

void spare_conf_vals_free(struct spare_conf_vals *vals);

struct spare_cli {
	const char			*usage;		/* first lines of --help */
	const char			*epilog;	/* last lines, or NULL */
	const char			*default_conf;	/* /etc/spare/<prog>.conf */
	const struct spare_setting	*settings;
	unsigned int			nsettings;
	spare_conf_fn			set;
	void				*ctx;
	/* If set, spare_cli_configure() records every setting's value here. */
	struct spare_conf_vals		*vals;
	/* Keys a reload may change while running (NULL-terminated); every
	 * other setting needs a restart. */
	const char *const		*live_keys;
};

/*
 * Apply the defaults of @cli's table, then the config file (--config PATH,
 * -f PATH, or cli->default_conf if it exists), then the command line,
 * which wins. Returns 0 when configured, 1 if --help (usage) or --version
 * ("prog VERSION") was printed to stdout (exit 0), -1 on an error (logged,
 * usage on stderr for a bad option; exit 2). Leaves no arguments unparsed.
 */
int spare_cli_configure(const struct spare_cli *cli, int argc, char **argv);

/*
 * SIGHUP: the defaults, the file and the command line again, as
 * spare_cli_configure() did at start, into cli->ctx (which @reset puts
 * back in the state the program gave it before spare_cli_configure() at
 * start), recording the values in cli->vals (not @old's). A setting whose
 * value differs from @old's takes its new value if its key is one of
 * cli->live_keys; any other is logged as "SIGHUP: listen changed: needs a
 * restart; keeping 0.0.0.0:7470" and keeps its old value in cli->ctx.
 * Returns 0, or -1 if the file or a setting is bad (logged as
 * "<file>:<line>: <key>: <reason>"): the caller then discards cli->ctx
 * and keeps its old config entirely.
 */
int spare_cli_reload(const struct spare_cli *cli, int argc, char **argv,
		     const struct spare_conf_vals *old, void (*reset)(void *ctx));

/*
 * Once the caller applied a reload: one line per setting that changed,
 * "SIGHUP: lease: 120 -> 60" (@old: the values before; cli->vals now).
 */
void spare_cli_log_changes(const struct spare_cli *cli,
			   const struct spare_conf_vals *old);

/* Print --help for @cli to @f. */
void spare_cli_usage(const struct spare_cli *cli, FILE *f, const char *prog);

#endif /* SPARE_CONF_H */
