// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for host authentication in userspace
 * (userspace/lib/spare_auth.c): the "SPARE-1:" text form, spared's
 * host-keys file, and the proofs against known answers computed with an
 * independent HMAC-SHA-256 (Python's hmac module; see the comment at
 * kat_key). The same transcript feeds spare.ko's proofs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "spare_auth.h"
#include "spare_keyfile.h"
#include "tap.h"

/*
 * key = bytes(range(32)); transcript = b"spare-auth-v1" padded to 16,
 * direction, 0x11 * 16 (uuid), b"donor-1" padded to 16, 0x33 * 16 (client
 * nonce), 0x44 * 16 (donor nonce); mac = hmac.new(key, t, sha256).
 */
static const char kat_text[] = "SPARE-1:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh+KfiaR";
static const uint8_t kat_mac_client[32] = {
	0x91, 0x4b, 0x7a, 0x03, 0x97, 0x5b, 0x6d, 0x21, 0xc6, 0xa2, 0x7d, 0xdf,
	0x3b, 0x2f, 0xb2, 0x0f, 0xe1, 0xe7, 0x42, 0x54, 0x3a, 0x75, 0x2a, 0x96,
	0x83, 0x73, 0x64, 0x59, 0x37, 0x2f, 0xf6, 0x97,
};
static const uint8_t kat_mac_donor[32] = {
	0x70, 0x1f, 0x77, 0x28, 0xc3, 0x17, 0xf9, 0x7e, 0x99, 0x06, 0xd0, 0x13,
	0xfa, 0x69, 0x93, 0x6d, 0xfa, 0xb4, 0x19, 0xb2, 0x1b, 0xbc, 0x8d, 0x8c,
	0x22, 0xbe, 0x76, 0x9e, 0x0b, 0x3c, 0x75, 0x98,
};
static uint8_t uuid[16], donor_id[16], nc[16], nd[16];

static void kat_inputs(void)
{
	memset(uuid, 0x11, 16);
	memset(donor_id, 0, 16);
	memcpy(donor_id, "donor-1", 7);
	memset(nc, 0x33, 16);
	memset(nd, 0x44, 16);
}

static void test_key_text_kat(void)
{
	uint8_t key[32], want[32];
	char text[SPARE_KEY_TEXT_LEN + 1];
	unsigned int i;

	for (i = 0; i < 32; i++)
		want[i] = (uint8_t)i;
	EXPECT(spare_key_parse(kat_text, key) == NULL);
	EXPECT(!memcmp(key, want, 32));
	spare_key_format(want, text, sizeof(text));
	EXPECT(!strcmp(text, kat_text));
	EXPECT_EQ(strlen(text), SPARE_KEY_TEXT_LEN);
}

static void test_key_roundtrip(void)
{
	uint8_t a[32], b[32];
	char text[SPARE_KEY_TEXT_LEN + 1], padded[128];
	unsigned int i;

	for (i = 0; i < 20; i++) {
		spare_key_generate(a);
		spare_key_format(a, text, sizeof(text));
		EXPECT(spare_key_parse(text, b) == NULL);
		EXPECT(!memcmp(a, b, 32));
		/* echo adds a newline; blanks around it are tolerated */
		snprintf(padded, sizeof(padded), "  %s \n", text);
		memset(b, 0, 32);
		EXPECT(spare_key_parse(padded, b) == NULL);
		EXPECT(!memcmp(a, b, 32));
	}
	/* Two new secrets differ. */
	spare_key_generate(b);
	EXPECT(memcmp(a, b, 32) != 0);
}

static void test_key_malformed(void)
{
	char t[128];
	uint8_t key[32];
	const char *why;

	memset(key, 0x77, sizeof(key));
	EXPECT(spare_key_parse("", key) != NULL);
	EXPECT(spare_key_parse("DHHC-1:00:abc", key) != NULL);
	EXPECT(spare_key_parse("SPARE-2:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh+KfiaR", key) != NULL);
	/* truncated by one character, one character too many */
	snprintf(t, sizeof(t), "%.*s", (int)strlen(kat_text) - 1, kat_text);
	EXPECT(spare_key_parse(t, key) != NULL);
	snprintf(t, sizeof(t), "%sA", kat_text);
	EXPECT(spare_key_parse(t, key) != NULL);
	/* not base64 */
	snprintf(t, sizeof(t), "%s", kat_text);
	t[20] = '*';
	EXPECT(spare_key_parse(t, key) != NULL);
	/* one secret character changed: the checksum catches it */
	snprintf(t, sizeof(t), "%s", kat_text);
	t[12] = t[12] == 'B' ? 'C' : 'B';
	why = spare_key_parse(t, key);
	EXPECT(why && strstr(why, "checksum"));
	/* no reason quotes the text it refuses */
	EXPECT(why && !strstr(why, t + 8));
	/* a refused secret leaves the output alone */
	EXPECT_EQ(key[0], 0x77);
	EXPECT_EQ(key[31], 0x77);
}

static void test_mac_kat(void)
{
	uint8_t key[32], mac[32];

	kat_inputs();
	EXPECT(spare_key_parse(kat_text, key) == NULL);
	spare_auth_mac(mac, key, SPARE_AUTH_DIR_CLIENT, uuid, donor_id, nc, nd);
	EXPECT(!memcmp(mac, kat_mac_client, 32));
	spare_auth_mac(mac, key, SPARE_AUTH_DIR_DONOR, uuid, donor_id, nc, nd);
	EXPECT(!memcmp(mac, kat_mac_donor, 32));
	EXPECT(spare_auth_mac_ok(kat_mac_client, key, SPARE_AUTH_DIR_CLIENT,
				 uuid, donor_id, nc, nd));
}

/* Each input of the transcript matters; a proof is good for one run only. */
static void test_mac_binds_everything(void)
{
	uint8_t key[32], other[32];

	kat_inputs();
	EXPECT(spare_key_parse(kat_text, key) == NULL);
	/* reflected: the client's proof is not the donor's */
	EXPECT(!spare_auth_mac_ok(kat_mac_client, key, SPARE_AUTH_DIR_DONOR,
				  uuid, donor_id, nc, nd));
	/* replayed into a run with a new donor nonce */
	nd[0] ^= 1;
	EXPECT(!spare_auth_mac_ok(kat_mac_client, key, SPARE_AUTH_DIR_CLIENT,
				  uuid, donor_id, nc, nd));
	kat_inputs();
	nc[15] ^= 0x80;
	EXPECT(!spare_auth_mac_ok(kat_mac_client, key, SPARE_AUTH_DIR_CLIENT,
				  uuid, donor_id, nc, nd));
	kat_inputs();
	uuid[3] = 0;
	EXPECT(!spare_auth_mac_ok(kat_mac_client, key, SPARE_AUTH_DIR_CLIENT,
				  uuid, donor_id, nc, nd));
	kat_inputs();
	donor_id[0] = 'D';
	EXPECT(!spare_auth_mac_ok(kat_mac_client, key, SPARE_AUTH_DIR_CLIENT,
				  uuid, donor_id, nc, nd));
	/* wrong key */
	kat_inputs();
	memcpy(other, key, 32);
	other[31] ^= 1;
	EXPECT(!spare_auth_mac_ok(kat_mac_client, other, SPARE_AUTH_DIR_CLIENT,
				  uuid, donor_id, nc, nd));
}

static void test_host_keys_parse(void)
{
	struct spare_host_keys hk;
	char a[SPARE_KEY_TEXT_LEN + 1], b[SPARE_KEY_TEXT_LEN + 1], text[512];
	uint8_t ka[32], kb[32], mac[32];
	char why[160];

	spare_key_generate(ka);
	spare_key_generate(kb);
	spare_key_format(ka, a, sizeof(a));
	spare_key_format(kb, b, sizeof(b));
	snprintf(text, sizeof(text),
		 "# clients of this donor\n\ntrainer-1 %s\n  trainer-2\t%s  \n# end",
		 a, b);
	EXPECT_EQ(spare_host_keys_parse(text, &hk, why, sizeof(why)), 0);
	EXPECT_EQ(hk.n, 2);
	if (hk.n == 2) {
		EXPECT(!strcmp(hk.v[0].name, "trainer-1"));
		EXPECT(!strcmp(hk.v[1].name, "trainer-2"));
		EXPECT(!memcmp(hk.v[1].key, kb, 32));
	}
	/* The donor finds which client proved itself, and no other. */
	kat_inputs();
	spare_auth_mac(mac, kb, SPARE_AUTH_DIR_CLIENT, uuid, donor_id, nc, nd);
	EXPECT(spare_host_keys_match(&hk, mac, uuid, donor_id, nc, nd) == &hk.v[1]);
	nd[2] ^= 4;
	EXPECT(spare_host_keys_match(&hk, mac, uuid, donor_id, nc, nd) == NULL);
	kat_inputs();
	spare_auth_mac(mac, kb, SPARE_AUTH_DIR_DONOR, uuid, donor_id, nc, nd);
	EXPECT(spare_host_keys_match(&hk, mac, uuid, donor_id, nc, nd) == NULL);
	spare_host_keys_free(&hk);
	EXPECT_EQ(hk.n, 0);
	EXPECT(hk.v == NULL);
}

static void expect_refused(const char *text, const char *reason)
{
	struct spare_host_keys hk;
	char why[160] = "";

	EXPECT_EQ(spare_host_keys_parse(text, &hk, why, sizeof(why)), -1);
	if (!strstr(why, reason)) {
		fprintf(stderr, "# want \"%s\" in \"%s\"\n", reason, why);
		tap_case_failed = 1;
	}
	EXPECT_EQ(hk.n, 0);
	EXPECT(hk.v == NULL);
	/* never the secret */
	EXPECT(!strstr(why, "SPARE-1:"));
}

static void test_host_keys_malformed(void)
{
	char a[SPARE_KEY_TEXT_LEN + 1], text[512], bad[SPARE_KEY_TEXT_LEN + 1];
	uint8_t k[32];

	spare_key_generate(k);
	spare_key_format(k, a, sizeof(a));
	expect_refused("", "no keys");
	expect_refused("# only a comment\n", "no keys");
	expect_refused("trainer-1\n", "line 1");
	snprintf(text, sizeof(text), "x %s\ny %s extra\n", a, a);
	expect_refused(text, "line 2: unknown option \"extra\"");
	snprintf(text, sizeof(text), "x %s\nx %s\n", a, a);
	expect_refused(text, "given twice");
	snprintf(text, sizeof(text), "x %s\ny %s\n", a, a);
	expect_refused(text, "same secret");
	snprintf(bad, sizeof(bad), "%s", a);
	bad[30] = bad[30] == 'A' ? 'B' : 'A';
	snprintf(text, sizeof(text), "\n\ngood %s\nbad %s\n", a, bad);
	expect_refused(text, "line 4 (bad): secret bad checksum");
	snprintf(text, sizeof(text),
		 "a-name-that-is-much-longer-than-sixty-three-bytes-for-sure-xxxxxxxx %s\n",
		 a);
	expect_refused(text, "name longer");
}

/* role= and addr= (Documentation/admin-guide.md, "Host keys"). */
static void test_host_keys_roles(void)
{
	char a[SPARE_KEY_TEXT_LEN + 1], b[SPARE_KEY_TEXT_LEN + 1], c[SPARE_KEY_TEXT_LEN + 1];
	char d[SPARE_KEY_TEXT_LEN + 1], e[SPARE_KEY_TEXT_LEN + 1], text[1024], why[200];
	struct spare_host_keys hk;
	uint8_t k[32], mac[32];

	spare_key_generate(k);
	spare_key_format(k, e, sizeof(e));
	spare_key_generate(k);
	spare_key_format(k, a, sizeof(a));
	spare_key_generate(k);
	spare_key_format(k, b, sizeof(b));
	spare_key_generate(k);
	spare_key_format(k, c, sizeof(c));
	spare_key_generate(k);
	spare_key_format(k, d, sizeof(d));
	snprintf(text, sizeof(text),
		 "trainer %s role=client\n"
		 "donor-1 %s role=donor addr=10.0.0.5,10.1.0.0/16,fd00::/8,donor-1.example\n"
		 "old %s\n"
		 "both-1 %s addr=192.168.7.7 role=both\n"
		 "ops %s role=admin\n", a, b, c, d, e);
	EXPECT_EQ(spare_host_keys_parse(text, &hk, why, sizeof(why)), 0);
	EXPECT_EQ(hk.n, 5);
	if (hk.n != 5) {
		fprintf(stderr, "# %s\n", why);
		return;
	}
	EXPECT_EQ(hk.v[0].roles, SPARE_ROLE_CLIENT);
	EXPECT_EQ(hk.v[1].roles, SPARE_ROLE_DONOR);
	EXPECT_EQ(hk.v[1].naddrs, 4);
	EXPECT_EQ(hk.v[2].roles, SPARE_ROLE_BOTH);	/* a line of before roles */
	EXPECT_EQ(hk.v[2].naddrs, 0);
	EXPECT_EQ(hk.v[3].roles, SPARE_ROLE_BOTH);
	EXPECT_EQ(hk.v[4].roles, SPARE_ROLE_ADMIN);	/* neither client nor donor */
	EXPECT(!(hk.v[4].roles & SPARE_ROLE_BOTH));
	EXPECT(!strcmp(spare_role_name(hk.v[4].roles), "admin"));
	EXPECT_EQ(hk.old_lines, 1);
	EXPECT_EQ(hk.old_line, 3);
	EXPECT_EQ(hk.v[1].line, 2);

	/* addresses a donor may register */
	EXPECT(!spare_host_key_addr_refused(&hk.v[1], "10.0.0.5:18515", "127.0.0.1", why, sizeof(why)));
	EXPECT(!spare_host_key_addr_refused(&hk.v[1], "10.1.200.3:1", "127.0.0.1", why, sizeof(why)));
	EXPECT(!spare_host_key_addr_refused(&hk.v[1], "[fd12::1]:18515", "::1", why, sizeof(why)));
	EXPECT(!spare_host_key_addr_refused(&hk.v[1], "DONOR-1.example:18515", "10.0.0.5", why, sizeof(why)));
	EXPECT(spare_host_key_addr_refused(&hk.v[1], "10.0.0.6:18515", "10.0.0.5", why, sizeof(why)));
	EXPECT(strstr(why, "key donor-1 may not register 10.0.0.6") != NULL);
	EXPECT(spare_host_key_addr_refused(&hk.v[1], "10.2.0.1:18515", "10.2.0.1", why, sizeof(why)));
	EXPECT(spare_host_key_addr_refused(&hk.v[1], "[fe80::1]:18515", "::1", why, sizeof(why)));
	EXPECT(spare_host_key_addr_refused(&hk.v[1], "donor-2.example:18515", "10.0.0.5", why, sizeof(why)));
	EXPECT(spare_host_key_addr_refused(&hk.v[1], "10.0.0.5", "10.0.0.5", why, sizeof(why)));
	/* no addr=: only the address the donor connects from */
	EXPECT(!spare_host_key_addr_refused(&hk.v[2], "10.3.0.9:18515", "10.3.0.9", why, sizeof(why)));
	EXPECT(!spare_host_key_addr_refused(&hk.v[2], "10.3.0.9:18515", "::ffff:10.3.0.9", why, sizeof(why)));
	EXPECT(spare_host_key_addr_refused(&hk.v[2], "10.3.0.8:18515", "10.3.0.9", why, sizeof(why)));
	EXPECT(strstr(why, "only the address it connects from (10.3.0.9)") != NULL);
	EXPECT(spare_host_key_addr_refused(&hk.v[2], "somehost:18515", "10.3.0.9", why, sizeof(why)));
	EXPECT(!spare_host_key_addr_refused(&hk.v[3], "192.168.7.7:1", "10.0.0.1", why, sizeof(why)));
	EXPECT(spare_host_key_addr_refused(&hk.v[3], "192.168.7.8:1", "192.168.7.8", why, sizeof(why)));

	/* where a client key may connect from (spared, the broker) */
	EXPECT(!spare_host_key_from_refused(&hk.v[0], "10.9.9.9", why, sizeof(why)));	/* no addr= */
	EXPECT(!spare_host_key_from_refused(&hk.v[2], "fd00::9", why, sizeof(why)));
	EXPECT(!spare_host_key_from_refused(&hk.v[3], "192.168.7.7", why, sizeof(why)));
	EXPECT(!spare_host_key_from_refused(&hk.v[3], "::ffff:192.168.7.7", why, sizeof(why)));
	EXPECT(spare_host_key_from_refused(&hk.v[3], "192.168.7.8", why, sizeof(why)));
	EXPECT(strstr(why, "key both-1 may not connect from 192.168.7.8 (not in its addr= on host-keys line 4)") != NULL);
	EXPECT(spare_host_key_from_refused(&hk.v[3], "?", why, sizeof(why)));

	/* a donor-only key does not borrow: spared's match skips it */
	kat_inputs();
	spare_auth_mac(mac, hk.v[1].key, SPARE_AUTH_DIR_CLIENT, uuid, donor_id, nc, nd);
	EXPECT(spare_host_keys_match(&hk, mac, uuid, donor_id, nc, nd) == NULL);
	spare_auth_mac(mac, hk.v[3].key, SPARE_AUTH_DIR_CLIENT, uuid, donor_id, nc, nd);
	EXPECT(spare_host_keys_match(&hk, mac, uuid, donor_id, nc, nd) == &hk.v[3]);
	spare_host_keys_free(&hk);

	snprintf(text, sizeof(text), "x %s role=server\n", a);
	expect_refused(text, "line 1: role=server: want donor, client, both or admin");
	snprintf(text, sizeof(text), "x %s role=client role=donor\n", a);
	expect_refused(text, "role= given twice");
	/* a client's addr= binds where it connects from: IPs and prefixes only */
	snprintf(text, sizeof(text), "x %s role=client addr=client-1.example\n", a);
	expect_refused(text, "a client's addr= takes IP addresses and prefixes");
	snprintf(text, sizeof(text), "x %s addr=10.0.0.1/33 role=donor\n", a);
	expect_refused(text, "bad prefix length");
	snprintf(text, sizeof(text), "x %s role=donor addr=\n", a);
	expect_refused(text, "addr= is empty");
	snprintf(text, sizeof(text), "x %s role=donor addr=10.0.0.1 addr=10.0.0.2\n", a);
	expect_refused(text, "addr= given twice");
	snprintf(text, sizeof(text), "x %s role=donor addr=bad_host!\n", a);
	expect_refused(text, "is not an IP address");
	snprintf(text, sizeof(text), "x %s role=donor addr=1.2.3\n", a);
	expect_refused(text, "is not an IP address");
	snprintf(text, sizeof(text), "x %s colour=red\n", a);
	expect_refused(text, "unknown option");
	/* a second secret on the line is not quoted (expect_refused checks) */
	snprintf(text, sizeof(text), "x %s %s\n", a, b);
	expect_refused(text, "unknown option \"(a secret)\"");
	snprintf(text, sizeof(text), "x %s role=donor addr=%s\n", a, b);
	expect_refused(text, "addr= entry \"(a secret)\"");
	snprintf(text, sizeof(text), "x %s role=%s\n", a, b);
	expect_refused(text, "role=(a secret)");
	/* the name forgotten: the secret is not quoted as the name */
	snprintf(text, sizeof(text), "%s role=client\n", a);
	expect_refused(text, "line 1: a secret where the name goes");
}

/* Key files: refused when group or others can read them, or another user owns them. */
/* A client key's addr=: where it may connect from (spared checks it). */
static void test_client_addr(void)
{
	char a[SPARE_KEY_TEXT_LEN + 1], text[256], why[200];
	struct spare_host_keys hk;
	uint8_t k[32];

	spare_key_generate(k);
	spare_key_format(k, a, sizeof(a));
	snprintf(text, sizeof(text), "cl %s role=client addr=10.5.0.0/24,fd01::7\n", a);
	EXPECT_EQ(spare_host_keys_parse(text, &hk, why, sizeof(why)), 0);
	if (hk.n != 1) {
		fprintf(stderr, "# %s\n", why);
		return;
	}
	EXPECT_EQ(hk.v[0].naddrs, 2);
	EXPECT(!spare_host_key_from_refused(&hk.v[0], "10.5.0.200", why, sizeof(why)));
	EXPECT(!spare_host_key_from_refused(&hk.v[0], "fd01::7", why, sizeof(why)));
	EXPECT(spare_host_key_from_refused(&hk.v[0], "10.5.1.1", why, sizeof(why)));
	EXPECT(strstr(why, "key cl may not connect from 10.5.1.1") != NULL);
	EXPECT(strstr(why, "SPARE-1") == NULL);		/* no secret */
	EXPECT(spare_host_key_from_refused(&hk.v[0], "fd01::8", why, sizeof(why)));
	spare_host_keys_free(&hk);
}

static void test_key_file_modes(void)
{
	char path[] = "/tmp/spare-keyfile-XXXXXX", buf[128], why[256];
	struct stat st = { 0 };
	int fd;

	st.st_mode = S_IFREG | 0600;
	st.st_uid = 1000;
	EXPECT(spare_key_file_unsafe("/k", &st, 1000, why, sizeof(why)) == NULL);
	st.st_uid = 0;
	EXPECT(spare_key_file_unsafe("/k", &st, 1000, why, sizeof(why)) == NULL);
	st.st_mode = S_IFREG | 0400;
	EXPECT(spare_key_file_unsafe("/k", &st, 1000, why, sizeof(why)) == NULL);
	st.st_mode = S_IFREG | 0640;
	EXPECT(spare_key_file_unsafe("/k", &st, 1000, why, sizeof(why)) != NULL);
	EXPECT(strstr(why, "/k: mode 0640") && strstr(why, "chmod 600 /k"));
	st.st_mode = S_IFREG | 0604;
	EXPECT(spare_key_file_unsafe("/k", &st, 1000, why, sizeof(why)) != NULL);
	st.st_mode = S_IFREG | 0620;
	EXPECT(spare_key_file_unsafe("/k", &st, 1000, why, sizeof(why)) != NULL);
	st.st_mode = S_IFREG | 0600;
	st.st_uid = 1001;
	EXPECT(spare_key_file_unsafe("/k", &st, 1000, why, sizeof(why)) != NULL);
	EXPECT(strstr(why, "owned by uid 1001") != NULL);
	st.st_mode = S_IFDIR | 0700;
	st.st_uid = 1000;
	EXPECT(spare_key_file_unsafe("/k", &st, 1000, why, sizeof(why)) != NULL);

	fd = mkstemp(path);
	EXPECT(fd >= 0);
	if (fd < 0)
		return;
	EXPECT_EQ(write(fd, "secret\n", 7), 7);
	close(fd);
	EXPECT_EQ(spare_key_file_read(path, buf, sizeof(buf), why, sizeof(why)), 7);
	EXPECT(!strcmp(buf, "secret\n"));
	EXPECT_EQ(spare_key_file_read(path, buf, 7, why, sizeof(why)), -1);
	EXPECT(strstr(why, "larger than 6 bytes") != NULL);
	chmod(path, 0644);
	EXPECT_EQ(spare_key_file_read(path, buf, sizeof(buf), why, sizeof(why)), -1);
	EXPECT(strstr(why, "mode 0644") && strstr(why, "(chmod 600 ") && strstr(why, path));
	/* systemd's credentials (root's, an ACL for the unit's user) pass */
	chmod(path, 0640);
	setenv("CREDENTIALS_DIRECTORY", "/tmp/", 1);
	EXPECT_EQ(spare_key_file_read(path, buf, sizeof(buf), why, sizeof(why)), getuid() ? -1 : 7);
	setenv("CREDENTIALS_DIRECTORY", "/tmp/spare-other", 1);
	EXPECT_EQ(spare_key_file_read(path, buf, sizeof(buf), why, sizeof(why)), -1);
	unsetenv("CREDENTIALS_DIRECTORY");
	unlink(path);
}

static void test_host_keys_load(void)
{
	char path[] = "/tmp/spare-hostkeys-XXXXXX", a[SPARE_KEY_TEXT_LEN + 1];
	struct spare_host_keys hk;
	char why[160];
	uint8_t k[32];
	FILE *f;
	int fd;

	spare_key_generate(k);
	spare_key_format(k, a, sizeof(a));
	fd = mkstemp(path);
	EXPECT(fd >= 0);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	fprintf(f, "host-a %s\n", a);
	fclose(f);
	EXPECT_EQ(spare_host_keys_load(path, &hk, why, sizeof(why)), 0);
	EXPECT_EQ(hk.n, 1);
	spare_host_keys_free(&hk);
	/* readable by others: refused, naming the file and the fix */
	chmod(path, 0644);
	EXPECT_EQ(spare_host_keys_load(path, &hk, why, sizeof(why)), -1);
	EXPECT(strstr(why, "mode 0644") != NULL && strstr(why, "chmod 600") != NULL);
	EXPECT_EQ(hk.n, 0);
	unlink(path);
	EXPECT_EQ(spare_host_keys_load(path, &hk, why, sizeof(why)), -1);
	EXPECT(strstr(why, "No such file") != NULL);
}

int main(void)
{
	if (spare_auth_init())
		return 1;
	TAP_RUN(test_key_text_kat);
	TAP_RUN(test_key_roundtrip);
	TAP_RUN(test_key_malformed);
	TAP_RUN(test_mac_kat);
	TAP_RUN(test_mac_binds_everything);
	TAP_RUN(test_host_keys_parse);
	TAP_RUN(test_host_keys_malformed);
	TAP_RUN(test_host_keys_roles);
	TAP_RUN(test_client_addr);
	TAP_RUN(test_key_file_modes);
	TAP_RUN(test_host_keys_load);
	return tap_done();
}
