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
 *   aggd_report.c    progress reports (REPORT) and FlowCon's shares
 *   aggd_migrate.c   moving a job (source and target); registers itself
 *                    as the jobs' job_mig_ops
 *   aggd_jobs.c      the job table, reductions, failing a job
 *   aggd_conn.c      connection I/O
 */
#include <errno.h>
#include <getopt.h>
#include <liburing.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
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
#include "spare_log.h"
#include "spare_util.h"

#define RING_DEPTH	512

struct aggd_state g;

static void event_post(void)
{
	struct io_uring_sqe *sqe = get_sqe();

	io_uring_prep_read(sqe, g.event_fd, &g.event_buf, sizeof(g.event_buf), 0);
	io_uring_sqe_set_data(sqe, &g.event_op);
}

static void on_signal(int sig)
{
	(void)sig;
	g.stop = 1;
}

/* The daemons' shared key: the file's bytes (trailing newline dropped). */
static int read_peer_key(const char *path)
{
	unsigned char buf[AGGD_KEY_MAX + 2];
	struct stat st;
	size_t n;
	FILE *f = fopen(path, "re");

	if (!f) {
		log_err("--peer-key-file %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) || (st.st_mode & 077)) {
		log_err("--peer-key-file %s: readable by group or others (chmod 600)",
			path);
		fclose(f);
		return -1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
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

static void usage(FILE *f)
{
	fprintf(f,
"usage: spare-aggd [options]\n"
"  -a, --addr ADDR         listen address (default 0.0.0.0)\n"
"  -p, --port PORT         TCP port (default %u; 0 picks one)\n"
"      --port-file FILE    write the bound port to FILE\n"
"  -P, --policy NAME       fifo | wfs | las | dlas (default wfs)\n"
"      --min-cores N       pool threads always awake (default 1)\n"
"      --max-cores N       pool threads at most (default: online CPUs)\n"
"      --tick-ms MS        controller period (default 100)\n"
"      --first-core N      pin pool thread i to core (N + i) mod CPUs (default 0)\n"
"      --rdma ADDR         also serve RDMA (rdma_cm) on ADDR, same port number\n"
"      --cores-log FILE    append 't_ms active busy queued' every tick\n"
"      --max-mem MIB       memory for all jobs (default 4096)\n"
"      --max-job-mem MIB   memory for one job (default 1024)\n"
"      --max-part-mib MIB  largest partition payload (default 16)\n"
"      --idle-timeout SEC  reclaim a job none of whose workers moved a byte\n"
"                          for SEC seconds, and close a silent connection\n"
"                          without a job; 0 never (default 600)\n"
"      --admin-addr ADDR   serve the operator's view (STATS) on ADDR only\n"
"      --admin-port PORT   its port (default 0: one is picked)\n"
"      --admin-port-file FILE  write the admin port to FILE\n"
"      --stats-on-data-port  also answer STATS on the workers' port (job\n"
"                          names visible to anyone who reaches it)\n"
"      --peer-key-file FILE  the key daemons prove to each other before a\n"
"                          job moves (16..256 bytes, mode 0600); without it\n"
"                          MIGRATE and IMPORT are refused\n"
"      --flowcon           FlowCon: split --max-cores among the jobs by their\n"
"                          REPORTed loss growth and make the shares the\n"
"                          jobs' weights (needs --policy wfs, the default)\n"
"      --flowcon-interval SEC  decide at least every SEC seconds (default 10;\n"
"                          sooner once every reporting job reported again)\n",
		AGG_DEFAULT_PORT);
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
	agg_rdma_stop(g.rdma);
	g.rdma = NULL;
	close(g.listen_fd);
	if (g.admin_fd >= 0)
		close(g.admin_fd);
	sodium_memzero(g.peer_key, sizeof(g.peer_key));
	report_free();
	close(g.event_fd);
	if (g.cores_log)
		fclose(g.cores_log);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "addr", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "port-file", required_argument, NULL, 'F' },
		{ "policy", required_argument, NULL, 'P' },
		{ "min-cores", required_argument, NULL, 'm' },
		{ "max-cores", required_argument, NULL, 'M' },
		{ "tick-ms", required_argument, NULL, 't' },
		{ "first-core", required_argument, NULL, 'c' },
		{ "rdma", required_argument, NULL, 'R' },
		{ "cores-log", required_argument, NULL, 'L' },
		{ "max-mem", required_argument, NULL, 'x' },
		{ "max-job-mem", required_argument, NULL, 'j' },
		{ "max-part-mib", required_argument, NULL, 'k' },
		{ "idle-timeout", required_argument, NULL, 'I' },
		{ "admin-addr", required_argument, NULL, 'A' },
		{ "admin-port", required_argument, NULL, 'O' },
		{ "admin-port-file", required_argument, NULL, 'G' },
		{ "stats-on-data-port", no_argument, NULL, 'S' },
		{ "peer-key-file", required_argument, NULL, 'K' },
		{ "flowcon", no_argument, NULL, 'f' },
		{ "flowcon-interval", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct agg_pool_opts po = {
		.policy = AGG_POLICY_WFS,
		.min_cores = 1,
		.tick_ms = 100,
	};
	const char *addr = "0.0.0.0", *port_file = NULL, *cores_log = NULL;
	const char *rdma_addr = NULL, *admin_addr = NULL, *admin_port_file = NULL;
	const char *key_file = NULL;
	uint64_t admin_port = 0;
	bool stats_open = false;
	uint64_t port = AGG_DEFAULT_PORT, max_mem = 4096, job_mem = 1024;
	uint64_t part_mib = 16;
	double idle_s = 600, fc_interval_s = 10;
	bool flowcon = false;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct sigaction sa = { .sa_handler = on_signal };
	int opt;

	po.max_cores = ncpu > 0 ? (unsigned int)ncpu : 1;
	spare_log_init("spare-aggd", SPARE_LOG_INFO);
	if (sodium_init() < 0) {
		log_err("libsodium failed to initialise");
		return 1;
	}
	while ((opt = getopt_long(argc, argv, "a:p:P:h", lopts, NULL)) != -1) {
		char *end = NULL;
		uint64_t v = 0;

		if (opt == 'I') {
			errno = 0;
			idle_s = strtod(optarg, &end);
			if (errno || !*optarg || *end || !(idle_s >= 0) ||
			    idle_s > 1e7) {
				fprintf(stderr, "spare-aggd: bad --idle-timeout '%s'\n",
					optarg);
				return 2;
			}
			continue;
		}
		if (opt == 'i') {
			errno = 0;
			fc_interval_s = strtod(optarg, &end);
			if (errno || !*optarg || *end || !(fc_interval_s > 0) ||
			    fc_interval_s > 1e6) {
				fprintf(stderr, "spare-aggd: bad --flowcon-interval '%s'\n",
					optarg);
				return 2;
			}
			continue;
		}
		if (opt == 'f') {
			flowcon = true;
			continue;
		}
		if (optarg && opt != 'a' && opt != 'F' && opt != 'P' && opt != 'L' &&
		    opt != 'R' && opt != 'A' && opt != 'G' && opt != 'K' &&
		    spare_parse_u64(optarg, 0, UINT32_MAX, &v)) {
			fprintf(stderr, "spare-aggd: bad number '%s'\n", optarg);
			return 2;
		}
		switch (opt) {
		case 'a': addr = optarg; break;
		case 'p': port = v; break;
		case 'F': port_file = optarg; break;
		case 'P':
			if (agg_policy_parse(optarg, &po.policy)) {
				fprintf(stderr, "spare-aggd: unknown policy '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'm': po.min_cores = (unsigned int)v; break;
		case 'M': po.max_cores = (unsigned int)v; break;
		case 't': po.tick_ms = (unsigned int)v; break;
		case 'c': po.first_core = (unsigned int)v; break;
		case 'R': rdma_addr = optarg; break;
		case 'L': cores_log = optarg; break;
		case 'x': max_mem = v; break;
		case 'j': job_mem = v; break;
		case 'k': part_mib = v; break;
		case 'A': admin_addr = optarg; break;
		case 'O': admin_port = v; break;
		case 'G': admin_port_file = optarg; break;
		case 'S': stats_open = true; break;
		case 'K': key_file = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (port > 65535 || admin_port > 65535 || !po.min_cores || po.max_cores < po.min_cores ||
	    po.max_cores > 1024 || !po.tick_ms || !part_mib || part_mib > 64 ||
	    !max_mem || !job_mem) {
		fprintf(stderr, "spare-aggd: option out of range\n");
		usage(stderr);
		return 2;
	}
	if (flowcon && po.policy != AGG_POLICY_WFS) {
		fprintf(stderr, "spare-aggd: --flowcon sets WFS weights: it needs --policy wfs\n");
		return 2;
	}
	if (flowcon)
		report_flowcon_enable((double)po.max_cores,
				      (uint64_t)(fc_interval_s * 1e9));
	g.mem_max = (size_t)max_mem << 20;
	g.job_mem_max = (size_t)job_mem << 20;
	g.max_push = (uint32_t)(part_mib << 20);
	g.idle_ns = (uint64_t)(idle_s * 1e9);
	{
		/* tick a quarter of the timeout, 10 ms..1 s */
		uint64_t tick = g.idle_ns ? g.idle_ns / 4 : 1000000000ULL;

		if (tick < 10000000ULL)
			tick = 10000000ULL;
		if (tick > 1000000000ULL)
			tick = 1000000000ULL;
		g.timer_ts.tv_sec = (long long)(tick / 1000000000ULL);
		g.timer_ts.tv_nsec = (long long)(tick % 1000000000ULL);
	}
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
	signal(SIGPIPE, SIG_IGN);

	if (key_file && read_peer_key(key_file))
		return 1;
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
	g.pool = agg_pool_start(&po, pool_run, g.event_fd);
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
	if (rdma_addr) {
		struct sockaddr_in sin;
		socklen_t sl = sizeof(sin);

		getsockname(g.listen_fd, (struct sockaddr *)&sin, &sl);
		if (aggd_rdma_start(rdma_addr, ntohs(sin.sin_port))) {
			shutdown_all();
			return 1;
		}
	}

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
			case OP_EVENT:
				handle_done_tasks();
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
			}
		}
		io_uring_cq_advance(&g.ring, seen);
		if (timer)
			on_timer();
	}
	log_info("stopping: %u connections, %llu jobs created, %llu failed",
	       g.n_conns, (unsigned long long)g.jobs_created,
	       (unsigned long long)g.jobs_failed);
	shutdown_all();
	return 0;
}
