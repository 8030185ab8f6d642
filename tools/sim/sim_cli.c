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
#include <float.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim.h"
#include "sim_ec.h"
#include "spare_util.h"
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
	      "                 [--loss FILE] [--dur-min S] [--dur-max S]\n"
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

/* What an option's value is, and where parse_opts() stores it. */
enum opt_kind {
	OPT_STR,	/* const char * */
	OPT_FLAG,	/* bool, set when given; no value */
	OPT_INT,	/* int64_t in [min, max] (parse_i64) */
	OPT_DBL,	/* double in [lo, hi] (parse_dbl) */
};

/* One option of a command (--help is every command's). */
struct opt {
	const char	*name;		/* without the "--" */
	enum opt_kind	kind;
	void		*val;
	const char	*range;		/* numbers: "VALUE is not <range>" */
	int64_t		min, max;	/* OPT_INT */
	double		lo, hi;		/* OPT_DBL */
	bool		need;		/* the command cannot run without it */
};

/* The entries of a command's table; the need, if any, as `.need = true`. */
#define STR_OPT(n, p, ...)	{ .name = (n), .kind = OPT_STR, .val = (p), __VA_ARGS__ }
#define FLAG_OPT(n, p)		{ .name = (n), .kind = OPT_FLAG, .val = (p) }
#define INT_OPT(n, p, r, a, b, ...) \
	{ .name = (n), .kind = OPT_INT, .val = (p), .range = (r), .min = (a), .max = (b), \
	  __VA_ARGS__ }
#define DBL_OPT(n, p, r, a, b, ...) \
	{ .name = (n), .kind = OPT_DBL, .val = (p), .range = (r), .lo = (a), .hi = (b), \
	  __VA_ARGS__ }

#define MAX_OPTS	16
#define OPTS_HELP	(-1)

/*
 * A command's arguments (argv[0] its name) against its @n options: each
 * value stored as its kind says, bit k of *@seen (if @seen) set when
 * opts[k] was given. 0; OPTS_HELP after --help, the usage on stdout; or
 * EXIT_BAD_INPUT with the problem printed: a number that does not parse or
 * is out of its range as "spare-sim: --NAME: 'VALUE' is not RANGE"; an
 * unknown option, an argument that is not an option, or a needed option
 * missing with the usage.
 */
static int parse_opts(int argc, char **argv, const struct opt *opts, size_t n,
		      uint32_t *seen)
{
	struct option lo[MAX_OPTS + 2] = { { "help", no_argument, NULL, 'h' } };
	uint32_t got = 0;
	int c;

	if (n > MAX_OPTS)
		return bad("%s: more options than MAX_OPTS", argv[0]), 1;
	for (size_t k = 0; k < n; k++)
		lo[k + 1] = (struct option){
			.name = opts[k].name, .val = 256 + (int)k,
			.has_arg = opts[k].kind == OPT_FLAG ? no_argument : required_argument,
		};
	optind = 0;	/* callable more than once (the unit tests do) */
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		const struct opt *o;
		int64_t *iv;

		if (c == 'h') {
			usage(stdout);
			return OPTS_HELP;
		}
		if (c < 256)
			break;	/* getopt_long() has said what it was */
		o = &opts[c - 256];
		iv = o->val;
		got |= 1u << (c - 256);
		if (o->kind == OPT_STR)
			*(const char **)o->val = optarg;
		else if (o->kind == OPT_FLAG)
			*(bool *)o->val = true;
		else if (o->kind == OPT_INT ?
			 parse_i64(optarg, iv) || *iv < o->min || *iv > o->max :
			 parse_dbl(optarg, o->lo, o->hi, o->val)) {
			fprintf(stderr, "spare-sim: --%s: '%s' is not %s\n", o->name, optarg,
				o->range);
			return EXIT_BAD_INPUT;
		}
	}
	for (size_t k = 0; k < n && c == -1; k++)
		if (opts[k].need && !(got & (1u << k)))
			c = 0;
	if (c != -1 || optind != argc) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (seen)
		*seen = got;
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
	struct sim_gen_opts o = { .jobs = 0, .gpus = 0, .load = 0, .seed = 1 };
	const char *out = NULL, *loss = NULL;
	int64_t jobs = 0, seed = 1;
	const struct opt opts[] = {
		INT_OPT("jobs", &jobs, "a positive integer", 1, INT64_MAX, .need = true),
		INT_OPT("gpus", &o.gpus, "a positive integer", 1, INT64_MAX, .need = true),
		DBL_OPT("load", &o.load, "a number in (0, 100]", DBL_TRUE_MIN, 100, .need = true),
		INT_OPT("seed", &seed, "a non-negative integer", 0, INT64_MAX),
		DBL_OPT("dur-min", &o.dur_min, "a number of seconds, at least 1", 1, 1e9),
		DBL_OPT("dur-max", &o.dur_max, "a number of seconds, at most 1e9", 1, 1e9),
		STR_OPT("out", &out),
		STR_OPT("loss", &loss),
	};
	int ret = parse_opts(argc, argv, opts, ARRAY_SIZE(opts), NULL);

	if (ret)
		return ret == OPTS_HELP ? 0 : ret;
	if ((o.dur_min > 0 ? o.dur_min : 60) >= (o.dur_max > 0 ? o.dur_max : 36000))
		return bad("--dur-min must be below --dur-max (%s when not given)", "60 and 36000");
	o.jobs = (size_t)jobs;
	o.seed = (uint64_t)seed;
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
	const char *path = NULL;
	struct sim_trace t = { 0 };
	int64_t gpus = 0;
	const struct opt opts[] = {
		STR_OPT("trace", &path, .need = true),
		INT_OPT("gpus", &gpus, "a positive integer", 1, INT64_MAX, .need = true),
	};
	int ret = parse_opts(argc, argv, opts, ARRAY_SIZE(opts), NULL);

	if (ret)
		return ret == OPTS_HELP ? 0 : ret;
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

/*
 * Ends the run that wrote into @m (@ret as for mem_out_close()) and writes
 * its two CSV files as @name0 and @name1 in @dir, with @json as
 * summary.json: 0, or 1 with the reason printed. @json NULL after a run
 * that succeeded is an allocation that failed.
 */
static int mem_out_end(struct mem_out *m, int ret, const char *dir, const char *name0,
		       const char *name1, char *json)
{
	if (!ret && !json)
		ret = -ENOMEM;
	if (mem_out_close(m, ret))
		return 1;
	return mem_out_write(m, dir, name0, name1, json);
}

static void mem_out_free(struct mem_out *m)
{
	for (int k = 0; k < 2; k++) {
		if (m->f[k])
			fclose(m->f[k]);
		free(m->buf[k]);
	}
}

/* A CPU-pool command, flowcon or specon, once its options are read. */
struct pool_cmd {
	const char			*trace_path, *loss_path, *sched, *out;
	double				cores;	/* per host: the widest job */
	const struct sim_flowcon_opts	*fo;	/* flowcon's, or NULL: specon */
	const struct sim_specon_opts	*so;
	const char			*off, *on;	/* the two schedules */
	bool				*flag;		/* set by `on` */
};

/*
 * Reads and checks the trace and its losses, runs the simulation, writes
 * job.csv, its second table and summary.json into pc->out. 0 or the exit
 * status, the problem printed.
 */
static int pool_run(const struct pool_cmd *pc)
{
	struct sim_flowcon_summary fs;
	struct sim_specon_summary ss;
	struct sim_trace trace = { 0 };
	struct sim_loss *loss = NULL;
	struct mem_out mo = { 0 };
	char *json = NULL;
	int ret, rc;

	if (strcmp(pc->sched, pc->on) == 0) {
		*pc->flag = true;
	} else if (strcmp(pc->sched, pc->off) != 0) {
		fprintf(stderr, "spare-sim: --schedule: '%s' is not %s or %s\n", pc->sched,
			pc->off, pc->on);
		return EXIT_BAD_INPUT;
	}
	/* Read and check everything before writing anything. */
	rc = read_trace_loss(pc->trace_path, pc->loss_path, (int64_t)pc->cores, &trace, &loss);
	if (rc)
		goto out;

	rc = 1;
	if (mem_out_open(&mo))
		goto out;
	if (pc->fo) {
		fputs("t_s,job_id,share_cores,watched\n", mo.f[1]);
		ret = sim_flowcon_run(&trace, loss, pc->fo, mo.f[0], mo.f[1], &fs);
		json = ret ? NULL : sim_flowcon_json(pc->fo, &fs);
	} else {
		fputs("t_s,job_id,from,to,modelled_gain_s\n", mo.f[1]);
		ret = sim_specon_run(&trace, loss, pc->so, mo.f[0], mo.f[1], &ss);
		json = ret ? NULL : sim_specon_json(pc->so, &ss);
	}
	if (mem_out_end(&mo, ret, pc->out, "job.csv", pc->fo ? "shares.csv" : "moves.csv", json))
		goto out;
	if (pc->fo)
		printf("%s: %zu jobs on %g cores, average JCT %.2f s, makespan %.2f s, %zu watched\n",
		       pc->sched, fs.jobs, pc->cores, fs.avg_jct, fs.makespan, fs.watched);
	else
		printf("%s: %zu jobs on %u x %g cores, average JCT %.2f s, makespan %.2f s, "
		       "%llu moves\n", pc->sched, ss.jobs, pc->so->hosts, pc->cores, ss.avg_jct,
		       ss.makespan, (unsigned long long)ss.moves);
	rc = 0;
out:
	mem_out_free(&mo);
	free(json);
	free(loss);
	sim_trace_free(&trace);
	return rc;
}

/* The options flowcon and specon share, into @pc (a struct pool_cmd). */
#define POOL_OPTS(pc, interval)								\
	STR_OPT("trace", &(pc).trace_path, .need = true),					\
	STR_OPT("loss", &(pc).loss_path, .need = true),						\
	STR_OPT("schedule", &(pc).sched, .need = true),						\
	DBL_OPT("interval", (interval), "a number in [0.001, 86400]", 1e-3, 86400),		\
	STR_OPT("out", &(pc).out, .need = true)

static int cmd_flowcon(int argc, char **argv)
{
	struct sim_flowcon_opts o = { .interval = 10, .fp = flowcon_defaults };
	struct pool_cmd pc = { .fo = &o, .off = "fair", .on = "flowcon", .flag = &o.flowcon };
	int64_t cores = 0, k = o.fp.k;
	const struct opt opts[] = {
		POOL_OPTS(pc, &o.interval),
		INT_OPT("cores", &cores, "an integer in [1, 1e6]", 1, 1000000, .need = true),
		DBL_OPT("alpha", &o.fp.alpha, "a number >= 0", 0, 1e6),
		DBL_OPT("beta", &o.fp.beta, "a number in (0, 1)", DBL_TRUE_MIN, 1 - DBL_EPSILON / 2),
		INT_OPT("k", &k, "an integer in [1, 1000]", 1, 1000),
	};
	int rc = parse_opts(argc, argv, opts, ARRAY_SIZE(opts), NULL);

	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	o.fp.k = (unsigned int)k;
	pc.cores = o.cores = (double)cores;
	return pool_run(&pc);
}

static int cmd_specon(int argc, char **argv)
{
	struct sim_specon_opts o = { .interval = 10, .per = 1, .sp = specon_defaults };
	struct pool_cmd pc = { .so = &o, .off = "static", .on = "specon", .flag = &o.migrate };
	int64_t hosts = 0, cores = 0, per = o.per;
	const struct opt opts[] = {
		POOL_OPTS(pc, &o.interval),
		INT_OPT("hosts", &hosts, "an integer in [1, 4096]", 1, 4096, .need = true),
		INT_OPT("cores-per-host", &cores, "an integer in [1, 1e6]", 1, 1000000, .need = true),
		DBL_OPT("alpha", &o.sp.alpha, "a number in [0, 1]", 0, 1),
		DBL_OPT("move-cost", &o.sp.move_cost, "a number in [0, 86400]", 0, 86400),
		DBL_OPT("cooldown", &o.sp.cooldown, "a number in [0, 1e9]", 0, 1e9),
		INT_OPT("moves-per-interval", &per, "an integer in [1, 1000]", 1, 1000),
	};
	int rc = parse_opts(argc, argv, opts, ARRAY_SIZE(opts), NULL);

	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	o.hosts = (unsigned int)hosts;
	o.per = (unsigned int)per;
	pc.cores = o.cores = (double)cores;
	return pool_run(&pc);
}

static int cmd_mip(int argc, char **argv)
{
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
	const struct opt opts[] = {
		STR_OPT("trace", &trace_path, .need = true),
		INT_OPT("gpus", &gpus, "an integer in [1, 65536]", 1, 65536, .need = true),
		STR_OPT("schedule", &sched, .need = true),
		STR_OPT("solver", &solver),
		DBL_OPT("epoch", &epoch, "a number in [0, 86400]", 0, 86400),
		STR_OPT("out", &out, .need = true),
	};
	int ret, rc = parse_opts(argc, argv, opts, ARRAY_SIZE(opts), NULL);

	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
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
	json = ret ? NULL : sim_mip_json((unsigned int)gpus, p, epoch, &sum);
	if (mem_out_end(&mo, ret, out, "job.csv", "alloc.csv", json))
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
	int64_t donors = 1000, racks = 40, per = 32, extra = 3, samples = 100000, seed = 1;
	unsigned int codes[8][2] = { { 2, 1 }, { 4, 2 }, { 8, 2 } }, ncodes = 3;
	const char *out = NULL, *codes_arg = NULL;
	struct mem_out mo = { 0 };
	char json[512];
	const struct opt opts[] = {
		INT_OPT("donors", &donors, "an integer in [1, 100000]", 1, SIM_EC_MAX_DONORS),
		INT_OPT("racks", &racks, "an integer in [1, 100000]", 1, SIM_EC_MAX_DONORS),
		STR_OPT("codes", &codes_arg),
		INT_OPT("slabs-per-donor", &per, "an integer in [1, 1000000]", 1, 1000000),
		INT_OPT("rack-extra", &extra, "an integer in [0, 16]", 0, SIM_EC_MAX_FAIL),
		INT_OPT("samples", &samples, "an integer in [1, 1e8]", 1, 100000000),
		INT_OPT("seed", &seed, "an integer", 0, INT64_MAX),
		STR_OPT("out", &out, .need = true),
	};
	int ret, rc = parse_opts(argc, argv, opts, ARRAY_SIZE(opts), NULL);

	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	if (codes_arg && parse_codes(codes_arg, codes, &ncodes, 8))
		return bad("--codes: '%s' is not a list of K+R (K 1-8, R 1-2), e.g. 4+2,8+2",
			   codes_arg);
	ret = 0;
	rc = 1;
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
	unsigned int nhosts = 0;
	bool exhaustive = false;
	int64_t max_parts = 4, random = 0, seed = 0;
	uint32_t seen;
	/* --random and --seed make the random mode; the options before them are
	 * the model's */
	enum { D_MODEL, D_HOSTS, D_FLOPS, D_BATCH, D_BYTES, D_PARTS, D_EXH, D_RANDOM, D_SEED, D_OUT };
	const struct opt opts[] = {
		[D_MODEL] = STR_OPT("model", &model_path),
		[D_HOSTS] = STR_OPT("hosts", &hosts_path),
		[D_FLOPS] = DBL_OPT("flops-per-sample", &m.flops_per_sample,
				     "a number in (0, 1e18]", 1e-300, 1e18),
		[D_BATCH] = DBL_OPT("batch", &m.batch, "a number in (0, 1e9]", 1e-300, 1e9),
		[D_BYTES] = DBL_OPT("bytes-per-param", &m.bytes_per_param, "a number in (0, 64]",
				     1e-300, 64),
		[D_PARTS] = INT_OPT("max-parts", &max_parts, "an integer in [1, 16]", 1, DIKE_MAX_PARTS),
		[D_EXH] = FLAG_OPT("exhaustive", &exhaustive),
		[D_RANDOM] = INT_OPT("random", &random, "an integer in [1, 1e6]", 1, 1000000),
		[D_SEED] = INT_OPT("seed", &seed, "a non-negative integer",
				    0, INT64_MAX - 1000000),
		[D_OUT] = STR_OPT("out", &out),
	};
	int ret, rc = parse_opts(argc, argv, opts, ARRAY_SIZE(opts), &seen);

	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	if (seen & (1u << D_RANDOM | 1u << D_SEED)) {
		if (!random || !(seen & 1u << D_SEED) || (seen & ((1u << D_RANDOM) - 1)) || !out) {
			fputs("spare-sim: dike --random N takes --seed S and --out DIR, and no model or hosts\n",
			      stderr);
			return EXIT_BAD_INPUT;
		}
		return dike_random_cmd((unsigned int)random, (uint64_t)seed, out);
	}
	if (!model_path || !hosts_path || !out || !(m.flops_per_sample > 0) || !(m.batch > 0)) {
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
	if (mem_out_end(&mo, ret, out, "placement.csv", "partitions.csv", json))
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
	static const struct {
		const char *name;
		int (*fn)(int argc, char **argv);
	} cmds[] = {
		{ "gen", cmd_gen }, { "trace", cmd_trace }, { "flowcon", cmd_flowcon },
		{ "specon", cmd_specon }, { "mip", cmd_mip }, { "dike", cmd_dike },
		{ "ecsim", cmd_ecsim },
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
	char *buf = NULL, *json = NULL;
	size_t len;
	int64_t *gdur = NULL;
#define SECONDS "an integer in [0, 1000000000] (seconds)"
	const struct opt opts[] = {
		STR_OPT("cluster-spec", &spec_path, .need = true),
		STR_OPT("trace", &trace_path, .need = true),
		STR_OPT("schedule", &sched, .need = true),
		STR_OPT("queue-limits", &limits),
		DBL_OPT("promote", &promote, "a number in [0, 1e6]", 0, 1e6),
		FLAG_OPT("faithful", &faithful),
		STR_OPT("gittins-dist", &gdist_path),
		INT_OPT("gittins-delta", &g.delta, "a positive integer", 1, INT64_MAX),
		INT_OPT("start-cost", &start_cost, SECONDS, 0, TIR_MAX_COST),
		INT_OPT("requeue-delay", &requeue_delay, SECONDS, 0, TIR_MAX_COST),
		INT_OPT("decision-interval", &decision_interval, SECONDS, 0, TIR_MAX_COST),
		STR_OPT("out", &out, .need = true),
	};
#undef SECONDS
	int ret, rc;

	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("spare-sim %s\n", spare_version());
		return 0;
	}
	for (size_t k = 0; k < ARRAY_SIZE(cmds) && argc > 1; k++)
		if (strcmp(argv[1], cmds[k].name) == 0)
			return cmds[k].fn(argc - 1, argv + 1);
	rc = parse_opts(argc, argv, opts, ARRAY_SIZE(opts), NULL);
	if (rc)
		return rc == OPTS_HELP ? 0 : rc;
	rc = EXIT_BAD_INPUT;
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
	json = ret ? NULL : sim_summary_json(&cfg, &sum);
	if (mem_out_end(&mo, ret, out, "job.csv", "cluster.csv", json))
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
