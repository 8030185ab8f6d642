// SPDX-License-Identifier: GPL-2.0
/*
 * spare-aggd: the shared gradient-aggregation pool. main and options.
 *
 * One event-loop thread owns every connection and every job and does all
 * network I/O through io_uring (accept, recv, sendmsg, and a read of the
 * pool's eventfd). Pushes are received straight into the partition's
 * per-rank slot; when a partition has all its pushes the loop hands a
 * reduction task to the pool (agg_pool.c), whose pinned threads run the
 * summation kernels in the order the policy chooses. Finished tasks come
 * back through the eventfd and parked pulls are answered.
 *
 * The rooms, each calling only the ones below it:
 *   aggd_main.c      options, the loop, orderly exit
 *   aggd_rdma_cb.c   RDMA transport callbacks
 *   aggd_reclaim.c   idle reclaim (timer)
 *   aggd_dispatch.c  message dispatch (register, push/pull, stats);
 *                    registers itself as the connections' conn_ops
 *   aggd_report.c    progress reports (REPORT) and FlowCon's shares; under
 *                    --flowcon registers itself as the jobs' job_report_ops
 *   aggd_migrate.c   moving a job (source and target); registers itself
 *                    as the jobs' job_mig_ops
 *   aggd_jobs.c      the job table, reductions, failing a job
 *   aggd_conn.c      connection I/O
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <liburing.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sodium.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aggd_conn.h"
#include "aggd_dispatch.h"
#include "aggd_jobs.h"
#include "aggd_migrate.h"
#include "aggd_rdma_cb.h"
#include "aggd_reclaim.h"
#include "aggd_report.h"
#include "aggd_state.h"
#include "agg_pool.h"
#include "agg_rdma.h"
#include "agg_sum.h"
#include "spare_conf.h"
#include "spare_http.h"
#include "spare_keyfile.h"
#include "spare_log.h"
#include "spare_notify.h"
#include "spare_util.h"

#define RING_DEPTH	512

struct aggd_state g;

static void event_post(void)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_read(sqe, g.event_fd, &g.event_buf, sizeof(g.event_buf), 0);
	io_uring_sqe_set_data(sqe, &g.event_op);
}

static volatile sig_atomic_t reload_asked;	/* SIGHUP */

static void on_signal(int sig)
{
	if (sig == SIGHUP)
		reload_asked = 1;
	else
		g.stop = 1;
}

/* The daemons' shared key: the file's bytes (trailing newline dropped). */
static int read_peer_key(const char *path)
{
	char buf[AGGD_KEY_MAX + 3], why[320];
	long got = spare_key_file_read(path, buf, sizeof(buf), why, sizeof(why));
	size_t n;

	if (got < 0) {
		log_err("--peer-key-file %s", why);
		return -1;
	}
	n = (size_t)got;
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
		n--;
	if (n < AGGD_KEY_MIN || n > AGGD_KEY_MAX) {
		log_err("--peer-key-file %s: the key must be %d..%d bytes",
			path, AGGD_KEY_MIN, AGGD_KEY_MAX);
		sodium_memzero(buf, sizeof(buf));
		return -1;
	}
	memcpy(g.peer_key, buf, n);
	g.peer_key_len = n;
	sodium_memzero(buf, sizeof(buf));
	return 0;
}

/*
 * Settings: every key of /etc/spare/spare-aggd.conf is also a long option,
 * and the command line wins (spare_conf.h).
 */
#define AGGD_DEFAULT_CONF	"/etc/spare/spare-aggd.conf"

static const struct spare_setting aggd_settings[] = {
	{ "addr", 'a', "ADDR", "listen address", "0.0.0.0" },
	{ "port", 'p', "PORT", "TCP port (0 picks one)", SPARE_STR(AGG_DEFAULT_PORT) },
	{ "port-file", 0, "FILE", "write the bound port to FILE", "" },
	{ "policy", 'P', "NAME", "fifo | wfs | las | dlas", "wfs" },
	{ "min-cores", 0, "N", "pool threads always awake", "1" },
	{ "max-cores", 0, "N", "pool threads at most (default: online CPUs)", "" },
	{ "tick-ms", 0, "MS", "controller period", "100" },
	{ "first-core", 0, "N", "pin pool thread i to core (N + i) mod CPUs", "0" },
	{ "rdma", 0, "ADDR", "also serve RDMA (rdma_cm) on ADDR, same port number", "" },
	{ "cores-log", 0, "FILE", "append 't_ms active busy queued' every tick", "" },
	{ "max-mem", 0, "MIB", "memory for all jobs", "4096" },
	{ "max-job-mem", 0, "MIB", "memory for one job", "1024" },
	{ "max-part-mib", 0, "MIB", "largest partition payload", "16" },
	{ "max-conns", 0, "N", "connections at once (lowered to fit the descriptor limit); at the cap the oldest connection that has made no request makes room", "4096" },
	{ "request-timeout", 0, "SEC", "close a connection that has not completed a first request SEC seconds after it came; 0 never", "10" },
	{ "idle-timeout", 0, "SEC", "reclaim a job none of whose workers moved a byte for SEC seconds, and close a silent connection without a job; 0 never", "600" },
	{ "admin-addr", 0, "ADDR", "serve the operator's view (STATS) on ADDR only", "" },
	{ "admin-port", 0, "PORT", "its port (0: one is picked)", "0" },
	{ "admin-port-file", 0, "FILE", "write the admin port to FILE", "" },
	{ "stats-on-data-port", 0, NULL, "also answer STATS on the workers' port (job names visible to anyone who reaches it)", "" },
	{ "peer-key-file", 0, "FILE", "the key daemons prove to each other before a job moves (16..256 bytes, mode 0600); without it MIGRATE and IMPORT are refused", "" },
	{ "tenants-file", 0, "FILE", "the tenants who may register jobs: NAME SECRET [jobs=N] [mem=SIZE] [conns=N] per line, mode 0600; a REGISTER proves its tenant's key, job names are the tenant's own", "" },
	{ "open", 0, NULL, "no tenants: anyone who reaches the workers' port may register jobs (one user, or loopback); excludes --tenants-file", "" },
	{ "peers", 0, "ADDR,...", "IPv4 addresses of the spare-aggd daemons a job may move to (MIGRATE); without it MIGRATE is refused", "" },
	{ "flowcon", 0, NULL, "FlowCon: split --max-cores among the jobs by their REPORTed loss growth and make the shares the jobs' weights (needs --policy wfs)", "" },
	{ "flowcon-interval", 0, "SEC", "FlowCon decides at least every SEC seconds (sooner once every reporting job reported again)", "10" },
	{ "metrics-listen", 'm', "ADDR:PORT", "serve Prometheus /metrics over HTTP here (default: off)", "" },
};

struct aggd_cfg {
	struct agg_pool_opts po;
	char addr[64], port_file[256], rdma_addr[64], cores_log[256];
	char admin_addr[64], admin_port_file[256], key_file[256];
	char metrics_listen[80], tenants_file[256];
	uint64_t port, admin_port, max_mem, job_mem, part_mib, max_conns;
	double idle_s, fc_interval_s, request_s;
	bool stats_open, flowcon, open;
	uint32_t peers[AGGD_MAX_PEERS];		/* --peers, until applied */
	unsigned int n_peers;
};

static const char *cfg_u64(const char *value, uint64_t max, uint64_t *out)
{
	return spare_parse_u64(value, 0, max, out) ? "not a number in range" : NULL;
}

/* Seconds in [0, max] (@zero_ok) or (0, max]. */
static const char *cfg_seconds(const char *value, bool zero_ok, double max,
			       double *out)
{
	char *end = NULL;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (errno || !*value || *end || !(v >= 0) || (!zero_ok && v == 0) ||
	    v > max)
		return "not a number of seconds in range";
	*out = v;
	return NULL;
}

/* --peers: comma-separated IPv4 addresses (the last setting wins). */
static const char *cfg_peers(struct aggd_cfg *c, const char *value)
{
	char buf[AGGD_MAX_PEERS * 17], *save = NULL, *tok;
	unsigned int n = 0;

	if (strlen(value) >= sizeof(buf))
		return "too long";
	strcpy(buf, value);
	for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		struct in_addr a;

		if (n == AGGD_MAX_PEERS)
			return "more than 64 peers";
		if (inet_pton(AF_INET, tok, &a) != 1)
			return "not a list of IPv4 addresses";
		c->peers[n++] = a.s_addr;
	}
	c->n_peers = n;
	return NULL;
}

static const char *cfg_set(const char *key, const char *value, void *ctx)
{
	struct aggd_cfg *c = ctx;
	uint64_t v;
	const char *why;

	if (!strcmp(key, "addr"))
		return spare_conf_str(c->addr, sizeof(c->addr), value);
	if (!strcmp(key, "port"))
		return cfg_u64(value, 65535, &c->port);
	if (!strcmp(key, "port-file"))
		return spare_conf_str(c->port_file, sizeof(c->port_file), value);
	if (!strcmp(key, "policy"))
		return agg_policy_parse(value, &c->po.policy) ? "unknown policy" : NULL;
	if (!strcmp(key, "min-cores") || !strcmp(key, "max-cores") ||
	    !strcmp(key, "tick-ms") || !strcmp(key, "first-core")) {
		why = cfg_u64(value, UINT32_MAX, &v);
		if (why)
			return why;
		if (!strcmp(key, "min-cores"))
			c->po.min_cores = (unsigned int)v;
		else if (!strcmp(key, "max-cores"))
			c->po.max_cores = (unsigned int)v;
		else if (!strcmp(key, "tick-ms"))
			c->po.tick_ms = (unsigned int)v;
		else
			c->po.first_core = (unsigned int)v;
		return NULL;
	}
	if (!strcmp(key, "rdma"))
		return spare_conf_str(c->rdma_addr, sizeof(c->rdma_addr), value);
	if (!strcmp(key, "cores-log"))
		return spare_conf_str(c->cores_log, sizeof(c->cores_log), value);
	if (!strcmp(key, "max-mem"))
		return cfg_u64(value, UINT32_MAX, &c->max_mem);
	if (!strcmp(key, "max-job-mem"))
		return cfg_u64(value, UINT32_MAX, &c->job_mem);
	if (!strcmp(key, "max-part-mib"))
		return cfg_u64(value, 64, &c->part_mib);
	if (!strcmp(key, "max-conns"))
		return spare_parse_u64(value, 1, 1u << 20, &c->max_conns) ?
		       "not a number in range (1..1048576)" : NULL;
	if (!strcmp(key, "idle-timeout"))
		return cfg_seconds(value, true, 1e7, &c->idle_s);
	if (!strcmp(key, "request-timeout"))
		return cfg_seconds(value, true, 1e6, &c->request_s);
	if (!strcmp(key, "admin-addr"))
		return spare_conf_str(c->admin_addr, sizeof(c->admin_addr), value);
	if (!strcmp(key, "admin-port"))
		return cfg_u64(value, 65535, &c->admin_port);
	if (!strcmp(key, "admin-port-file"))
		return spare_conf_str(c->admin_port_file, sizeof(c->admin_port_file), value);
	if (!strcmp(key, "stats-on-data-port"))
		return spare_conf_bool(value, &c->stats_open);
	if (!strcmp(key, "peer-key-file"))
		return spare_conf_str(c->key_file, sizeof(c->key_file), value);
	if (!strcmp(key, "peers"))
		return cfg_peers(c, value);
	if (!strcmp(key, "tenants-file"))
		return spare_conf_str(c->tenants_file, sizeof(c->tenants_file), value);
	if (!strcmp(key, "open"))
		return spare_conf_bool(value, &c->open);
	if (!strcmp(key, "flowcon"))
		return spare_conf_bool(value, &c->flowcon);
	if (!strcmp(key, "flowcon-interval"))
		return cfg_seconds(value, false, 1e6, &c->fc_interval_s);
	if (!strcmp(key, "metrics-listen")) {
		char host[64];
		uint16_t port;

		if (value[0] && spare_http_parse_listen(value, host, sizeof(host),
							&port, &why))
			return why;
		return spare_conf_str(c->metrics_listen, sizeof(c->metrics_listen), value);
	}
	return "unknown setting";
}

/*
 * The metrics page for /metrics: STATS's families without the per-job ones,
 * whose labels name the jobs (anyone who reaches the port reads it), and
 * without STATS's history comments.
 */
static int metrics_page(void *ctx, FILE *f)
{
	return stats_write(f, false);
}

static void http_arm(void)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_poll_add(sqe, spare_http_fd(g.http), POLLIN);
	io_uring_sqe_set_data(sqe, &g.http_op);
}

/* The config before the defaults: as main() sets it up. */
static void cfg_reset(void *ctx)
{
	struct aggd_cfg *c = ctx;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	memset(c, 0, sizeof(*c));
	c->po.policy = AGG_POLICY_WFS;
	c->po.min_cores = 1;
	c->po.tick_ms = 100;
	c->po.max_cores = ncpu > 0 ? (unsigned int)ncpu : 1;
	c->max_conns = 4096;
}

/* Cross-checks once every setting is in; NULL or why. */
static const char *cfg_check(const struct aggd_cfg *c)
{
	if (!c->po.min_cores || c->po.max_cores < c->po.min_cores ||
	    c->po.max_cores > 1024 || !c->po.tick_ms || !c->part_mib ||
	    !c->max_mem || !c->job_mem)
		return "option out of range: need 1 <= min-cores <= max-cores <= 1024, "
		       "and tick-ms, max-part-mib, max-mem, max-job-mem above 0";
	if (c->flowcon && c->po.policy != AGG_POLICY_WFS)
		return "--flowcon sets WFS weights: it needs --policy wfs";
	if (c->open && c->tenants_file[0])
		return "--open and --tenants-file exclude each other: an open daemon has no tenants";
	return NULL;
}

/* The timeouts, and the reclaim tick: a quarter of the shorter, 10 ms..1 s. */
static void set_timeouts(const struct aggd_cfg *c)
{
	uint64_t tick;

	g.idle_ns = (uint64_t)(c->idle_s * 1e9);
	g.request_ns = (uint64_t)(c->request_s * 1e9);
	tick = g.idle_ns ? g.idle_ns / 4 : 1000000000ULL;
	if (g.request_ns && g.request_ns / 4 < tick)
		tick = g.request_ns / 4;
	if (tick < 10000000ULL)
		tick = 10000000ULL;
	if (tick > 1000000000ULL)
		tick = 1000000000ULL;
	g.timer_ts.tv_sec = (long long)(tick / 1000000000ULL);
	g.timer_ts.tv_nsec = (long long)(tick % 1000000000ULL);
}

/* The settings a reload applies while jobs run; the others need a restart. */
static const char *const live_keys[] = {
	"tenants-file", "peer-key-file", "peers", "idle-timeout", "request-timeout", "max-mem",
	"max-job-mem", "max-conns", "stats-on-data-port", NULL
};

static struct spare_cli aggd_cli;	/* main()'s, for a reload */
static struct spare_conf_vals running_vals;
static int main_argc;
static char **main_argv;

static unsigned long nofile_now(void)
{
	struct rlimit rl;

	return getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ?
	       1024 : (unsigned long)rl.rlim_cur;
}

/*
 * SIGHUP: the settings and the peer key file again, all applied or none.
 * Jobs and connections stay; a move that starts from now on proves the
 * new key.
 */
static void reload(void)
{
	static struct aggd_cfg nc;
	struct aggd_tenants tenants = { 0 };
	struct spare_cli cli = aggd_cli;
	struct spare_conf_vals nv = { 0 };
	const char *why;

	spare_notify_reloading();
	log_info("SIGHUP: reading the settings and key file again");
	cli.ctx = &nc;
	cli.vals = &nv;
	if (spare_cli_reload(&cli, main_argc, main_argv, &running_vals, cfg_reset))
		goto refuse;
	why = cfg_check(&nc);
	if (why) {
		log_err("%s", why);
		goto refuse;
	}
	if (!nc.tenants_file[0] != !g.tenant_mode) {
		log_err("SIGHUP: %s needs a restart (a running daemon keeps its jobs' names)",
			g.tenant_mode ? "going open (no tenants-file)" : "taking tenants (tenants-file)");
		goto refuse;
	}
	if (nc.tenants_file[0]) {
		char twhy[512];

		if (tenants_load(nc.tenants_file, &tenants, twhy, sizeof(twhy))) {
			log_err("%s", twhy);
			goto refuse;
		}
	}
	/* Last of what can fail: it sets the key only when the file is good. */
	if (nc.key_file[0] && read_peer_key(nc.key_file)) {
		tenants_free(&tenants);
		goto refuse;
	}
	if (nc.tenants_file[0])
		tenants_install(&tenants);
	if (!nc.key_file[0]) {
		sodium_memzero(g.peer_key, sizeof(g.peer_key));
		g.peer_key_len = 0;
	}
	memcpy(g.peers, nc.peers, sizeof(g.peers));
	g.n_peers = nc.n_peers;
	g.stats_open = nc.stats_open;
	g.mem_max = (size_t)nc.max_mem << 20;
	g.job_mem_max = (size_t)nc.job_mem << 20;
	g.max_conns = spare_fd_conn_cap("--max-conns", (unsigned int)nc.max_conns,
					nofile_now());
	set_timeouts(&nc);
	spare_cli_log_changes(&cli, &running_vals);
	spare_conf_vals_free(&running_vals);
	running_vals = nv;
	log_info("SIGHUP: reloaded: %u tenants, peer key %s, %u peers, idle timeout %.3f s, request timeout %.3f s",
		 g.tenants.n, g.peer_key_len ? "set" : "none", g.n_peers, nc.idle_s, nc.request_s);
	spare_notify_ready("serving, settings reloaded");
	return;
refuse:
	spare_conf_vals_free(&nv);
	log_err("SIGHUP: reload refused: still running on the previous settings and key");
	spare_notify_ready("serving (last reload refused)");
}

/* Orderly exit: stop the pool, then free every connection and job. */
static void shutdown_all(void)
{
	struct agg_task *t = agg_pool_stop(g.pool);

	g.pool = NULL;
	while (t) {
		struct agg_task *next = t->next;

		free(t->ctx);
		t = next;
	}
	io_uring_queue_exit(&g.ring);	/* cancels every pending operation */
	mig_stop_transfers();		/* before the jobs they read go */
	for (struct conn *c = g.conns; c; c = c->next)
		if (c->mig_link)
			c->mig_link->state = MIG_DONE;
	while (g.conns) {
		struct conn *c = g.conns;

		c->closing = true;
		c->rx_busy = c->tx_busy = false;
		c->left = true;		/* exiting is not the worker's fault */
		conn_destroy(c);
	}
	jobs_free_all();
	if (g.rdma)
		log_info("rdma: connection events held the event loop %llu times, %.1f ms in all, longest %.2f ms (%llu connections accepted in it); %llu accepted in all",
			 (unsigned long long)g.rdma_cm_batches,
			 (double)g.rdma_cm_ns / 1e6, (double)g.rdma_cm_max_ns / 1e6,
			 (unsigned long long)g.rdma_cm_max_accepts,
			 (unsigned long long)g.rdma_accepts);
	agg_rdma_stop(g.rdma);
	g.rdma = NULL;
	close(g.listen_fd);
	if (g.admin_fd >= 0)
		close(g.admin_fd);
	sodium_memzero(g.peer_key, sizeof(g.peer_key));
	tenants_free(&g.tenants);
	report_free();
	close(g.event_fd);
	spare_http_stop(g.http);
	g.http = NULL;
	if (g.cores_log)
		fclose(g.cores_log);
}

int main(int argc, char **argv)
{
	static struct aggd_cfg c;
	struct spare_cli cli = {
		.usage = "The shared gradient-aggregation pool of spare (spare-aggd(8)).\n",
		.epilog = "\nSIGHUP reads the settings and the peer key file again; SIGTERM/SIGINT stop.\n",
		.default_conf = AGGD_DEFAULT_CONF,
		.settings = aggd_settings,
		.nsettings = ARRAY_SIZE(aggd_settings),
		.set = cfg_set,
		.ctx = &c,
		.vals = &running_vals,
		.live_keys = live_keys,
	};
	struct agg_pool_opts po;
	const char *addr, *port_file, *cores_log, *rdma_addr, *admin_addr;
	const char *admin_port_file, *key_file;
	uint64_t port, admin_port, max_mem, job_mem, part_mib;
	double idle_s, fc_interval_s;
	bool stats_open, flowcon;
	struct sigaction sa = { .sa_handler = on_signal };
	sigset_t hup;
	const char *why;
	int opt;

	cfg_reset(&c);
	spare_log_init("spare-aggd", SPARE_LOG_INFO);
	if (sodium_init() < 0) {
		log_err("libsodium failed to initialise");
		return 1;
	}
	opt = spare_cli_configure(&cli, argc, argv);
	if (opt) {
		spare_conf_vals_free(&running_vals);
		return opt > 0 ? 0 : 2;
	}
	aggd_cli = cli;
	main_argc = argc;
	main_argv = argv;
	memcpy(g.peers, c.peers, sizeof(g.peers));
	g.n_peers = c.n_peers;
	po = c.po;
	addr = c.addr;
	port_file = c.port_file[0] ? c.port_file : NULL;
	cores_log = c.cores_log[0] ? c.cores_log : NULL;
	rdma_addr = c.rdma_addr[0] ? c.rdma_addr : NULL;
	admin_addr = c.admin_addr[0] ? c.admin_addr : NULL;
	admin_port_file = c.admin_port_file[0] ? c.admin_port_file : NULL;
	key_file = c.key_file[0] ? c.key_file : NULL;
	port = c.port;
	admin_port = c.admin_port;
	max_mem = c.max_mem;
	job_mem = c.job_mem;
	part_mib = c.part_mib;
	idle_s = c.idle_s;
	fc_interval_s = c.fc_interval_s;
	stats_open = c.stats_open;
	flowcon = c.flowcon;
	why = cfg_check(&c);
	if (why) {
		log_err("%s", why);
		spare_conf_vals_free(&running_vals);
		return 2;
	}
	if (flowcon)
		report_flowcon_enable((double)po.max_cores,
				      (uint64_t)(fc_interval_s * 1e9));
	g.max_conns = spare_fd_conn_cap("--max-conns", (unsigned int)c.max_conns,
					spare_fd_raise_limit());
	g.data_gate.name = "data port";
	g.admin_gate.name = "admin port";
	g.mem_max = (size_t)max_mem << 20;
	g.job_mem_max = (size_t)job_mem << 20;
	g.max_push = (uint32_t)(part_mib << 20);
	set_timeouts(&c);
	g.now_ns = spare_now_ns();
	if (cores_log) {
		po.log = g.cores_log = fopen(cores_log, "a");
		if (!po.log) {
			log_err("cannot open %s: %s", cores_log, strerror(errno));
			return 1;
		}
	}

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	if (key_file && read_peer_key(key_file))
		return 1;
	if (c.tenants_file[0]) {
		struct aggd_tenants t;
		char twhy[512];

		if (tenants_load(c.tenants_file, &t, twhy, sizeof(twhy))) {
			log_err("%s", twhy);
			return 1;
		}
		tenants_install(&t);
		log_info("tenants: %u from %s; every REGISTER proves its tenant's key",
			 g.tenants.n, c.tenants_file);
	} else if (c.open) {
		log_warn("OPEN (--open): no tenants; anyone who reaches %s:%llu may register jobs and use --max-mem; for one user or loopback only (Documentation/aggd.md, \"Tenants\")",
			 addr, (unsigned long long)port);
	} else {
		log_warn("OPEN: neither --tenants-file nor --open is set, so anyone who reaches %s:%llu may register jobs; this default is deprecated and will be refused: set tenants-file, or open = yes for one user or loopback (Documentation/aggd.md, \"Tenants\")",
			 addr, (unsigned long long)port);
	}
	g.stats_open = stats_open;
	g.admin_fd = -1;
	g.listen_fd = listen_on(addr, (unsigned int)port, port_file);
	if (g.listen_fd < 0)
		return 1;
	if (admin_addr) {
		g.admin_fd = listen_on(admin_addr, (unsigned int)admin_port,
				       admin_port_file);
		if (g.admin_fd < 0)
			return 1;
		log_info("operator's view (STATS) on %s", admin_addr);
	}
	if (c.metrics_listen[0]) {
		g.http = spare_http_start(c.metrics_listen, metrics_page, NULL);
		if (!g.http)
			return 1;
	}
	g.event_fd = eventfd(0, EFD_CLOEXEC);
	if (g.event_fd < 0) {
		log_err("eventfd: %s", strerror(errno));
		return 1;
	}
	opt = io_uring_queue_init(RING_DEPTH, &g.ring, 0);
	if (opt < 0) {
		log_err("io_uring_queue_init: %s", strerror(-opt));
		return 1;
	}
	dispatch_init();
	migrate_init();
	/* The pool's threads never take SIGHUP: the loop's io_uring wait
	 * is what it must interrupt (they inherit this mask). */
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &hup, NULL);
	g.pool = agg_pool_start(&po, pool_run, g.event_fd);
	pthread_sigmask(SIG_UNBLOCK, &hup, NULL);
	if (!g.pool) {
		log_err("cannot start the pool: %s", strerror(errno));
		return 1;
	}
	log_info("pool: %u..%u cores, policy %s, kernels %s", po.min_cores,
	       po.max_cores, agg_policy_name(po.policy),
	       agg_isa_name(agg_isa_selected()));
	if (flowcon)
		log_info("FlowCon: %u cores shared by REPORTed growth, decisions at least every %.3f s",
			 po.max_cores, fc_interval_s);
	if (g.request_ns)
		log_info("request timeout %.3f s", c.request_s);
	if (g.idle_ns)
		log_info("idle timeout %.3f s", idle_s);
	else
		log_info("idle timeout off");
	g.accept_op.kind = OP_ACCEPT;
	g.event_op.kind = OP_EVENT;
	g.timer_op.kind = OP_TIMER;
	accept_post(g.listen_fd, &g.accept_op);
	if (g.admin_fd >= 0) {
		g.admin_op.kind = OP_ACCEPT_ADMIN;
		accept_post(g.admin_fd, &g.admin_op);
	}
	event_post();
	timer_post();
	if (g.http) {
		g.http_op.kind = OP_HTTP;
		http_arm();
	}
	if (rdma_addr) {
		struct sockaddr_in sin;
		socklen_t sl = sizeof(sin);

		getsockname(g.listen_fd, (struct sockaddr *)&sin, &sl);
		if (aggd_rdma_start(rdma_addr, ntohs(sin.sin_port))) {
			shutdown_all();
			return 1;
		}
	}

	spare_notify_ready("serving on %s, %u..%u cores", addr, po.min_cores,
			   po.max_cores);
	while (!g.stop) {
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;
		bool timer = false;
		int ret = io_uring_submit_and_wait(&g.ring, 1);

		if (ret < 0 && ret != -EINTR) {
			log_err("io_uring_submit_and_wait: %s", strerror(-ret));
			break;
		}
		g.now_ns = spare_now_ns();
		if (reload_asked) {
			reload_asked = 0;
			reload();
		}
		io_uring_for_each_cqe(&g.ring, head, cqe) {
			struct op *op = io_uring_cqe_get_data(cqe);
			int res = cqe->res;

			seen++;
			switch (op->kind) {
			case OP_TIMER:
				/* after the batch: if the loop was held up, the
				 * activity that came meanwhile counts first */
				timer = true;
				break;
			case OP_CONNECT:
				on_connect(op->conn, res);
				break;
			case OP_ACCEPT:
				on_accept(g.listen_fd, &g.accept_op, res, false);
				break;
			case OP_ACCEPT_ADMIN:
				on_accept(g.admin_fd, &g.admin_op, res, true);
				break;
			case OP_ACCEPT_RESUME:
				accept_resume();
				break;
			case OP_STATE_SENT:
				mig_state_sent(op);
				break;
			case OP_EVENT:
				handle_done_tasks();
				handle_done_regs();
				event_post();
				break;
			case OP_RECV:
				on_recv(op->conn, res);
				break;
			case OP_SEND:
				on_send(op->conn, res);
				break;
			case OP_RDMA_CM:
				aggd_rdma_cm_ready();
				break;
			case OP_RDMA_CQ:
				aggd_rdma_cq_ready();
				break;
			case OP_HTTP:
				spare_http_run(g.http);
				http_arm();
				break;
			}
		}
		io_uring_cq_advance(&g.ring, seen);
		if (timer) {
			on_timer();
			/* libmicrohttpd closes connections idle past their
			 * timeout only when it runs: without this tick, 16
			 * silent scrapers would hold every slot of /metrics */
			if (g.http)
				spare_http_run(g.http);
		}
	}
	spare_notify_stopping();
	log_info("stopping: %u connections, %llu jobs created, %llu failed",
	       g.n_conns, (unsigned long long)g.jobs_created,
	       (unsigned long long)g.jobs_failed);
	shutdown_all();
	spare_conf_vals_free(&running_vals);
	return 0;
}
