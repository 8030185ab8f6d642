// SPDX-License-Identifier: GPL-2.0
/*
 * spared's control socket: a unix stream socket that takes one text command
 * per connection and answers with text, then closes.
 *
 *   status        counters, "name value" (metrics.c; Prometheus text
 *                 without HELP/TYPE)
 *   slabs         one line per slab
 *   evict N       ask N lent slabs back (EVICT, reason admin)
 *   evict all     ask every lent slab back
 *   query         send ACTIVITY_QUERY for every lent slab
 *
 * `sparectl donor <command>` is the client; `socat - UNIX:<path>` works too.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include "spared.h"
#include "spare_fdlimit.h"
#include "spare_log.h"
#include "spare_metrics.h"
#include "spare_util.h"

#define CTL_MAX_CLIENTS	8
#define CTL_LINE	256

struct ctl_client {
	struct ev_source src;
	size_t		 len;
	char		 line[CTL_LINE];
	uint64_t	 opened_ms;
	bool		 used;
};

static struct ctl_client ctl_clients[CTL_MAX_CLIENTS];

/* accept() out of descriptors: the listener leaves the epoll set and this
 * one-shot timer (made at start, when descriptors are there) brings it back */
static struct spare_accept_gate ctl_gate = { .name = "control socket" };
static struct ev_source ctl_backoff_src = { .fd = -1 };
static struct ev_source *ctl_listen_src;

void spared_print_status(struct spared *d, FILE *f, bool slabs)
{
	struct spare_metrics m;
	unsigned int i;

	spare_metrics_begin(&m, f, false);
	spared_metrics(d, &m);
	spare_metrics_end(&m);
	if (!slabs)
		return;
	fprintf(f, "%-6s %-9s %-28s %-10s %s\n", "SLAB", "STATE", "CLIENT",
		"CLIENT_ID", "ACCESSES");
	for (i = 0; i < d->pool.nslabs; i++) {
		const struct slab *s = &d->pool.slabs[i];
		const struct session *sess = s->owner;

		if (!slab_held(s)) {
			fprintf(f, "%-6u %-9s %-28s %-10s %s\n", s->index,
				slab_state_name(s->state), "-", "-", "-");
			continue;
		}
		fprintf(f, "%-6u %-9s %-28s %-10u %" PRIu64 "\n", s->index,
			slab_state_name(s->state), sess->name, s->client_id,
			s->accesses);
	}
}

static void run_command(struct spared *d, char *line, FILE *out)
{
	char *cmd, *arg, *save = NULL;
	uint64_t n;

	cmd = strtok_r(line, " \t\r\n", &save);
	arg = strtok_r(NULL, " \t\r\n", &save);
	if (!cmd) {
		fprintf(out, "error: empty command\n");
		return;
	}
	if (!strcmp(cmd, "status")) {
		spared_print_status(d, out, false);
	} else if (!strcmp(cmd, "slabs")) {
		spared_print_status(d, out, true);
	} else if (!strcmp(cmd, "evict")) {
		if (arg && !strcmp(arg, "all"))
			n = UINT32_MAX;
		else if (!arg || spare_parse_u64(arg, 1, UINT32_MAX, &n)) {
			fprintf(out, "error: usage: evict N|all\n");
			return;
		}
		fprintf(out, "evicting %u\n",
			spared_evict(d, (unsigned int)n, SPARE_EVICT_ADMIN));
	} else if (!strcmp(cmd, "query")) {
		fprintf(out, "queried %u\n", spared_query_activity(d));
	} else if (!strcmp(cmd, "help")) {
		fprintf(out, "commands: status, slabs, evict N|all, query\n");
	} else {
		fprintf(out, "error: unknown command '%s' (try help)\n", cmd);
	}
}

static void ctl_client_close(struct spared *d, struct ctl_client *c)
{
	spared_epoll_del(d, &c->src);
	close(c->src.fd);
	c->used = false;
}

static void ctl_reply(struct spared *d, struct ctl_client *c)
{
	struct timeval tv = { .tv_sec = 1 };
	char *buf = NULL;
	size_t len = 0, off = 0;
	FILE *out;
	ssize_t n;

	out = open_memstream(&buf, &len);
	if (!out) {
		log_warn("control: open_memstream: %s", strerror(errno));
		return;
	}
	c->line[c->len] = '\0';
	run_command(d, c->line, out);
	if (fclose(out)) {
		log_warn("control: reply: %s", strerror(errno));
		free(buf);
		return;
	}
	/* Replies are small; a reader that stalls gets a second, not the loop. */
	if (fcntl(c->src.fd, F_SETFL, 0) ||
	    setsockopt(c->src.fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		log_warn("control: socket options: %s", strerror(errno));
	while (off < len) {
		n = write(c->src.fd, buf + off, len - off);
		if (n <= 0) {
			log_warn("control: reply not delivered: %s",
				 n < 0 ? strerror(errno) : "short write");
			break;
		}
		off += (size_t)n;
	}
	free(buf);
}

static void ctl_client_handler(struct spared *d, struct ev_source *src,
			       uint32_t events)
{
	struct ctl_client *c = (struct ctl_client *)src;
	ssize_t n;

	n = read(src->fd, c->line + c->len, sizeof(c->line) - 1 - c->len);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return;
		ctl_client_close(d, c);
		return;
	}
	c->len += (size_t)n;
	if (n == 0 || memchr(c->line, '\n', c->len) ||
	    c->len == sizeof(c->line) - 1)
		ctl_reply(d, c);
	else
		return;
	ctl_client_close(d, c);
}

static void ctl_backoff_handler(struct spared *d, struct ev_source *src,
				uint32_t events)
{
	uint64_t x;

	if (read(src->fd, &x, sizeof(x)) < 0 && errno != EAGAIN)
		log_warn("control: back-off timerfd read: %s", strerror(errno));
	if (spare_accept_resume(&ctl_gate, spare_now_ms()) && ctl_listen_src &&
	    spared_epoll_add(d, ctl_listen_src))
		log_warn("control: the control socket is not polled any more");
}

static void ctl_accept_pause(struct spared *d, struct ev_source *src)
{
	struct itimerspec its = {
		.it_value.tv_nsec = SPARE_ACCEPT_BACKOFF_MS * 1000000L,
	};

	if (ctl_backoff_src.fd < 0 ||
	    timerfd_settime(ctl_backoff_src.fd, 0, &its, NULL))
		return;		/* no timer: keep polling rather than go deaf */
	spared_epoll_del(d, src);
	ctl_listen_src = src;
}

static void ctl_listen_handler(struct spared *d, struct ev_source *src,
			       uint32_t events)
{
	struct ctl_client *c = NULL;
	unsigned int i;
	int fd;

	fd = accept4(src->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0) {
		if (spare_accept_failed(&ctl_gate, errno, spare_now_ms()))
			ctl_accept_pause(d, src);
		return;
	}
	for (i = 0; i < CTL_MAX_CLIENTS && !c; i++)
		if (!ctl_clients[i].used)
			c = &ctl_clients[i];
	if (!c) {
		/* All slots held by connections that never finished their
		 * line: the oldest makes room, so the socket never jams. */
		c = &ctl_clients[0];
		for (i = 1; i < CTL_MAX_CLIENTS; i++)
			if (ctl_clients[i].opened_ms < c->opened_ms)
				c = &ctl_clients[i];
		log_warn("control: %u connections without a command; closing the oldest",
			 CTL_MAX_CLIENTS);
		ctl_client_close(d, c);
	}
	memset(c, 0, sizeof(*c));
	c->opened_ms = spare_now_ms();
	c->src.fd = fd;
	c->src.handle = ctl_client_handler;
	if (spared_epoll_add(d, &c->src)) {
		close(fd);
		return;
	}
	c->used = true;
}

int spared_ctl_start(struct spared *d)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[sizeof(sa.sun_path)], *slash;
	int fd;

	strcpy(sa.sun_path, d->cfg.ctl_path);
	strcpy(dir, d->cfg.ctl_path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST) {
			log_err("control socket directory %s: %s", dir,
				strerror(errno));
			return -1;
		}
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		log_err("control socket: %s", strerror(errno));
		return -1;
	}
	/* Our rdma_cm port is bound, so no live spared owns this path. */
	if (unlink(sa.sun_path) && errno != ENOENT)
		log_warn("control socket %s: unlink: %s", sa.sun_path,
			 strerror(errno));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    chmod(sa.sun_path, 0600) || listen(fd, 8)) {
		log_err("control socket %s: %s", sa.sun_path, strerror(errno));
		close(fd);
		return -1;
	}
	d->ctl_src.fd = fd;
	d->ctl_src.handle = ctl_listen_handler;
	if (spared_epoll_add(d, &d->ctl_src)) {
		close(fd);
		d->ctl_src.fd = -1;
		return -1;
	}
	ctl_backoff_src.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	ctl_backoff_src.handle = ctl_backoff_handler;
	if (ctl_backoff_src.fd < 0 || spared_epoll_add(d, &ctl_backoff_src)) {
		log_err("control socket back-off timer: %s", strerror(errno));
		return -1;
	}
	return 0;
}

void spared_ctl_stop(struct spared *d)
{
	unsigned int i;

	for (i = 0; i < CTL_MAX_CLIENTS; i++)
		if (ctl_clients[i].used)
			ctl_client_close(d, &ctl_clients[i]);
	if (ctl_backoff_src.fd >= 0) {
		spared_epoll_del(d, &ctl_backoff_src);
		close(ctl_backoff_src.fd);
		ctl_backoff_src.fd = -1;
	}
	if (d->ctl_src.fd < 0)
		return;
	if (!ctl_gate.resume_ms)	/* a paused listener is not in the set */
		spared_epoll_del(d, &d->ctl_src);
	close(d->ctl_src.fd);
	d->ctl_src.fd = -1;
	if (unlink(d->cfg.ctl_path) && errno != ENOENT)
		log_warn("control socket %s: unlink: %s", d->cfg.ctl_path,
			 strerror(errno));
}
