// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl: control CLI for spare. For now it talks to a local donor
 * daemon (spared) through its control socket:
 *
 *   sparectl donor [-j] [-p PORT | -S PATH] status|slabs|evict N|evict all|query
 *
 * It prints the daemon's answer and exits 0, or 1 if the daemon could not
 * be reached or answered "error: ...".
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "spare_log.h"
#include "spare_util.h"
#include "uapi/spare.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
"usage: %s donor [-j] [-p PORT | -S SOCKET] COMMAND...\n"
"       %s gen-key [--check]   (new host secret; --check: validate stdin)\n"
"Commands for a local spared: status, slabs, evict N, evict all, query.\n"
"  -p, --port PORT     the donor's port; socket /run/spare/spared-PORT.sock [%u]\n"
"  -S, --socket PATH   the donor's control socket\n"
"  -j, --json          print the status counters as one JSON object\n", prog,
		prog, (unsigned int)SPARE_DEFAULT_PORT);
}

int sparectl_gen_key(int argc, char **argv);

/*
 * Print a status reply ("name value" lines) as one JSON object; lines of
 * another shape (the slabs table) are an error in JSON mode.
 */
static int print_json(const char *reply)
{
	const char *line, *end;
	bool first = true;
	int pass;

	/* Pass 0 checks every line, pass 1 prints: no half-printed object. */
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			putchar('{');
		for (line = reply; *line; line = *end ? end + 1 : end) {
			char name[64], value[32];
			int used = 0;

			end = strchrnul(line, '\n');
			if (end == line)
				continue;
			if (sscanf(line, "%63[a-z_] %31[0-9.]%n", name, value,
				   &used) != 2 || line + used != end) {
				log_err("-j: not a counter line: %.*s",
					(int)(end - line), line);
				return 1;
			}
			if (pass)
				printf("%s\"%s\":%s", first ? "" : ",", name, value);
			first = false;
		}
		first = true;
	}
	printf("}\n");
	return 0;
}

static int donor_cmd(const char *path, int argc, char **argv, bool json)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char line[256] = "", buf[4096], *reply = NULL;
	size_t len = 0, reply_len = 0;
	bool error = false;
	FILE *out;
	ssize_t n;
	int fd, i;

	for (i = 0; i < argc; i++) {
		int w = snprintf(line + len, sizeof(line) - len, "%s%s",
				 i ? " " : "", argv[i]);

		if (w < 0 || (size_t)w >= sizeof(line) - len - 1) {
			log_err("command too long");
			return 1;
		}
		len += (size_t)w;
	}
	line[len++] = '\n';
	if (strlen(path) >= sizeof(sa.sun_path)) {
		log_err("%s: path too long", path);
		return 1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		log_err("%s: %s (is spared running?)", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return 1;
	}
	if (write(fd, line, len) != (ssize_t)len) {
		log_err("%s: write: %s", path, strerror(errno));
		close(fd);
		return 1;
	}
	out = open_memstream(&reply, &reply_len);
	if (!out) {
		log_err("open_memstream: %s", strerror(errno));
		close(fd);
		return 1;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, out);
	if (n < 0) {
		log_err("%s: read: %s", path, strerror(errno));
		error = true;
	}
	close(fd);
	if (fclose(out)) {
		log_err("reply: %s", strerror(errno));
		free(reply);
		return 1;
	}
	if (reply_len >= 6 && !memcmp(reply, "error:", 6))
		error = true;
	if (json && !error)
		error = print_json(reply) != 0;
	else
		fwrite(reply, 1, reply_len, error ? stderr : stdout);
	free(reply);
	return error ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "socket", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)] = "";
	uint64_t port = SPARE_DEFAULT_PORT;
	bool json = false;
	int opt;

	spare_log_init(argv[0], SPARE_LOG_INFO);
	if (argc >= 2 && !strcmp(argv[1], "gen-key"))
		return sparectl_gen_key(argc - 1, argv + 1);
	if (argc < 2 || strcmp(argv[1], "donor")) {
		usage(argc >= 2 && !strcmp(argv[1], "-h") ? stdout : stderr, argv[0]);
		return argc >= 2 && !strcmp(argv[1], "-h") ? 0 : 2;
	}
	argc--;
	argv++;
	while ((opt = getopt_long(argc, argv, "+p:S:jh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (spare_parse_u64(optarg, 1, 65535, &port)) {
				log_err("--port %s: not a port", optarg);
				return 2;
			}
			break;
		case 'S':
			snprintf(path, sizeof(path), "%s", optarg);
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout, argv[-1]);
			return 0;
		default:
			usage(stderr, argv[-1]);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr, argv[-1]);
		return 2;
	}
	if (!path[0])
		snprintf(path, sizeof(path), "/run/spare/spared-%u.sock",
			 (unsigned int)port);
	return donor_cmd(path, argc - optind, argv + optind, json);
}
