/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libspare-agg: the C client of spare-aggd (Documentation/aggd.md).
 *
 * One struct spare_agg is one worker's connection. Calls block; a call that
 * fails returns -1, and spare_agg_status()/spare_agg_error() say why: the
 * daemon's status and message for an ERROR it sent, or AGG_OK and a local
 * reason (connection lost, timeout) otherwise. Once a call has failed the
 * connection is unusable except for spare_agg_close().
 *
 * Not thread-safe: use one struct spare_agg per thread.
 *
 * Jobs that move: when the daemon answers with REDIRECT (the job moved to
 * another spare-aggd instance, see spare_agg_migrate()), the library
 * connects to the new instance over the same transport and registers
 * again. spare_agg_allreduce(), _register() and _stats() then repeat the
 * call there by themselves. spare_agg_pull() returns -1 with
 * spare_agg_status() == AGG_EMOVED and the connection usable: the old
 * instance dropped this worker's pushes of that iteration, so push them
 * again, then pull.
 */
#ifndef SPARE_AGG_H
#define SPARE_AGG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct spare_agg;

struct spare_agg_tensor {
	const char *name;
	uint64_t nelem;
};

struct spare_agg_job {
	const char *name;
	const char *token;
	unsigned int n_workers;
	unsigned int rank;
	unsigned int dtype;		/* AGG_DTYPE_* (1 fp32, 2 fp16, 3 bf16) */
	unsigned int part_elems;	/* elements per partition */
	unsigned int weight;		/* fair-share weight, 0 means 1 */
	unsigned int opt;		/* AGG_OPT_* */
	float lr, momentum;		/* with AGG_OPT_SGD_MOMENTUM */
};

/* NULL on failure, with a reason in err. */
struct spare_agg *spare_agg_connect(const char *host, unsigned int port,
				    char *err, size_t err_len);
/*
 * The same over RDMA (rdma_cm, RC): the daemon must run with --rdma on the
 * same port number. src binds the source address (NULL: any). Payloads are
 * limited to AGG_RDMA_MAX_PAYLOAD bytes, so partitions must be that small.
 */
struct spare_agg *spare_agg_connect_rdma(const char *host, unsigned int port,
					 const char *src, char *err,
					 size_t err_len);
void spare_agg_close(struct spare_agg *a);
/*
 * Prove to a daemon with a tenants file that this connection is tenant
 * @tenant's: @key_file holds the tenant's "SPARE-1:" key (sparectl gen-key;
 * refused if group or others may read it). Call it after connecting and
 * before register, report or migrate; a connection a REDIRECT makes proves
 * it again. 0, or -1 with spare_agg_status() AGG_EAUTH (unknown tenant or
 * wrong key: the daemon answers both alike), AGG_ECAP (the tenant's conns=
 * cap), AGG_ESTATE (the daemon is open: it has no tenants) or AGG_EINVAL
 * (the key file).
 */
int spare_agg_tenant(struct spare_agg *a, const char *tenant, const char *key_file);
/* Receive/send timeout for every later call; 0 waits forever. */
int spare_agg_set_timeout(struct spare_agg *a, unsigned int ms);

/*
 * Register this worker's rank of a job; the first rank's REGISTER creates
 * it. A large job's buffers take the daemon seconds per GiB to make, and
 * every rank's REGISTER is answered once they are ready. Meanwhile the
 * daemon says it is still at it (REGISTER_WAIT, at least every second:
 * a daemon of before SPARE_AGG_0.4 does not, and then the timeout alone
 * bounds the wait): the call keeps waiting, the timeout applying to each
 * gap between the daemon's messages (not below 5 s), for at most the
 * register limit: SPARE_AGG_REGISTER_LIMIT_BASE_MS plus
 * SPARE_AGG_REGISTER_LIMIT_PER_GIB_MS per GiB of the job's buffers (as
 * the daemon counts them), and never less than the timeout; with timeout
 * 0, for ever; spare_agg_set_register_limit() sets another. Past the
 * limit it fails (status AGG_OK, "still being created ... gave up"), and
 * when every rank has gone the daemon stops the creation.
 */
int spare_agg_register(struct spare_agg *a, const struct spare_agg_job *job,
		       const struct spare_agg_tensor *tensors,
		       unsigned int n_tensors);
#define SPARE_AGG_REGISTER_LIMIT_BASE_MS	60000
#define SPARE_AGG_REGISTER_LIMIT_PER_GIB_MS	60000
/* The register limit in ms for later REGISTERs; 0: the default rule
 * above. Since SPARE_AGG_0.4. */
int spare_agg_set_register_limit(struct spare_agg *a, unsigned int ms);
uint32_t spare_agg_job_id(const struct spare_agg *a);
uint32_t spare_agg_n_parts(const struct spare_agg *a);
int spare_agg_part_info(const struct spare_agg *a, uint32_t part,
			uint32_t *tensor, uint64_t *offset, uint32_t *nelem);
/* Bytes of one partition's push/pull payload. */
size_t spare_agg_part_bytes(const struct spare_agg *a, uint32_t part);

int spare_agg_push(struct spare_agg *a, uint32_t part, uint32_t iter,
		   const void *buf, size_t len);
int spare_agg_pull(struct spare_agg *a, uint32_t part, uint32_t iter,
		   void *buf, size_t len);
int spare_agg_set_weights(struct spare_agg *a, uint32_t part,
			  const void *buf, size_t len);
/*
 * Push every partition of tensor 'tensor' from in, then pull them all into
 * out (in and out hold the whole tensor in the job's dtype; they may be
 * the same buffer).
 */
int spare_agg_allreduce(struct spare_agg *a, uint32_t tensor, uint32_t iter,
			const void *in, void *out);
/*
 * spare_agg_allreduce() of n distinct tensors at once, pipelined: every
 * partition of every tensor is pushed, then every one pulled, before the
 * first reply is waited for (one round trip for all, not n). in[i] and
 * out[i] hold tensor tensors[i]. A move is followed as by
 * spare_agg_allreduce(). Protocol-wise the same messages as n calls, so
 * every daemon serves it. Since SPARE_AGG_0.3.
 */
int spare_agg_allreduce_many(struct spare_agg *a, unsigned int n,
			     const uint32_t *tensors, uint32_t iter,
			     const void *const *in, void *const *out);
/* Daemon metrics (Prometheus text), malloc'ed, NUL terminated. */
int spare_agg_stats(struct spare_agg *a, char **text);
/* Orderly goodbye: the daemon will not count this worker as dead. */
int spare_agg_leave(struct spare_agg *a);
/*
 * Admin: ask the daemon behind a (a connection without a job) to move job
 * 'job' (with its token) to the spare-aggd at host:port (numeric IPv4, as
 * the workers will reach it). Returns when the job has moved: *iter is the
 * first iteration served by the new instance, msg the daemon's summary.
 * On failure the daemon's reason is in spare_agg_error(); if the move
 * failed before the job reached its barrier, the job goes on where it was.
 */
int spare_agg_migrate(struct spare_agg *a, const char *job, const char *token,
		      const char *host, unsigned int port, uint32_t *iter,
		      char *msg, size_t msg_len);

/*
 * Progress report (FlowCon/SpeCon, Documentation/aggd.md): job 'job' with
 * its token is at iteration 'iter' (each report's after the last) with
 * 'loss', its trainers having used 'cpu_seconds' so far; 'iter_total' is
 * the iterations it will run, 0 if unknown. Any connection may carry it.
 * On success *share is the job's FlowCon share in cores (< 0 when the
 * daemon runs without FlowCon) and *flags AGG_REPORT_* (either may be
 * NULL). A report the daemon refuses returns -1 with its status and reason
 * and leaves the connection usable.
 */
int spare_agg_report(struct spare_agg *a, const char *job, const char *token,
		     uint64_t iter, double loss, double cpu_seconds,
		     uint64_t iter_total, double *share, uint32_t *flags);

unsigned int spare_agg_status(const struct spare_agg *a);
const char *spare_agg_error(const struct spare_agg *a);

#ifdef __cplusplus
}
#endif

#endif /* SPARE_AGG_H */
