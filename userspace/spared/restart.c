// SPDX-License-Identifier: GPL-2.0
/*
 * Restarting for an upgrade (SIGUSR2) without losing held slabs
 * (Documentation/spared.md, "Restarting for an upgrade"; protocol.md,
 * "Donor restart").
 *
 * On SIGUSR2 spared stops as on SIGTERM, except that every session that
 * asked for a hold (HELLO F_HOLD) is held as if its client had vanished.
 * The held slabs' memfds and a table of who holds them (keep.h) are then
 * handed to the binary now installed at spared's path, which spared execs
 * in its own place: same PID, same arguments, same environment. The fds
 * travel as systemd passes a service's stored fds (LISTEN_FDS,
 * LISTEN_FDNAMES, sd_listen_fds_with_names()), so that the new image
 * reads them the one way whoever passed them. The new image parks a held
 * session per table entry, with the same identity, token and hold
 * deadline; the client's next session resumes them (HELLO F_RESUME) and
 * gets each slab back with its contents (MAPPED F_KEPT).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>

#include "keep.h"
#include "slabmem.h"
#include "spare_log.h"
#include "spare_notify.h"
#include "spare_util.h"
#include "spared.h"

#define SLAB_FD_PREFIX	"slab-"

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void handoff_add(struct spared_handoff *h, int fd, const char *name)
{
	int dup_fd;

	if (h->n == SPARED_HANDOFF_MAX) {
		log_warn("restart: more than %u fds to hand over; %s is dropped",
			 SPARED_HANDOFF_MAX, name);
		return;
	}
	dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (dup_fd < 0) {
		log_warn("restart: dup of %s: %s; it is dropped", name,
			 strerror(errno));
		return;
	}
	h->fd[h->n] = dup_fd;
	snprintf(h->name[h->n], sizeof(h->name[h->n]), "%s", name);
	h->n++;
}

/* A name the table can carry: no blank, no separator of LISTEN_FDNAMES. */
static bool plain_word(const char *s)
{
	return !strpbrk(s, " \t\n:");
}

int spared_keep_save(struct spared *d)
{
	struct spared_handoff *out = &d->handoff;
	struct keep_table t = { .slab_size = d->pool.slab_size };
	uint64_t now_ms = spare_now_ms(), wall = (uint64_t)time(NULL);
	char *text = NULL, name[32];
	size_t len = 0;
	unsigned int nslabs = 0;
	struct session *h;
	FILE *f;
	int tfd = -1;

	t.held = calloc(SPARED_KEEP_MAX_HELD, sizeof(*t.held));
	t.slab = calloc(d->pool.nslabs, sizeof(*t.slab));
	if (!t.held || !t.slab) {
		log_err("restart: out of memory for the table of held slabs; they are lost");
		goto fail;
	}
	for (h = d->held; h && t.nheld < SPARED_KEEP_MAX_HELD; h = h->next) {
		struct keep_held *k = &t.held[t.nheld];
		struct slab *s;
		unsigned int n = 0;

		if (!plain_word(h->client) || !plain_word(h->owner) ||
		    !plain_word(h->host) || !h->owner[0] || !h->resume_token) {
			log_warn("client %s: its identity cannot be written down: its held slabs are not kept",
				 h->name);
			continue;
		}
		memcpy(k->uuid, h->uuid, sizeof(k->uuid));
		snprintf(k->client, sizeof(k->client), "%s", h->client);
		snprintf(k->owner, sizeof(k->owner), "%s", h->owner);
		snprintf(k->host, sizeof(k->host), "%s", h->host);
		k->token = h->resume_token;
		k->until_s = wall + (h->hold_until_ms > now_ms ?
				     (h->hold_until_ms - now_ms + 999) / 1000 : 0);
		for (s = slab_pool_next_owned(&d->pool, h, NULL); s;
		     s = slab_pool_next_owned(&d->pool, h, s)) {
			if (!s->kept || !s->mem)
				continue;
			snprintf(name, sizeof(name), SLAB_FD_PREFIX "%u", s->index);
			handoff_add(out, s->memfd, name);
			if (!out->n || strcmp(out->name[out->n - 1], name))
				continue;	/* not handed over: not listed */
			t.slab[t.nslabs].index = s->index;
			t.slab[t.nslabs].held = t.nheld;
			t.slab[t.nslabs].id = s->client_id;
			t.nslabs++;
			n++;
		}
		if (n)
			t.nheld++;
		nslabs += n;
	}
	f = open_memstream(&text, &len);
	if (!f || keep_table_write(f, &t)) {
		log_err("restart: cannot write the table of held slabs: %s; they are lost",
			strerror(errno));
		if (f)
			fclose(f);
		goto fail;
	}
	fclose(f);
	tfd = memfd_create(SPARED_KEEP_TABLE_NAME, MFD_CLOEXEC);
	if (tfd < 0 || write_all(tfd, text, len)) {
		log_err("restart: the table's memfd: %s; the held slabs are lost",
			strerror(errno));
		goto fail;
	}
	handoff_add(out, tfd, SPARED_KEEP_TABLE_NAME);
	close(tfd);
	log_info("restart: handing over %u held slab(s) of %u client(s)",
		 nslabs, t.nheld);
	free(text);
	keep_table_free(&t);
	return 0;
fail:
	if (tfd >= 0)
		close(tfd);
	free(text);
	keep_table_free(&t);
	spared_handoff_close(out);
	return -1;
}

void spared_handoff_close(struct spared_handoff *h)
{
	while (h->n)
		close(h->fd[--h->n]);
}

/* The binary at the path this one was started from (after an upgrade,
 * /proc/self/exe names the replaced file, "... (deleted)"). */
static int exe_path(char *buf, size_t size)
{
	static const char deleted[] = " (deleted)";
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	size_t dl = sizeof(deleted) - 1;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if ((size_t)n > dl && !strcmp(buf + n - dl, deleted))
		buf[n - dl] = '\0';
	return 0;
}

void spared_keep_exec(struct spared *d, char **argv)
{
	struct spared_handoff *h = &d->handoff;
	char path[PATH_MAX], names[SPARED_HANDOFF_MAX * 24], num[32];
	size_t off = 0;
	unsigned int i;

	if (exe_path(path, sizeof(path))) {
		log_err("restart: /proc/self/exe: %s; exiting, the held slabs are lost",
			strerror(errno));
		goto fail;
	}
	/* Out of the way of 3..3+n-1 first, then down into place. */
	for (i = 0; i < h->n; i++) {
		int fd = fcntl(h->fd[i], F_DUPFD_CLOEXEC, 3 + (int)h->n);

		if (fd < 0) {
			log_err("restart: dup: %s; exiting, the held slabs are lost",
				strerror(errno));
			goto fail;
		}
		close(h->fd[i]);
		h->fd[i] = fd;
	}
	for (i = 0; i < h->n; i++) {
		if (dup2(h->fd[i], 3 + (int)i) < 0) {	/* dup2 clears CLOEXEC */
			log_err("restart: dup2: %s; exiting, the held slabs are lost",
				strerror(errno));
			goto fail;
		}
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s",
					i ? ":" : "", h->name[i]);
	}
	snprintf(num, sizeof(num), "%d", (int)getpid());
	setenv("LISTEN_PID", num, 1);
	snprintf(num, sizeof(num), "%u", h->n);
	setenv("LISTEN_FDS", num, 1);
	setenv("LISTEN_FDNAMES", names, 1);
	log_info("restart: exec %s", path);
	spare_notify_watchdog();	/* the teardown took time: see SIGUSR2 */
	execv(path, argv);
	log_err("restart: exec %s: %s; exiting, the held slabs are lost", path,
		strerror(errno));
fail:
	spared_handoff_close(h);
}

/* The fd named @name among the @n passed, or -1. */
static int fd_named(char **names, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return SD_LISTEN_FDS_START + i;
	return -1;
}

/* Read the whole table memfd (it is small: a line per slab). */
static char *read_table(int fd, size_t *len)
{
	struct stat st;
	char *buf;

	if (fstat(fd, &st))
		return NULL;
	if (st.st_size <= 0 || st.st_size > 64 << 20) {
		errno = EINVAL;
		return NULL;
	}
	buf = malloc((size_t)st.st_size);
	if (!buf)
		return NULL;
	if (pread(fd, buf, (size_t)st.st_size, 0) != st.st_size) {
		free(buf);
		errno = EIO;
		return NULL;
	}
	*len = (size_t)st.st_size;
	return buf;
}

static struct session *park(struct spared *d, const struct keep_held *k,
			    uint64_t now_ms, uint64_t wall)
{
	struct session *h = calloc(1, sizeof(*h));
	uint64_t left;

	if (!h)
		return NULL;
	h->d = d;
	h->serial = ++d->next_serial;
	snprintf(h->name, sizeof(h->name), "%s#%" PRIu64 "(kept)", k->host, h->serial);
	memcpy(h->uuid, k->uuid, sizeof(h->uuid));
	snprintf(h->client, sizeof(h->client), "%s", k->client);
	snprintf(h->owner, sizeof(h->owner), "%s", k->owner);
	snprintf(h->host, sizeof(h->host), "%s", k->host);
	h->resume_token = k->token;
	h->hold = true;
	h->hello_done = true;
	h->dead = true;
	h->created_ms = now_ms;
	/* the rest of its hold, never more than this image's resume-hold */
	left = k->until_s > wall ? k->until_s - wall : 0;
	if (left > d->cfg.resume_hold_s)
		left = d->cfg.resume_hold_s;
	h->hold_until_ms = now_ms + left * 1000;
	return h;
}

/* Take the slabs of table @t over: park their sessions, map the memfds. */
static void adopt(struct spared *d, const struct keep_table *t, char **names,
		  int n, unsigned int *nslabs, unsigned int *nclients)
{
	uint64_t now_ms = spare_now_ms(), wall = (uint64_t)time(NULL);
	struct session **parked;
	char name[32];
	unsigned int i;

	parked = calloc(t->nheld ? t->nheld : 1, sizeof(*parked));
	if (!parked) {
		log_err("restart: out of memory; the kept slabs are freed");
		return;
	}
	for (i = 0; i < t->nheld; i++)
		parked[i] = park(d, &t->held[i], now_ms, wall);
	for (i = 0; i < t->nslabs; i++) {
		const struct keep_slab *k = &t->slab[i];
		struct session *h = parked[k->held];
		struct slab *s;
		int fd;

		snprintf(name, sizeof(name), SLAB_FD_PREFIX "%u", k->index);
		fd = fd_named(names, n, name);
		if (fd < 0 || !h) {
			log_warn("restart: slab %u of the table %s; its copy is lost",
				 k->index, fd < 0 ? "came without its memfd" : "has no session");
			continue;
		}
		s = slab_pool_take_index(&d->pool, k->index, h, k->id);
		if (!s) {
			log_warn("restart: slab %u is not free in this pool; its copy is lost",
				 k->index);
			continue;
		}
		s->mem = slab_mem_adopt(fd, d->pool.slab_size);
		if (!s->mem) {
			log_warn("restart: slab %u: mapping its memfd: %s; its copy is lost",
				 k->index, strerror(errno));
			slab_pool_untake(&d->pool, s);
			continue;
		}
		s->memfd = fd;
		s->kept = true;
		free(names[fd - SD_LISTEN_FDS_START]);
		names[fd - SD_LISTEN_FDS_START] = NULL;	/* taken */
		(*nslabs)++;
	}
	for (i = 0; i < t->nheld; i++) {
		struct session *h = parked[i];

		if (!h)
			continue;
		if (!slab_pool_next_owned(&d->pool, h, NULL)) {
			free(h);
			continue;
		}
		h->next = d->held;
		d->held = h;
		(*nclients)++;
		log_info("client %s: slabs held for a resume, %" PRIu64 " s more (owner %s)",
			 h->name, h->hold_until_ms > now_ms ?
			 (h->hold_until_ms - now_ms) / 1000 : 0, h->owner);
	}
	free(parked);
}

int spared_keep_adopt(struct spared *d)
{
	char **names = NULL, *text = NULL;
	struct keep_table t;
	unsigned int line, nslabs = 0, nclients = 0;
	const char *why;
	size_t len = 0;
	int n, i, tfd;

	n = sd_listen_fds_with_names(1, &names);
	if (n < 0) {
		log_warn("restart: the fds handed over: %s; nothing kept", strerror(-n));
		return 0;
	}
	if (n == 0)
		return 0;
	spare_notify_watchdog();	/* a restart in place: see SIGUSR2 */
	tfd = fd_named(names, n, SPARED_KEEP_TABLE_NAME);
	if (tfd < 0) {
		log_warn("restart: %d fd(s) handed over without a table (%s); they are closed, nothing kept",
			 n, SPARED_KEEP_TABLE_NAME);
		goto out;
	}
	text = read_table(tfd, &len);
	if (!text) {
		log_warn("restart: reading the table of held slabs: %s; nothing kept",
			 strerror(errno));
		goto out;
	}
	why = keep_table_parse(text, len, d->pool.slab_size, d->pool.nslabs, &t, &line);
	if (why) {
		log_err("restart: the table of held slabs is refused: line %u: %s; nothing kept, their clients' copies are lost",
			line, why);
		goto out;
	}
	adopt(d, &t, names, n, &nslabs, &nclients);
	keep_table_free(&t);
	log_info("restart: %u slab(s) kept with their contents for %u client(s)",
		 nslabs, nclients);
	d->ctr.slabs_adopted += nslabs;
	spared_arm_timer(d);
out:
	/* Whatever was not taken over: its memory goes with the fd. */
	for (i = 0; i < n; i++) {
		if (names[i])
			close(SD_LISTEN_FDS_START + i);
		free(names[i]);
	}
	free(names);
	free(text);
	return 0;
}
