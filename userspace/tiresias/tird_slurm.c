// SPDX-License-Identifier: GPL-2.0
/*
 * spare-tiresias's access to Slurm, through libslurm's public API
 * (slurm/slurm.h): slurm_load_jobs() and slurm_load_node() for the view,
 * slurm_update_job() for a priority, slurm_requeue() for a preemption.
 * Slurm is GPL-2.0-or-later (with an OpenSSL exception): linking it from
 * this GPL-2.0 program is fine (Documentation/tiresias-live.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "spare_log.h"
#include "tird.h"

static bool inited;

static const char *slurm_why(void)
{
	return slurm_strerror(slurm_get_errno());
}

static enum tird_vstate state_of(const slurm_job_info_t *j)
{
	uint32_t base = j->job_state & JOB_STATE_BASE;

	if (j->job_state & (JOB_COMPLETING | JOB_RESIZING))
		return TIRD_V_HELD;
	switch (base) {
	case JOB_PENDING:
		return j->priority == 0 ? TIRD_V_HELD : TIRD_V_PENDING;
	case JOB_RUNNING:
		return TIRD_V_RUNNING;
	case JOB_SUSPENDED:
		return TIRD_V_HELD;
	default:
		return TIRD_V_FINAL;
	}
}

/*
 * Once, when Slurm first answers: a scheduler that ignores priorities
 * (tird_slurm_conf_problem()) is warned about; and under priority/basic a new job's priority
 * counts down from TIRD_BASIC_TOP - 1, so a priority-floor below
 * TIRD_BASIC_TOP lets a newcomer outrank jobs the daemon has placed, and
 * Slurm may start it before a pass has placed it; the live runs measured
 * twice the preemptions for it (Documentation/tiresias-live.md). Said, not
 * refused: the order still holds among the jobs placed.
 */
static uint32_t prio_floor;

static void check_priority_type(void)
{
	static bool checked;
	slurm_conf_t *c = NULL;
	const char *problem;

	if (checked || slurm_load_ctl_conf((time_t)0, &c) != SLURM_SUCCESS || !c)
		return;
	checked = true;
	problem = tird_slurm_conf_problem(c->schedtype, c->priority_type);
	if (problem)
		log_warn("%s", problem);
	if (c->priority_type && !strcmp(c->priority_type, "priority/basic") &&
	    prio_floor < TIRD_BASIC_TOP)
		log_warn("Slurm's PriorityType is priority/basic and priority-floor %" PRIu32
			 " is below its new jobs' priorities (up to %" PRIu32 "): a new job outranks "
			 "jobs this daemon has placed; leave priority-floor at its default "
			 "(admin guide, spare-tiresias)", prio_floor, TIRD_BASIC_TOP - 1);
	slurm_free_ctl_conf(c);
}

static int load(void *ctx, struct tird_view **out, size_t *n)
{
	job_info_msg_t *msg = NULL;
	struct tird_view *v;

	if (slurm_load_jobs((time_t)0, &msg, SHOW_ALL) != SLURM_SUCCESS || !msg) {
		log_dbg("slurm_load_jobs: %s", slurm_why());
		return -1;
	}
	check_priority_type();
	v = calloc(msg->record_count ? msg->record_count : 1, sizeof(*v));
	if (!v) {
		slurm_free_job_info_msg(msg);
		return -1;
	}
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const slurm_job_info_t *j = &msg->job_array[i];
		struct tird_view *x = &v[i];

		x->id = j->job_id;
		x->state = state_of(j);
		x->gpus = tird_gpus_from_tres(j->tres_per_job, j->tres_per_node, j->num_nodes,
					      x->state == TIRD_V_RUNNING ? j->tres_alloc_str :
					      j->tres_req_str);
		if (j->het_job_id)
			x->gpus = -1;	/* a hetjob's components: left to Slurm */
		x->time_ok = j->time_limit != INFINITE && j->time_limit != NO_VAL &&
			     j->time_limit > 0;
		x->requeue_ok = j->requeue != 0;
		x->submit = (int64_t)j->submit_time;
		x->start = (int64_t)j->start_time;
		x->priority = j->priority;
	}
	*n = msg->record_count;
	*out = v;
	slurm_free_job_info_msg(msg);
	return 0;
}

static int cluster_gpus(void *ctx, int64_t *gpus)
{
	node_info_msg_t *msg = NULL;
	int64_t total = 0;

	if (slurm_load_node((time_t)0, &msg, SHOW_ALL) != SLURM_SUCCESS || !msg) {
		log_dbg("slurm_load_node: %s", slurm_why());
		return -1;
	}
	for (uint32_t i = 0; i < msg->record_count; i++) {
		const node_info_t *nd = &msg->node_array[i];
		uint32_t st = nd->node_state;
		int64_t g;

		if (!nd->name)
			continue;
		if ((st & NODE_STATE_BASE) == NODE_STATE_DOWN ||
		    (st & NODE_STATE_BASE) == NODE_STATE_FUTURE ||
		    (st & (NODE_STATE_DRAIN | NODE_STATE_FAIL | NODE_STATE_NO_RESPOND)))
			continue;
		g = tird_gpus_of_node(nd->gres);
		if (g > 0)
			total += g;
	}
	slurm_free_node_info_msg(msg);
	*gpus = total;
	return 0;
}

static int set_priority(void *ctx, uint32_t id, uint32_t prio)
{
	job_desc_msg_t d;

	slurm_init_job_desc_msg(&d);
	d.job_id = id;
	d.priority = prio;
	if (slurm_update_job(&d) != SLURM_SUCCESS) {
		log_warn("job %" PRIu32 ": setting priority %" PRIu32 ": %s", id, prio, slurm_why());
		return -1;
	}
	return 0;
}

static int requeue(void *ctx, uint32_t id)
{
	if (slurm_requeue(id, 0) != SLURM_SUCCESS) {
		log_warn("job %" PRIu32 ": requeue: %s", id, slurm_why());
		return -1;
	}
	return 0;
}

void tird_slurm_ops(struct tird_ops *ops, const char *conf, uint32_t floor)
{
	prio_floor = floor;
	if (!inited) {
		slurm_init(conf && conf[0] ? conf : NULL);
		inited = true;
	}
	ops->load = load;
	ops->cluster_gpus = cluster_gpus;
	ops->set_priority = set_priority;
	ops->requeue = requeue;
	ops->ctx = NULL;
}

void tird_slurm_fini(void)
{
	if (inited)
		slurm_fini();
	inited = false;
}
