// SPDX-License-Identifier: GPL-2.0
/*
 * spared: the spare donor daemon. Options, configuration, signals and the
 * event loop. See Documentation/spared.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "broker_link.h"
#include "config.h"
#include "slabmem.h"
#include "spared.h"
#include "spare_conf.h"
#include "spare_fdlimit.h"
#include "spare_http.h"
#include "spare_log.h"
#include "spare_notify.h"
#include "spare_util.h"

static const struct spare_cli spared_cli_tmpl = {
	.usage		= "Lend this host's memory to spare clients over RDMA.\n",
	.epilog		= "\nControl socket commands: status, slabs, evict N, evict all, query.\n"
			  "SIGUSR1 evicts one slab; SIGHUP reads the settings and key files\n"
			  "again; SIGTERM/SIGINT stop cleanly.\n",
	.default_conf	= SPARED_DEFAULT_CONF,
	.settings	= spared_settings,
	.set		= spared_config_apply,
};

/* What a reload (SIGHUP) may change while clients are served. */
static const char *const live_keys[] = {
	"host-keys", "grant-key-file", "grant-public-keys", "grant-key-id", "log-level",
	"evict-deadline", "max-clients", "max-data-conns", "hello-timeout",
	"resume-hold", "activity-timeout", NULL
};

static struct spare_conf_vals running_vals;	/* what the settings are now */
static int main_argc;
static char **main_argv;

static void cfg_reset(void *ctx)
{
	memset(ctx, 0, sizeof(struct spared_config));
}

/* Cross-checks and derived values; 0, or -1 (logged). */
static int finish(struct spared_config *cfg)
{
	const char *why = spared_config_finish(cfg);

	if (why) {
		char b[32], sl[32];

		log_err("%s (budget %s, slab size %s)", why,
			spare_fmt_size(cfg->budget, b, sizeof(b)),
			spare_fmt_size(cfg->slab_size, sl, sizeof(sl)));
		return -1;
	}
	return 0;
}

/*
 * Defaults, then the config file, then the command line. 0 to run,
 * 1 if --help was printed, -1 on a bad setting (logged).
 */
static int configure(struct spared_config *cfg, int argc, char **argv)
{
	struct spare_cli cli = spared_cli_tmpl;
	int ret;

	cli.nsettings = spared_nsettings;
	cli.ctx = cfg;
	cli.vals = &running_vals;
	cli.live_keys = live_keys;
	memset(cfg, 0, sizeof(*cfg));
	ret = spare_cli_configure(&cli, argc, argv);
	if (ret)
		return ret;
	if (finish(cfg))
		return -1;
	spare_log_set_level((enum spare_log_level)cfg->log_level);
	main_argc = argc;
	main_argv = argv;
	return 0;
}

static unsigned long nofile_now(void)
{
	struct rlimit rl;

	return getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ?
	       1024 : (unsigned long)rl.rlim_cur;
}

/*
 * SIGHUP: the settings, host-keys and the grant key again, all applied or
 * none. Sessions that authenticated stay; new ones prove the new keys.
 */
static void reload(struct spared *d)
{
	static struct spared_config nc;
	struct spare_cli cli = spared_cli_tmpl;
	struct spare_conf_vals nv = { 0 };
	struct spare_host_keys hk = { 0 };
	struct spare_grant_keys gk = { 0 };
	char why[256];

	spare_notify_reloading();
	log_info("SIGHUP: reading the settings and key files again");
	cli.nsettings = spared_nsettings;
	cli.ctx = &nc;
	cli.vals = &nv;
	cli.live_keys = live_keys;
	if (spare_cli_reload(&cli, main_argc, main_argv, &running_vals, cfg_reset) ||
	    finish(&nc))
		goto refuse;
	if (nc.host_keys[0] &&
	    spare_host_keys_load(nc.host_keys, &hk, why, sizeof(why))) {
		log_err("host-keys %s", why);	/* @why names the file */
		goto refuse;
	}
	if (!(nc.grant_key_file[0] || nc.grant_public_keys[0] || nc.grant_v3) != !d->grants_on) {
		log_err("grant-public-keys, grant-key-file, grant-v3: lending against grants is turned on or off only by a restart");
		goto refuse;
	}
	if (d->grants_on && spared_grant_keys_read(&nc, &gk))
		goto refuse;
	/* the version 3 key stays the one derived at start, from the key the
	 * broker link authenticates with (both change at a restart) */
	if (d->grants_on && d->grants.keys.has_v3) {
		gk.has_v3 = true;
		memcpy(gk.v3_donor, d->grants.keys.v3_donor, sizeof(gk.v3_donor));
		memcpy(gk.v3_key, d->grants.keys.v3_key, sizeof(gk.v3_key));
	}

	/* All read: apply it all. Nothing below fails. */
	if (!nc.host_keys[0] && d->keys.n)
		log_warn("SIGHUP: no host-keys now: open mode, any host that reaches port %u can borrow memory",
			 nc.port);
	spare_host_keys_free(&d->keys);
	d->keys = hk;
	if (d->grants_on)
		spared_grants_set_keys(&d->grants, &gk);
	spare_grant_keys_wipe(&gk);
	nc.max_clients = spare_fd_conn_cap("max-clients", nc.max_clients, nofile_now());
	spare_log_set_level((enum spare_log_level)nc.log_level);
	d->cfg = nc;
	spare_cli_log_changes(&cli, &running_vals);
	spare_conf_vals_free(&running_vals);
	running_vals = nv;
	if (d->grants_on)
		log_info("SIGHUP: reloaded: %u clients in host-keys, %u grant public keys%s",
			 d->keys.n, d->grants.keys.npub,
			 d->grants.keys.has_hmac ? " and a version 1 grant key" : "");
	else
		log_info("SIGHUP: reloaded: %u clients in host-keys", d->keys.n);
	spare_notify_ready("lending on port %u, settings reloaded", d->cfg.port);
	return;
refuse:
	spare_host_keys_free(&hk);
	sodium_memzero(&gk, sizeof(gk));
	spare_conf_vals_free(&nv);
	log_err("SIGHUP: reload refused: still running on the previous settings and keys");
	spare_notify_ready("lending on port %u (last reload refused)", d->cfg.port);
}

/* The HTTP /metrics endpoint and the systemd watchdog, when configured. */
static struct spare_http *metrics_http;
static struct ev_source http_src = { .fd = -1 };
static struct ev_source http_tick_src = { .fd = -1 };
static struct ev_source watchdog_src = { .fd = -1 };

static void http_handler(struct spared *d, struct ev_source *src,
			 uint32_t events)
{
	spare_http_run(metrics_http);
}

/* Once a second: libmicrohttpd closes connections idle past their
 * timeout only when it runs, so a silent scraper cannot hold a slot. */
static void http_tick_handler(struct spared *d, struct ev_source *src,
			      uint32_t events)
{
	uint64_t expirations;

	if (read(src->fd, &expirations, sizeof(expirations)) < 0 &&
	    errno != EAGAIN)
		log_warn("metrics timerfd read: %s", strerror(errno));
	spare_http_run(metrics_http);
}

/* A periodic timerfd every @ms, added to the loop with @handle. */
static int add_periodic(struct spared *d, struct ev_source *src, uint64_t ms,
			void (*handle)(struct spared *, struct ev_source *, uint32_t))
{
	struct itimerspec its = {
		.it_value.tv_sec = (time_t)(ms / 1000),
		.it_value.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	its.it_interval = its.it_value;
	src->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (src->fd < 0 || timerfd_settime(src->fd, 0, &its, NULL)) {
		log_err("timerfd: %s", strerror(errno));
		return -1;
	}
	src->handle = handle;
	return spared_epoll_add(d, src);
}

static void watchdog_handler(struct spared *d, struct ev_source *src,
			     uint32_t events)
{
	uint64_t expirations;

	if (read(src->fd, &expirations, sizeof(expirations)) < 0 &&
	    errno != EAGAIN)
		log_warn("watchdog timerfd read: %s", strerror(errno));
	spare_notify_watchdog();
}

static int setup_metrics_and_watchdog(struct spared *d)
{
	uint64_t ms = spare_notify_watchdog_ms();

	if (d->cfg.metrics_listen[0]) {
		metrics_http = spare_http_start(d->cfg.metrics_listen,
						spared_metrics_page, d);
		if (!metrics_http)
			return -1;
		http_src.fd = spare_http_fd(metrics_http);
		http_src.handle = http_handler;
		if (spared_epoll_add(d, &http_src) ||
		    add_periodic(d, &http_tick_src, 1000, http_tick_handler))
			return -1;
	}
	if (ms) {
		if (add_periodic(d, &watchdog_src, ms, watchdog_handler))
			return -1;
		/* the first period starts now: after a restart in place the
		 * last ping was the old image's, before its exec */
		spare_notify_watchdog();
		log_info("systemd watchdog: WATCHDOG=1 every %" PRIu64 " ms", ms);
	}
	return 0;
}

static void stop_metrics_and_watchdog(void)
{
	spare_http_stop(metrics_http);
	metrics_http = NULL;
	http_src.fd = -1;
	if (http_tick_src.fd >= 0)
		close(http_tick_src.fd);
	http_tick_src.fd = -1;
	if (watchdog_src.fd >= 0)
		close(watchdog_src.fd);
	watchdog_src.fd = -1;
}

static void timer_handler(struct spared *d, struct ev_source *src,
			  uint32_t events)
{
	uint64_t expirations, now = spare_now_ms();

	if (read(src->fd, &expirations, sizeof(expirations)) < 0 &&
	    errno != EAGAIN)
		log_warn("timerfd read: %s", strerror(errno));
	spared_timer_work(d, now);
	/* here, not in spared_timer_work(): session.c calls nothing above it */
	if (d->backstop_next_ms && now >= d->backstop_next_ms) {
		spared_backstop_look(d, (uint64_t)time(NULL), now);
		d->backstop_next_ms = now + 1000;
	}
	spared_arm_timer(d);
}

static void signal_handler(struct spared *d, struct ev_source *src,
			   uint32_t events)
{
	struct signalfd_siginfo si;
	ssize_t n;

	n = read(src->fd, &si, sizeof(si));
	if (n != (ssize_t)sizeof(si)) {
		if (n < 0 && errno != EAGAIN)
			log_warn("signalfd read: %s", strerror(errno));
		return;
	}
	switch (si.ssi_signo) {
	case SIGTERM:
	case SIGINT:
		log_info("%s: stopping", strsignal((int)si.ssi_signo));
		spare_notify_stopping();
		d->stopping = true;
		break;
	case SIGUSR2:
		log_info("SIGUSR2: restarting for an upgrade; slabs held for a resume are kept");
		spare_notify_reloading();
		/* systemd's watchdog runs on through the restart in place
		 * (READY=1 does not reset it): pinged here, before the exec
		 * (restart.c) and as the new image starts, the longest gap
		 * is one of those steps, not up to WatchdogSec/2 on each
		 * side of them (session 42's "MainPID became", under load). */
		spare_notify_watchdog();
		d->upgrading = true;
		d->stopping = true;
		break;
	case SIGUSR1:
		if (!spared_evict(d, 1, SPARE_EVICT_ADMIN))
			log_info("SIGUSR1: no lent slab to evict");
		break;
	case SIGHUP:
		reload(d);
		break;
	}
}

static int setup_loop(struct spared *d)
{
	sigset_t mask;

	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (d->epfd < 0) {
		log_err("epoll_create1: %s", strerror(errno));
		return -1;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGUSR2);
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, NULL)) {
		log_err("sigprocmask: %s", strerror(errno));
		return -1;
	}
	signal(SIGPIPE, SIG_IGN);
	d->sig_src.fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (d->sig_src.fd < 0) {
		log_err("signalfd: %s", strerror(errno));
		return -1;
	}
	d->sig_src.handle = signal_handler;
	if (spared_epoll_add(d, &d->sig_src))
		return -1;
	d->timer_src.fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (d->timer_src.fd < 0) {
		log_err("timerfd_create: %s", strerror(errno));
		return -1;
	}
	d->timer_src.handle = timer_handler;
	return spared_epoll_add(d, &d->timer_src);
}

static struct broker_link *brokers;	/* NULL without "brokers" */

static int run_loop(struct spared *d)
{
	struct epoll_event evs[32];
	bool readying = true;
	int n, i;

	while (!d->stopping) {
		/* idle time populates slabs ahead of MAPs, a piece a turn */
		n = epoll_wait(d->epfd, evs, (int)ARRAY_SIZE(evs),
			       readying ? 0 : -1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			log_err("epoll_wait: %s", strerror(errno));
			return -1;
		}
		for (i = 0; i < n; i++) {
			struct ev_source *src = evs[i].data.ptr;

			src->handle(d, src, evs[i].events);
		}
		/* Sessions that failed this turn are torn down only now, when
		 * no handler holds a pointer into them. Sources of a reaped
		 * session may still be in evs[] above, hence not before. */
		spared_reap_sessions(d);
		broker_link_set_free(brokers, d->pool.nfree);
		readying = spared_ready_step(d);
	}
	return 0;
}

/* Registered slabs are pinned: without CAP_IPC_LOCK they count against
 * RLIMIT_MEMLOCK, and ibv_reg_mr fails (ENOMEM) beyond it. */
static void check_memlock(const struct spared_config *cfg)
{
	struct rlimit rl;
	char lim[32], b[32];

	if (geteuid() == 0 || getrlimit(RLIMIT_MEMLOCK, &rl) ||
	    rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= cfg->budget)
		return;
	log_warn("RLIMIT_MEMLOCK is %s, below the budget of %s: MAPs will be refused once it is reached (raise it, e.g. LimitMEMLOCK=infinity)",
		 spare_fmt_size(rl.rlim_cur, lim, sizeof(lim)),
		 spare_fmt_size(cfg->budget, b, sizeof(b)));
}

int main(int argc, char **argv)
{
	static struct spared d;
	char b[32], s[32];
	bool ran = false;
	int ret = 1;
	unsigned int i;

	spare_log_init(argv[0], SPARE_LOG_INFO);
	d.epfd = d.sig_src.fd = d.timer_src.fd = d.ctl_src.fd = d.cm_src.fd = -1;
	d.lend.tick_src.fd = d.lend.psi_src.fd = -1;
	ret = configure(&d.cfg, argc, argv);
	if (ret)
		return ret > 0 ? 0 : 2;
	ret = 1;
	if (d.cfg.max_lend ?
	    slab_pool_init_cap(&d.pool, d.cfg.max_lend, d.cfg.slab_size,
			       (unsigned int)(d.cfg.min_lend / d.cfg.slab_size)) :
	    slab_pool_init(&d.pool, d.cfg.budget, d.cfg.slab_size)) {
		log_err("cannot set up a pool of %s in slabs of %s: %s",
			spare_fmt_size(d.cfg.budget, b, sizeof(b)),
			spare_fmt_size(d.cfg.slab_size, s, sizeof(s)),
			strerror(errno));
		return 1;
	}
	check_memlock(&d.cfg);
	d.cfg.max_clients = spare_fd_conn_cap("max-clients", d.cfg.max_clients,
					      spare_fd_raise_limit());
	d.start_ms = spare_now_ms();
	if (setup_loop(&d) || spared_keep_adopt(&d) || spared_server_start(&d) ||
	    spared_ctl_start(&d) || setup_metrics_and_watchdog(&d) ||
	    spared_lend_start(&d) ||
	    (d.cfg.brokers[0] && !(brokers = spared_broker_link_start(&d))))
		goto out;
	log_info("lending %s in %u slabs of %s on %s port %u; control socket %s",
		 spare_fmt_size(d.cfg.budget, b, sizeof(b)), d.pool.nslabs,
		 spare_fmt_size(d.cfg.slab_size, s, sizeof(s)),
		 d.cfg.listen_addr[0] ? d.cfg.listen_addr : "*", d.cfg.port,
		 d.cfg.ctl_path);
	spare_notify_ready("lending %s in %u slabs of %s on port %u",
			   spare_fmt_size(d.cfg.budget, b, sizeof(b)), d.pool.nslabs,
			   spare_fmt_size(d.cfg.slab_size, s, sizeof(s)), d.cfg.port);
	ret = run_loop(&d) ? 1 : 0;
	ran = true;
out:
	broker_link_stop(brokers);
	stop_metrics_and_watchdog();
	spared_lend_stop(&d);
	spared_ctl_stop(&d);
	spared_server_stop(&d);
	if (ran)
		spared_print_status(&d, stderr, false);
	for (i = 0; i < d.pool.nslabs; i++)
		slab_mem_free(d.pool.slabs[i].mem, d.pool.slabs[i].memfd,
			      d.pool.slab_size);
	slab_pool_destroy(&d.pool);
	if (d.timer_src.fd >= 0)
		close(d.timer_src.fd);
	if (d.sig_src.fd >= 0)
		close(d.sig_src.fd);
	if (d.epfd >= 0)
		close(d.epfd);
	if (d.upgrading && ret == 0) {
		spared_keep_exec(&d, argv);
		ret = 1;
	}
	log_info("exit %d", ret);
	return ret;
}
