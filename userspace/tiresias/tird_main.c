// SPDX-License-Identifier: GPL-2.0
/*
 * spare-tiresias: schedules a Slurm cluster with Tiresias (2D-LAS, Gittins)
 * through the libspare-sched code spare-sim replays. See tird.h,
 * Documentation/tiresias-live.md and spare-tiresias(8).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "trace_csv.h"
#include "tird_conf.h"
#include "spare_conf.h"
#include "spare_http.h"
#include "spare_log.h"
#include "spare_metrics.h"
#include "spare_notify.h"
#include "spare_util.h"
#include "tird.h"

#define BACKOFF_MAX_MS		60000

/* What a reload may change while running. */
static const char *const live_keys[] = {
	"promote", "interval", "priority-top", "priority-floor", "max-priority-updates",
	"dry-run", "log-level", NULL
};

enum src_kind { SRC_SIGNAL, SRC_PASS, SRC_HTTP, SRC_WATCHDOG };

struct src {
	enum src_kind	kind;
	int		fd;
};

struct daemon {
	struct tird_conf	cfg;
	struct tird	t;
	struct tir_gittins g;
	int64_t		*gdur;
	int		epfd;
	struct src	sig_src, pass_src, http_src, wd_src;
	struct spare_http *http;
	uint64_t	backoff_ms;	/* 0: not backing off */
	int64_t		cluster_gpus;
	bool		stopping;
};

static struct spare_cli tird_cli;
static struct spare_conf_vals running_vals;
static int main_argc;
static char **main_argv;

/* ---- metrics ---- */

static int metrics_page(void *ctx, FILE *f)
{
	struct daemon *d = ctx;
	const struct tird_stats *st = &d->t.st;
	struct spare_metrics m;

	spare_metrics_begin(&m, f, true);
	spare_metrics_process(&m, "spare-tiresias");
#define U64(name, type, help, v) spare_metrics_one_u64(&m, name, type, help, v)
	U64("spare_tiresias_passes_total", SPARE_COUNTER,
	    "Scheduling passes made on a fresh view of Slurm's jobs.", st->passes);
	U64("spare_tiresias_stale_passes_total", SPARE_COUNTER,
	    "Passes skipped because Slurm could not be read (nothing was changed).",
	    st->stale_passes);
	U64("spare_tiresias_preemptions_total", SPARE_COUNTER,
	    "Running jobs requeued for a job of a higher queue.", st->preemptions);
	U64("spare_tiresias_priority_updates_total", SPARE_COUNTER,
	    "Slurm job priorities set.", st->priority_sets);
	U64("spare_tiresias_slurm_errors_total", SPARE_COUNTER,
	    "Slurm calls that failed (reads, priority updates, requeues).", st->slurm_errors);
	U64("spare_tiresias_slurm_reachable", SPARE_GAUGE,
	    "1 if the last pass read Slurm, 0 if it could not.", d->t.stale ? 0 : 1);
	U64("spare_tiresias_jobs_ignored", SPARE_GAUGE,
	    "Jobs left to Slurm's own policy (no GPU request, no finite time limit).",
	    st->jobs_ignored);
	U64("spare_tiresias_priority_updates_deferred", SPARE_GAUGE,
	    "Priority updates the last pass left to later passes (max-priority-updates).",
	    st->priority_deferred);
	spare_metrics_family(&m, "spare_tiresias_jobs", SPARE_GAUGE,
			     "Jobs Tiresias schedules, by 2D-LAS queue and Slurm state, at the last pass.");
	for (int q = 0; q < d->t.cfg.tir.nqueues; q++) {
		char qs[8];
		const char *run[] = { "queue", qs, "state", "running", NULL };
		const char *pend[] = { "queue", qs, "state", "pending", NULL };

		snprintf(qs, sizeof(qs), "%d", q);
		spare_metrics_u64(&m, pend, st->jobs_queue[q] - st->jobs_running[q]);
		spare_metrics_u64(&m, run, st->jobs_running[q]);
	}
	spare_metrics_one_f3(&m, "spare_tiresias_pass_cpu_seconds", SPARE_GAUGE,
			     "CPU time of the last pass (reading Slurm, deciding, acting).",
			     (double)st->last_pass_ns / 1e9);
#undef U64
	return spare_metrics_end(&m);
}

/* ---- set-up ---- */

static int load_gittins(struct daemon *d)
{
	const struct tird_conf *c = &d->cfg;
	struct sim_errs e = { .out = stderr, .file = c->gittins_dist };
	FILE *f;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	if (!c->gittins_dist[0]) {
		log_err("schedule dlas-gpu-gittins needs gittins-dist");
		return -1;
	}
	f = fopen(c->gittins_dist, "re");
	if (!f) {
		log_err("gittins-dist %s: %s", c->gittins_dist, strerror(errno));
		return -1;
	}
	for (;;) {
		char *nb = realloc(buf, len + 65536 + 1);
		size_t got;

		if (!nb) {
			free(buf);
			fclose(f);
			return -1;
		}
		buf = nb;
		got = fread(buf + len, 1, 65536, f);
		len += got;
		if (got < 65536)
			break;
	}
	fclose(f);
	ret = sim_parse_durations(buf, len, &d->gdur, &d->g.n, &e);
	free(buf);
	if (ret)
		return -1;
	d->g.dur = d->gdur;
	d->g.delta = c->gittins_delta;
	d->g.faithful = false;
	d->g.table = calloc(d->g.n + 1, sizeof(double));
	if (!d->g.table || tir_gittins_init(&d->g)) {
		log_err("gittins-dist %s: cannot build the Gittins table", c->gittins_dist);
		return -1;
	}
	return 0;
}

/* The policy part of the config, into the pass's. */
static void apply_cfg(struct daemon *d)
{
	const struct tird_conf *c = &d->cfg;
	struct tird_cfg *t = &d->t.cfg;

	tir_config_init(&t->tir, c->schedule, 1);
	t->tir.nqueues = c->limits.nqueues;
	memcpy(t->tir.limit, c->limits.limit, sizeof(t->tir.limit));
	t->tir.promote = c->promote;
	t->tir.gittins = tir_schedule_needs_gittins(c->schedule) ? &d->g : NULL;
	t->gpus = c->gpus;
	t->time_scale = c->time_scale;
	t->priority_top = c->priority_top;
	t->priority_floor = c->priority_floor;
	t->max_updates = c->max_updates;
	t->dry_run = c->dry_run;
	t->dry_out = stdout;
}

static int add_src(struct daemon *d, struct src *s)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = s };

	if (epoll_ctl(d->epfd, EPOLL_CTL_ADD, s->fd, &ev)) {
		log_err("epoll_ctl: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int arm(int fd, uint64_t ms, bool repeat)
{
	struct itimerspec its = {
		.it_value.tv_sec = (time_t)(ms / 1000),
		.it_value.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	if (!ms)
		its.it_value.tv_nsec = 1;
	if (repeat)
		its.it_interval = its.it_value;
	return timerfd_settime(fd, 0, &its, NULL);
}

static int timer(struct src *s, enum src_kind kind)
{
	s->kind = kind;
	s->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (s->fd < 0) {
		log_err("timerfd: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int setup(struct daemon *d)
{
	uint64_t wd = spare_notify_watchdog_ms();
	char why[512];
	sigset_t mask;

	d->epfd = d->sig_src.fd = d->pass_src.fd = d->http_src.fd = d->wd_src.fd = -1;
	if (tir_schedule_needs_gittins(d->cfg.schedule) && load_gittins(d))
		return -1;
	apply_cfg(d);
	if (tird_state_load(&d->t.led, d->cfg.state_file, d->t.cfg.tir.nqueues, why, sizeof(why))) {
		log_err("state-file %s (move it away to start with an empty ledger)", why);
		return -1;
	}
	log_info("%s: %zu jobs in the ledger from %s", tir_schedule_name(d->cfg.schedule),
		 d->t.led.n, d->cfg.state_file);
	/* libslurm exits on a config it cannot read: say which first */
	if (d->cfg.slurm_conf[0] && access(d->cfg.slurm_conf, R_OK)) {
		log_err("slurm-conf %s: %s", d->cfg.slurm_conf, strerror(errno));
		return -1;
	}
	if (!d->cfg.slurm_conf[0] && getenv("SLURM_CONF") &&
	    access(getenv("SLURM_CONF"), R_OK)) {
		log_err("SLURM_CONF %s: %s", getenv("SLURM_CONF"), strerror(errno));
		return -1;
	}
	tird_slurm_ops(&d->t.ops, d->cfg.slurm_conf, d->cfg.priority_floor);
	if (d->cfg.once)
		return 0;
	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (d->epfd < 0) {
		log_err("epoll_create1: %s", strerror(errno));
		return -1;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	d->sig_src.kind = SRC_SIGNAL;
	d->sig_src.fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->sig_src.fd < 0 || add_src(d, &d->sig_src))
		return -1;
	if (timer(&d->pass_src, SRC_PASS) || arm(d->pass_src.fd, 0, false) ||
	    add_src(d, &d->pass_src))
		return -1;
	if (d->cfg.metrics_listen[0]) {
		d->http = spare_http_start(d->cfg.metrics_listen, metrics_page, d);
		if (!d->http)
			return -1;
		d->http_src.kind = SRC_HTTP;
		d->http_src.fd = spare_http_fd(d->http);
		if (add_src(d, &d->http_src))
			return -1;
	}
	if (wd && (timer(&d->wd_src, SRC_WATCHDOG) || arm(d->wd_src.fd, wd, true) ||
		   add_src(d, &d->wd_src)))
		return -1;
	return 0;
}

/* ---- passes ---- */

static int64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One pass; returns the delay before the next one, in ms. */
static uint64_t pass(struct daemon *d)
{
	uint64_t every = (uint64_t)llround(d->cfg.interval * 1000.0);
	int ret = tird_pass(&d->t, wall_ms());

	if (ret == 1) {
		d->backoff_ms = d->backoff_ms ? d->backoff_ms * 2 : every;
		if (d->backoff_ms > BACKOFF_MAX_MS)
			d->backoff_ms = every > BACKOFF_MAX_MS ? every : BACKOFF_MAX_MS;
		spare_notify_status("Slurm unreachable: retrying in %" PRIu64 " ms", d->backoff_ms);
		return d->backoff_ms;
	}
	d->backoff_ms = 0;
	if (ret == 0 && !d->cfg.dry_run)
		tird_state_save(&d->t.led, d->cfg.state_file);
	spare_notify_status("%" PRIu64 " passes, %zu jobs scheduled, %" PRIu64 " preemptions",
			    d->t.st.passes, d->t.led.n, d->t.st.preemptions);
	return every;
}

/* ---- SIGHUP ---- */

static void reload(struct daemon *d)
{
	static struct tird_conf nc;
	struct spare_cli cli = tird_cli;
	struct spare_conf_vals nv = { 0 };

	spare_notify_reloading();
	log_info("SIGHUP: reading the settings again");
	cli.ctx = &nc;
	cli.vals = &nv;
	if (spare_cli_reload(&cli, main_argc, main_argv, &running_vals, tird_cfg_reset) ||
	    tird_cfg_check(&nc)) {
		spare_conf_vals_free(&nv);
		log_err("SIGHUP: reload refused: still running on the previous settings");
		spare_notify_ready("scheduling (last reload refused)");
		return;
	}
	spare_log_set_level((enum spare_log_level)nc.log_level);
	d->cfg = nc;
	apply_cfg(d);
	spare_cli_log_changes(&cli, &running_vals);
	spare_conf_vals_free(&running_vals);
	running_vals = nv;
	spare_notify_ready("scheduling with %s", tir_schedule_name(d->cfg.schedule));
}

static void run(struct daemon *d)
{
	struct epoll_event ev[8];

	while (!d->stopping) {
		int n = epoll_wait(d->epfd, ev, 8, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			log_err("epoll_wait: %s", strerror(errno));
			return;
		}
		for (int i = 0; i < n; i++) {
			struct src *s = ev[i].data.ptr;
			struct signalfd_siginfo si;
			uint64_t x;

			switch (s->kind) {
			case SRC_SIGNAL:
				if (read(s->fd, &si, sizeof(si)) != (ssize_t)sizeof(si))
					break;
				if (si.ssi_signo == SIGHUP) {
					reload(d);
				} else {
					log_info("%s: stopping", strsignal((int)si.ssi_signo));
					spare_notify_stopping();
					d->stopping = true;
				}
				break;
			case SRC_PASS:
				if (read(s->fd, &x, sizeof(x)) < 0 && errno != EAGAIN)
					log_warn("pass timerfd: %s", strerror(errno));
				if (arm(s->fd, pass(d), false))
					log_err("pass timerfd: %s", strerror(errno));
				break;
			case SRC_HTTP:
				spare_http_run(d->http);
				break;
			case SRC_WATCHDOG:
				if (read(s->fd, &x, sizeof(x)) < 0 && errno != EAGAIN)
					log_warn("watchdog timerfd: %s", strerror(errno));
				spare_notify_watchdog();
				break;
			}
		}
	}
}

static void teardown(struct daemon *d)
{
	spare_http_stop(d->http);
	for (struct src *s = &d->sig_src; s <= &d->wd_src; s++)
		if (s->fd >= 0)
			close(s->fd);
	if (d->epfd >= 0)
		close(d->epfd);
	tird_free(&d->t);
	tird_slurm_fini();
	free(d->gdur);
	free(d->g.table);
}

int main(int argc, char **argv)
{
	static struct daemon d;
	struct spare_cli cli = {
		.usage = "Schedule a Slurm cluster's GPU jobs with Tiresias (2D-LAS, Gittins):\n"
			 "set their priorities and requeue the jobs it preempts.\n",
		.epilog = "\nSIGHUP reads the settings again; SIGTERM/SIGINT stop.\n"
			  "Attained service is kept in state-file across requeues and restarts.\n",
		.default_conf = TIRD_DEFAULT_CONF,
		.settings = tird_settings,
		.nsettings = tird_nsettings,
		.set = tird_cfg_set,
		.ctx = &d.cfg,
		.vals = &running_vals,
		.live_keys = live_keys,
	};
	int ret;

	spare_log_init("spare-tiresias", SPARE_LOG_INFO);
	tird_cfg_reset(&d.cfg);
	ret = spare_cli_configure(&cli, argc, argv);
	if (ret) {
		spare_conf_vals_free(&running_vals);
		return ret > 0 ? 0 : 2;
	}
	spare_log_set_level((enum spare_log_level)d.cfg.log_level);
	if (tird_cfg_check(&d.cfg)) {
		spare_conf_vals_free(&running_vals);
		return 2;
	}
	tird_cli = cli;
	main_argc = argc;
	main_argv = argv;
	if (setup(&d)) {
		teardown(&d);
		spare_conf_vals_free(&running_vals);
		return 1;
	}
	if (d.cfg.once) {
		ret = tird_pass(&d.t, wall_ms());
		if (ret == 0 && !d.cfg.dry_run && tird_state_save(&d.t.led, d.cfg.state_file))
			ret = -1;
		if (ret == 1)
			log_err("Slurm could not be read: nothing done");
		teardown(&d);
		spare_conf_vals_free(&running_vals);
		return ret ? 1 : 0;
	}
	spare_notify_ready("scheduling with %s", tir_schedule_name(d.cfg.schedule));
	run(&d);
	teardown(&d);
	spare_conf_vals_free(&running_vals);
	return 0;
}
