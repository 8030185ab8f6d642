// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko RDMA transport: the donor life cycle. Connect, handshake and
 * authentication, grants, the map work, heartbeats, the error work, and
 * starting, adding and stopping a device's donors. The transport's whole
 * picture is in spare_rdma.h.
 */
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "spare.h"
#include "spare_rdma.h"

/* Move this donor's copies in state @from to @to, in every slab. */
static u32 donor_copies_move(struct spare_donor *d, u32 from_mask,
			     enum spare_copy_state to)
{
	struct spare_slab_map *map = &d->dev->map;
	u32 s, moved = 0;

	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		unsigned long flags;

		if (donor_copy(d, s) < 0)
			continue;
		spin_lock_irqsave(&slab->lock, flags);
		moved += spare_slab_copy_sweep(map, slab, d->idx, from_mask, to);
		spin_unlock_irqrestore(&slab->lock, flags);
	}
	return moved;
}

/*
 * After a live donor left LIVE: wait until no ->queue_rq() still holds one
 * of its data queues. spare_data_queue() gives a queue only to a live
 * donor, so once every dispatch that began before the state change has
 * returned, none can post to a queue that donor_teardown() destroys; what
 * was posted is flushed by the drain and re-driven. This is a grace period
 * of the queue's dispatch (RCU, or SRCU while the queue is
 * BLK_MQ_F_BLOCKING), not a quiesce: dispatch goes on for the other
 * donors, and it is taken without d->lock. A donor that never became LIVE
 * since its last teardown (a failed connect) needs none.
 */
static void donor_wait_dispatch(struct spare_donor *d)
{
	if (d->dev->disk)
		spare_wait_dispatch_done(d->dev->disk);
}

/* Under d->lock; the donor is not LIVE and donor_wait_dispatch() ran. */
static void donor_teardown(struct spare_donor *d)
{
	u32 i;

	for (i = 0; i < d->nr_data; i++)
		spare_queue_destroy(&d->data[i]);
	spare_queue_destroy(&d->ctrl);
	if (d->pd) {
		ib_dealloc_pd(d->pd);
		d->pd = NULL;
	}
	d->ibdev = NULL;
	atomic_set(&d->maps_inflight, 0);
	wake_up_all(&d->map_wait);
	wake_up_all(&d->ctrl.send_wait);
}

/*
 * @ev (TORN_DOWN, CONNECT_FAILED) takes the donor OFFLINE and the core's
 * back-off says when to connect again. Never out of DELETING:
 * spare_donors_stop() owns the donor then. Under d->lock.
 */
static void schedule_reconnect(struct spare_donor *d, enum spare_life_ev ev)
{
	u64 now = spare_now_ms();

	if (spare_donor_set_state(d, ev, now) != SPARE_LIFE_ACT_RETRY)
		return;
	queue_delayed_work(d->dev->wq, &d->connect_work,
			   msecs_to_jiffies(spare_life_wait(&d->life, now)));
}

#define COPY_MASK(s)	(1U << SPARE_COPY_##s)

/*
 * The copies on donor @d that have kept pages (MAPPED F_KEPT not yet
 * answered). With @forget, what it kept is gone (its hold ran out, the
 * device stops): nothing waits for those copies any more.
 */
static u32 donor_kept(struct spare_donor *d, bool forget)
{
	struct spare_slab_map *map = &d->dev->map;
	u32 s, n = 0;

	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		unsigned long flags;
		int c = donor_copy(d, s);

		if (c < 0)
			continue;
		spin_lock_irqsave(&slab->lock, flags);
		n += spare_copy_has_kept(&slab->copy[c]);
		if (forget)
			spare_copy_forget_kept(&slab->copy[c]);
		spin_unlock_irqrestore(&slab->lock, flags);
	}
	return n;
}

/* Whether HELLO asks the donor to hold our slabs over its restart. */
static bool donor_asks_hold(const struct spare_donor *d)
{
	return !d->dev->ec && d->dev->cfg.hold_ms;
}

/*
 * A lost donor that holds our slabs (Documentation/kmod.md, "Holding over
 * a donor restart"), looked at every SPARE_HOLD_POLL_MS: the hold is over
 * once the new session answered every copy kept there (handle_mapped()
 * adopted or forgot each); it runs out after the device's hold_ms, and then,
 * as without a hold, what only those copies had is lost and what waited
 * for them fails.
 */
static void donor_hold_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(to_delayed_work(work),
					     struct spare_donor, hold_work);
	u64 now = spare_now_ms();
	bool again = false;
	u32 n;

	mutex_lock(&d->lock);
	if (atomic_read(&d->state) == SPARE_DONOR_DELETING ||
	    !d->life.hold_until) {
		/* stopped, or ended meanwhile */
	} else if (donor_live(d) && !donor_kept(d, false)) {
		spare_life_hold_end(&d->life);
		pr_info("donor %s: resumed after its restart: %u slab copies kept with their contents (MAPPED F_KEPT), %u not kept\n",
			d->name, atomic_read(&d->hold_kept),
			atomic_read(&d->hold_not_kept));
	} else if (spare_life_hold_expired(&d->life, now)) {
		spare_slab_map_hold(&d->dev->map, d->idx, false);
		n = donor_kept(d, true);
		atomic64_inc(&d->stats.holds_expired);
		pr_warn("donor %s lost: %u slab copies failed: not back within %u ms of its restart (hold_ms), the copies it held are given up, as without a hold (I/O that only they could serve fails)\n",
			d->name, n, d->dev->cfg.hold_ms);
	} else {
		again = true;
	}
	if (again)
		queue_delayed_work(d->dev->wq, &d->hold_work,
				   msecs_to_jiffies(SPARE_HOLD_POLL_MS));
	mutex_unlock(&d->lock);
	spare_kick_queues(d->dev);
}

static void donor_error_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(work, struct spare_donor,
					     error_work);
	unsigned int noio = memalloc_noio_save();
	u32 lost;

	/* LIVE -> ERROR happened before this work was queued */
	if (atomic_read(&d->state) == SPARE_DONOR_ERROR)
		donor_wait_dispatch(d);
	mutex_lock(&d->lock);
	if (atomic_read(&d->state) != SPARE_DONOR_ERROR)
		goto out;
	lost = donor_copies_move(d, COPY_MASK(MAPPED) | COPY_MASK(MAPPING) |
				 COPY_MASK(EVICTING), SPARE_COPY_FAILED);
	atomic64_inc(&d->stats.losses);
	if (spare_life_hold(&d->life, d->resume_token, spare_now_ms(),
			    d->dev->cfg.hold_ms)) {
		pr_warn("donor %s: %s; %u slab copies dropped; it holds our slabs over a restart: they are waited for up to %u ms (hold_ms; I/O no other copy serves waits); reconnecting\n",
			d->name, d->error_reason ?: "error", lost,
			d->dev->cfg.hold_ms);
		atomic_set(&d->hold_kept, 0);
		atomic_set(&d->hold_not_kept, 0);
		queue_delayed_work(d->dev->wq, &d->hold_work,
				   msecs_to_jiffies(SPARE_HOLD_POLL_MS));
	} else {
		pr_warn("donor %s: %s; %u slab copies dropped, falling back to other copies%s; reconnecting in %u ms\n",
			d->name, d->error_reason ?: "error", lost,
			d->dev->has_backup ? " and backup" : "",
			d->life.backoff_ms);
	}
	cancel_delayed_work(&d->heartbeat_work);
	donor_teardown(d);
	/*
	 * Fence the map work: teardown woke it from any wait, it sees the
	 * donor is not live and returns. After this no map work of the dead
	 * session moves a copy to MAPPING or counts a MAP in flight, so the
	 * copies below are all there is to put back, and the count starts
	 * from zero for the next session. A map work queued later (by a
	 * heartbeat still running) starts by checking liveness.
	 */
	cancel_work_sync(&d->map_work);
	atomic_set(&d->maps_inflight, 0);
	donor_copies_move(d, COPY_MASK(FAILED), SPARE_COPY_UNMAPPED);
	spare_uevent(d->dev, "donor_lost", d, -1);
	schedule_reconnect(d, SPARE_LIFE_EV_TORN_DOWN);
	spare_donor_rehome_arm(d);
out:
	mutex_unlock(&d->lock);
	memalloc_noio_restore(noio);
	spare_kick_queues(d->dev);
}

/* The next handshake message from the donor, in order. */
static int hs_next(struct spare_donor *d, struct spare_msg *m)
{
	unsigned long flags;
	long left;
	int ret = 0;

	left = spare_donor_wait(d, &d->hello_done, SPARE_CM_TIMEOUT_MS);
	if (left < 0)
		return left;
	if (!left) {
		pr_warn("donor %s: no answer to the handshake\n", d->name);
		return -ETIMEDOUT;
	}
	if (d->hello_status < 0)
		return d->hello_status;
	spin_lock_irqsave(&d->hs_lock, flags);
	if (d->hs_taken == d->hs_count)
		ret = -EPROTO;
	else
		*m = d->hs_ring[d->hs_taken++ % ARRAY_SIZE(d->hs_ring)];
	spin_unlock_irqrestore(&d->hs_lock, flags);
	return ret;
}

static unsigned int hs_type(const struct spare_msg *m)
{
	return le16_to_cpu(m->hdr.type);
}

/* The donor's name for the log: its bytes up to a NUL, non-printables as '?'. */
static const char *printable_id(const u8 *donor_id, char *out)
{
	int i;

	for (i = 0; i < SPARE_AUTH_ID_LEN && donor_id[i]; i++)
		out[i] = isprint(donor_id[i]) ? donor_id[i] : '?';
	out[i] = '\0';
	return out;
}

/*
 * Answer the donor's AUTH_CHALLENGE with our proof, then check its proof.
 * On return @m holds the message that follows (HELLO_REPLY if all went
 * well, or the donor's refusal).
 */
static int donor_authenticate(struct spare_donor *d, struct spare_msg *m,
			      const u8 *nonce_c)
{
	u8 donor_id[SPARE_AUTH_ID_LEN], nonce_d[SPARE_AUTH_NONCE_LEN];
	char id[SPARE_AUTH_ID_LEN + 1];
	struct spare_msg out;
	int ret;

	memcpy(donor_id, m->auth_challenge.donor_id, sizeof(donor_id));
	memcpy(nonce_d, m->auth_challenge.nonce, sizeof(nonce_d));
	if (!memcmp(nonce_d, nonce_c, sizeof(nonce_d))) {
		pr_warn("donor %s: challenge echoes our own nonce (reflection); refusing this donor\n",
			d->name);
		return -EACCES;
	}
	msg_prepare(d, &out, SPARE_MSG_AUTH_RESPONSE);
	ret = spare_auth_mac(d->dev, out.auth_response.mac,
			     SPARE_AUTH_DIR_CLIENT, donor_id, nonce_c, nonce_d);
	if (!ret)
		ret = spare_ctrl_send(d, &out);
	memzero_explicit(&out, sizeof(out));
	if (!ret)
		ret = hs_next(d, m);
	if (ret || hs_type(m) != SPARE_MSG_AUTH_RESPONSE)
		return ret;	/* the caller reads the refusal */
	if (!spare_auth_donor_ok(d->dev, m->auth_response.mac, donor_id,
				 nonce_c, nonce_d)) {
		pr_warn("donor %s: could not prove it knows this device's key; refusing this donor\n",
			d->name);
		return -EACCES;
	}
	pr_info("donor %s: authenticated (donor id %s)\n", d->name,
		printable_id(donor_id, id));
	ret = hs_next(d, m);
	return ret ? ret : 1;	/* 1: the donor proved itself */
}

static int donor_hello(struct spare_donor *d)
{
	u8 nonce_c[SPARE_AUTH_NONCE_LEN] = { 0 };
	bool auth = d->dev->auth_tfm;
	bool proven = false;
	struct spare_msg m;
	unsigned long flags;
	u64 token;
	u32 st;
	int ret;

	reinit_completion(&d->hello_done);
	spin_lock_irqsave(&d->hs_lock, flags);
	d->hs_count = d->hs_taken = 0;
	d->hello_status = 0;
	spin_unlock_irqrestore(&d->hs_lock, flags);
	msg_prepare(d, &m, SPARE_MSG_HELLO);
	memcpy(m.hello.client_uuid, d->dev->uuid, sizeof(m.hello.client_uuid));
	m.hello.slab_shift = d->dev->map.slab_shift;
	if (auth) {
		do
			get_random_bytes(nonce_c, sizeof(nonce_c));
		while (!memchr_inv(nonce_c, 0, sizeof(nonce_c)));
		m.hello.flags = SPARE_HELLO_F_AUTH;
		memcpy(m.hello.nonce, nonce_c, sizeof(nonce_c));
	}
	/*
	 * Ask the donor to keep our slabs if the session ends (a donor
	 * restarted in place), with or without a key: spared gives them
	 * back only to the same device (uuid) showing this session's token,
	 * and with host keys only to the same name. Not for ec:K+R devices,
	 * whose I/O path does not wait for a held split, nor with hold_ms 0.
	 */
	if (donor_asks_hold(d))
		m.hello.flags |= SPARE_HELLO_F_HOLD;
	if (donor_asks_hold(d) && d->resume_token) {
		m.hello.flags |= SPARE_HELLO_F_RESUME;
		m.hello.resume_token = cpu_to_le64(d->resume_token);
	}
	ret = spare_ctrl_send(d, &m);
	if (!ret)
		ret = hs_next(d, &m);
	if (!ret && hs_type(&m) == SPARE_MSG_AUTH_CHALLENGE && auth) {
		ret = donor_authenticate(d, &m, nonce_c);
		proven = ret == 1;
		if (proven)
			ret = 0;
	}
	if (ret)
		return ret;
	if (hs_type(&m) != SPARE_MSG_HELLO_REPLY) {
		pr_warn("donor %s: %s out of place in the handshake; closing\n",
			d->name, spare_msg_type_name(hs_type(&m)));
		return -EPROTO;
	}
	d->session_cookie = le64_to_cpu(m.hello_reply.session_cookie);
	d->slab_shift = m.hello_reply.slab_shift;
	token = le64_to_cpu(m.hello_reply.resume_token);
	st = le32_to_cpu(m.hello_reply.status);
	if (st == SPARE_ST_AUTH_REQUIRED) {
		pr_warn("donor %s: refused: it requires authentication and this device has no key (see sparectl gen-key)\n",
			d->name);
		WRITE_ONCE(d->key_refused, true);
		return -EACCES;
	}
	if (st == SPARE_ST_AUTH_FAILED) {
		pr_warn("donor %s: refused our key (wrong key, or this host is not in its host-keys)\n",
			d->name);
		WRITE_ONCE(d->key_refused, true);
		return -EACCES;
	}
	if (st != SPARE_ST_OK) {
		pr_warn("donor %s: HELLO refused (status %u)\n", d->name, st);
		return -ECONNREFUSED;
	}
	if (auth && !proven) {
		pr_warn("donor %s: did not authenticate (open donor?); refusing it because this device has a key\n",
			d->name);
		WRITE_ONCE(d->key_refused, true);
		return -EACCES;
	}
	if (d->slab_shift != d->dev->map.slab_shift) {
		pr_warn("donor %s: serves slabs of 2^%u bytes, device uses 2^%u\n",
			d->name, d->slab_shift, d->dev->map.slab_shift);
		return -EINVAL;
	}
	if (donor_asks_hold(d) && !token && !d->hold_refused) {
		pr_info("donor %s: it does not hold slabs for a restart (resume-hold 0, or an older spared): a restart of it fails the copies there\n",
			d->name);
		d->hold_refused = true;
	}
	if (token)
		d->hold_refused = false;
	d->resume_token = token;
	WRITE_ONCE(d->key_refused, false);
	return 0;
}

static void donor_connect_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(to_delayed_work(work),
					     struct spare_donor, connect_work);
	unsigned int noio = memalloc_noio_save();
	int ret;

	mutex_lock(&d->lock);
	if (spare_donor_set_state(d, SPARE_LIFE_EV_CONNECT, spare_now_ms()) !=
	    SPARE_LIFE_ACT_CONNECT)
		goto out;
	ret = spare_queue_connect(&d->ctrl);
	if (!ret)
		ret = donor_hello(d);
	if (ret) {
		pr_warn_ratelimited("donor %s: connect failed: %d; retrying in %u ms\n",
				    d->name, ret, d->life.backoff_ms);
		donor_teardown(d);
		schedule_reconnect(d, SPARE_LIFE_EV_CONNECT_FAILED);
		goto out;
	}
	d->remap_after = jiffies;
	/* A new session: the donor has none of our grants yet. */
	d->grants_sent = 0;
	d->grant_token = 0;
	if (spare_donor_set_state(d, SPARE_LIFE_EV_UP, spare_now_ms()) !=
	    SPARE_LIFE_ACT_UP) {
		donor_teardown(d);	/* being deleted (ACT_CLOSE) */
		goto out;
	}
	/* its copies' pages are remembered when they fail (spare_slab.h) */
	spare_slab_map_hold(&d->dev->map, d->idx, d->resume_token);
	atomic64_inc(&d->stats.connects);
	atomic_inc(&d->dev->donor_ups);
	pr_info("donor %s: connected (session %016llx)\n", d->name,
		d->session_cookie);
	spare_uevent(d->dev, "donor_up", d, -1);
	queue_work(d->dev->wq, &d->map_work);
	queue_delayed_work(d->dev->wq, &d->heartbeat_work,
			   msecs_to_jiffies(SPARE_HEARTBEAT_MS));
out:
	mutex_unlock(&d->lock);
	memalloc_noio_restore(noio);
}

/*
 * Send the donor the grants written for it since the last call in this
 * session (spare_grants.c). MAPs then name, of all sent in this session,
 * the one that expires last: the donor refuses a MAP that names an expired
 * grant, though the client's other grants may still hold (a short grant
 * written after a long one). 0, or -ENOTCONN.
 */
static int donor_send_grants(struct spare_donor *d)
{
	const struct sockaddr_in *addr = (const struct sockaddr_in *)&d->addr;
	struct spare_grant *g;
	struct spare_msg m;
	unsigned int sent = 0, p;
	u64 token;
	int ret;

	g = kmalloc(sizeof(*g), GFP_NOIO);
	if (!g)
		return 0;	/* MAPs go without; the donor may refuse them */
	for (;;) {
		ret = spare_grant_take(d->dev, &d->grant_gen, d->grants_sent,
				       addr, g, &token);
		if (ret == -ESTALE) {
			d->grants_sent = 0;
			d->grant_token = 0;
			continue;
		}
		if (ret < 0)
			break;
		d->grants_sent++;
		if (!ret)
			continue;
		for (p = 0; p < SPARE_GRANT_PARTS; p++) {
			spare_grant_part_init(&m, g, p, atomic_inc_return(&d->seq));
			if (spare_ctrl_send(d, &m)) {
				spare_donor_error(d, "cannot send GRANT");
				ret = -ENOTCONN;
				goto out;
			}
		}
		if (!d->grant_token ||
		    le64_to_cpu(g->expiry) >= d->grant_expiry) {
			d->grant_token = token;
			d->grant_expiry = le64_to_cpu(g->expiry);
		}
		sent++;
	}
	ret = 0;
	if (sent)
		pr_info("donor %s: sent %u grant(s); MAPs name %016llx\n",
			d->name, sent, d->grant_token);
out:
	memzero_explicit(&m, sizeof(m));
	kfree_sensitive(g);
	return ret;
}

void spare_donors_grants_added(struct spare_dev *dev)
{
	u32 i;

	for (i = 0; dev->donors && i < dev->cfg.nr_donors; i++)
		if (donor_live(&dev->donors[i]))
			queue_work(dev->wq, &dev->donors[i].map_work);
}

/*
 * Ask the donor for every slab copy it should hold and does not. One run
 * serves one session: it re-checks that the donor is live after every wait,
 * and moves a copy to MAPPING only while the donor is live, under the
 * slab's lock, so that error_work's sweep (which takes that lock after the
 * donor left LIVE) either finds the copy MAPPING and fails it or the run
 * sees the donor is not live and stops. error_work then waits for the run
 * to end (cancel_work_sync()) before it puts the copies back to UNMAPPED.
 */
static void donor_map_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(work, struct spare_donor,
					     map_work);
	struct spare_slab_map *map = &d->dev->map;
	unsigned int noio = memalloc_noio_save();
	struct spare_msg m;
	u32 s;

	if (donor_live(d) && donor_send_grants(d)) {
		memalloc_noio_restore(noio);
		return;
	}
	for (s = 0; s < map->nr_slabs && donor_live(d); s++) {
		struct spare_slab *slab = &map->slabs[s];
		unsigned long flags;
		int c = donor_copy(d, s), ret;

		if (c < 0)
			continue;
		wait_event_timeout(d->map_wait,
			atomic_read(&d->maps_inflight) < SPARE_MAPS_INFLIGHT ||
			!donor_live(d), msecs_to_jiffies(SPARE_CM_TIMEOUT_MS));
		if (!donor_live(d))
			break;		/* the error road ran while we slept */
		if (atomic_read(&d->maps_inflight) >= SPARE_MAPS_INFLIGHT) {
			spare_donor_error(d, "MAPPED replies stalled");
			break;
		}
		spin_lock_irqsave(&slab->lock, flags);
		if (!donor_live(d))
			ret = -ENOTCONN;
		else if (slab->copy[c].donor != d->idx)
			ret = -EALREADY;	/* re-homed meanwhile */
		else if (test_bit(s, d->unmap_owed))
			ret = -EALREADY;	/* evicted: its UNMAP goes first */
		else if (slab->copy[c].state == SPARE_COPY_UNMAPPED)
			ret = spare_copy_set_state(map, slab, c,
						   SPARE_COPY_MAPPING);
		else
			ret = -EALREADY;
		spin_unlock_irqrestore(&slab->lock, flags);
		if (ret == -ENOTCONN)
			break;
		if (ret)
			continue;
		msg_prepare(d, &m, SPARE_MSG_MAP);
		m.map.slab_id = cpu_to_le32(s);
		m.map.grant = cpu_to_le64(d->grant_token);
		atomic_inc(&d->maps_inflight);
		if (spare_ctrl_send(d, &m)) {
			spare_donor_error(d, "cannot send MAP");
			break;
		}
	}
	memalloc_noio_restore(noio);
}

static void donor_heartbeat_work(struct work_struct *work)
{
	struct spare_donor *d = container_of(to_delayed_work(work),
					     struct spare_donor, heartbeat_work);
	struct spare_msg m;

	if (!donor_live(d))
		return;
	msg_prepare(d, &m, SPARE_MSG_HEARTBEAT);
	m.heartbeat.now_ns = cpu_to_le64(ktime_get_ns());
	if (spare_ctrl_send(d, &m)) {
		spare_donor_error(d, "heartbeat not sent");
		return;
	}
	if (time_after_eq(jiffies, d->remap_after))
		queue_work(d->dev->wq, &d->map_work);
	if (READ_ONCE(d->giveback))	/* copies owed: evict work looks again */
		queue_work(d->dev->wq, &d->evict_work);
	queue_delayed_work(d->dev->wq, &d->heartbeat_work,
			   msecs_to_jiffies(SPARE_HEARTBEAT_MS));
}

static void donor_free(struct spare_donor *d)
{
	kfree(d->data);
	bitmap_free(d->evict_pending);
	kvfree(d->evict_at);
	bitmap_free(d->unmap_owed);
	kvfree(d->moves);
	bitmap_free(d->activity_pending);
	bitmap_free(d->grant_refused);
}

static int donor_init(struct spare_dev *dev, struct spare_donor *d, u32 idx)
{
	u32 i;

	d->dev = dev;
	d->idx = idx;
	memcpy(&d->addr, &dev->cfg.donor_addr[idx], sizeof(d->addr));
	strscpy(d->name, dev->cfg.donor_name[idx], sizeof(d->name));
	atomic_set(&d->state, SPARE_DONOR_OFFLINE);
	mutex_init(&d->lock);
	atomic_set(&d->seq, 0);
	atomic_set(&d->maps_inflight, 0);
	init_waitqueue_head(&d->map_wait);
	init_completion(&d->hello_done);
	spin_lock_init(&d->hs_lock);
	spin_lock_init(&d->pending_lock);
	spare_life_init(&d->life, spare_now_ms());
	INIT_DELAYED_WORK(&d->connect_work, donor_connect_work);
	INIT_WORK(&d->error_work, donor_error_work);
	INIT_WORK(&d->map_work, donor_map_work);
	INIT_WORK(&d->evict_work, spare_donor_evict_work);
	INIT_DELAYED_WORK(&d->heartbeat_work, donor_heartbeat_work);
	INIT_DELAYED_WORK(&d->rehome_work, spare_donor_rehome_work);
	INIT_DELAYED_WORK(&d->hold_work, donor_hold_work);
	spare_queue_init(&d->ctrl, d, SPARE_CONN_CONTROL, -1);
	d->nr_data = dev->tag_set.nr_hw_queues;
	d->data = kcalloc(d->nr_data, sizeof(*d->data), GFP_KERNEL);
	d->evict_pending = bitmap_zalloc(dev->map.nr_slabs, GFP_KERNEL);
	d->evict_at = kvcalloc(dev->map.nr_slabs, sizeof(*d->evict_at),
			       GFP_KERNEL);
	d->unmap_owed = bitmap_zalloc(dev->map.nr_slabs, GFP_KERNEL);
	d->moves = kvcalloc(dev->map.nr_slabs, sizeof(*d->moves), GFP_KERNEL);
	d->activity_pending = bitmap_zalloc(dev->map.nr_slabs, GFP_KERNEL);
	d->grant_refused = bitmap_zalloc(dev->map.nr_slabs, GFP_KERNEL);
	if (!d->data || !d->evict_pending || !d->evict_at || !d->unmap_owed ||
	    !d->moves || !d->activity_pending || !d->grant_refused) {
		donor_free(d);
		return -ENOMEM;
	}
	for (i = 0; i < d->nr_data; i++)
		spare_queue_init(&d->data[i], d, SPARE_CONN_DATA, i);
	return 0;
}

/* Every slab has a mapped copy (or there is a backup to fall back to). */
static bool all_slabs_mapped(struct spare_dev *dev, bool every_copy)
{
	struct spare_slab_map *map = &dev->map;
	u32 s, c;

	for (s = 0; s < map->nr_slabs; s++) {
		u32 mapped = 0;

		for (c = 0; c < map->nr_slots; c++)
			if (READ_ONCE(map->slabs[s].copy[c].state) ==
			    SPARE_COPY_MAPPED)
				mapped++;
		if (every_copy ? mapped < map->nr_copies : !mapped)
			return false;
	}
	return true;
}

/*
 * A slab that no copy can reach while the device powers on: none is mapped,
 * and the donor of each refused it in a way the power-on cannot change (our
 * key, or its MAP for want of a valid grant: configfs waits on dev->lock,
 * which the power-on holds). A copy re-homed meanwhile could still map, so
 * this holds only while no re-home is due within the connect wait.
 * Returns the slab's number, or -1.
 */
static int slab_refused_everywhere(struct spare_dev *dev)
{
	struct spare_slab_map *map = &dev->map;
	u32 s, c, donor;

	if (dev->cfg.rehome_delay_ms < SPARE_CONNECT_WAIT_MS)
		return -1;
	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		u32 copies = 0, refused = 0;

		for (c = 0; c < map->nr_slots; c++) {
			struct spare_donor *d;

			donor = READ_ONCE(slab->copy[c].donor);
			if (donor == SPARE_NO_DONOR)
				continue;
			d = &dev->donors[donor];
			copies++;
			if (READ_ONCE(slab->copy[c].state) == SPARE_COPY_UNMAPPED &&
			    (READ_ONCE(d->key_refused) ||
			     test_bit(s, d->grant_refused)))
				refused++;
		}
		if (copies && refused == copies)
			return s;
	}
	return -1;
}

int spare_donors_start(struct spare_dev *dev)
{
	unsigned long deadline;
	u32 i;
	int ret, refused;

	/* room for donors appended while running (spare_donors_add()) */
	dev->donors = kcalloc(SPARE_MAX_DONORS, sizeof(*dev->donors),
			      GFP_KERNEL);
	if (!dev->donors)
		return -ENOMEM;
	for (i = 0; i < dev->cfg.nr_donors; i++) {
		ret = donor_init(dev, &dev->donors[i], i);
		if (ret) {
			while (i--)
				donor_free(&dev->donors[i]);
			kfree(dev->donors);
			dev->donors = NULL;
			return ret;
		}
	}
	for (i = 0; i < dev->cfg.nr_donors; i++) {
		queue_delayed_work(dev->wq, &dev->donors[i].connect_work, 0);
		/* one that never comes up gives its copies up too */
		spare_donor_rehome_arm(&dev->donors[i]);
	}

	/* Wait for every copy, or give up on the missing ones after a while. */
	deadline = jiffies + msecs_to_jiffies(SPARE_CONNECT_WAIT_MS);
	while (!all_slabs_mapped(dev, true) && time_before(jiffies, deadline)) {
		if (msleep_interruptible(50)) {
			spare_donors_stop(dev);
			return -EINTR;
		}
		refused = dev->has_backup ? -1 : slab_refused_everywhere(dev);
		if (refused >= 0) {
			pr_warn("%s: slab %d: every donor of its copies refused it (our key, or no valid grant: the lines above); no backup device; not starting\n",
				config_item_name(&dev->item), refused);
			spare_donors_stop(dev);
			return -EACCES;
		}
	}
	if (!all_slabs_mapped(dev, false) && !dev->has_backup) {
		pr_warn("%s: some slabs have no remote copy after %u ms and there is no backup device; not starting\n",
			config_item_name(&dev->item), SPARE_CONNECT_WAIT_MS);
		spare_donors_stop(dev);
		return -EHOSTUNREACH;
	}
	return 0;
}

/*
 * Donors appended to the running device (configfs "donors", under
 * dev->lock): cfg.donor_addr/donor_name hold entries cfg.nr_donors ..
 * @nr - 1 already. Each is set up before the count that makes it visible
 * is raised, so that every reader of cfg.nr_donors and map.nr_donors (the
 * I/O path, a move looking for a target, sysfs) finds it whole; then it
 * connects like the others. It takes no copy of its own: moves and the
 * slab_moving answer of sparectl device monitor use it. 0, or an error
 * with nothing changed.
 */
int spare_donors_add(struct spare_dev *dev, u32 nr)
{
	u32 old = dev->cfg.nr_donors, i;
	int ret;

	if (!dev->donors || nr <= old || nr > SPARE_MAX_DONORS)
		return -EINVAL;
	for (i = old; i < nr; i++) {
		memset(&dev->donors[i], 0, sizeof(dev->donors[i]));
		ret = donor_init(dev, &dev->donors[i], i);
		if (ret) {
			while (i-- > old)
				donor_free(&dev->donors[i]);
			return ret;
		}
	}
	/* donor_init()'s stores before the count (readers hold no lock) */
	smp_store_release(&dev->cfg.nr_donors, nr);
	ret = spare_slab_map_grow_donors(&dev->map, nr);
	WARN_ON_ONCE(ret);	/* nr checked above */
	for (i = old; i < nr; i++) {
		pr_info("%s: donor %s added\n", config_item_name(&dev->item),
			dev->donors[i].name);
		queue_delayed_work(dev->wq, &dev->donors[i].connect_work, 0);
	}
	return 0;
}

static bool ctrl_sends_done(struct spare_queue *q)
{
	bool done;

	spin_lock_bh(&q->send_lock);
	done = q->send_free == (1UL << SPARE_CTRL_SENDS) - 1 ||
	       atomic_read(&q->state) != SPARE_Q_LIVE;
	spin_unlock_bh(&q->send_lock);
	return done;
}

/*
 * The device powers off: a donor that would hold our slabs when the
 * session ends (it gave a resume token) gets them back first, UNMAP by
 * UNMAP, so that it lends them again at once instead of keeping them for
 * a resume that will not come. The sends complete before the teardown
 * drains the queue. Under nothing; @d is DELETING and its map work done.
 */
static void donor_give_back(struct spare_donor *d)
{
	struct spare_slab_map *map = &d->dev->map;
	struct spare_msg m;
	u32 s, n = 0;

	if (!d->resume_token || atomic_read(&d->ctrl.state) != SPARE_Q_LIVE)
		return;
	for (s = 0; s < map->nr_slabs; s++) {
		int c = donor_copy(d, s);
		enum spare_copy_state st;

		if (c < 0)
			continue;
		st = READ_ONCE(map->slabs[s].copy[c].state);
		if (st != SPARE_COPY_MAPPED && st != SPARE_COPY_EVICTING)
			continue;
		msg_prepare(d, &m, SPARE_MSG_UNMAP);
		m.unmap.slab_id = cpu_to_le32(s);
		if (spare_ctrl_send(d, &m))
			break;
		n++;
	}
	wait_event_timeout(d->ctrl.send_wait, ctrl_sends_done(&d->ctrl),
			   msecs_to_jiffies(SPARE_CM_TIMEOUT_MS));
	pr_info("donor %s: %u slab copies given back (UNMAP): it holds nothing for this device\n",
		d->name, n);
}

/* Cancel every work item of @d; each may have queued another before. */
static void donor_cancel_works(struct spare_donor *d)
{
	u32 j;

	/* heartbeat queues map_work; connect queues map and heartbeat */
	cancel_delayed_work_sync(&d->heartbeat_work);
	cancel_work_sync(&d->error_work);
	cancel_delayed_work_sync(&d->connect_work);
	cancel_delayed_work_sync(&d->heartbeat_work);
	cancel_work_sync(&d->map_work);
	cancel_work_sync(&d->evict_work);
	cancel_delayed_work_sync(&d->rehome_work);
	cancel_delayed_work_sync(&d->hold_work);
	for (j = 0; j < d->nr_data; j++)
		cancel_work_sync(&d->data[j].connect_work);
}

/*
 * Stop every donor of @dev. The order (Documentation/kmod.md, "Teardown"):
 *  1. every donor to DELETING: no path queues error, reconnect or map work
 *     for it any more (spare_donor_error(), schedule_reconnect() and
 *     donor_connect_work() respect DELETING);
 *  2. cancel its work items, the self-requeueing ones first;
 *  3. tear its connections down: after ib_drain_qp() and
 *     rdma_destroy_id() no completion or CM event runs, so nothing can queue
 *     evict_work or resync work any more;
 *  4. cancel again what a completion queued between 2 and 3.
 * The donors stay allocated until spare_donors_free(), after the device's
 * workqueue is gone.
 */
void spare_donors_stop(struct spare_dev *dev)
{
	u32 i;

	if (!dev->donors)
		return;
	for (i = 0; i < dev->cfg.nr_donors; i++) {
		struct spare_donor *d = &dev->donors[i];

		spare_donor_set_state(d, SPARE_LIFE_EV_STOP, spare_now_ms());
		wake_up_all(&d->map_wait);
		wake_up_all(&d->ctrl.send_wait);
	}
	/* one grace period for them all (the disk is usually gone by now) */
	if (dev->cfg.nr_donors)
		donor_wait_dispatch(&dev->donors[0]);
	for (i = 0; i < dev->cfg.nr_donors; i++) {
		struct spare_donor *d = &dev->donors[i];

		donor_cancel_works(d);
		donor_give_back(d);
		mutex_lock(&d->lock);
		donor_teardown(d);
		mutex_unlock(&d->lock);
		donor_cancel_works(d);
		donor_copies_move(d, ~0U & ~COPY_MASK(UNMAPPED),
				  SPARE_COPY_FAILED);
		donor_copies_move(d, COPY_MASK(FAILED), SPARE_COPY_UNMAPPED);
		/* what waited for a held copy fails (the device is dying) */
		spare_slab_map_hold(&dev->map, d->idx, false);
		donor_kept(d, true);
	}
}

/* Free the donors; spare_donors_stop() ran and dev->wq is destroyed. */
void spare_donors_free(struct spare_dev *dev)
{
	u32 i;

	if (!dev->donors)
		return;
	for (i = 0; i < dev->cfg.nr_donors; i++)
		donor_free(&dev->donors[i]);
	kfree(dev->donors);
	dev->donors = NULL;
}
