// SPDX-License-Identifier: GPL-2.0
/*
 * aggbench-pool: many data-parallel jobs with compute gaps between their
 * gradient pushes, aggregated by spare-aggd: one shared instance (one
 * port) or one dedicated instance per job (one port per job).
 *
 *   aggbench-pool -p PORT[,PORT...] [-j JOBS] [-w WORKERS] [-n ELEMS]
 *                 [-e PART_ELEMS] [-i ITERS] [-g GAP_MS] [-J JITTER]
 *                 [-l LATENCY_FILE] [-t LABEL] [-R SLOW_JOBS] [-Z MS]
 *                 [-h HOST] [-r RDMA_SRC]
 *
 * Each worker thread loops: "compute" (sleep GAP_MS +- JITTER, seeded per
 * worker and iteration, the same in every run), then allreduce one fp32
 * gradient tensor of ELEMS elements. Reported:
 *  - iteration time per job (end of one allreduce to the end of the next);
 *    iteration 0 is warm-up (TCP windows, first touch) and not counted;
 *  - push-to-pull latency: for each (job, iteration), the allreduce time of
 *    the worker that started last (its pushes complete the partitions, so
 *    this is pure aggregation latency: push transfer + queueing + summing +
 *    pull transfer), written one per line to LATENCY_FILE in microseconds;
 *  - CPU-seconds the daemon(s) used during the run (from their STATS).
 * With -R, rank 0 of every job sends a REPORT after each allreduce (one
 * CPU-second per iteration; the first SLOW_JOBS jobs' loss barely falls,
 * the others' falls 10 % an iteration), and the mean iteration time of the
 * slow jobs and of the others is printed too: against spare-aggd
 * --flowcon, the slow jobs join the watch list and lose weight.
 * With -Z, rank 0 of every job computes MS longer each iteration, so its
 * push lands last (the worst case of rank-order sum on arrival).
 * The daemon is at HOST (default 127.0.0.1); with -r the workers connect
 * over RDMA from address RDMA_SRC (the daemon runs --rdma on the same
 * port), the metrics are still asked over TCP.
 * Against one daemon, a "# arrival:" line gives the pool's busy time per
 * pushed byte and the daemon's tail from a partition's last push to its
 * sum (Documentation/perf-aggd.md section 5; tools/aggbench/arrival).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agg_proto.h"
#include "spare_agg.h"

static unsigned int n_ports, ports[64];
static unsigned int jobs = 8, workers = 4, iters = 40, part_elems = 65536;
static unsigned long elems = 262144;
static double gap_ms = 50.0, jitter = 0.2;
static double rank0_late_ms;	/* -Z */
static const char *label = "run";
static const char *host = "127.0.0.1", *rdma_src;	/* -h, -r */
static int report_slow = -1;	/* -R: jobs below this report slow growth */
static pthread_barrier_t start_barrier;
static double *t_start, *t_end;	/* [job][iter][rank] */
static volatile int failed;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static size_t at(unsigned int j, unsigned int it, unsigned int r)
{
	return ((size_t)j * iters + it) * workers + r;
}

static double gap_of(unsigned int j, unsigned int r, unsigned int it)
{
	uint32_t x = j * 2654435761U ^ r * 40503U ^ it * 2246822519U;

	x ^= x >> 13;
	x *= 0x5bd1e995U;
	x ^= x >> 15;
	return gap_ms * (1.0 + jitter * (2.0 * (x / 4294967295.0) - 1.0));
}

static void sleep_ms(double ms)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ms / 1000.0),
		.tv_nsec = (long)(fmod(ms, 1000.0) * 1e6),
	};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

struct worker_arg {
	pthread_t tid;
	unsigned int job, rank;
};

static void *worker_main(void *p)
{
	struct worker_arg *wa = p;
	unsigned int port = ports[n_ports == 1 ? 0 : wa->job % n_ports];
	char err[256], name[32];
	struct spare_agg_tensor t = { "grad", elems };
	struct spare_agg_job job = {
		.name = name, .token = "bench", .n_workers = workers,
		.rank = wa->rank, .dtype = AGG_DTYPE_F32, .part_elems = part_elems,
	};
	float *buf = malloc(elems * sizeof(float));
	struct spare_agg *a = rdma_src ?
		spare_agg_connect_rdma(host, port, rdma_src, err, sizeof(err)) :
		spare_agg_connect(host, port, err, sizeof(err));
	int ok = 0;

	snprintf(name, sizeof(name), "bench-%s-%u", label, wa->job);
	if (!a || !buf) {
		fprintf(stderr, "aggbench-pool: %s\n", a ? "out of memory" : err);
		failed = 1;
	} else {
		spare_agg_set_timeout(a, 60000);
		if (spare_agg_register(a, &job, &t, 1)) {
			fprintf(stderr, "aggbench-pool: register: %s\n", spare_agg_error(a));
			failed = 1;
		} else {
			ok = 1;
		}
	}
	for (unsigned long i = 0; buf && i < elems; i++)
		buf[i] = (float)(i % 97) * 0.01f;
	pthread_barrier_wait(&start_barrier);
	for (unsigned int it = 0; ok && it < iters && !failed; it++) {
		sleep_ms(gap_of(wa->job, wa->rank, it) +
			 (wa->rank == 0 ? rank0_late_ms : 0));
		t_start[at(wa->job, it, wa->rank)] = now();
		if (spare_agg_allreduce(a, 0, it, buf, buf)) {
			fprintf(stderr, "aggbench-pool: job %u rank %u iter %u: %s\n",
				wa->job, wa->rank, it, spare_agg_error(a));
			failed = 1;
			break;
		}
		t_end[at(wa->job, it, wa->rank)] = now();
		if (report_slow >= 0 && wa->rank == 0) {
			double loss = (int)wa->job < report_slow ? 10.0 - 0.001 * it :
				      10.0 * pow(0.9, it);

			if (spare_agg_report(a, name, "bench", it + 1, loss, it + 1.0,
					     iters, NULL, NULL)) {
				fprintf(stderr, "aggbench-pool: report: %s\n",
					spare_agg_error(a));
				failed = 1;
				break;
			}
		}
		/* keep the values small: the sum of W copies each round */
		for (unsigned long i = 0; i < elems; i++)
			buf[i] = (float)(i % 97) * 0.01f;
	}
	if (a) {
		spare_agg_leave(a);
		spare_agg_close(a);
	}
	free(buf);
	return NULL;
}

/* The daemon's metrics at port: v[k] is names[k]'s value, or -1. */
static void daemon_metrics(unsigned int port, const char *const *names,
			   double *v, unsigned int n)
{
	char err[256], key[96], *text = NULL, *p;
	struct spare_agg *a = spare_agg_connect(host, port, err, sizeof(err));

	for (unsigned int k = 0; k < n; k++)
		v[k] = -1;
	if (!a)
		return;
	spare_agg_set_timeout(a, 10000);
	if (!spare_agg_stats(a, &text))
		for (unsigned int k = 0; k < n; k++) {
			snprintf(key, sizeof(key), "\n%s ", names[k]);
			p = strstr(text, key);
			if (p)
				v[k] = strtod(p + strlen(key), NULL);
		}
	free(text);
	spare_agg_close(a);
}

static double daemon_cpu(unsigned int port)
{
	static const char *const name[] = { "spare_aggd_cpu_seconds_total" };
	double v;

	daemon_metrics(port, name, &v, 1);
	return v;
}

/*
 * Sum on arrival (Documentation/perf-aggd.md section 5): the pool's time
 * spent in folds and the tail from a partition's last push landing to its
 * sum being done, both from the daemon's own counters (-1: the daemon has
 * none).
 */
static const char *const arrival_names[] = {
	"spare_aggd_busy_seconds_total", "spare_aggd_reductions_total",
	"spare_aggd_sums_total", "spare_aggd_sum_tail_seconds_total",
	"spare_aggd_sum_tail_max_seconds", "spare_aggd_receive_fold_seconds_total",
};
#define N_ARRIVAL (sizeof(arrival_names) / sizeof(arrival_names[0]))

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double pct(const double *sorted, size_t n, double q)
{
	size_t i = (size_t)(q * (double)(n - 1) + 0.5);

	return sorted[i < n ? i : n - 1];
}

int main(int argc, char **argv)
{
	const char *lat_file = NULL;
	struct worker_arg *wa;
	double cpu0 = 0, cpu1 = 0, t0, t1, *lat, *iter_t;
	double arr0[N_ARRIVAL], arr1[N_ARRIVAL];
	size_t n_lat = 0, n_it = 0;
	int opt;

	while ((opt = getopt(argc, argv, "p:j:w:n:e:i:g:J:l:t:R:Z:h:r:")) != -1) {
		switch (opt) {
		case 'p': {
			char *s = optarg, *tok;

			while ((tok = strsep(&s, ",")) && n_ports < 64)
				ports[n_ports++] = (unsigned int)strtoul(tok, NULL, 0);
			break;
		}
		case 'j': jobs = (unsigned int)atoi(optarg); break;
		case 'w': workers = (unsigned int)atoi(optarg); break;
		case 'n': elems = strtoul(optarg, NULL, 0); break;
		case 'e': part_elems = (unsigned int)atoi(optarg); break;
		case 'i': iters = (unsigned int)atoi(optarg); break;
		case 'g': gap_ms = atof(optarg); break;
		case 'J': jitter = atof(optarg); break;
		case 'l': lat_file = optarg; break;
		case 't': label = optarg; break;
		case 'R': report_slow = atoi(optarg); break;
		case 'Z': rank0_late_ms = atof(optarg); break;
		case 'h': host = optarg; break;
		case 'r': rdma_src = optarg; break;
		default:
			fprintf(stderr, "usage: see the comment at the top of tools/aggbench/poolbench.c\n");
			return 2;
		}
	}
	if (!n_ports || !jobs || !workers || iters < 3 || !elems || jobs > 64 ||
	    workers > 64 || (n_ports != 1 && n_ports < jobs)) {
		fprintf(stderr, "aggbench-pool: need -p with 1 port or one per job\n");
		return 2;
	}
	t_start = calloc((size_t)jobs * iters * workers, sizeof(double));
	t_end = calloc((size_t)jobs * iters * workers, sizeof(double));
	lat = calloc((size_t)jobs * iters, sizeof(double));
	iter_t = calloc((size_t)jobs * iters, sizeof(double));
	wa = calloc((size_t)jobs * workers, sizeof(*wa));
	pthread_barrier_init(&start_barrier, NULL, jobs * workers + 1);

	for (unsigned int j = 0; j < jobs; j++)
		for (unsigned int r = 0; r < workers; r++) {
			struct worker_arg *w = &wa[j * workers + r];

			w->job = j;
			w->rank = r;
			pthread_create(&w->tid, NULL, worker_main, w);
		}
	pthread_barrier_wait(&start_barrier);
	for (unsigned int i = 0; i < n_ports; i++)
		cpu0 += daemon_cpu(ports[i]);
	if (n_ports == 1)
		daemon_metrics(ports[0], arrival_names, arr0, N_ARRIVAL);
	t0 = now();
	for (unsigned int i = 0; i < jobs * workers; i++)
		pthread_join(wa[i].tid, NULL);
	t1 = now();
	for (unsigned int i = 0; i < n_ports; i++)
		cpu1 += daemon_cpu(ports[i]);
	if (n_ports == 1)
		daemon_metrics(ports[0], arrival_names, arr1, N_ARRIVAL);
	if (failed) {
		fprintf(stderr, "aggbench-pool: a worker failed\n");
		return 1;
	}

	if (n_ports == 1) {
		double sums = arr1[2] - arr0[2];
		/* every iteration's pushes, the first one's too */
		double bytes = (double)jobs * workers * (double)elems * 4 * iters;

		printf("# arrival: agg_bytes %.0f pool_busy_s %.4f pool_ns_per_byte %.4f "
		       "folds %.0f sums %.0f tail_mean_us %.1f tail_max_us %.1f "
		       "receive_fold_s %.4f\n",
		       bytes, arr1[0] - arr0[0], (arr1[0] - arr0[0]) * 1e9 / bytes,
		       arr1[1] - arr0[1], sums,
		       arr0[3] >= 0 && sums > 0 ? (arr1[3] - arr0[3]) / sums * 1e6 : -1.0,
		       arr1[4] >= 0 ? arr1[4] * 1e6 : -1.0,
		       arr1[5] >= 0 ? arr1[5] - arr0[5] : -1.0);
	}
	if (report_slow >= 0) {
		double sum[2] = { 0, 0 };
		unsigned int n[2] = { 0, 0 };

		/* the second half of the run: FlowCon has decided by then */
		for (unsigned int j = 0; j < jobs; j++)
			for (unsigned int it = iters / 2 + 1; it < iters; it++) {
				int k = (int)j < report_slow ? 0 : 1;

				sum[k] += t_end[at(j, it, 0)] - t_end[at(j, it - 1, 0)];
				n[k]++;
			}
		printf("# reports: slow_jobs %d slow_iter_mean_ms %.2f other_iter_mean_ms %.2f (second half)\n",
		       report_slow, n[0] ? sum[0] / n[0] * 1e3 : 0.0,
		       n[1] ? sum[1] / n[1] * 1e3 : 0.0);
	}
	for (unsigned int j = 0; j < jobs; j++) {
		for (unsigned int it = 1; it < iters; it++) {
			unsigned int last = 0;

			for (unsigned int r = 1; r < workers; r++)
				if (t_start[at(j, it, r)] > t_start[at(j, it, last)])
					last = r;
			lat[n_lat++] = t_end[at(j, it, last)] - t_start[at(j, it, last)];
			if (it > 1)
				iter_t[n_it++] = t_end[at(j, it, 0)] - t_end[at(j, it - 1, 0)];
		}
	}
	if (lat_file) {
		FILE *f = fopen(lat_file, "w");

		for (size_t i = 0; f && i < n_lat; i++)
			fprintf(f, "%.1f\n", lat[i] * 1e6);
		if (f)
			fclose(f);
	}
	qsort(lat, n_lat, sizeof(double), cmp_double);
	qsort(iter_t, n_it, sizeof(double), cmp_double);
	{
		double sum = 0;

		for (size_t i = 0; i < n_it; i++)
			sum += iter_t[i];
		printf("# label jobs workers elems iters gap_ms wall_s iter_mean_ms iter_p50_ms iter_p99_ms "
		       "lat_p50_us lat_p90_us lat_p99_us lat_max_us daemon_cpu_s daemon_cores\n");
		printf("%s %u %u %lu %u %.1f %.2f %.2f %.2f %.2f %.0f %.0f %.0f %.0f %.2f %.3f\n",
		       label, jobs, workers, elems, iters, gap_ms, t1 - t0,
		       sum / (double)n_it * 1e3, pct(iter_t, n_it, 0.5) * 1e3,
		       pct(iter_t, n_it, 0.99) * 1e3, pct(lat, n_lat, 0.5) * 1e6,
		       pct(lat, n_lat, 0.9) * 1e6, pct(lat, n_lat, 0.99) * 1e6,
		       lat[n_lat - 1] * 1e6, cpu1 - cpu0, (cpu1 - cpu0) / (t1 - t0));
	}
	return 0;
}
