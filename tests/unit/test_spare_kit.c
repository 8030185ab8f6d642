// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the daemon kit in userspace/lib: config files
 * (libinih) including malformed ones, the settings table as options,
 * journal priority prefixes, sd_notify messages, the Prometheus writer and
 * its escaping (checked by the strict parser in promparse.h), the
 * /metrics HTTP endpoint, and JSON shapes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "promparse.h"
#include "spare_conf.h"
#include "spare_http.h"
#include "spare_json.h"
#include "spare_log.h"
#include "spare_metrics.h"
#include "spare_notify.h"
#include "spare_util.h"
#include "tap.h"

/* ---- a small settings table, as a daemon declares it ---- */

struct demo_cfg {
	uint64_t size;
	unsigned int count;
	char name[32];
	int applied;
};

/* when main() began: test_metrics checks process_start_time_seconds by it */
static time_t main_started;

static const struct spare_setting demo_settings[] = {
	{ "size",  's', "SIZE", "a size", "1M" },
	{ "count", 0,   "N",    "a count 1-10", "3" },
	{ "name",  'n', "TEXT", "a name", "" },
};

static const char *demo_set(const char *key, const char *value, void *ctx)
{
	struct demo_cfg *c = ctx;
	uint64_t v;

	c->applied++;
	if (!strcmp(key, "size")) {
		if (spare_parse_size(value, &v))
			return "not a size";
		c->size = v;
	} else if (!strcmp(key, "count")) {
		if (spare_parse_u64(value, 1, 10, &v))
			return "not a count (1-10)";
		c->count = (unsigned int)v;
	} else if (!strcmp(key, "name")) {
		if (strlen(value) >= sizeof(c->name))
			return "too long";
		strcpy(c->name, value);
	} else {
		return "unknown setting";
	}
	return NULL;
}

static int parse_text(const char *text, struct demo_cfg *c)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	memset(c, 0, sizeof(*c));
	if (!f)
		return -2;
	ret = spare_conf_parse_stream(f, "demo.conf", demo_set, c);
	fclose(f);
	return ret;
}

static void test_conf_good(void)
{
	struct demo_cfg c;

	EXPECT_EQ(parse_text("# comment\n; also a comment\n\n  size = 4M \n"
			     "count=7 ; inline comment\n\tname = a b c\n", &c), 0);
	EXPECT_EQ(c.size, 4 << 20);
	EXPECT_EQ(c.count, 7);
	EXPECT(!strcmp(c.name, "a b c"));
	EXPECT(!strcmp(spare_conf_error(), ""));
	/* An empty value reaches the setter, which decides. */
	EXPECT_EQ(parse_text("name =\n", &c), 0);
	EXPECT_EQ(c.applied, 1);
	/* No trailing newline at the end of the file. */
	EXPECT_EQ(parse_text("count = 2", &c), 0);
	EXPECT_EQ(c.count, 2);
}

static void test_conf_malformed(void)
{
	char long_line[400];
	struct demo_cfg c;

	EXPECT_EQ(parse_text("size = 1M\n\nnonsense = 1\ncount = 2\n", &c), -1);
	EXPECT(!strcmp(spare_conf_error(), "demo.conf:3: nonsense: unknown setting"));
	EXPECT_EQ(c.count, 0);			/* nothing after the bad line */
	EXPECT_EQ(parse_text("count = 11\n", &c), -1);
	EXPECT(!strcmp(spare_conf_error(), "demo.conf:1: count: not a count (1-10)"));
	EXPECT_EQ(parse_text("size = 1M\nno equals sign\n", &c), -1);
	EXPECT(!strcmp(spare_conf_error(), "demo.conf:2: expected 'key = value'"));
	EXPECT_EQ(parse_text(" = value\n", &c), -1);
	EXPECT(!strcmp(spare_conf_error(), "demo.conf:1: empty key"));
	EXPECT_EQ(parse_text("size = 1M\n[section]\ncount = 1\n", &c), -1);
	EXPECT(strstr(spare_conf_error(), "demo.conf:2: sections are not used") != NULL);
	EXPECT_EQ(c.count, 0);
	memset(long_line, 'x', sizeof(long_line));
	memcpy(long_line, "name = ", 7);
	long_line[sizeof(long_line) - 2] = '\n';
	long_line[sizeof(long_line) - 1] = '\0';
	EXPECT_EQ(parse_text(long_line, &c), -1);
	EXPECT(!strcmp(spare_conf_error(), "demo.conf:1: line too long"));
	/* An indented line is a line, never a continuation of the last. */
	EXPECT_EQ(parse_text("name = a\n  count = 4\n", &c), 0);
	EXPECT(!strcmp(c.name, "a") && c.count == 4);
}

static void test_conf_files(void)
{
	char path[] = "/tmp/spare-kit-XXXXXX";
	struct demo_cfg c = { 0 };
	char want[128];
	int fd = mkstemp(path);

	EXPECT(fd >= 0);
	if (fd < 0)
		return;
	EXPECT(write(fd, "size = 2M\ncount = zero\n", 23) == 23);
	close(fd);
	EXPECT_EQ(spare_conf_parse_file(path, 0, demo_set, &c), -1);
	snprintf(want, sizeof(want), "%s:2: count: not a count (1-10)", path);
	EXPECT(!strcmp(spare_conf_error(), want));
	EXPECT_EQ(spare_conf_parse_file("/nonexistent/spare.conf", 1, demo_set, &c), 0);
	EXPECT_EQ(spare_conf_parse_file("/nonexistent/spare.conf", 0, demo_set, &c), -1);
	EXPECT(strstr(spare_conf_error(), "No such file") != NULL);
	unlink(path);
}

static int run_cli(struct demo_cfg *c, const char *conf, int argc, ...)
{
	struct spare_cli cli = {
		.usage = "demo", .default_conf = conf, .settings = demo_settings,
		.nsettings = ARRAY_SIZE(demo_settings), .set = demo_set, .ctx = c,
	};
	char *argv[16];
	va_list ap;
	int i, ret, saved = dup(1), devnull = open("/dev/null", O_WRONLY);

	va_start(ap, argc);
	for (i = 0; i < argc && i < 15; i++)
		argv[i] = va_arg(ap, char *);
	va_end(ap);
	argv[i] = NULL;
	memset(c, 0, sizeof(*c));
	/* --help and usage go to stdout/stderr: keep the TAP stream clean. */
	fflush(stdout);
	dup2(devnull, 1);
	ret = spare_cli_configure(&cli, argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(devnull);
	return ret;
}

static void test_cli(void)
{
	char path[] = "/tmp/spare-kit-XXXXXX";
	struct demo_cfg c;
	int fd = mkstemp(path);

	EXPECT(fd >= 0);
	if (fd < 0)
		return;
	EXPECT(write(fd, "size = 2M\ncount = 5\n", 20) == 20);
	close(fd);
	/* Defaults only: the default file does not exist. */
	EXPECT_EQ(run_cli(&c, "/nonexistent/demo.conf", 1, "demo"), 0);
	EXPECT_EQ(c.size, 1 << 20);
	EXPECT_EQ(c.count, 3);
	/* The file over the defaults, the command line over the file. */
	EXPECT_EQ(run_cli(&c, path, 3, "demo", "--count", "9"), 0);
	EXPECT_EQ(c.size, 2 << 20);
	EXPECT_EQ(c.count, 9);
	EXPECT_EQ(run_cli(&c, "/nonexistent/demo.conf", 5, "demo", "-f", path,
			  "-s", "8M"), 0);
	EXPECT_EQ(c.size, 8 << 20);
	EXPECT_EQ(c.count, 5);
	EXPECT_EQ(run_cli(&c, "/x", 4, "demo", "--config=/nonexistent/x.conf",
			  "--count", "1"), -1);
	EXPECT_EQ(run_cli(&c, "/x", 3, "demo", "--count", "0"), -1);
	EXPECT_EQ(run_cli(&c, "/x", 3, "demo", "--colour", "red"), -1);
	EXPECT_EQ(run_cli(&c, "/x", 2, "demo", "stray"), -1);
	EXPECT_EQ(run_cli(&c, "/x", 2, "demo", "--help"), 1);
	unlink(path);
}

/* ---- logging under systemd ---- */

static void log_to_file(const char *path, bool journal)
{
	char env[64];
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600), saved;

	if (fd < 0)
		return;
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	close(fd);
	fstat(2, &st);
	snprintf(env, sizeof(env), "%llu:%llu", (unsigned long long)st.st_dev,
		 (unsigned long long)st.st_ino + (journal ? 0 : 1));
	setenv("JOURNAL_STREAM", env, 1);
	spare_log_init("kit", SPARE_LOG_DEBUG);
	log_err("disk %s failed", "x");
	log_warn("slow");
	log_info("up");
	log_dbg("detail");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	unsetenv("JOURNAL_STREAM");
	spare_log_init("kit", SPARE_LOG_ERR);
}

static void test_log_journal(void)
{
	char path[] = "/tmp/spare-kit-log-XXXXXX", buf[512] = "";
	FILE *f;
	int fd = mkstemp(path);

	if (fd < 0)
		return;
	close(fd);
	log_to_file(path, true);
	f = fopen(path, "r");
	EXPECT(f != NULL);
	if (f) {
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);

		buf[n] = '\0';
		fclose(f);
	}
	EXPECT(!strcmp(buf, "<3>err: disk x failed\n<4>warn: slow\n<6>info: up\n<7>debug: detail\n"));
	/* A JOURNAL_STREAM that is not our stderr (redirected): plain lines. */
	log_to_file(path, false);
	f = fopen(path, "r");
	if (f) {
		size_t n = fread(buf, 1, sizeof(buf) - 1, f);

		buf[n] = '\0';
		fclose(f);
	}
	EXPECT(!strncmp(buf, "kit[", 4) && strstr(buf, "]: err: disk x failed\n"));
	EXPECT(strchr(buf, '<') == NULL);
	unlink(path);
}

/* ---- sd_notify ---- */

static void test_notify(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[256], pid[16];
	ssize_t n;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "/tmp/spare-kit-notify-%d", (int)getpid());
	unlink(sa.sun_path);
	EXPECT(fd >= 0 && !bind(fd, (struct sockaddr *)&sa, sizeof(sa)));
	setenv("NOTIFY_SOCKET", sa.sun_path, 1);
	spare_notify_ready("lending %d slabs\nsecond line", 4);
	n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	EXPECT(n > 0);
	buf[n > 0 ? n : 0] = '\0';
	EXPECT(!strcmp(buf, "READY=1\nSTATUS=lending 4 slabs"));
	spare_notify_stopping();
	n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	buf[n > 0 ? n : 0] = '\0';
	EXPECT(!strcmp(buf, "STOPPING=1"));
	spare_notify_watchdog();
	n = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	buf[n > 0 ? n : 0] = '\0';
	EXPECT(!strcmp(buf, "WATCHDOG=1"));
	unsetenv("NOTIFY_SOCKET");
	close(fd);
	unlink(sa.sun_path);

	EXPECT_EQ(spare_notify_watchdog_ms(), 0);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	setenv("WATCHDOG_PID", pid, 1);
	setenv("WATCHDOG_USEC", "3000000", 1);
	EXPECT_EQ(spare_notify_watchdog_ms(), 1500);
	setenv("WATCHDOG_PID", "1", 1);		/* meant for another process */
	EXPECT_EQ(spare_notify_watchdog_ms(), 0);
	unsetenv("WATCHDOG_PID");
	unsetenv("WATCHDOG_USEC");
}

/* ---- metrics ---- */

static char *render(void (*fill)(struct spare_metrics *), bool meta, int *ret)
{
	struct spare_metrics m;
	char *page = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&page, &len);

	if (!f) {
		*ret = -2;
		return NULL;
	}
	spare_metrics_begin(&m, f, meta);
	fill(&m);
	*ret = spare_metrics_end(&m);
	fclose(f);
	return page;
}

static void fill_good(struct spare_metrics *m)
{
	const char *const lab[] = { "path", "C:\\dir \"x\"\nnext", "disk", "spare0", NULL };

	spare_metrics_family(m, "kit_bytes_total", SPARE_COUNTER, "Bytes moved\\copied\nsince start.");
	spare_metrics_u64(m, NULL, 18446744073709551615ULL);
	spare_metrics_family(m, "kit_state", SPARE_GAUGE, "State, per path.");
	spare_metrics_u64(m, lab, 1);
	spare_metrics_f3(m, (const char *const[]){ "path", "b", NULL }, 0.25);
}

static void fill_bad_name(struct spare_metrics *m)
{
	spare_metrics_family(m, "kit-bad", SPARE_GAUGE, "x");
	spare_metrics_u64(m, NULL, 1);
}

static void fill_bad_label(struct spare_metrics *m)
{
	spare_metrics_family(m, "kit_x", SPARE_GAUGE, "x");
	spare_metrics_u64(m, (const char *const[]){ "__reserved", "v", NULL }, 1);
}

static void fill_orphan(struct spare_metrics *m)
{
	spare_metrics_u64(m, NULL, 1);
}

/* _total is the counters' suffix and only theirs (issue 33). */
static void fill_gauge_total(struct spare_metrics *m)
{
	spare_metrics_family(m, "kit_slabs_total", SPARE_GAUGE, "x");
	spare_metrics_u64(m, NULL, 1);
}

static void fill_counter_bare(struct spare_metrics *m)
{
	spare_metrics_family(m, "kit_maps", SPARE_COUNTER, "x");
	spare_metrics_u64(m, NULL, 1);
}

/* job and instance are the labels Prometheus gives every target's series. */
static void fill_job_label(struct spare_metrics *m)
{
	spare_metrics_family(m, "kit_x", SPARE_GAUGE, "x");
	spare_metrics_u64(m, (const char *const[]){ "job", "a", NULL }, 1);
}

static void fill_instance_label(struct spare_metrics *m)
{
	spare_metrics_family(m, "kit_x", SPARE_GAUGE, "x");
	spare_metrics_u64(m, (const char *const[]){ "disk", "d", "instance", "a", NULL }, 1);
}

static void fill_doubles(struct spare_metrics *m)
{
	spare_metrics_family(m, "kit_ratio", SPARE_GAUGE, "x");
	spare_metrics_double(m, (const char *const[]){ "v", "a", NULL }, 0.1);
	spare_metrics_double(m, (const char *const[]){ "v", "b", NULL }, NAN);
	spare_metrics_double(m, (const char *const[]){ "v", "c", NULL }, -INFINITY);
	spare_metrics_process(m, "kit");
}

static void test_metrics(void)
{
	char why[128] = "";
	char *page;
	int ret;

	page = render(fill_good, true, &ret);
	EXPECT_EQ(ret, 0);
	EXPECT(page != NULL);
	if (!page)
		return;
	EXPECT(!strcmp(page,
		"# HELP kit_bytes_total Bytes moved\\\\copied\\nsince start.\n"
		"# TYPE kit_bytes_total counter\n"
		"kit_bytes_total 18446744073709551615\n"
		"# HELP kit_state State, per path.\n"
		"# TYPE kit_state gauge\n"
		"kit_state{path=\"C:\\\\dir \\\"x\\\"\\nnext\",disk=\"spare0\"} 1\n"
		"kit_state{path=\"b\"} 0.250\n"));
	EXPECT_EQ(prom_check(page, why, sizeof(why)), 3);
	if (why[0])
		fprintf(stderr, "# %s\n", why);
	free(page);
	page = render(fill_good, false, &ret);
	EXPECT(page && !strncmp(page, "kit_bytes_total 18446744073709551615\nkit_state{", 47));
	free(page);
	free(render(fill_bad_name, true, &ret));
	EXPECT_EQ(ret, -1);
	free(render(fill_bad_label, true, &ret));
	EXPECT_EQ(ret, -1);
	free(render(fill_orphan, true, &ret));
	EXPECT_EQ(ret, -1);
	free(render(fill_gauge_total, true, &ret));
	EXPECT_EQ(ret, -1);
	free(render(fill_counter_bare, true, &ret));
	EXPECT_EQ(ret, -1);
	free(render(fill_job_label, true, &ret));
	EXPECT_EQ(ret, -1);
	free(render(fill_instance_label, true, &ret));
	EXPECT_EQ(ret, -1);
	page = render(fill_doubles, true, &ret);
	EXPECT_EQ(ret, 0);
	EXPECT(page && strstr(page, "\nkit_ratio{v=\"a\"} 0.10000000000000001\n"
			      "kit_ratio{v=\"b\"} NaN\nkit_ratio{v=\"c\"} -Inf\n"));
	EXPECT(page && strstr(page, "\n# TYPE spare_build_info gauge\n"
			      "spare_build_info{program=\"kit\",version=\""));
	/*
	 * This process's start: at most a minute before main() ran, never
	 * after it; not the epoch, not the machine's boot (which field 21 of
	 * /proc/self/stat, always 0, added to btime would give).
	 */
	{
		const char *p = page ? strstr(page, "\nprocess_start_time_seconds ") : NULL;
		double start = p ? strtod(p + 28, NULL) : 0;

		EXPECT(start >= (double)main_started - 60 && start <= (double)main_started + 1);
	}
	EXPECT_EQ(prom_check(page ? page : "", why, sizeof(why)), 5);
	free(page);
	EXPECT(spare_metrics_valid_name("a:b_c9"));
	EXPECT(!spare_metrics_valid_name("9a"));
	EXPECT(!spare_metrics_valid_label("a:b"));
}

/* The checker itself must refuse what Prometheus refuses. */
static void test_promparse(void)
{
	static const char *const bad[] = {
		"x 1\n",						/* no HELP/TYPE */
		"# HELP x h\n# TYPE x counter\nx -1\n",			/* negative counter */
		"# HELP x h\n# TYPE x gauge\nx{a=\"\\t\"} 1\n",		/* bad escape */
		"# HELP x h\n# TYPE x gauge\nx{a=\"1\"} 1\nx{a=\"1\"} 2\n", /* series twice */
		"# HELP x h\n# TYPE x gauge\ny 1\n",			/* wrong family */
		"# HELP x h\n# TYPE x summary\nx 1\n",			/* type */
		"# HELP x h\n# TYPE x gauge\nx one\n",			/* value */
		"# HELP x h\n# TYPE x gauge\nx 1",			/* no final newline */
		"# HELP x h\n# TYPE x gauge\nx{a=\"1} 1\n",		/* unterminated */
		"# HELP x h\n# TYPE x gauge\n# HELP x h\n# TYPE x gauge\nx 1\n",
	};
	char why[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		if (prom_check(bad[i], why, sizeof(why)) != -1) {
			fprintf(stderr, "# accepted bad page %u\n", i);
			tap_case_failed = 1;
		}
	}
	EXPECT_EQ(prom_check("# HELP x h\n# TYPE x gauge\nx{a=\"\\\"\"} +Inf\n", why, sizeof(why)), 1);
}

/* ---- HTTP /metrics ---- */

static int page_fn(void *ctx, FILE *f)
{
	struct spare_metrics m;

	spare_metrics_begin(&m, f, true);
	spare_metrics_family(&m, "kit_requests_total", SPARE_COUNTER, "Pages served.");
	spare_metrics_u64(&m, NULL, ++*(uint64_t *)ctx);
	return spare_metrics_end(&m);
}

struct http_client {
	uint16_t port;
	const char *request;
	char reply[4096];
};

static void *http_client_thread(void *arg)
{
	struct http_client *c = arg;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(c->port) };
	size_t off = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    write(fd, c->request, strlen(c->request)) < 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while (off < sizeof(c->reply) - 1 &&
	       (n = read(fd, c->reply + off, sizeof(c->reply) - 1 - off)) > 0)
		off += (size_t)n;
	c->reply[off] = '\0';
	close(fd);
	return NULL;
}

/* Drive the server from this thread, as a daemon's loop does. */
static void http_fetch(struct spare_http *h, struct http_client *c)
{
	pthread_t t;
	int i;

	c->reply[0] = '\0';
	c->port = spare_http_port(h);
	if (pthread_create(&t, NULL, http_client_thread, c))
		return;
	for (i = 0; i < 200; i++) {
		struct pollfd p = { .fd = spare_http_fd(h), .events = POLLIN };

		if (poll(&p, 1, 20) > 0)
			spare_http_run(h);
		if (pthread_tryjoin_np(t, NULL) == 0)
			return;
	}
	pthread_join(t, NULL);
}

static void test_http(void)
{
	struct http_client c = { 0 };
	struct spare_http *h;
	uint64_t served = 0;
	char why[128] = "";
	const char *body;

	h = spare_http_start("127.0.0.1:0", page_fn, &served);
	EXPECT(h != NULL);
	if (!h)
		return;
	EXPECT(spare_http_port(h) != 0);
	c.request = "GET /metrics HTTP/1.0\r\n\r\n";
	http_fetch(h, &c);
	EXPECT(!strncmp(c.reply, "HTTP/1.0 200", 12) || !strncmp(c.reply, "HTTP/1.1 200", 12));
	EXPECT(strstr(c.reply, "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n") != NULL);
	body = strstr(c.reply, "\r\n\r\n");
	EXPECT(body && !strcmp(body + 4, "# HELP kit_requests_total Pages served.\n"
			       "# TYPE kit_requests_total counter\nkit_requests_total 1\n"));
	EXPECT(body && prom_check(body + 4, why, sizeof(why)) == 1);
	c.request = "GET /other HTTP/1.0\r\n\r\n";
	http_fetch(h, &c);
	EXPECT(strstr(c.reply, " 404 ") != NULL);
	c.request = "POST /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n";
	http_fetch(h, &c);
	EXPECT(strstr(c.reply, " 405 ") != NULL);
	EXPECT_EQ(served, 1);
	spare_http_stop(h);
	/* Bad addresses are refused before anything listens. */
	EXPECT(spare_http_start("127.0.0.1", page_fn, &served) == NULL);
	EXPECT(spare_http_start("::1:9100", page_fn, &served) == NULL);
	EXPECT(spare_http_start("127.0.0.1:99999", page_fn, &served) == NULL);
}

static void test_listen_parse(void)
{
	char host[64];
	const char *why;
	uint16_t port;

	EXPECT_EQ(spare_http_parse_listen(":9465", host, sizeof(host), &port, &why), 0);
	EXPECT(!strcmp(host, "") && port == 9465);
	EXPECT_EQ(spare_http_parse_listen("[::1]:80", host, sizeof(host), &port, &why), 0);
	EXPECT(!strcmp(host, "::1") && port == 80);
	EXPECT_EQ(spare_http_parse_listen("10.0.0.2:9465", host, sizeof(host), &port, &why), 0);
	EXPECT(!strcmp(host, "10.0.0.2"));
	EXPECT_EQ(spare_http_parse_listen("[::1]80", host, sizeof(host), &port, &why), -1);
	EXPECT_EQ(spare_http_parse_listen("host:port", host, sizeof(host), &port, &why), -1);
}

/* ---- JSON ---- */

static void test_json(void)
{
	struct json_object *o, *v;
	char why[128], *out = NULL;
	size_t len = 0;
	FILE *f;

	o = spare_json_from_counters("spare_donor_port 18515\nspare_donor_uptime_seconds 1.250\n"
				     "spare_donor_maps_total 18446744073709551615\n", why, sizeof(why));
	EXPECT(o == NULL);	/* beyond int64: refused, not wrapped */
	o = spare_json_from_counters("spare_donor_port 18515\n\nspare_donor_uptime_seconds 1.250\n",
				     why, sizeof(why));
	EXPECT(o != NULL);
	if (!o)
		return;
	EXPECT(json_object_object_get_ex(o, "spare_donor_port", &v) &&
	       json_object_is_type(v, json_type_int) && json_object_get_int64(v) == 18515);
	EXPECT(json_object_object_get_ex(o, "spare_donor_uptime_seconds", &v) &&
	       json_object_is_type(v, json_type_double));
	f = open_memstream(&out, &len);
	EXPECT(f && spare_json_print(f, o) == 0);
	if (f)
		fclose(f);
	EXPECT(out && !strcmp(out, "{\"spare_donor_port\":18515,\"spare_donor_uptime_seconds\":1.250}\n"));
	free(out);
	EXPECT(spare_json_from_counters("SLAB STATE CLIENT\n", why, sizeof(why)) == NULL);
	EXPECT(strstr(why, "not a counter line: SLAB STATE CLIENT") != NULL);
	EXPECT(spare_json_from_counters("a 1\na 2\n", why, sizeof(why)) == NULL);
	EXPECT(spare_json_from_counters("a\n", why, sizeof(why)) == NULL);
}

int main(void)
{
	main_started = time(NULL);
	spare_log_init("test_spare_kit", SPARE_LOG_ERR);
	TAP_RUN(test_conf_good);
	TAP_RUN(test_conf_malformed);
	TAP_RUN(test_conf_files);
	TAP_RUN(test_cli);
	TAP_RUN(test_log_journal);
	TAP_RUN(test_notify);
	TAP_RUN(test_metrics);
	TAP_RUN(test_promparse);
	TAP_RUN(test_http);
	TAP_RUN(test_listen_parse);
	TAP_RUN(test_json);
	return tap_done();
}
