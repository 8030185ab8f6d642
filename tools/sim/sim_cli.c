// SPDX-License-Identifier: GPL-2.0
/*
 * spare-sim's command line (sim_main.c is just main()).
 *
 *   spare-sim --cluster-spec F --trace F --schedule S [--queue-limits a,b,...]
 *             [--promote K] [--faithful] [--gittins-dist F] [--gittins-delta D]
 *             [--start-cost S] [--requeue-delay S] [--decision-interval S] --out DIR
 *   spare-sim gen --jobs N --gpus G --load L --seed S [--out FILE] [--loss FILE]
 *   spare-sim trace --trace F --gpus G
 *   spare-sim flowcon --trace F --loss F --cores N --schedule fair|flowcon
 *             [--alpha A] [--beta B] [--k K] [--interval S] --out DIR
 *   spare-sim specon --trace F --loss F --hosts H --cores-per-host C
 *             --schedule static|specon [--alpha A] [--move-cost S] [--cooldown S]
 *             [--moves-per-interval M] [--interval S] --out DIR
 *   spare-sim mip --trace F --gpus G --schedule greedy|mip [--solver lp|dp]
 *             [--epoch S] --out DIR
 *   spare-sim dike --model F --hosts F --flops-per-sample X --batch B
 *             [--bytes-per-param N] [--max-parts P] [--exhaustive] --out DIR
 *   spare-sim dike --random N --seed S --out DIR
 *   spare-sim ecsim [--donors N] [--racks D] [--codes K+R,...]
 *             [--slabs-per-donor S] [--rack-extra X] [--samples M] [--seed S] --out DIR
 *
 * Bad input exits 2 and writes nothing; each problem is printed as
 * FILE:LINE:COL: field: reason. Documentation/sched.md describes the model.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim.h"
#include "sim_ec.h"
#include "spare_version.h"

#define EXIT_BAD_INPUT 2

static void usage(FILE *f)
{
	fputs("usage: spare-sim --help | --version\n"
	      "       spare-sim --cluster-spec FILE --trace FILE --schedule S\n"
	      "                 [--queue-limits A,B,...] [--promote K] [--faithful]\n"
	      "                 [--gittins-dist FILE] [--gittins-delta D]\n"
	      "                 [--start-cost S] [--requeue-delay S] [--decision-interval S]\n"
	      "                 --out DIR\n"
	      "       spare-sim gen --jobs N --gpus G --load L --seed S [--out FILE]\n"
	      "                 [--loss FILE]\n"
	      "       spare-sim trace --trace FILE --gpus G\n"
	      "       spare-sim flowcon --trace FILE --loss FILE --cores N\n"
	      "                 --schedule fair|flowcon [--alpha A] [--beta B] [--k K]\n"
	      "                 [--interval S] --out DIR\n"
	      "       spare-sim specon --trace FILE --loss FILE --hosts H --cores-per-host C\n"
	      "                 --schedule static|specon [--alpha A] [--move-cost S] [--cooldown S]\n"
	      "                 [--moves-per-interval M] [--interval S] --out DIR\n"
	      "       spare-sim mip --trace FILE --gpus G --schedule greedy|mip\n"
	      "                 [--solver lp|dp] [--epoch S] --out DIR\n"
	      "       spare-sim dike --model FILE --hosts FILE --flops-per-sample X\n"
	      "                 --batch B [--bytes-per-param N] [--max-parts P]\n"
	      "                 [--exhaustive] --out DIR\n"
	      "       spare-sim dike --random N --seed S --out DIR\n"
	      "       spare-sim ecsim [--donors N] [--racks D] [--codes K+R,...]\n"
	      "                 [--slabs-per-donor S] [--rack-extra X] [--samples M]\n"
	      "                 [--seed S] --out DIR\n"
	      "schedules: fifo fjf sjf shortest shortest-gpu dlas dlas-gpu dlas-gpu-gittins\n",
	      f);
}

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "spare-sim: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return EXIT_BAD_INPUT;
}

static int read_file(const char *path, char **buf, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 0, n = 0;
	char *b = NULL;

	if (!f)
		return -errno;
	for (;;) {
		size_t got;

		if (n == cap) {
			char *nb = realloc(b, cap ? cap * 2 : 65536);

			if (!nb) {
				free(b);
				fclose(f);
				return -ENOMEM;
			}
			b = nb;
			cap = cap ? cap * 2 : 65536;
		}
		got = fread(b + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		free(b);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

/* Non-negative decimal integer, whole string. */
static int parse_i64(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

static int write_file(const char *dir, const char *name, const char *data, size_t len)
{
	char tmp[4096], path[4096];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name);
	f = fopen(tmp, "wb");
	if (!f)
		return -errno;
	if (fwrite(data, 1, len, f) != len)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static int cmd_gen(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "jobs", required_argument, NULL, 'n' },
		{ "gpus", required_argument, NULL, 'g' },
		{ "load", required_argument, NULL, 'l' },
		{ "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "loss", required_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct sim_gen_opts o = { .jobs = 0, .gpus = 0, .load = 0, .seed = 1 };
	const char *out = NULL, *loss = NULL;
	int64_t v;
	char *end;
	int c, ret;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_i64(optarg, &v) || v < 1)
				return bad("--jobs: '%s' is not a positive integer", optarg);
			o.jobs = (size_t)v;
			break;
		case 'g':
			if (parse_i64(optarg, &o.gpus) || o.gpus < 1)
				return bad("--gpus: '%s' is not a positive integer", optarg);
			break;
		case 'l':
			errno = 0;
			o.load = strtod(optarg, &end);
			if (errno || *end || !(o.load > 0) || o.load > 100)
				return bad("--load: '%s' is not a number in (0, 100]", optarg);
			break;
		case 's':
			if (parse_i64(optarg, &v))
				return bad("--seed: '%s' is not a non-negative integer", optarg);
			o.seed = (uint64_t)v;
			break;
		case 'o':
			out = optarg;
			break;
		case 'L':
			loss = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || !o.jobs || !o.gpus || !(o.load > 0)) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	{
		FILE *f = out ? fopen(out, "w") : stdout;

		if (!f)
			return bad("%s: cannot create", out), 1;
		ret = sim_gen_trace(&o, f);
		if ((out && fclose(f)) || ret)
			return bad("%s: write failed", out ? out : "stdout"), 1;
	}
	if (loss) {
		FILE *f = fopen(loss, "w");

		if (!f)
			return bad("%s: cannot create", loss), 1;
		ret = sim_gen_loss(&o, f);
		if (fclose(f) || ret)
			return bad("%s: write failed", loss), 1;
	}
	return 0;
}

/* A finite number in [lo, hi]. */
static int parse_dbl(const char *s, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (!*s || errno || *end || !(*out >= lo && *out <= hi))
		return -EINVAL;
	return 0;
}

/*
 * A Tiresias-format trace (jobs of at most @width GPUs or cores) through the
 * one trace entry point: an elastic trace is refused with what reads it.
 * 0, -EINVAL with the problems printed, or -ENOMEM.
 */
static int parse_rigid_trace(const char *buf, size_t len, int64_t width,
			     struct sim_trace *trace, struct sim_errs *e)
{
	struct sim_any_trace any;
	int ret = sim_parse_any_trace(buf, len, width, &any, e);

	if (!ret && any.kind != SIM_TRACE_RIGID) {
		fprintf(e->out, "%s:1:1: header: an elastic trace (work, gpus, tput): "
			"`spare-sim mip` reads it; this mode needs Tiresias's columns "
			"(job_id,num_gpu,submit_time,iterations,model_name,duration,interval)\n",
			e->file ? e->file : "<input>");
		ret = -EINVAL;
	}
	*trace = any.rigid;
	any.rigid = (struct sim_trace){ 0 };
	sim_any_trace_free(&any);
	return ret;
}

/*
 * Read and check a Tiresias-format trace file (jobs of at most @width
 * cores or GPUs). 0, or the exit status with the problems printed.
 */
static int read_rigid_trace(const char *path, int64_t width, struct sim_trace *trace)
{
	struct sim_errs e = { .out = stderr, .file = path };
	char *buf;
	size_t len;
	int ret;

	if ((ret = read_file(path, &buf, &len)))
		return fprintf(stderr, "%s: %s\n", path, strerror(-ret)), EXIT_BAD_INPUT;
	ret = parse_rigid_trace(buf, len, width, trace, &e);
	free(buf);
	if (ret)
		return ret == -ENOMEM ? 1 : EXIT_BAD_INPUT;
	return 0;
}

/*
 * spare-sim trace: the jobs of a Tiresias-format trace as spare-sim reads
 * them (the same checks, submit order with ties in trace order), one
 * job_id,num_gpu,submit_time,duration row each on standard output: what
 * tests/slurm/replay submits to Slurm.
 */
static int cmd_trace(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trace", required_argument, NULL, 't' },
		{ "gpus", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *path = NULL;
	struct sim_trace t = { 0 };
	int64_t gpus = 0;
	int c, ret;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			path = optarg;
			break;
		case 'g':
			if (parse_i64(optarg, &gpus) || gpus < 1)
				return bad("--gpus: '%s' is not a positive integer", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || !path || !gpus) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if ((ret = read_rigid_trace(path, gpus, &t)))
		return ret;
	printf("job_id,num_gpu,submit_time,duration\n");
	for (size_t i = 0; i < t.n; i++)
		printf("%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n", t.jobs[i].id,
		       t.jobs[i].num_gpu, t.jobs[i].submit, t.jobs[i].duration);
	sim_trace_free(&t);
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}

/*
 * Read and check a trace (jobs of at most @width cores or GPUs) and its loss
 * file. 0, or the exit status with the problems printed.
 */
static int read_trace_loss(const char *trace_path, const char *loss_path, int64_t width,
			   struct sim_trace *trace, struct sim_loss **loss)
{
	struct sim_errs e = { .out = stderr, .file = loss_path };
	char *buf;
	size_t len;
	int ret;

	*loss = NULL;
	if ((ret = read_rigid_trace(trace_path, width, trace)))
		return ret;
	*loss = calloc(trace->n, sizeof(**loss));
	if (!*loss)
		return 1;
	if ((ret = read_file(loss_path, &buf, &len)))
		return fprintf(stderr, "%s: %s\n", loss_path, strerror(-ret)), EXIT_BAD_INPUT;
	ret = sim_parse_loss(buf, len, trace, *loss, &e);
	free(buf);
	if (ret)
		return ret == -ENOMEM ? 1 : EXIT_BAD_INPUT;
	return 0;
}

/* Write DIR/names[k] = bufs[k] (k < 3), each through a rename. 0 or 1. */
static int write_outputs(const char *out, int n, const char *const *names,
			 char *const *bufs, const size_t *lens)
{
	int ret;

	if (mkdir(out, 0777) && errno != EEXIST) {
		fprintf(stderr, "spare-sim: %s: %s\n", out, strerror(errno));
		return 1;
	}
	for (int k = 0; k < n; k++)
		if ((ret = write_file(out, names[k], bufs[k], lens[k]))) {
			fprintf(stderr, "spare-sim: %s: %s\n", out, strerror(-ret));
			return 1;
		}
	return 0;
}

/*
 * A command's two CSV files, built in memory so that a run that fails
 * writes nothing, then written with summary.json by mem_out_write().
 */
struct mem_out {
	FILE	*f[2];
	char	*buf[2];
	size_t	len[2];
};

static int mem_out_open(struct mem_out *m)
{
	m->f[0] = open_memstream(&m->buf[0], &m->len[0]);
	m->f[1] = open_memstream(&m->buf[1], &m->len[1]);
	return m->f[0] && m->f[1] ? 0 : -1;
}

/* Ends the run that wrote into @m: 0, or 1 with the reason printed when
 * the run (@ret, -errno) or a stream failed. */
static int mem_out_close(struct mem_out *m, int ret)
{
	int bad = 0;

	for (int k = 0; k < 2; k++) {
		if (m->f[k] && fclose(m->f[k]))
			bad = 1;
		m->f[k] = NULL;
	}
	if (!ret && !bad)
		return 0;
	fprintf(stderr, "spare-sim: simulation failed: %s\n", strerror(ret ? -ret : EIO));
	return 1;
}

static int mem_out_write(const struct mem_out *m, const char *dir, const char *name0,
			 const char *name1, char *json)
{
	const char *const names[3] = { name0, name1, "summary.json" };
	char *const bufs[3] = { m->buf[0], m->buf[1], json };
	const size_t lens[3] = { m->len[0], m->len[1], strlen(json) };

	return write_outputs(dir, 3, names, bufs, lens);
}

/* As mem_out_write(), for a command with one CSV file (the first). */
static int mem_out_write_one(const struct mem_out *m, const char *dir,
			     const char *name0, char *json)
{
	const char *const names[2] = { name0, "summary.json" };
	char *const bufs[2] = { m->buf[0], json };
	const size_t lens[2] = { m->len[0], strlen(json) };

	return write_outputs(dir, 2, names, bufs, lens);
}

static void mem_out_free(struct mem_out *m)
{
	for (int k = 0; k < 2; k++) {
		if (m->f[k])
			fclose(m->f[k]);
		free(m->buf[k]);
	}
}

static int cmd_flowcon(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trace", required_argument, NULL, 't' },
		{ "loss", required_argument, NULL, 'L' },
		{ "cores", required_argument, NULL, 'c' },
		{ "schedule", required_argument, NULL, 's' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "beta", required_argument, NULL, 'b' },
		{ "k", required_argument, NULL, 'k' },
		{ "interval", required_argument, NULL, 'i' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct sim_flowcon_opts o = { .interval = 10, .fp = flowcon_defaults };
	struct sim_flowcon_summary sum;
	struct sim_trace trace = { 0 };
	struct sim_loss *loss = NULL;
	const char *trace_path = NULL, *loss_path = NULL, *sched = NULL, *out = NULL;
	struct mem_out mo = { 0 };
	char *json = NULL;
	int64_t v;
	double d;
	int c, ret, rc = EXIT_BAD_INPUT;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't': trace_path = optarg; break;
		case 'L': loss_path = optarg; break;
		case 's': sched = optarg; break;
		case 'o': out = optarg; break;
		case 'c':
			if (parse_i64(optarg, &v) || v < 1 || v > 1000000)
				return bad("--cores: '%s' is not an integer in [1, 1e6]", optarg);
			o.cores = (double)v;
			break;
		case 'a':
			if (parse_dbl(optarg, 0, 1e6, &o.fp.alpha))
				return bad("--alpha: '%s' is not a number >= 0", optarg);
			break;
		case 'b':
			if (parse_dbl(optarg, 0, 1, &o.fp.beta) || !(o.fp.beta > 0 && o.fp.beta < 1))
				return bad("--beta: '%s' is not a number in (0, 1)", optarg);
			break;
		case 'k':
			if (parse_i64(optarg, &v) || v < 1 || v > 1000)
				return bad("--k: '%s' is not an integer in [1, 1000]", optarg);
			o.fp.k = (unsigned int)v;
			break;
		case 'i':
			if (parse_dbl(optarg, 1e-3, 86400, &d))
				return bad("--interval: '%s' is not a number in [0.001, 86400]",
					   optarg);
			o.interval = d;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || !trace_path || !loss_path || !sched || !out || !(o.cores > 0)) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (strcmp(sched, "flowcon") == 0)
		o.flowcon = true;
	else if (strcmp(sched, "fair") != 0)
		return bad("--schedule: '%s' is not fair or flowcon", sched);

	/* Read and check everything before writing anything. */
	rc = read_trace_loss(trace_path, loss_path, (int64_t)o.cores, &trace, &loss);
	if (rc)
		goto out;

	rc = 1;
	if (mem_out_open(&mo))
		goto out;
	fputs("t_s,job_id,share_cores,watched\n", mo.f[1]);
	ret = sim_flowcon_run(&trace, loss, &o, mo.f[0], mo.f[1], &sum);
	if (mem_out_close(&mo, ret))
		goto out;
	json = sim_flowcon_json(&o, &sum);
	if (!json || mem_out_write(&mo, out, "job.csv", "shares.csv", json))
		goto out;
	printf("%s: %zu jobs on %g cores, average JCT %.2f s, makespan %.2f s, %zu watched\n",
	       sched, sum.jobs, o.cores, sum.avg_jct, sum.makespan, sum.watched);
	rc = 0;
out:
	mem_out_free(&mo);
	free(json);
	free(loss);
	sim_trace_free(&trace);
	return rc;
}

static int cmd_specon(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trace", required_argument, NULL, 't' },
		{ "loss", required_argument, NULL, 'L' },
		{ "hosts", required_argument, NULL, 'H' },
		{ "cores-per-host", required_argument, NULL, 'c' },
		{ "schedule", required_argument, NULL, 's' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "move-cost", required_argument, NULL, 'm' },
		{ "cooldown", required_argument, NULL, 'C' },
		{ "moves-per-interval", required_argument, NULL, 'M' },
		{ "interval", required_argument, NULL, 'i' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct sim_specon_opts o = { .interval = 10, .per = 1, .sp = specon_defaults };
	struct sim_specon_summary sum;
	struct sim_trace trace = { 0 };
	struct sim_loss *loss = NULL;
	const char *trace_path = NULL, *loss_path = NULL, *sched = NULL, *out = NULL;
	struct mem_out mo = { 0 };
	char *json = NULL;
	int64_t v;
	int c, ret, rc;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't': trace_path = optarg; break;
		case 'L': loss_path = optarg; break;
		case 's': sched = optarg; break;
		case 'o': out = optarg; break;
		case 'H':
			if (parse_i64(optarg, &v) || v < 1 || v > 4096)
				return bad("--hosts: '%s' is not an integer in [1, 4096]", optarg);
			o.hosts = (unsigned int)v;
			break;
		case 'c':
			if (parse_i64(optarg, &v) || v < 1 || v > 1000000)
				return bad("--cores-per-host: '%s' is not an integer in [1, 1e6]",
					   optarg);
			o.cores = (double)v;
			break;
		case 'a':
			if (parse_dbl(optarg, 0, 1, &o.sp.alpha))
				return bad("--alpha: '%s' is not a number in [0, 1]", optarg);
			break;
		case 'm':
			if (parse_dbl(optarg, 0, 86400, &o.sp.move_cost))
				return bad("--move-cost: '%s' is not a number in [0, 86400]",
					   optarg);
			break;
		case 'C':
			if (parse_dbl(optarg, 0, 1e9, &o.sp.cooldown))
				return bad("--cooldown: '%s' is not a number in [0, 1e9]",
					   optarg);
			break;
		case 'M':
			if (parse_i64(optarg, &v) || v < 1 || v > 1000)
				return bad("--moves-per-interval: '%s' is not an integer in [1, 1000]",
					   optarg);
			o.per = (unsigned int)v;
			break;
		case 'i':
			if (parse_dbl(optarg, 1e-3, 86400, &o.interval))
				return bad("--interval: '%s' is not a number in [0.001, 86400]",
					   optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || !trace_path || !loss_path || !sched || !out || !o.hosts ||
	    !(o.cores > 0)) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (strcmp(sched, "specon") == 0)
		o.migrate = true;
	else if (strcmp(sched, "static") != 0)
		return bad("--schedule: '%s' is not static or specon", sched);

	/* Read and check everything before writing anything. */
	rc = read_trace_loss(trace_path, loss_path, (int64_t)o.cores, &trace, &loss);
	if (rc)
		goto out;

	rc = 1;
	if (mem_out_open(&mo))
		goto out;
	fputs("t_s,job_id,from,to,modelled_gain_s\n", mo.f[1]);
	ret = sim_specon_run(&trace, loss, &o, mo.f[0], mo.f[1], &sum);
	if (mem_out_close(&mo, ret))
		goto out;
	json = sim_specon_json(&o, &sum);
	if (!json || mem_out_write(&mo, out, "job.csv", "moves.csv", json))
		goto out;
	printf("%s: %zu jobs on %u x %g cores, average JCT %.2f s, makespan %.2f s, %llu moves\n",
	       sched, sum.jobs, o.hosts, o.cores, sum.avg_jct, sum.makespan,
	       (unsigned long long)sum.moves);
	rc = 0;
out:
	mem_out_free(&mo);
	free(json);
	free(loss);
	sim_trace_free(&trace);
	return rc;
}

static int cmd_mip(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trace", required_argument, NULL, 't' },
		{ "gpus", required_argument, NULL, 'g' },
		{ "schedule", required_argument, NULL, 's' },
		{ "solver", required_argument, NULL, 'S' },
		{ "epoch", required_argument, NULL, 'e' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct sim_mip_trace trace = { 0 };
	double epoch = 0;
	struct sim_mip_summary sum;
	struct sim_errs e = { .out = stderr };
	const char *trace_path = NULL, *sched = NULL, *solver = "lp", *out = NULL;
	enum sim_mip_policy p;
	struct mem_out mo = { 0 };
	char *buf, *json = NULL;
	size_t len;
	int64_t gpus = 0;
	int c, ret, rc;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 't': trace_path = optarg; break;
		case 's': sched = optarg; break;
		case 'S': solver = optarg; break;
		case 'o': out = optarg; break;
		case 'e':
			if (parse_dbl(optarg, 0, 86400, &epoch))
				return bad("--epoch: '%s' is not a number in [0, 86400]", optarg);
			break;
		case 'g':
			if (parse_i64(optarg, &gpus) || gpus < 1 || gpus > 65536)
				return bad("--gpus: '%s' is not an integer in [1, 65536]", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || !trace_path || !sched || !out || !gpus) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (strcmp(solver, "lp") && strcmp(solver, "dp"))
		return bad("--solver: '%s' is not lp or dp", solver);
	if (strcmp(sched, "greedy") == 0)
		p = SIM_MIP_GREEDY;
	else if (strcmp(sched, "mip") == 0)
		p = strcmp(solver, "dp") ? SIM_MIP_LP : SIM_MIP_DP;
	else
		return bad("--schedule: '%s' is not greedy or mip", sched);

	/* Read and check everything before writing anything. */
	e.file = trace_path;
	if ((ret = read_file(trace_path, &buf, &len)))
		return fprintf(stderr, "%s: %s\n", trace_path, strerror(-ret)), EXIT_BAD_INPUT;
	{
		struct sim_any_trace any;

		ret = sim_parse_any_trace(buf, len, gpus, &any, &e);
		if (!ret && any.kind == SIM_TRACE_RIGID) {
			/* spare-sim gen's trace (Tiresias's columns): rigid jobs */
			ret = sim_mip_from_rigid(&any.rigid, &trace, &e);
		} else if (!ret) {
			trace = any.elastic;
			any.elastic = (struct sim_mip_trace){ 0 };
		}
		sim_any_trace_free(&any);
	}
	free(buf);
	if (ret)
		return ret == -ENOMEM ? 1 : EXIT_BAD_INPUT;

	rc = 1;
	if (mem_out_open(&mo))
		goto out;
	ret = sim_mip_run(&trace, (unsigned int)gpus, p, epoch, mo.f[0], mo.f[1], &sum);
	if (mem_out_close(&mo, ret))
		goto out;
	json = sim_mip_json((unsigned int)gpus, p, epoch, &sum);
	if (!json || mem_out_write(&mo, out, "job.csv", "alloc.csv", json))
		goto out;
	printf("%s: %zu jobs on %lld GPUs, mean queueing %.1f s, mean JCT %.1f s, "
	       "efficiency %.1f work/GPU-h, %llu decisions, %.6f s each\n",
	       sched, sum.jobs, (long long)gpus, sum.mean_queue, sum.mean_jct,
	       sum.efficiency, (unsigned long long)sum.decisions,
	       sum.decisions ? sum.decide_s / (double)sum.decisions : 0);
	rc = 0;
out:
	mem_out_free(&mo);
	free(json);
	sim_mip_trace_free(&trace);
	return rc;
}

/* spare-sim dike --random N --seed S: the search against the optimum. */
static int dike_random_cmd(unsigned int n, uint64_t seed, const char *out)
{
	struct sim_dike_random_summary sum;
	struct mem_out mo = { 0 };
	char *json = NULL;
	int ret, rc = 1;

	if (mem_out_open(&mo))
		goto out;
	ret = sim_dike_random(n, seed, mo.f[0], &sum);
	if (mem_out_close(&mo, ret))
		goto out;
	json = sim_dike_random_json(seed, &sum);
	/* The second stream stays empty: the instances are in random.csv. */
	if (!json || mem_out_write_one(&mo, out, "random.csv", json))
		goto out;
	printf("dike: %u random instances from seed %llu: search / optimum mean %.4f, min %.4f (seed %llu), %u below 0.95\n",
	       sum.instances, (unsigned long long)seed, sum.mean_ratio,
	       sum.min_ratio, (unsigned long long)sum.worst_seed, sum.below);
	rc = 0;
out:
	mem_out_free(&mo);
	free(json);
	return rc;
}

/* "4+2,8+2": the codes, K in 1..8, R in 1..2. 0 or -1. */
static int parse_codes(const char *arg, unsigned int (*codes)[2], unsigned int *n,
		       unsigned int max)
{
	const char *p = arg;

	*n = 0;
	while (*p) {
		unsigned int k, r;
		int used = 0;

		if (*n == max || sscanf(p, "%u+%u%n", &k, &r, &used) != 2 || !used ||
		    k < 1 || k > 8 || r < 1 || r > 2)
			return -1;
		codes[*n][0] = k;
		codes[(*n)++][1] = r;
		p += used;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return -1;
	}
	return *n ? 0 : -1;
}

static void ecsim_row(FILE *f, const struct sim_ec_cluster *c, const char *model,
		      const struct sim_ec_point *p)
{
	fprintf(f, "%u+%u,%s,%u,%u,%u,%zu,%llu,%llu,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e,%.6e\n",
		c->k, c->r, model, p->f, c->donors, c->racks, c->ngroups,
		(unsigned long long)c->stripes, (unsigned long long)p->samples,
		p->p_loss_group, p->p_loss_random, p->p_loss_random_ci, p->p_loss_allsets,
		p->p_loss_allsets_ci, p->frac_group, p->frac_random);
}

/* spare-sim ecsim: random against group placement of K+R stripes (sim_ec.h). */
static int cmd_ecsim(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "donors", required_argument, NULL, 'n' },
		{ "racks", required_argument, NULL, 'r' },
		{ "codes", required_argument, NULL, 'c' },
		{ "slabs-per-donor", required_argument, NULL, 'S' },
		{ "rack-extra", required_argument, NULL, 'x' },
		{ "samples", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int64_t donors = 1000, racks = 40, per = 32, extra = 3, samples = 100000, seed = 1;
	unsigned int codes[8][2] = { { 2, 1 }, { 4, 2 }, { 8, 2 } }, ncodes = 3;
	const char *out = NULL;
	struct mem_out mo = { 0 };
	char json[512];
	int c, ret = 0, rc = 1;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (parse_i64(optarg, &donors) || donors < 1 || donors > SIM_EC_MAX_DONORS)
				return bad("--donors: '%s' is not an integer in [1, 100000]", optarg);
			break;
		case 'r':
			if (parse_i64(optarg, &racks) || racks < 1 || racks > SIM_EC_MAX_DONORS)
				return bad("--racks: '%s' is not an integer in [1, 100000]", optarg);
			break;
		case 'c':
			if (parse_codes(optarg, codes, &ncodes, 8))
				return bad("--codes: '%s' is not a list of K+R (K 1-8, R 1-2), e.g. 4+2,8+2",
					   optarg);
			break;
		case 'S':
			if (parse_i64(optarg, &per) || per < 1 || per > 1000000)
				return bad("--slabs-per-donor: '%s' is not an integer in [1, 1000000]",
					   optarg);
			break;
		case 'x':
			if (parse_i64(optarg, &extra) || extra < 0 || extra > SIM_EC_MAX_FAIL)
				return bad("--rack-extra: '%s' is not an integer in [0, 16]", optarg);
			break;
		case 'm':
			if (parse_i64(optarg, &samples) || samples < 1 || samples > 100000000)
				return bad("--samples: '%s' is not an integer in [1, 1e8]", optarg);
			break;
		case 's':
			if (parse_i64(optarg, &seed))
				return bad("--seed: '%s' is not an integer", optarg);
			break;
		case 'o': out = optarg; break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || !out) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	for (unsigned int i = 0; i < ncodes; i++) {
		unsigned int w = codes[i][0] + codes[i][1];

		if (racks < w || racks > donors) {
			fprintf(stderr, "spare-sim: ecsim: %u+%u needs %u racks of donors; --racks %lld, --donors %lld\n",
				codes[i][0], codes[i][1], w, (long long)racks, (long long)donors);
			return EXIT_BAD_INPUT;
		}
		if (extra + donors / racks + 1 > donors) {
			fprintf(stderr, "spare-sim: ecsim: --rack-extra %lld: more donors than the other racks hold\n",
				(long long)extra);
			return EXIT_BAD_INPUT;
		}
	}
	if (mem_out_open(&mo))
		goto out;
	fputs("code,model,failed,donors,racks,groups,stripes,samples,p_loss_group,p_loss_random,"
	      "p_loss_random_ci95,p_loss_allsets,p_loss_allsets_ci95,frac_lost_group,frac_lost_random\n",
	      mo.f[0]);
	for (unsigned int i = 0; i < ncodes && !ret; i++) {
		struct sim_ec_cluster cl = {
			.donors = (unsigned int)donors, .racks = (unsigned int)racks,
			.k = codes[i][0], .r = codes[i][1],
		};
		struct sim_ec_point p;

		cl.stripes = (uint64_t)donors * (uint64_t)per / (cl.k + cl.r);
		ret = sim_ec_init(&cl);
		if (ret) {
			fprintf(stderr, "spare-sim: ecsim: %u+%u: %lld slabs per donor make fewer stripes than groups\n",
				cl.k, cl.r, (long long)per);
			break;
		}
		for (unsigned int f = 2; f <= cl.r + 3 && !ret; f++) {
			ret = sim_ec_point(&cl, SIM_EC_RANDOM_F, f, (uint64_t)samples,
					   (uint64_t)seed, &p);
			if (!ret)
				ecsim_row(mo.f[0], &cl, "random-f", &p);
		}
		for (unsigned int x = 0; x <= extra && !ret; x++) {
			ret = sim_ec_point(&cl, SIM_EC_RACK_PLUS, x, (uint64_t)samples,
					   (uint64_t)seed, &p);
			if (!ret)
				ecsim_row(mo.f[0], &cl, "rack+x", &p);
		}
		printf("ecsim: %u+%u: %lld donors in %lld racks, %zu groups, %llu stripes\n",
		       cl.k, cl.r, (long long)donors, (long long)racks, cl.ngroups,
		       (unsigned long long)cl.stripes);
		sim_ec_free(&cl);
	}
	if (mem_out_close(&mo, ret))
		goto out;
	snprintf(json, sizeof(json),
		 "{\"donors\": %lld, \"racks\": %lld, \"slabs_per_donor\": %lld, "
		 "\"rack_extra\": %lld, \"samples\": %lld, \"seed\": %lld}\n",
		 (long long)donors, (long long)racks, (long long)per, (long long)extra,
		 (long long)samples, (long long)seed);
	if (mem_out_write_one(&mo, out, "ecsim.csv", json))
		goto out;
	rc = 0;
out:
	mem_out_free(&mo);
	return rc;
}

static int cmd_dike(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "model", required_argument, NULL, 'm' },
		{ "hosts", required_argument, NULL, 'H' },
		{ "flops-per-sample", required_argument, NULL, 'f' },
		{ "batch", required_argument, NULL, 'b' },
		{ "bytes-per-param", required_argument, NULL, 'B' },
		{ "max-parts", required_argument, NULL, 'p' },
		{ "exhaustive", no_argument, NULL, 'x' },
		{ "random", required_argument, NULL, 'r' },
		{ "seed", required_argument, NULL, 'S' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	static struct dike_layer layers[DIKE_MAX_LAYERS];
	struct dike_host hosts[DIKE_MAX_HOSTS];
	struct dike_model m = { .bytes_per_param = 4 };
	struct dike_place p, po;
	struct dike_cost cost, co;
	struct sim_errs e = { .out = stderr };
	const char *model_path = NULL, *hosts_path = NULL, *out = NULL;
	struct mem_out mo = { 0 };
	char *buf, *json = NULL;
	size_t len;
	unsigned int nhosts = 0, max_parts = 4, random = 0;
	bool exhaustive = false, model_opts = false, have_seed = false;
	uint64_t seed = 0;
	int64_t v;
	int c, ret, rc;

	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'r' && c != 'S' && c != 'o' && c != 'h')
			model_opts = true;
		switch (c) {
		case 'm': model_path = optarg; break;
		case 'H': hosts_path = optarg; break;
		case 'o': out = optarg; break;
		case 'x': exhaustive = true; break;
		case 'r':
			if (parse_i64(optarg, &v) || v < 1 || v > 1000000)
				return bad("--random: '%s' is not an integer in [1, 1e6]",
					   optarg);
			random = (unsigned int)v;
			break;
		case 'S':
			if (parse_i64(optarg, &v) || v < 0 ||
			    v > INT64_MAX - 1000000)
				return bad("--seed: '%s' is not a non-negative integer",
					   optarg);
			seed = (uint64_t)v;
			have_seed = true;
			break;
		case 'f':
			if (parse_dbl(optarg, 1e-300, 1e18, &m.flops_per_sample))
				return bad("--flops-per-sample: '%s' is not a number in (0, 1e18]",
					   optarg);
			break;
		case 'b':
			if (parse_dbl(optarg, 1e-300, 1e9, &m.batch))
				return bad("--batch: '%s' is not a number in (0, 1e9]", optarg);
			break;
		case 'B':
			if (parse_dbl(optarg, 1e-300, 64, &m.bytes_per_param))
				return bad("--bytes-per-param: '%s' is not a number in (0, 64]",
					   optarg);
			break;
		case 'p':
			if (parse_i64(optarg, &v) || v < 1 || v > DIKE_MAX_PARTS)
				return bad("--max-parts: '%s' is not an integer in [1, 16]",
					   optarg);
			max_parts = (unsigned int)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (random || have_seed) {
		if (!random || !have_seed || model_opts || optind != argc || !out) {
			fputs("spare-sim: dike --random N takes --seed S and --out DIR, and no model or hosts\n",
			      stderr);
			return EXIT_BAD_INPUT;
		}
		return dike_random_cmd(random, seed, out);
	}
	if (optind != argc || !model_path || !hosts_path || !out ||
	    !(m.flops_per_sample > 0) || !(m.batch > 0)) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}

	/* Read and check everything before writing anything. */
	e.file = model_path;
	if ((ret = read_file(model_path, &buf, &len)))
		return fprintf(stderr, "%s: %s\n", model_path, strerror(-ret)), EXIT_BAD_INPUT;
	ret = sim_parse_dike_model(buf, len, layers, &m.nlayers, &e);
	free(buf);
	e.file = hosts_path;
	if ((rc = read_file(hosts_path, &buf, &len)))
		return fprintf(stderr, "%s: %s\n", hosts_path, strerror(-rc)), EXIT_BAD_INPUT;
	rc = sim_parse_dike_hosts(buf, len, hosts, &nhosts, &e);
	free(buf);
	if (ret || rc)
		return EXIT_BAD_INPUT;
	m.layers = layers;
	if (dike_check(&m, hosts, nhosts, max_parts))
		return bad("%s: the model and hosts are not a valid Dike instance", model_path);
	if (dike_search(&m, hosts, nhosts, max_parts, &p, &cost))
		return bad("%s: no placement found", model_path), 1;
	if (exhaustive) {
		ret = dike_exhaustive(&m, hosts, nhosts, max_parts, &po, &co);
		if (ret == -E2BIG)
			return bad("--exhaustive: %s",
				   "at most 4 hosts, 4 partitions and 4 GPUs per host");
		if (ret)
			return bad("%s: the exhaustive search failed", model_path), 1;
	}

	rc = 1;
	if (mem_out_open(&mo))
		goto out;
	ret = sim_dike_write(&m, hosts, nhosts, max_parts, &p, &cost,
			     exhaustive ? &co : NULL, mo.f[0], mo.f[1], &json);
	if (mem_out_close(&mo, ret) ||
	    mem_out_write(&mo, out, "placement.csv", "partitions.csv", json))
		goto out;
	printf("dike: %u layers on %u hosts: %.3f samples/s", m.nlayers, nhosts,
	       cost.throughput);
	if (exhaustive)
		printf(", optimum %.3f (%.4f)", co.throughput, cost.throughput / co.throughput);
	printf(", %u partitions\n", p.nparts);
	rc = 0;
out:
	mem_out_free(&mo);
	free(json);
	return rc;
}

int spare_sim_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cluster-spec", required_argument, NULL, 'c' },
		{ "trace", required_argument, NULL, 't' },
		{ "schedule", required_argument, NULL, 's' },
		{ "queue-limits", required_argument, NULL, 'q' },
		{ "promote", required_argument, NULL, 'p' },
		{ "faithful", no_argument, NULL, 'f' },
		{ "gittins-dist", required_argument, NULL, 'g' },
		{ "gittins-delta", required_argument, NULL, 'd' },
		{ "start-cost", required_argument, NULL, 'S' },
		{ "requeue-delay", required_argument, NULL, 'R' },
		{ "decision-interval", required_argument, NULL, 'D' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int64_t start_cost = 0, requeue_delay = 0, decision_interval = 0;
	const char *spec_path = NULL, *trace_path = NULL, *sched = NULL, *limits = NULL;
	const char *gdist_path = NULL, *out = NULL;
	struct tir_config cfg;
	struct tir_gittins g = { .delta = TIR_DEFAULT_GITTINS_DELTA };
	struct sim_spec spec;
	struct sim_trace trace = { 0 };
	struct sim_summary sum;
	struct sim_errs e = { .out = stderr };
	enum tir_schedule s;
	double promote = 0;
	bool faithful = false;
	struct mem_out mo = { 0 };
	char *buf = NULL, *json = NULL, *end;
	size_t len;
	int64_t *gdur = NULL;
	int c, ret, rc = EXIT_BAD_INPUT;

	optind = 0;	/* callable more than once (the unit tests do) */
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("spare-sim %s\n", spare_version());
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "gen") == 0)
		return cmd_gen(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "trace") == 0)
		return cmd_trace(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "flowcon") == 0)
		return cmd_flowcon(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "specon") == 0)
		return cmd_specon(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "mip") == 0)
		return cmd_mip(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "dike") == 0)
		return cmd_dike(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "ecsim") == 0)
		return cmd_ecsim(argc - 1, argv + 1);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c': spec_path = optarg; break;
		case 't': trace_path = optarg; break;
		case 's': sched = optarg; break;
		case 'q': limits = optarg; break;
		case 'f': faithful = true; break;
		case 'g': gdist_path = optarg; break;
		case 'o': out = optarg; break;
		case 'p':
			errno = 0;
			promote = strtod(optarg, &end);
			if (errno || *end || !(promote >= 0) || promote > 1e6)
				return bad("--promote: '%s' is not a number in [0, 1e6]", optarg);
			break;
		case 'd':
			if (parse_i64(optarg, &g.delta) || g.delta < 1)
				return bad("--gittins-delta: '%s' is not a positive integer", optarg);
			break;
		case 'S':
			if (parse_i64(optarg, &start_cost) || start_cost < 0 ||
			    start_cost > TIR_MAX_COST)
				return bad("--start-cost: '%s' is not an integer in [0, 1000000000] "
					   "(seconds)", optarg);
			break;
		case 'R':
			if (parse_i64(optarg, &requeue_delay) || requeue_delay < 0 ||
			    requeue_delay > TIR_MAX_COST)
				return bad("--requeue-delay: '%s' is not an integer in [0, 1000000000] "
					   "(seconds)", optarg);
			break;
		case 'D':
			if (parse_i64(optarg, &decision_interval) || decision_interval < 0 ||
			    decision_interval > TIR_MAX_COST)
				return bad("--decision-interval: '%s' is not an integer in "
					   "[0, 1000000000] (seconds)", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc || !spec_path || !trace_path || !sched || !out) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (tir_schedule_parse(sched, &s))
		return bad("--schedule: unknown schedule '%s'", sched);
	if (tir_schedule_needs_gittins(s) && !gdist_path)
		return bad("--schedule %s needs --gittins-dist", sched);

	/* Read and check everything before writing anything. */
	e.file = spec_path;
	if ((ret = read_file(spec_path, &buf, &len)))
		return fprintf(stderr, "%s: %s\n", spec_path, strerror(-ret)), EXIT_BAD_INPUT;
	ret = sim_parse_spec(buf, len, &spec, &e);
	free(buf);
	if (ret)
		return EXIT_BAD_INPUT;
	tir_config_init(&cfg, s, spec.gpus);
	cfg.faithful = faithful;
	cfg.promote = promote;
	cfg.start_cost = start_cost;
	cfg.requeue_delay = requeue_delay;
	cfg.decision_interval = decision_interval;
	if (limits && tir_parse_limits(limits, &cfg))
		return bad("--queue-limits: '%s' is not increasing positive integers a,b,...",
			   limits);

	if ((ret = read_rigid_trace(trace_path, spec.gpus, &trace)))
		return ret;

	if (tir_schedule_needs_gittins(s)) {
		e.file = gdist_path;
		if ((ret = read_file(gdist_path, &buf, &len))) {
			fprintf(stderr, "%s: %s\n", gdist_path, strerror(-ret));
			goto out;
		}
		ret = sim_parse_durations(buf, len, &gdur, &g.n, &e);
		free(buf);
		if (ret)
			goto out;
		g.dur = gdur;
		g.faithful = faithful;
		g.table = calloc(g.n + 1, sizeof(double));
		if (!g.table || tir_gittins_init(&g)) {
			rc = 1;
			goto out;
		}
		cfg.gittins = &g;
	}

	rc = 1;
	if (mem_out_open(&mo))
		goto out;
	ret = sim_run(&spec, &trace, &cfg, mo.f[0], mo.f[1], &sum);
	if (mem_out_close(&mo, ret))
		goto out;
	json = sim_summary_json(&cfg, &sum);
	if (!json || mem_out_write(&mo, out, "job.csv", "cluster.csv", json))
		goto out;
	printf("%s: %zu jobs, average JCT %.2f s, makespan %lld s\n",
	       tir_schedule_name(s), sum.jobs, sum.avg_jct, (long long)sum.makespan);
	rc = 0;
out:
	mem_out_free(&mo);
	free(json);
	free(gdur);
	free(g.table);
	sim_trace_free(&trace);
	return rc;
}
