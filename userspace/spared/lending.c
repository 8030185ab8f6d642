// SPDX-License-Identifier: GPL-2.0
/*
 * spared lends what is idle: the daemon side of lend.h. Reads MemAvailable
 * (and the donor cgroup's limit), waits on a PSI trigger with POLLPRI, looks
 * again on a slow periodic tick, and acts on lend_decide(): grows the pool,
 * retires unlent slots (unmapping their memory), or starts a batch eviction
 * (sample E+E' lent slabs, ACTIVITY_QUERY them, evict the E least active
 * once every client answered or activity-timeout passed).
 * See Documentation/spared.md, "Lending what is idle".
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "slabmem.h"
#include "spared.h"
#include "spare_log.h"
#include "spare_util.h"

#define MEMINFO_PATH	"/proc/meminfo"
#define PSI_HOST_PATH	"/proc/pressure/memory"

/* Read a small text file into @buf; 0 or -1 (errno). */
static int read_text(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/* Memory the host (or the donor cgroup, if tighter) can still use. */
static int read_available(struct spared *d, uint64_t *avail)
{
	struct spared_lend *l = &d->lend;
	char buf[8192], path[320];
	uint64_t max, cur;

	if (read_text(MEMINFO_PATH, buf, sizeof(buf)) ||
	    lend_parse_meminfo(buf, avail)) {
		if (!l->meminfo_warned)
			log_err("%s: no MemAvailable; lending holds still", MEMINFO_PATH);
		l->meminfo_warned = true;
		return -1;
	}
	if (!d->cfg.cgroup[0])
		return 0;
	snprintf(path, sizeof(path), "%s/memory.max", d->cfg.cgroup);
	if (read_text(path, buf, sizeof(buf)) || !strncmp(buf, "max", 3) ||
	    sscanf(buf, "%" SCNu64, &max) != 1)
		return 0;	/* no limit: the host's figure stands */
	snprintf(path, sizeof(path), "%s/memory.current", d->cfg.cgroup);
	if (read_text(path, buf, sizeof(buf)) ||
	    sscanf(buf, "%" SCNu64, &cur) != 1)
		return 0;
	if (max - (cur < max ? cur : max) < *avail)
		*avail = max - (cur < max ? cur : max);
	return 0;
}

static void read_psi(struct spared *d, struct lend_input *in)
{
	struct spared_lend *l = &d->lend;
	char buf[512];

	in->psi_valid = false;
	if (!l->psi_path[0])
		return;
	if (read_text(l->psi_path, buf, sizeof(buf)) ||
	    lend_parse_psi(buf, &in->psi_some_avg10, &in->psi_full_avg10)) {
		if (!l->psi_read_warned)
			log_warn("%s: cannot read PSI (%s); lending on MemAvailable alone",
				 l->psi_path, strerror(errno));
		l->psi_read_warned = true;
		return;
	}
	in->psi_valid = true;
	l->psi_some = in->psi_some_avg10;
	l->psi_full = in->psi_full_avg10;
}

/* Lent slabs that may join a batch: LENT, not sampled, owner alive. */
static bool batch_candidate(const struct slab *s)
{
	return s->state == SLAB_LENT && !s->sampled;
}

static void batch_finish(struct spared *d)
{
	struct spared_lend *l = &d->lend;
	struct lend_candidate c[SPARED_LEND_MAX_SAMPLE];
	size_t n = 0, k, i;

	for (i = 0; i < d->pool.nslabs && n < SPARED_LEND_MAX_SAMPLE; i++) {
		struct slab *s = &d->pool.slabs[i];

		if (!s->sampled)
			continue;
		if (s->state == SLAB_LENT) {
			c[n].id = s->index;
			c[n].replied = s->replied;
			c[n].accesses = s->accesses;
			c[n].lent_seq = s->lent_seq;
			if (!s->replied)
				l->no_replies++;
			n++;
		}
		s->sampled = s->replied = false;
	}
	k = lend_choose_victims(c, n, l->batch_want);
	for (i = 0; i < k; i++) {
		struct slab *s = &d->pool.slabs[c[i].id];

		log_info("lend: evicting donor slab %u (%s%" PRIu64 " accesses since the last query)",
			 s->index, c[i].replied ? "" : "no reply: counted as ",
			 c[i].replied ? c[i].accesses : 0);
		if (spared_evict_slab(d, s, SPARE_EVICT_PRESSURE))
			l->evicted++;
	}
	l->batch_active = false;
	l->batch_want = l->batch_pending = 0;
	spared_arm_timer(d);
}

/* Sample E+E' lent slabs and ask their clients how active they are. */
static void batch_start(struct spared *d, unsigned int e, uint64_t now_ms)
{
	struct spared_lend *l = &d->lend;
	uint32_t idx[SPARED_LEND_MAX_SAMPLE];
	size_t ncand = 0, k, i;
	unsigned int want = e + d->cfg.evict_sample_extra;

	if (want > SPARED_LEND_MAX_SAMPLE)
		want = SPARED_LEND_MAX_SAMPLE;
	if (e > want)
		e = want;
	for (i = 0; i < d->pool.nslabs; i++)
		if (batch_candidate(&d->pool.slabs[i]))
			l->cand[ncand++] = d->pool.slabs[i].index;
	k = lend_sample(ncand, want, &l->rng, l->scratch, idx);
	l->batch_want = e;
	l->batch_pending = 0;
	l->batches++;
	for (i = 0; i < k; i++) {
		struct slab *s = &d->pool.slabs[l->cand[idx[i]]];

		s->sampled = true;
		s->replied = false;
		if (k > e && spared_query_slab(d, s))
			l->batch_pending++;
	}
	l->batch_active = true;
	l->batch_deadline_ms = now_ms + d->cfg.activity_timeout_ms;
	log_info("lend: batch eviction of %u slabs: sampled %zu of %zu lent%s",
		 e, k, ncand, k > e ? ", asking their activity" : "");
	if (!l->batch_pending)
		batch_finish(d);
	else
		spared_arm_timer(d);
}

static void spared_lend_activity_reply(struct spared *d)
{
	struct spared_lend *l = &d->lend;

	if (!l->batch_active || !l->batch_pending)
		return;
	if (--l->batch_pending == 0)
		batch_finish(d);
}

static uint64_t spared_lend_next_timer(struct spared *d)
{
	return d->lend.batch_active ? d->lend.batch_deadline_ms : 0;
}

static void spared_lend_timer_work(struct spared *d, uint64_t now_ms)
{
	struct spared_lend *l = &d->lend;

	if (l->batch_active && now_ms >= l->batch_deadline_ms) {
		log_info("lend: %u activity replies missing after %u ms; choosing without them",
			 l->batch_pending, d->cfg.activity_timeout_ms);
		batch_finish(d);
	}
}

/* Unmap the memory of FREE slots above the capacity. */
static unsigned int retire_free(struct spared *d)
{
	unsigned int n = 0;
	struct slab *s;

	while ((s = slab_pool_retire_free(&d->pool))) {
		slab_mem_free(s->mem, s->memfd, d->pool.slab_size);
		s->mem = NULL;
		n++;
	}
	return n;
}

/* One look at the host, and the action lend_decide() asks for. */
static void lend_tick(struct spared *d, uint64_t now_ms)
{
	struct spared_lend *l = &d->lend;
	struct lend_input in = { .now_ms = now_ms };
	struct lend_decision dec;
	unsigned int in_service = slab_pool_in_service(&d->pool), newcap;
	char a[32], b[32];

	if (read_available(d, &in.mem_available))
		return;
	l->mem_available = in.mem_available;
	read_psi(d, &in);
	in.psi_events = l->psi_events;
	l->psi_events = 0;
	in.cap = in_service;
	in.lent = slab_pool_lent(&d->pool);
	in.evicting = d->pool.nevicting + (l->batch_active ? l->batch_want : 0);
	l->ticks++;
	dec = lend_decide(&l->params, &l->st, &in);
	if (dec.pressure)
		l->pressure_readings++;
	switch (dec.action) {
	case LEND_HOLD:
		return;
	case LEND_GROW:
		slab_pool_set_cap(&d->pool, in_service + dec.grow);
		log_info("lend: idle memory (MemAvailable %s): lending %u slabs, %u more",
			 spare_fmt_size(in.mem_available, a, sizeof(a)),
			 slab_pool_in_service(&d->pool), dec.grow);
		return;
	case LEND_RELEASE:
	case LEND_EVICT:
		break;
	}
	/* One batch at a time: while one is under way (its slabs already
	 * counted as evicting), this reading only releases. */
	if (l->batch_active)
		dec.evict = 0;
	newcap = d->pool.cap < in_service ? d->pool.cap : in_service;
	newcap -= dec.release + dec.evict < newcap ? dec.release + dec.evict : newcap;
	slab_pool_set_cap(&d->pool, newcap);
	retire_free(d);
	log_info("lend: %s (MemAvailable %s, headroom %s, PSI some %.2f full %.2f%s): capacity %u, releasing %u unlent, evicting %u",
		 dec.pressure ? "pressure" : "less idle memory",
		 spare_fmt_size(in.mem_available, a, sizeof(a)),
		 spare_fmt_size(d->cfg.headroom, b, sizeof(b)),
		 in.psi_some_avg10, in.psi_full_avg10,
		 in.psi_valid ? "" : ", no PSI", newcap, dec.release, dec.evict);
	if (dec.evict)
		batch_start(d, dec.evict, now_ms);
}

static void tick_handler(struct spared *d, struct ev_source *src,
			 uint32_t events)
{
	uint64_t expirations;

	if (read(src->fd, &expirations, sizeof(expirations)) < 0 &&
	    errno != EAGAIN)
		log_warn("lend timerfd read: %s", strerror(errno));
	lend_tick(d, spare_now_ms());
}

static void psi_handler(struct spared *d, struct ev_source *src,
			uint32_t events)
{
	struct spared_lend *l = &d->lend;

	if (events & EPOLLERR) {
		/* The cgroup went away (or the trigger broke): stop waiting
		 * on it, keep the periodic look. */
		log_warn("lend: PSI trigger on %s failed; watching on the %u ms tick only",
			 l->psi_path, d->cfg.lend_interval_ms);
		spared_epoll_del(d, src);
		close(src->fd);
		src->fd = -1;
		return;
	}
	if (!(events & EPOLLPRI))
		return;
	l->psi_events++;
	l->psi_events_total++;
	log_dbg("lend: PSI trigger fired");
	lend_tick(d, spare_now_ms());
}

/* A PSI trigger: "some <stall us> <window us>" written to the pressure
 * file, then POLLPRI when the stall is exceeded within a window. */
static void setup_psi(struct spared *d)
{
	struct spared_lend *l = &d->lend;
	struct epoll_event ev = { .events = EPOLLPRI, .data.ptr = &l->psi_src };
	char trig[64];
	int fd;

	if (d->cfg.cgroup[0])
		snprintf(l->psi_path, sizeof(l->psi_path), "%s/memory.pressure",
			 d->cfg.cgroup);
	else
		snprintf(l->psi_path, sizeof(l->psi_path), "%s", PSI_HOST_PATH);
	fd = open(l->psi_path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		log_warn("lend: no PSI (%s: %s): lending on MemAvailable alone",
			 l->psi_path, strerror(errno));
		l->psi_path[0] = '\0';
		return;
	}
	snprintf(trig, sizeof(trig), "some %u %u",
		 d->cfg.psi_stall_ms * 1000, d->cfg.psi_window_ms * 1000);
	if (write(fd, trig, strlen(trig) + 1) < 0) {
		log_warn("lend: cannot set a PSI trigger \"%s\" on %s (%s): reading PSI every %u ms instead",
			 trig, l->psi_path, strerror(errno), d->cfg.lend_interval_ms);
		close(fd);
		return;
	}
	l->psi_src.fd = fd;
	l->psi_src.handle = psi_handler;
	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		log_warn("lend: epoll on the PSI trigger: %s", strerror(errno));
		close(fd);
		l->psi_src.fd = -1;
		return;
	}
	log_info("lend: PSI trigger \"%s\" on %s", trig, l->psi_path);
}

static const struct spared_lend_ops lend_ops = {
	.activity_reply	= spared_lend_activity_reply,
	.next_timer	= spared_lend_next_timer,
	.timer_work	= spared_lend_timer_work,
};

int spared_lend_start(struct spared *d)
{
	struct spared_lend *l = &d->lend;
	const struct spared_config *c = &d->cfg;
	struct itimerspec its = { 0 };
	const char *why;
	char a[32], b[32], h[32];

	l->psi_src.fd = l->tick_src.fd = -1;
	if (!c->max_lend)
		return 0;
	l->enabled = true;
	l->params = (struct lend_params){
		.slab_size	= d->pool.slab_size,
		.headroom	= c->headroom,
		.grow_margin	= c->lend_grow_margin,
		.min_slabs	= (unsigned int)(c->min_lend / d->pool.slab_size),
		.max_slabs	= d->pool.nslabs,
		.psi_some_high	= c->psi_some,
		.psi_full_high	= c->psi_full,
		.psi_some_idle	= c->psi_some_idle,
		.idle_ms	= c->lend_idle_ms,
		.grow_step	= c->lend_grow_step,
		.evict_batch	= c->evict_batch,
	};
	why = lend_params_check(&l->params);
	if (why) {
		log_err("lending: %s", why);
		return -1;
	}
	l->rng.s = spare_now_ms() ^ ((uint64_t)getpid() << 32) ^ 0x5bd1e995;
	l->cand = calloc(d->pool.nslabs, sizeof(*l->cand));
	l->scratch = calloc(d->pool.nslabs, sizeof(*l->scratch));
	if (!l->cand || !l->scratch) {
		log_err("lending: out of memory");
		return -1;
	}
	setup_psi(d);
	l->tick_src.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	its.it_value.tv_sec = c->lend_interval_ms / 1000;
	its.it_value.tv_nsec = (long)(c->lend_interval_ms % 1000) * 1000000L;
	its.it_interval = its.it_value;
	if (l->tick_src.fd < 0 || timerfd_settime(l->tick_src.fd, 0, &its, NULL)) {
		log_err("lending: timerfd: %s", strerror(errno));
		return -1;
	}
	l->tick_src.handle = tick_handler;
	if (spared_epoll_add(d, &l->tick_src))
		return -1;
	d->lend_ops = &lend_ops;
	log_info("lending what is idle: %s to %s, headroom %s, %s",
		 spare_fmt_size(c->min_lend, a, sizeof(a)),
		 spare_fmt_size(c->max_lend, b, sizeof(b)),
		 spare_fmt_size(c->headroom, h, sizeof(h)),
		 d->cfg.cgroup[0] ? d->cfg.cgroup : "whole host");
	lend_tick(d, spare_now_ms());
	return 0;
}

void spared_lend_stop(struct spared *d)
{
	struct spared_lend *l = &d->lend;

	if (l->psi_src.fd >= 0)
		close(l->psi_src.fd);
	if (l->tick_src.fd >= 0)
		close(l->tick_src.fd);
	l->psi_src.fd = l->tick_src.fd = -1;
	free(l->cand);
	free(l->scratch);
	l->cand = l->scratch = NULL;
}
