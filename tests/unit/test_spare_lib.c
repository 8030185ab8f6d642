// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for userspace/lib: size and number parsing, formatting,
 * the config file parser and log level names.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "spare_conf.h"
#include "spare_log.h"
#include "spare_util.h"
#include "tap.h"

static void test_parse_size(void)
{
	uint64_t v = 0;

	EXPECT_EQ(spare_parse_size("0", &v), 0);
	EXPECT_EQ(v, 0);
	EXPECT_EQ(spare_parse_size("4096", &v), 0);
	EXPECT_EQ(v, 4096);
	EXPECT_EQ(spare_parse_size("256M", &v), 0);
	EXPECT_EQ(v, 256ULL << 20);
	EXPECT_EQ(spare_parse_size("1g", &v), 0);
	EXPECT_EQ(v, 1ULL << 30);
	EXPECT_EQ(spare_parse_size("2GiB", &v), 0);
	EXPECT_EQ(v, 2ULL << 30);
	EXPECT_EQ(spare_parse_size("3kb", &v), 0);
	EXPECT_EQ(v, 3072);
	EXPECT_EQ(spare_parse_size("1T", &v), 0);
	EXPECT_EQ(v, 1ULL << 40);
	v = 99;
	EXPECT_EQ(spare_parse_size("", &v), -1);
	EXPECT_EQ(spare_parse_size("M", &v), -1);
	EXPECT_EQ(spare_parse_size("-1M", &v), -1);
	EXPECT_EQ(spare_parse_size("1X", &v), -1);
	EXPECT_EQ(spare_parse_size("1 M", &v), -1);
	EXPECT_EQ(spare_parse_size("1.5G", &v), -1);
	errno = 0;
	EXPECT_EQ(spare_parse_size("20000000T", &v), -1);
	EXPECT_EQ(errno, ERANGE);
	EXPECT_EQ(spare_parse_size("99999999999999999999999", &v), -1);
	EXPECT_EQ(v, 99);
}

static void test_parse_u64(void)
{
	uint64_t v = 0;

	EXPECT_EQ(spare_parse_u64("18515", 1, 65535, &v), 0);
	EXPECT_EQ(v, 18515);
	EXPECT_EQ(spare_parse_u64("0x10", 0, 100, &v), 0);
	EXPECT_EQ(v, 16);
	errno = 0;
	EXPECT_EQ(spare_parse_u64("65536", 1, 65535, &v), -1);
	EXPECT_EQ(errno, ERANGE);
	EXPECT_EQ(spare_parse_u64("0", 1, 65535, &v), -1);
	errno = 0;
	EXPECT_EQ(spare_parse_u64("12a", 0, 100, &v), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(spare_parse_u64("-1", 0, UINT64_MAX, &v), -1);
	EXPECT_EQ(spare_parse_u64("", 0, 100, &v), -1);
}

static void test_ilog2_fmt(void)
{
	char buf[32];

	EXPECT_EQ(spare_ilog2_exact(1), 0);
	EXPECT_EQ(spare_ilog2_exact(1ULL << 30), 30);
	EXPECT_EQ(spare_ilog2_exact(0), -1);
	EXPECT_EQ(spare_ilog2_exact(3ULL << 20), -1);
	EXPECT(!strcmp(spare_fmt_size(1ULL << 30, buf, sizeof(buf)), "1G"));
	EXPECT(!strcmp(spare_fmt_size(1536ULL << 10, buf, sizeof(buf)), "1536K"));
	EXPECT(!strcmp(spare_fmt_size(256ULL << 20, buf, sizeof(buf)), "256M"));
	EXPECT(!strcmp(spare_fmt_size(1000, buf, sizeof(buf)), "1000"));
	EXPECT(!strcmp(spare_fmt_size(0, buf, sizeof(buf)), "0"));
}

static void test_find_not_byte(void)
{
	unsigned char b[37];

	memset(b, 0, sizeof(b));
	EXPECT_EQ(spare_find_not_byte(b, sizeof(b), 0), sizeof(b));
	b[36] = 1;
	EXPECT_EQ(spare_find_not_byte(b, sizeof(b), 0), 36);
	b[9] = 2;
	EXPECT_EQ(spare_find_not_byte(b, sizeof(b), 0), 9);
	EXPECT_EQ(spare_find_not_byte(b, 0, 7), 0);
	memset(b, 0x5a, sizeof(b));
	EXPECT_EQ(spare_find_not_byte(b + 1, sizeof(b) - 1, 0x5a), sizeof(b) - 1);
}

struct conf_seen {
	char keys[4][32];
	char values[4][32];
	int n;
};

static const char *conf_cb(const char *key, const char *value, void *ctx)
{
	struct conf_seen *c = ctx;

	if (!strcmp(key, "bad"))
		return "refused";
	if (c->n >= 4)
		return "too many";
	snprintf(c->keys[c->n], sizeof(c->keys[0]), "%s", key);
	snprintf(c->values[c->n], sizeof(c->values[0]), "%s", value);
	c->n++;
	return NULL;
}

static int conf_from(const char *text, struct conf_seen *c)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	memset(c, 0, sizeof(*c));
	if (!f)
		return -2;
	ret = spare_conf_parse_stream(f, "test.conf", conf_cb, c);
	fclose(f);
	return ret;
}

static void test_conf(void)
{
	struct conf_seen c;

	EXPECT_EQ(conf_from("# comment\n\n  budget = 256M \nport=18515\n"
			    "listen =10.0.0.2", &c), 0);
	EXPECT_EQ(c.n, 3);
	EXPECT(!strcmp(c.keys[0], "budget") && !strcmp(c.values[0], "256M"));
	EXPECT(!strcmp(c.keys[1], "port") && !strcmp(c.values[1], "18515"));
	EXPECT(!strcmp(c.keys[2], "listen") && !strcmp(c.values[2], "10.0.0.2"));
	/* Empty value is passed on; the callback decides. */
	EXPECT_EQ(conf_from("x =\n", &c), 0);
	EXPECT(!strcmp(c.values[0], ""));
	EXPECT_EQ(conf_from("no equals sign\n", &c), -1);
	EXPECT_EQ(conf_from(" = value\n", &c), -1);
	EXPECT_EQ(conf_from("a=1\nbad=1\nb=2\n", &c), -1);
	EXPECT_EQ(c.n, 1);
	EXPECT_EQ(spare_conf_parse_file("/nonexistent/spare.conf", 1, conf_cb, &c), 0);
	EXPECT_EQ(spare_conf_parse_file("/nonexistent/spare.conf", 0, conf_cb, &c), -1);
}

static void test_log_levels(void)
{
	EXPECT_EQ(spare_log_parse_level("debug"), SPARE_LOG_DEBUG);
	EXPECT_EQ(spare_log_parse_level("WARN"), SPARE_LOG_WARN);
	EXPECT_EQ(spare_log_parse_level("0"), SPARE_LOG_ERR);
	EXPECT_EQ(spare_log_parse_level("4"), -1);
	EXPECT_EQ(spare_log_parse_level("loud"), -1);
}

int main(void)
{
	/* Errors from the parser go to stderr; keep TAP on stdout clean. */
	spare_log_init("test_spare_lib", SPARE_LOG_ERR);
	TAP_RUN(test_parse_size);
	TAP_RUN(test_parse_u64);
	TAP_RUN(test_ilog2_fmt);
	TAP_RUN(test_find_not_byte);
	TAP_RUN(test_conf);
	TAP_RUN(test_log_levels);
	return tap_done();
}
