// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration files through libinih, and options from the same settings
 * table. See spare_conf.h.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>

#include "spare_conf.h"
#include "spare_log.h"
#include "spare_version.h"

#define CONF_MAX_LINE	200	/* libinih's INI_MAX_LINE in Debian's build */

struct conf_parse {
	FILE		*f;
	const char	*name;
	spare_conf_fn	fn;
	void		*ctx;
	unsigned int	line;		/* of the line inih is handling */
	bool		failed;
};

static char conf_err[512];

const char *spare_conf_error(void)
{
	return conf_err;
}

static void conf_fail(struct conf_parse *p, const char *key, const char *why)
{
	if (p->failed)
		return;
	p->failed = true;
	if (key)
		snprintf(conf_err, sizeof(conf_err), "%s:%u: %s: %s", p->name,
			 p->line, key, why);
	else
		snprintf(conf_err, sizeof(conf_err), "%s:%u: %s", p->name,
			 p->line, why);
}

/*
 * inih's reader: one line at a time, counted, with leading whitespace
 * dropped so that an indented line is never taken for a continuation.
 */
static char *conf_reader(char *str, int num, void *stream)
{
	struct conf_parse *p = stream;
	char line[CONF_MAX_LINE + 2], *s;
	size_t len;

	if (p->failed || !fgets(line, sizeof(line), p->f))
		return NULL;
	p->line++;
	len = strlen(line);
	if (len && line[len - 1] != '\n' && !feof(p->f)) {
		conf_fail(p, NULL, "line too long");
		return NULL;
	}
	for (s = line; *s == ' ' || *s == '\t'; s++)
		;
	if (*s == '[') {
		conf_fail(p, NULL, "sections are not used in spare's config files");
		return NULL;
	}
	if (strlen(s) >= (size_t)num) {
		conf_fail(p, NULL, "line too long");
		return NULL;
	}
	memcpy(str, s, strlen(s) + 1);
	return str;
}

static int conf_handler(void *user, const char *section, const char *key,
			const char *value)
{
	struct conf_parse *p = user;
	const char *why;

	if (p->failed)
		return 0;
	if (!*key) {
		conf_fail(p, NULL, "empty key");
		return 0;
	}
	why = p->fn(key, value, p->ctx);
	if (why) {
		conf_fail(p, key, why);
		return 0;
	}
	return 1;
}

int spare_conf_parse_stream(FILE *f, const char *name, spare_conf_fn fn,
			    void *ctx)
{
	struct conf_parse p = { .f = f, .name = name, .fn = fn, .ctx = ctx };
	int ret;

	conf_err[0] = '\0';
	ret = ini_parse_stream(conf_reader, &p, conf_handler, &p);
	if (!p.failed && ferror(f)) {
		snprintf(conf_err, sizeof(conf_err), "%s: read error", name);
		p.failed = true;
	}
	if (!p.failed && ret > 0) {
		/* inih found a line it could not read: no '=' in it. */
		p.line = (unsigned int)ret;
		conf_fail(&p, NULL, "expected 'key = value'");
	} else if (!p.failed && ret) {
		snprintf(conf_err, sizeof(conf_err), "%s: out of memory", name);
		p.failed = true;
	}
	if (p.failed) {
		log_err("%s", conf_err);
		return -1;
	}
	return 0;
}

int spare_conf_parse_file(const char *path, int missing_ok, spare_conf_fn fn,
			  void *ctx)
{
	FILE *f;
	int ret;

	conf_err[0] = '\0';
	f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT && missing_ok)
			return 0;
		snprintf(conf_err, sizeof(conf_err), "%s: %s", path, strerror(errno));
		log_err("%s", conf_err);
		return -1;
	}
	ret = spare_conf_parse_stream(f, path, fn, ctx);
	fclose(f);
	return ret;
}

/* ---- the settings table as options ---- */

void spare_cli_usage(const struct spare_cli *cli, FILE *f, const char *prog)
{
	const struct spare_setting *s;
	unsigned int i;

	fprintf(f, "usage: %s [options]\n%s\n"
		"  -f, --config PATH        settings file (default %s; key = value,\n"
		"                           keys are the long options below)\n",
		prog, cli->usage, cli->default_conf);
	for (i = 0; i < cli->nsettings; i++) {
		char left[48];

		s = &cli->settings[i];
		if (s->short_opt)
			snprintf(left, sizeof(left), "-%c, --%s %s", s->short_opt,
				 s->key, s->arg ? s->arg : "");
		else
			snprintf(left, sizeof(left), "    --%s %s", s->key,
				 s->arg ? s->arg : "");
		if (s->dflt[0] && !strstr(s->help, "default"))
			fprintf(f, "  %-24s %s [%s]\n", left, s->help, s->dflt);
		else
			fprintf(f, "  %-24s %s\n", left, s->help);
	}
	fprintf(f, "  -h, --help\n      --version\n%s", cli->epilog ? cli->epilog : "");
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

const char *spare_conf_bool(const char *value, bool *out)
{
	if (!strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "1")) {
		*out = true;
		return NULL;
	}
	if (!strcmp(value, "no") || !strcmp(value, "false") || !strcmp(value, "0")) {
		*out = false;
		return NULL;
	}
	return "not yes or no";
}

const char *spare_conf_str(char *dst, size_t len, const char *value)
{
	size_t n = strlen(value);

	if (n >= len)
		return "too long";
	memcpy(dst, value, n + 1);
	return NULL;
}

static const struct spare_setting *by_opt(const struct spare_cli *cli, int opt)
{
	unsigned int i;

	if (opt >= 0x100 && opt < 0x100 + (int)cli->nsettings)
		return &cli->settings[opt - 0x100];
	for (i = 0; i < cli->nsettings; i++)
		if (cli->settings[i].short_opt == opt)
			return &cli->settings[i];
	return NULL;
}

void spare_conf_vals_free(struct spare_conf_vals *vals)
{
	unsigned int i;

	for (i = 0; i < SPARE_CLI_MAX_SETTINGS; i++) {
		free(vals->v[i]);
		vals->v[i] = NULL;
	}
}

/*
 * One run of the defaults, the file and the command line. While a reload
 * runs, @pin marks the settings that keep their running value (@old's):
 * their new values are not applied, the old ones are at the end.
 */
struct cli_run {
	const struct spare_cli		*cli;
	const struct spare_conf_vals	*old;
	const bool			*pin;
};

static int setting_index(const struct spare_cli *cli, const char *key)
{
	unsigned int i;

	for (i = 0; i < cli->nsettings; i++)
		if (!strcmp(cli->settings[i].key, key))
			return (int)i;
	return -1;
}

static const char *record(const struct spare_cli *cli, int i, const char *value)
{
	char *copy;

	if (!cli->vals || i < 0)
		return NULL;
	copy = strdup(value);
	if (!copy)
		return "out of memory";
	free(cli->vals->v[i]);
	cli->vals->v[i] = copy;
	return NULL;
}

static const char *run_apply(const struct cli_run *r, const char *key,
			     const char *value)
{
	int i = setting_index(r->cli, key);
	const char *why;

	if (r->pin && i >= 0 && r->pin[i])
		return NULL;
	why = r->cli->set(key, value, r->cli->ctx);
	return why ? why : record(r->cli, i, value);
}

static const char *run_conf_fn(const char *key, const char *value, void *ctx)
{
	return run_apply(ctx, key, value);
}

static int cli_run(const struct cli_run *r, int argc, char **argv)
{
	const struct spare_cli *cli = r->cli;
	struct option longopts[SPARE_CLI_MAX_SETTINGS + 4];
	char shortopts[3 * SPARE_CLI_MAX_SETTINGS + 8] = "+hf:";
	const char *conf_path = cli->default_conf;
	bool conf_explicit = false;
	unsigned int i, n = 0;
	const char *why;
	int opt;

	if (cli->nsettings > SPARE_CLI_MAX_SETTINGS) {
		log_err("too many settings (raise SPARE_CLI_MAX_SETTINGS)");
		return -1;
	}
	if (cli->vals)
		spare_conf_vals_free(cli->vals);
	for (i = 0; i < cli->nsettings; i++) {
		const struct spare_setting *s = &cli->settings[i];

		if (s->dflt[0]) {
			why = run_apply(r, s->key, s->dflt);
			if (why) {
				log_err("default %s = %s: %s", s->key, s->dflt, why);
				return -1;
			}
		}
		longopts[n++] = (struct option){ s->key,
						 s->arg ? required_argument : no_argument,
						 NULL, 0x100 + (int)i };
		if (s->short_opt) {
			size_t len = strlen(shortopts);

			shortopts[len] = (char)s->short_opt;
			shortopts[len + 1] = s->arg ? ':' : '\0';
			shortopts[len + 2] = '\0';
		}
	}
	longopts[n++] = (struct option){ "config", required_argument, NULL, 'f' };
	longopts[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	longopts[n++] = (struct option){ "version", no_argument, NULL, 'V' };
	longopts[n] = (struct option){ 0 };

	/* First pass: only find the config file (and --help). */
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (opt == 'f') {
			conf_path = optarg;
			conf_explicit = true;
		} else if (opt == 'h') {
			spare_cli_usage(cli, stdout, argv[0]);
			return 1;
		} else if (opt == 'V') {
			printf("%s %s\n", base_name(argv[0]), spare_version());
			return 1;
		}
	}
	if (spare_conf_parse_file(conf_path, !conf_explicit, run_conf_fn,
				  (void *)r))
		return -1;

	/* Second pass: the command line wins over the file. */
	opterr = 1;
	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct spare_setting *s;

		if (opt == 'f')
			continue;
		s = by_opt(cli, opt);
		if (!s) {
			spare_cli_usage(cli, stderr, argv[0]);
			return -1;
		}
		why = run_apply(r, s->key, s->arg ? optarg : "yes");
		if (why) {
			log_err("--%s %s: %s", s->key, s->arg ? optarg : "", why);
			return -1;
		}
	}
	if (optind < argc) {
		log_err("unexpected argument '%s'", argv[optind]);
		return -1;
	}
	/* A reload: the settings that need a restart keep their values. */
	for (i = 0; r->pin && i < cli->nsettings; i++) {
		if (!r->pin[i] || !r->old->v[i])
			continue;
		why = cli->set(cli->settings[i].key, r->old->v[i], cli->ctx);
		if (!why)
			why = record(cli, (int)i, r->old->v[i]);
		if (why) {
			log_err("%s = %s: %s", cli->settings[i].key, r->old->v[i], why);
			return -1;
		}
	}
	return 0;
}

int spare_cli_configure(const struct spare_cli *cli, int argc, char **argv)
{
	struct cli_run r = { .cli = cli };

	return cli_run(&r, argc, argv);
}

static bool is_live(const struct spare_cli *cli, const char *key)
{
	const char *const *k;

	for (k = cli->live_keys; k && *k; k++)
		if (!strcmp(*k, key))
			return true;
	return false;
}

static const char *shown(const char *v)
{
	return v && v[0] ? v : "(none)";
}

int spare_cli_reload(const struct spare_cli *cli, int argc, char **argv,
		     const struct spare_conf_vals *old, void (*reset)(void *ctx))
{
	bool pin[SPARE_CLI_MAX_SETTINGS] = { false };
	struct cli_run r = { .cli = cli };
	unsigned int i;
	bool any = false;

	if (!cli->vals || cli->nsettings > SPARE_CLI_MAX_SETTINGS)
		return -1;
	/* What the file and the command line say now... */
	reset(cli->ctx);
	if (cli_run(&r, argc, argv))
		return -1;
	for (i = 0; i < cli->nsettings; i++) {
		const char *key = cli->settings[i].key;
		const char *was = old->v[i], *now = cli->vals->v[i];

		if (!strcmp(was ? was : "", now ? now : ""))
			continue;
		if (is_live(cli, key))
			continue;
		log_warn("SIGHUP: %s changed: needs a restart; keeping %s",
			 key, shown(was));
		pin[i] = true;
		any = true;
	}
	if (!any)
		return 0;
	/* ... then again, the settings that need a restart left as they run. */
	r.old = old;
	r.pin = pin;
	reset(cli->ctx);
	return cli_run(&r, argc, argv) ? -1 : 0;
}

void spare_cli_log_changes(const struct spare_cli *cli,
			   const struct spare_conf_vals *old)
{
	unsigned int i;

	for (i = 0; cli->vals && i < cli->nsettings; i++) {
		const char *was = old->v[i], *now = cli->vals->v[i];

		if (strcmp(was ? was : "", now ? now : ""))
			log_info("SIGHUP: %s: %s -> %s", cli->settings[i].key,
				 shown(was), shown(now));
	}
}
