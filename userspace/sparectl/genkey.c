// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl gen-key: make a new host secret in the "SPARE-1:" text form
 * (Documentation/protocol.md, "Host authentication"), and check files of
 * secrets. The client's copy goes to its device's configfs "key"
 * attribute, the donors' and brokers' copies into their host-keys files.
 *
 *   sparectl gen-key                   print one new secret (stdout must not
 *                                      be a terminal; a regular file is made
 *                                      mode 0600 before the secret goes in)
 *   sparectl gen-key -o FILE [--force] create FILE mode 0600 with the secret
 *   sparectl gen-key --check [FILE...] check secrets or host-keys lines
 *                                      (stdin without FILE): "FILE:LINE:
 *                                      reason" for each bad one, exit 1
 *   sparectl gen-key --grant [--key-id N] -o FILE [--force]
 *                                      a broker's grant signing key: FILE
 *                                      (mode 0600) gets its secret (an
 *                                      Ed25519 seed in the same "SPARE-1:"
 *                                      form), stdout the public key line
 *                                      "N <64 hex digits>" for the donors'
 *                                      and clients' grant-public-keys
 *   sparectl gen-key --grant-public [--key-id N] FILE
 *                                      that line again, from FILE
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sodium.h>

#include "spare_auth.h"
#include "spare_grant_lib.h"
#include "spare_keyfile.h"
#include "spare_log.h"

int sparectl_gen_key(int argc, char **argv);

/* As large as the daemons' host-keys files may be (spare_auth.c). */
#define CHECK_MAX	(4u << 20)

/* One line's words: @n of them, the first in @first. */
static unsigned int words(const char *line, const char **first)
{
	unsigned int n = 0;
	const char *p = line;

	*first = NULL;
	for (;;) {
		p += strspn(p, " \t\r");
		if (!*p)
			return n;
		if (!n)
			*first = p;
		n++;
		p += strcspn(p, " \t\r");
	}
}

/*
 * Check @text: each line blank, a '#' comment, a bare secret, or a
 * host-keys line as spared and spare-broker read it. Says "@label:LINE:
 * reason" for each bad line; returns how many.
 */
static unsigned int check_text(const char *label, char *text)
{
	struct spare_host_keys hk;
	uint8_t key[SPARE_AUTH_KEY_LEN];
	unsigned int no = 0, bad = 0, secrets = 0, hostlines = 0;
	char why[320], *line, *next;
	size_t len = strlen(text);
	char *hosts = calloc(1, len + 1);	/* the host-keys lines, the rest blank */
	const char *first, *err;

	if (!hosts) {
		log_err("%s: out of memory", label);
		return 1;
	}
	memset(hosts, ' ', len);
	for (line = text; line; line = next) {
		char *h = hosts + (line - text);

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		no++;
		switch (words(line, &first)) {
		case 0:
			break;
		case 1:
			if (*first == '#')
				break;
			err = spare_key_parse(first, key);
			if (err) {
				log_err("%s:%u: %s", label, no, err);
				bad++;
			} else {
				secrets++;
			}
			break;
		default:
			if (*first == '#')
				break;
			memcpy(h, line, strlen(line));
			/* alone first, for this line's own reason */
			if (spare_host_keys_parse(line, &hk, why, sizeof(why))) {
				log_err("%s:%u%s", label, no,
					!strncmp(why, "line 1", 6) ? why + 6 : why);
				bad++;
			} else {
				hostlines++;
				if (hk.old_lines)
					log_warn("%s:%u: no role= (read as role=both, deprecated)",
						 label, no);
				spare_host_keys_free(&hk);
			}
			break;
		}
		if (next)
			h[next - line - 1] = '\n';
	}
	/* together: names and secrets given twice */
	if (!bad && hostlines && spare_host_keys_parse(hosts, &hk, why, sizeof(why))) {
		log_err("%s:%s", label, !strncmp(why, "line ", 5) ? why + 5 : why);
		bad++;
	} else if (!bad && hostlines) {
		spare_host_keys_free(&hk);
	}
	sodium_memzero(hosts, len);
	free(hosts);
	sodium_memzero(key, sizeof(key));
	if (!bad && !secrets && !hostlines) {
		log_err("%s: no secret", label);
		bad++;
	}
	return bad;
}

static int check_keys(int nfiles, char **files)
{
	char why[320];
	unsigned int bad = 0;
	char *buf = malloc(CHECK_MAX);
	long n;

	if (!buf) {
		log_err("out of memory");
		return 1;
	}
	if (!nfiles) {
		size_t got = fread(buf, 1, CHECK_MAX, stdin);

		if (ferror(stdin) || got == CHECK_MAX) {
			log_err("<stdin>: %s", ferror(stdin) ? "read error" : "too large");
			bad++;
		} else {
			buf[got] = '\0';
			bad += check_text("<stdin>", buf);
		}
		sodium_memzero(buf, got < CHECK_MAX ? got : CHECK_MAX);
	}
	for (int i = 0; i < nfiles; i++) {
		/* the daemons' own reader: a file they would refuse is bad */
		n = spare_key_file_read(files[i], buf, CHECK_MAX, why, sizeof(why));
		if (n < 0) {
			log_err("%s", why);
			bad++;
			continue;
		}
		if (memchr(buf, '\0', (size_t)n)) {
			log_err("%s: not a text file", files[i]);
			bad++;
		} else {
			bad += check_text(files[i], buf);
		}
		sodium_memzero(buf, (size_t)n);
	}
	free(buf);
	return bad ? 1 : 0;
}

/* Where the secret goes: -o FILE (mode 0600, new unless @force), or stdout. */
static int open_output(const char *path, bool force)
{
	struct stat st;
	int fd;

	if (path) {
		fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
			  (force ? O_TRUNC : O_EXCL), 0600);
		if (fd < 0) {
			log_err("%s: %s%s", path, strerror(errno),
				errno == EEXIST ? " (--force replaces it)" : "");
			return -1;
		}
	} else {
		fd = STDOUT_FILENO;
		if (isatty(fd)) {
			log_err("standard output is a terminal: write the secret to a file (sparectl gen-key -o FILE)");
			return -1;
		}
	}
	if (fstat(fd, &st)) {
		log_err("%s: %s", path ? path : "standard output", strerror(errno));
		goto fail;
	}
	/* a file the shell or --force opened may be older and readable by others */
	if (S_ISREG(st.st_mode) && (st.st_mode & 07777) != 0600 && fchmod(fd, 0600)) {
		log_err("%s: mode %04o and cannot make it 0600 (%s): not writing a secret there",
			path ? path : "standard output", (unsigned int)(st.st_mode & 07777),
			strerror(errno));
		goto fail;
	}
	return fd;
fail:
	if (fd != STDOUT_FILENO)
		close(fd);
	return -1;
}

static int usage(void)
{
	log_err("usage: gen-key [-o FILE [--force]] | gen-key --check [FILE...] | gen-key --grant [--key-id N] -o FILE [--force] | gen-key --grant-public [--key-id N] FILE");
	return 2;
}

/* Print the public key line of the grant signing key whose seed is @seed. */
static int print_grant_public(const uint8_t seed[SPARE_AUTH_KEY_LEN], uint32_t id)
{
	struct spare_grant_signkey k;
	struct spare_grant_pubkey p;
	char line[96];

	spare_grant_signkey_from_seed(&k, id, seed);
	p = spare_grant_signkey_public(&k);
	sodium_memzero(&k, sizeof(k));
	spare_grant_pubkey_format(&p, line, sizeof(line));
	if (printf("%s\n", line) < 0 || fflush(stdout)) {
		log_err("standard output: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/* gen-key --grant-public FILE: the public line of an existing signing key. */
static int grant_public(const char *path, uint32_t id)
{
	char text[256], why[320];
	uint8_t seed[SPARE_AUTH_KEY_LEN];
	const char *err;
	int ret;

	if (spare_key_file_read(path, text, sizeof(text), why, sizeof(why)) < 0) {
		log_err("%s", why);
		return 1;
	}
	err = spare_key_parse(text, seed);
	sodium_memzero(text, sizeof(text));
	if (err) {
		log_err("%s: %s", path, err);
		return 1;
	}
	ret = print_grant_public(seed, id);
	sodium_memzero(seed, sizeof(seed));
	return ret;
}

int sparectl_gen_key(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "check", no_argument, NULL, 'c' },
		{ "grant", no_argument, NULL, 'g' },
		{ "grant-public", no_argument, NULL, 'p' },
		{ "key-id", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	bool grant = false, grant_pub = false, has_id = false;
	unsigned long long key_id = 1;
	char *end;
	uint8_t key[SPARE_AUTH_KEY_LEN];
	char text[SPARE_KEY_TEXT_LEN + 2];
	const char *out = NULL;
	bool force = false, check = false;
	size_t len;
	ssize_t w;
	int opt, fd, ret = 0;

	optind = 0;	/* a fresh scan: main() ran getopt already */
	while ((opt = getopt_long(argc, argv, "+o:", opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'c':
			check = true;
			break;
		case 'g':
			grant = true;
			break;
		case 'p':
			grant_pub = true;
			break;
		case 'i':
			errno = 0;
			key_id = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-' || key_id > UINT32_MAX) {
				log_err("--key-id %s: not a key id (0-4294967295)", optarg);
				return 2;
			}
			has_id = true;
			break;
		default:
			return usage();
		}
	}
	if (spare_auth_init()) {
		log_err("libsodium cannot initialise");
		return 1;
	}
	if (check + grant + grant_pub > 1 || (has_id && !grant && !grant_pub))
		return usage();
	if (check) {
		if (out || force)
			return usage();
		return check_keys(argc - optind, argv + optind);
	}
	if (grant_pub) {
		if (out || force || optind + 1 != argc)
			return usage();
		return grant_public(argv[optind], (uint32_t)key_id);
	}
	if (optind != argc || (force && !out))
		return usage();
	if (grant && !out) {
		log_err("gen-key --grant: give -o FILE for the secret (standard output gets the public key)");
		return 2;
	}
	fd = open_output(out, force);
	if (fd < 0)
		return 1;
	spare_key_generate(key);
	spare_key_format(key, text, sizeof(text));
	len = strlen(text);
	text[len++] = '\n';
	w = write(fd, text, len);
	if (w != (ssize_t)len) {
		log_err("%s: %s", out ? out : "standard output",
			w < 0 ? strerror(errno) : "short write");
		ret = 1;
	}
	if (fd != STDOUT_FILENO && close(fd)) {
		log_err("%s: %s", out, strerror(errno));
		ret = 1;
	}
	if (!ret && grant)
		ret = print_grant_public(key, (uint32_t)key_id);
	sodium_memzero(key, sizeof(key));
	sodium_memzero(text, sizeof(text));
	return ret;
}
