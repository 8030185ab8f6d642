// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for SIGHUP's reload in the daemon kit (spare_conf.c):
 * spare_cli_reload() applies the settings a program marks live, keeps the
 * others at their running values (one "needs a restart" line each), and
 * refuses a bad file with its "<file>:<line>: <key>: <reason>"; and the
 * RELOADING=1 message systemd waits on (spare_notify.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "spare_conf.h"
#include "spare_log.h"
#include "spare_notify.h"
#include "spare_util.h"
#include "tap.h"

struct demo_cfg {
	uint64_t size;
	unsigned int count;
	char name[32];
	char path[64];
};

static const struct spare_setting demo_settings[] = {
	{ "size",  's', "SIZE", "a size (needs a restart)", "1M" },
	{ "count", 0,   "N",    "a count 1-10 (live)", "3" },
	{ "name",  'n', "TEXT", "a name (needs a restart)", "" },
	{ "path",  0,   "PATH", "a path (live)", "" },
};

static const char *const demo_live[] = { "count", "path", NULL };

static const char *demo_set(const char *key, const char *value, void *ctx)
{
	struct demo_cfg *c = ctx;
	uint64_t v;

	if (!strcmp(key, "size")) {
		if (spare_parse_size(value, &v))
			return "not a size";
		c->size = v;
	} else if (!strcmp(key, "count")) {
		if (spare_parse_u64(value, 1, 10, &v))
			return "not a count (1-10)";
		c->count = (unsigned int)v;
	} else if (!strcmp(key, "name")) {
		return spare_conf_str(c->name, sizeof(c->name), value);
	} else if (!strcmp(key, "path")) {
		return spare_conf_str(c->path, sizeof(c->path), value);
	} else {
		return "unknown setting";
	}
	return NULL;
}

static void demo_reset(void *ctx)
{
	memset(ctx, 0, sizeof(struct demo_cfg));
}

static int put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static struct spare_cli demo_cli(struct demo_cfg *c, struct spare_conf_vals *v)
{
	struct spare_cli cli = {
		.usage = "demo", .default_conf = "/nonexistent/demo.conf",
		.settings = demo_settings, .nsettings = ARRAY_SIZE(demo_settings),
		.set = demo_set, .ctx = c, .vals = v, .live_keys = demo_live,
	};

	return cli;
}

static void test_reload(void)
{
	char path[] = "/tmp/spare-reload-XXXXXX";
	struct spare_conf_vals run = { 0 }, next = { 0 };
	struct demo_cfg c, n;
	struct spare_cli cli = demo_cli(&c, &run);
	char *argv[] = { "demo", "-f", path, "--path", "/cmd", NULL };
	char want[128];
	int fd = mkstemp(path);

	EXPECT(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	EXPECT(!put(path, "size = 2M\ncount = 5\n"));
	memset(&c, 0, sizeof(c));
	EXPECT_EQ(spare_cli_configure(&cli, 5, argv), 0);
	EXPECT_EQ(c.size, 2 << 20);
	EXPECT_EQ(c.count, 5);
	/* The values as they were applied: default, file, command line. */
	EXPECT(run.v[0] && !strcmp(run.v[0], "2M"));
	EXPECT(run.v[1] && !strcmp(run.v[1], "5"));
	EXPECT(!run.v[2]);
	EXPECT(run.v[3] && !strcmp(run.v[3], "/cmd"));

	/* A live setting changes, a restart-only one keeps its running
	 * value, and one set now but not at start stays unset. */
	EXPECT(!put(path, "size = 4M\ncount = 7\nname = late\npath = /file\n"));
	cli = demo_cli(&n, &next);
	memset(&n, 0xa5, sizeof(n));
	EXPECT_EQ(spare_cli_reload(&cli, 5, argv, &run, demo_reset), 0);
	EXPECT_EQ(n.count, 7);
	EXPECT_EQ(n.size, 2 << 20);
	EXPECT(!strcmp(n.name, ""));
	EXPECT(!strcmp(n.path, "/cmd"));	/* the command line still wins */
	EXPECT(next.v[0] && !strcmp(next.v[0], "2M"));
	EXPECT(next.v[1] && !strcmp(next.v[1], "7"));
	EXPECT(!next.v[2]);
	spare_conf_vals_free(&run);
	run = next;
	memset(&next, 0, sizeof(next));

	/* A bad line: refused with its place, the running values untouched. */
	EXPECT(!put(path, "count = 8\ncount = zero\n"));
	cli = demo_cli(&n, &next);
	EXPECT_EQ(spare_cli_reload(&cli, 5, argv, &run, demo_reset), -1);
	snprintf(want, sizeof(want), "%s:2: count: not a count (1-10)", path);
	EXPECT(!strcmp(spare_conf_error(), want));
	EXPECT(run.v[1] && !strcmp(run.v[1], "7"));

	/* A file that went away (it was named with -f): refused. */
	unlink(path);
	EXPECT_EQ(spare_cli_reload(&cli, 5, argv, &run, demo_reset), -1);
	EXPECT(strstr(spare_conf_error(), "No such file") != NULL);
	spare_conf_vals_free(&next);
	spare_conf_vals_free(&run);
}

static void test_notify_reloading(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[256];
	ssize_t n;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "/tmp/spare-reload-notify-%d",
		 (int)getpid());
	unlink(sa.sun_path);
	EXPECT(fd >= 0 && !bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	setenv("NOTIFY_SOCKET", sa.sun_path, 1);
	spare_notify_reloading();
	n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	buf[n > 0 ? n : 0] = '\0';
	EXPECT(!strncmp(buf, "RELOADING=1\nMONOTONIC_USEC=", 27));
	EXPECT(strtoull(buf + 27, NULL, 10) > 0);
	spare_notify_ready("reloaded");
	n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	buf[n > 0 ? n : 0] = '\0';
	EXPECT(!strcmp(buf, "READY=1\nSTATUS=reloaded"));
	unsetenv("NOTIFY_SOCKET");
	close(fd);
	unlink(sa.sun_path);
}

int main(void)
{
	spare_log_init("test_spare_reload", SPARE_LOG_ERR);
	TAP_RUN(test_reload);
	TAP_RUN(test_notify_reloading);
	return tap_done();
}
