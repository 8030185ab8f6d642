// SPDX-License-Identifier: GPL-2.0
/*
 * spared's counters, declared once: the control socket's `status` prints
 * them as "name value" lines, and the HTTP endpoint (--metrics-listen)
 * serves them with HELP and TYPE in the Prometheus text format, after
 * spare_build_info and process_start_time_seconds. Every name is listed
 * in Documentation/admin-guide.md ("Metrics").
 */
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>

#include "spared.h"
#include "spare_metrics.h"
#include "spare_util.h"

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* The earliest expiry (Unix seconds) of the grants held; 0 if none. */
static uint64_t next_expiry(const struct spared_grants *g)
{
	uint64_t first = 0;

	for (size_t i = 0; i < g->n; i++)
		if (!first || g->v[i].expiry < first)
			first = g->v[i].expiry;
	return first;
}

void spared_metrics(struct spared *d, struct spare_metrics *m)
{
	const struct slab_pool_stats *st = &d->pool.stats;
	const uint64_t lent = slab_pool_lent(&d->pool);
	uint64_t held = 0;
	struct rusage ru;

	for (unsigned int i = 0; i < d->pool.nslabs; i++)
		held += slab_held(&d->pool.slabs[i]) && d->pool.slabs[i].kept;

	if (getrusage(RUSAGE_SELF, &ru))
		memset(&ru, 0, sizeof(ru));
	spare_metrics_one_u64(m, "spare_donor_port", SPARE_GAUGE, "rdma_cm port this donor listens on.", d->cfg.port);
	spare_metrics_one_f3(m, "spare_donor_uptime_seconds", SPARE_GAUGE, "Seconds since spared started.",
	   (double)(spare_now_ms() - d->start_ms) / 1000.0);
	spare_metrics_one_u64(m, "spare_donor_slab_size_bytes", SPARE_GAUGE, "Size of one slab in bytes.", d->pool.slab_size);
	spare_metrics_one_u64(m, "spare_donor_slabs", SPARE_GAUGE, "Slabs in the pool (budget, or max-lend, / slab size).", d->pool.nslabs);
	spare_metrics_one_u64(m, "spare_donor_slabs_free", SPARE_GAUGE, "Slabs not lent.", d->pool.nfree);
	spare_metrics_one_u64(m, "spare_donor_slabs_lent", SPARE_GAUGE, "Slabs mapped by a client.", lent);
	spare_metrics_one_u64(m, "spare_donor_slabs_ready", SPARE_GAUGE,
	    "Free slabs populated ahead of a MAP (map-ready is the aim).", slab_pool_ready(&d->pool));
	spare_metrics_one_u64(m, "spare_donor_slabs_evicting", SPARE_GAUGE, "Lent slabs asked back and not yet returned.",
	    d->pool.nevicting);
	spare_metrics_one_u64(m, "spare_donor_lent_bytes", SPARE_GAUGE, "Bytes mapped by clients now.", lent * d->pool.slab_size);
	spare_metrics_one_u64(m, "spare_donor_lent_bytes_total", SPARE_COUNTER, "Bytes of every slab ever mapped.",
	    st->maps * d->pool.slab_size);
	spare_metrics_one_u64(m, "spare_donor_maps_total", SPARE_COUNTER, "MAP requests granted.", st->maps);
	spare_metrics_one_u64(m, "spare_donor_map_refusals_total", SPARE_COUNTER, "MAP requests refused.", st->refusals);
	spare_metrics_one_u64(m, "spare_donor_maps_unready_total", SPARE_COUNTER,
	    "MAPs granted that found no slab ready and populated one while the client waited.",
	    d->ctr.maps_unready);
	spare_metrics_one_u64(m, "spare_donor_grants_required", SPARE_GAUGE,
	    "1 if MAPs need a broker's grant (grant-public-keys or grant-key-file is set).", d->grants_on);
	spare_metrics_one_u64(m, "spare_donor_grants_held", SPARE_GAUGE,
	    "Grants recorded now (each covers slabs of one client until it expires).",
	    d->grants_on ? d->grants.n : 0);
	spare_metrics_family(m, "spare_donor_grant_next_expiry_timestamp_seconds", SPARE_GAUGE,
			     "Unix time at which the first of the grants held expires (no sample: none held).");
	if (d->grants_on && next_expiry(&d->grants))
		spare_metrics_u64(m, NULL, next_expiry(&d->grants));
	spare_metrics_one_u64(m, "spare_donor_grants_accepted_total", SPARE_COUNTER,
	    "Grants verified and recorded (each grant once).", d->ctr.grants_accepted);
	spare_metrics_one_u64(m, "spare_donor_grants_refused_total", SPARE_COUNTER,
	    "Grants refused: malformed, forged, expired, another donor's or client's, replayed.",
	    d->ctr.grants_refused);
	spare_metrics_one_u64(m, "spare_donor_map_grant_refusals_total", SPARE_COUNTER,
	    "MAPs refused because no grant of the client covers them.", d->ctr.maps_no_grant);
	spare_metrics_one_u64(m, "spare_donor_lapsed_evictions_total", SPARE_COUNTER,
	    "EVICTs of lent slabs that no unexpired grant of their client covered for grant-grace.",
	    d->ctr.lapsed_evictions);
	spare_metrics_one_u64(m, "spare_donor_unmaps_total", SPARE_COUNTER, "Slabs given back by clients.", st->unmaps);
	spare_metrics_one_u64(m, "spare_donor_evictions_total", SPARE_COUNTER, "EVICT messages sent.", st->evictions);
	spare_metrics_one_u64(m, "spare_donor_revocations_total", SPARE_COUNTER,
	    "Slabs revoked at the eviction deadline.", st->revocations);
	spare_metrics_one_u64(m, "spare_donor_reclaims_total", SPARE_COUNTER,
	    "Slabs taken back from clients that went away.", st->reclaims);
	spare_metrics_one_u64(m, "spare_donor_slabs_capacity", SPARE_GAUGE,
	    "Slabs that may be lent now (max-lend: grows and shrinks; else the budget).",
	    slab_pool_in_service(&d->pool));
	spare_metrics_one_u64(m, "spare_donor_capacity_bytes", SPARE_GAUGE, "Bytes that may be lent now.",
	    (uint64_t)slab_pool_in_service(&d->pool) * d->pool.slab_size);
	spare_metrics_one_u64(m, "spare_donor_lend_slabs_grown_total", SPARE_COUNTER,
	    "Slabs added to the capacity because memory was idle.", st->grown);
	spare_metrics_one_u64(m, "spare_donor_lend_slabs_released_total", SPARE_COUNTER,
	    "Slabs taken out of the capacity, their memory unmapped.", st->retired);
	spare_metrics_one_u64(m, "spare_donor_lend_evictions_total", SPARE_COUNTER,
	    "Lent slabs evicted by the lending policy (batch eviction).", d->lend.evicted);
	spare_metrics_one_u64(m, "spare_donor_lend_eviction_batches_total", SPARE_COUNTER,
	    "Batch evictions started under pressure.", d->lend.batches);
	spare_metrics_one_u64(m, "spare_donor_lend_activity_timeouts_total", SPARE_COUNTER,
	    "Sampled slabs whose client did not answer ACTIVITY_QUERY in time.",
	    d->lend.no_replies);
	spare_metrics_one_u64(m, "spare_donor_pressure_events_total", SPARE_COUNTER,
	    "PSI trigger events (memory stall over psi-stall within psi-window).",
	    d->lend.psi_events_total);
	spare_metrics_one_u64(m, "spare_donor_pressure_readings_total", SPARE_COUNTER,
	    "Readings the lending policy counted as pressure.", d->lend.pressure_readings);
	spare_metrics_one_u64(m, "spare_donor_mem_available_bytes", SPARE_GAUGE,
	    "MemAvailable (or the donor cgroup's room, if less) at the last reading.",
	    d->lend.mem_available);
	spare_metrics_one_f3(m, "spare_donor_psi_some_avg10_percent", SPARE_GAUGE, "PSI memory some avg10 (%) at the last reading.",
	   d->lend.psi_some);
	spare_metrics_one_f3(m, "spare_donor_psi_full_avg10_percent", SPARE_GAUGE, "PSI memory full avg10 (%) at the last reading.",
	   d->lend.psi_full);
	spare_metrics_one_u64(m, "spare_donor_clients", SPARE_GAUGE, "Client sessions now.", d->nsessions);
	spare_metrics_one_u64(m, "spare_donor_sessions_total", SPARE_COUNTER, "CONTROL connections accepted.", d->ctr.sessions);
	spare_metrics_one_u64(m, "spare_donor_data_conns_total", SPARE_COUNTER, "DATA connections accepted.", d->ctr.data_conns);
	spare_metrics_one_u64(m, "spare_donor_conn_rejected_total", SPARE_COUNTER, "Connection requests refused.",
	    d->ctr.conn_rejected);
	spare_metrics_one_u64(m, "spare_donor_sessions_superseded_total", SPARE_COUNTER,
	    "Sessions replaced by a reconnect of the same client.", d->ctr.superseded);
	spare_metrics_one_u64(m, "spare_donor_dreq_linger_full_total", SPARE_COUNTER,
	    "Disconnected control cm_ids destroyed at once, not kept for their DREQ's resends: 64 lingered already.",
	    d->linger.full);
	spare_metrics_one_u64(m, "spare_donor_slabs_held", SPARE_GAUGE,
	    "Lent slabs held for a client that may resume (pager restart).", held);
	spare_metrics_one_u64(m, "spare_donor_holds_total", SPARE_COUNTER,
	    "Sessions that ended without UNMAP and whose slabs were held.", d->ctr.holds);
	spare_metrics_one_u64(m, "spare_donor_resumes_total", SPARE_COUNTER,
	    "Held slabs adopted by a new session of the same client.", d->ctr.resumes);
	spare_metrics_one_u64(m, "spare_donor_resumes_refused_total", SPARE_COUNTER,
	    "Resumes asked by another identity (uuid, name, owner or token) and refused.",
	    d->ctr.resumes_refused);
	spare_metrics_one_u64(m, "spare_donor_holds_expired_total", SPARE_COUNTER,
	    "Held sessions freed at resume-hold without a resume.", d->ctr.holds_expired);
	spare_metrics_one_u64(m, "spare_donor_slabs_kept_total", SPARE_COUNTER,
	    "Slabs mapped again with their contents (MAPPED F_KEPT).", d->ctr.slabs_kept);
	spare_metrics_one_u64(m, "spare_donor_bad_msgs_total", SPARE_COUNTER, "Malformed or out-of-place messages received.",
	    d->ctr.bad_msgs);
	spare_metrics_one_u64(m, "spare_donor_heartbeats_total", SPARE_COUNTER, "Heartbeats received.", d->ctr.heartbeats);
	spare_metrics_one_u64(m, "spare_donor_auth_ok_total", SPARE_COUNTER,
	    "Clients that proved their host key.", d->ctr.auth_ok);
	spare_metrics_one_u64(m, "spare_donor_auth_refused_total", SPARE_COUNTER,
	    "Clients refused by host authentication.", d->ctr.auth_refused);
	spare_metrics_one_f3(m, "spare_donor_cpu_user_seconds_total", SPARE_COUNTER, "CPU time in user mode (getrusage).",
	   tv_s(ru.ru_utime));
	spare_metrics_one_f3(m, "spare_donor_cpu_system_seconds_total", SPARE_COUNTER, "CPU time in the kernel (getrusage).",
	   tv_s(ru.ru_stime));
}

int spared_metrics_page(void *ctx, FILE *f)
{
	struct spare_metrics m;

	spare_metrics_begin(&m, f, true);
	spare_metrics_process(&m, "spared");
	spared_metrics(ctx, &m);
	return spare_metrics_end(&m);
}
