// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl gen-key: print a new host secret in the "SPARE-1:" text form
 * (Documentation/protocol.md, "Host authentication"). The client's copy
 * goes to its device's configfs "key" attribute, the donors' copies into
 * their host-keys files.
 *
 *   sparectl gen-key            print one new secret
 *   sparectl gen-key --check    read secrets on stdin, one a line; say
 *                               which are malformed (exit 1 if any)
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "spare_auth.h"
#include "spare_log.h"

int sparectl_gen_key(int argc, char **argv);

static int check_keys(void)
{
	uint8_t key[SPARE_AUTH_KEY_LEN];
	char line[256];
	unsigned int n = 0, bad = 0;
	const char *why;

	while (fgets(line, sizeof(line), stdin)) {
		n++;
		why = spare_key_parse(line, key);
		if (why) {
			log_err("line %u: %s", n, why);
			bad++;
		}
		sodium_memzero(line, sizeof(line));
	}
	sodium_memzero(key, sizeof(key));
	if (!n) {
		log_err("no secret on stdin");
		return 1;
	}
	return bad ? 1 : 0;
}

int sparectl_gen_key(int argc, char **argv)
{
	uint8_t key[SPARE_AUTH_KEY_LEN];
	char text[SPARE_KEY_TEXT_LEN + 1];

	if (spare_auth_init()) {
		log_err("libsodium cannot initialise");
		return 1;
	}
	if (argc == 2 && !strcmp(argv[1], "--check"))
		return check_keys();
	if (argc != 1) {
		log_err("usage: gen-key [--check]");
		return 2;
	}
	spare_key_generate(key);
	spare_key_format(key, text, sizeof(text));
	printf("%s\n", text);
	sodium_memzero(key, sizeof(key));
	sodium_memzero(text, sizeof(text));
	return fflush(stdout) ? 1 : 0;
}
