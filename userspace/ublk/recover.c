// SPDX-License-Identifier: GPL-2.0
/*
 * recover: spare-ublk's pager restart (Documentation/ublk.md, "Pager
 * restart"). The state file (state.c) is written before the device starts
 * and at every copy state change, before the request that saw it is
 * committed; a pager started with the file of an orphaned ublk device (its
 * pager died: the driver holds the device quiesced, UBLK_F_USER_RECOVERY)
 * takes that device back: same uuid, the donors asked to resume (HELLO
 * F_RESUME with each one's token), every whole copy mapped again and kept
 * only if the donor says it kept its contents (MAPPED F_KEPT).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pager.h"
#include "spare_log.h"
#include "spare_util.h"
#include "state.h"
#include "wire.h"

/* The parent directories of the state file, made if missing (0700). */
static void state_dir(const char *path)
{
	char dir[sizeof(((struct dev *)0)->state_path)];
	char *p;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return;
	*p = 0;
	if (spare_mkdir_p(dir, 0700))
		log_warn("state file directory %s: %s", dir, strerror(errno));
}

/*
 * Number the donors as the state file does: a restart must, since its
 * copies name donors by number. A --grant-file's plan may list them in
 * another order, and a donor added while the old pager ran (a new grant:
 * life_add_donor()) may be missing from --donor or from an older plan.
 * Every configured donor must be in the state file; the state's others are
 * added (their grants, if any, come from the grants file). false: a
 * configured donor is not in it.
 */
static bool adopt_donors(struct dev *d, const struct ublk_state *st)
{
	static struct donor tmp[SPARE_MAX_DONORS];
	u16 dom[SPARE_MAX_DONORS] = { 0 }, next_dom = pager_domain_next(d);
	bool used[SPARE_MAX_DONORS] = { false };
	u32 i, j;

	if (st->nr_donors > SPARE_MAX_DONORS || st->nr_donors < d->nr_donors)
		return false;
	memset(tmp, 0, sizeof(tmp));
	for (j = 0; j < st->nr_donors; j++) {
		for (i = 0; i < d->nr_donors; i++)
			if (!used[i] && !strcmp(st->donors[j].host, d->donors[i].host) &&
			    !strcmp(st->donors[j].port, d->donors[i].port))
				break;
		if (i < d->nr_donors) {
			used[i] = true;
			tmp[j] = d->donors[i];
			dom[j] = d->nr_domains ? d->domain[i] : 0;
			continue;
		}
		snprintf(tmp[j].host, sizeof(tmp[j].host), "%s", st->donors[j].host);
		snprintf(tmp[j].port, sizeof(tmp[j].port), "%s", st->donors[j].port);
		dom[j] = next_dom++;
		log_info("state file %s: donor %s:%s, added while the old pager ran, is donor %u",
			 d->state_path, tmp[j].host, tmp[j].port, j);
	}
	for (i = 0; i < d->nr_donors; i++)
		if (!used[i])
			return false;
	memcpy(d->donors, tmp, sizeof(tmp[0]) * st->nr_donors);
	if (d->nr_domains) {
		memcpy(d->domain, dom, sizeof(dom[0]) * st->nr_donors);
		d->nr_domains = st->nr_donors;
	}
	d->nr_donors = st->nr_donors;
	return true;
}

/*
 * One pager per state file: two would each add a device and overwrite
 * the other's placement, and a restart would take the wrong device back.
 * The lock is on PATH.lock (the state file itself is replaced by rename)
 * and lasts as long as the process; its descriptor is not inherited.
 */
static int state_lock(const char *path)
{
	char lock[sizeof(((struct dev *)0)->state_path) + 8];
	int fd;

	snprintf(lock, sizeof(lock), "%s.lock", path);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		log_err("state file lock %s: %s", lock, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			log_err("state file %s is in use by another spare-ublk: give each pager its own --state-file (the default is per --name)",
				path);
		else
			log_err("state file lock %s: %s", lock, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;	/* held until exit */
}

int pager_state_open(struct dev *d, struct ublk_state *st)
{
	const struct ublksrv_ctrl_dev_info *info = &d->ctrl.info;
	char why[256];
	int ret;

	memset(st, 0, sizeof(*st));
	if (!d->state_path[0])
		return 0;
	state_dir(d->state_path);
	if (state_lock(d->state_path) < 0)
		return -1;
	ret = ublk_state_load(d->state_path, st, why, sizeof(why));
	if (ret == -ENOENT)
		return 0;
	if (ret) {
		log_err("state file %s: %s. It is left as it is: a restarted pager needs it to take its device back; move it away to start a new, empty device",
			d->state_path, why);
		return -1;
	}
	ret = ublk_get_dev_info(&d->ctrl, st->dev_id);
	if (ret == -ENODEV) {
		log_warn("state file %s names /dev/ublkb%u, which does not exist (the host restarted, or it was deleted): starting a new device",
			 d->state_path, st->dev_id);
		ublk_state_free(st);
		memset(&d->ctrl.info, 0, sizeof(d->ctrl.info));
		return 0;
	}
	if (ret) {
		log_err("state file %s: ublk GET_DEV_INFO of device %u: %s",
			d->state_path, st->dev_id, strerror(-ret));
		return -1;
	}
	if (info->state == UBLK_S_DEV_DEAD && (info->flags & UBLK_F_USER_RECOVERY)) {
		/* Added but never started (the pager died in its set-up), or
		 * stopped: no page was ever swapped to it, or none is left. */
		log_warn("state file %s: /dev/ublkb%u was never started or was stopped: deleting it and starting a new device",
			 d->state_path, st->dev_id);
		ret = ublk_del_dev(&d->ctrl, st->dev_id);
		if (ret && ret != -ENODEV)
			log_warn("ublk DEL_DEV %u: %s", st->dev_id, strerror(-ret));
		ublk_state_free(st);
		memset(&d->ctrl.info, 0, sizeof(d->ctrl.info));
		return 0;
	}
	if (info->state == UBLK_S_DEV_LIVE && info->ublksrv_pid > 0 &&
	    info->ublksrv_pid != getpid() &&
	    (kill(info->ublksrv_pid, 0) == 0 || errno == EPERM)) {
		log_err("state file %s: /dev/ublkb%u is served by a live pager (pid %d): not touching it",
			d->state_path, st->dev_id, info->ublksrv_pid);
		return -1;
	}
	if (!(info->flags & UBLK_F_USER_RECOVERY) || !info->nr_hw_queues ||
	    info->nr_hw_queues > PAGER_MAX_QUEUES ||
	    info->queue_depth != st->depth || info->max_io_buf_bytes != MAX_IO) {
		log_err("state file %s: /dev/ublkb%u is not a device this pager can take back (flags 0x%llx, %u queues of %u)",
			d->state_path, st->dev_id, (unsigned long long)info->flags,
			info->nr_hw_queues, info->queue_depth);
		return -1;
	}
	if (st->size != d->size || st->slab_shift != d->slab_shift ||
	    st->copies != d->copies || !adopt_donors(d, st)) {
		log_err("state file %s: /dev/ublkb%u was %" PRIu64 " bytes in slabs of 2^%u, %u cop%s on %u donor(s) starting with %s:%s; the configuration differs: a restarted pager must be given the same device",
			d->state_path, st->dev_id, st->size, st->slab_shift,
			st->copies, st->copies == 1 ? "y" : "ies", st->nr_donors,
			st->donors[0].host, st->donors[0].port);
		return -1;
	}
	log_info("state file %s: taking /dev/ublkb%u back (its pager is gone)",
		 d->state_path, st->dev_id);
	return 1;
}

int pager_restore_map(struct dev *d, const struct ublk_state *st)
{
	struct spare_slab_map *map = &d->map;
	u32 s, c, kept = 0, lost = 0, failed = 0, empty = 0;

	if (st->nr_slabs != map->nr_slabs || st->nr_slots != map->nr_slots) {
		log_err("state file: %u slabs x %u slots, the map has %u x %u",
			st->nr_slabs, st->nr_slots, map->nr_slabs, map->nr_slots);
		return -1;
	}
	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		u32 whole = 0;

		/* The file's placement, not the round robin (copies move). */
		for (c = 0; c < map->nr_slots; c++)
			slab->copy[c].donor = st->slots[s * st->nr_slots + c].donor;
		for (c = 0; c < map->nr_slots; c++) {
			const struct ublk_state_slot *sl = &st->slots[s * st->nr_slots + c];
			struct spare_copy *cp = &slab->copy[c];
			struct donor *dn;
			u32 id = pager_wire_id(s, c), flags = 0;
			bool ok = false;

			if (sl->donor == SPARE_NO_DONOR)
				continue;
			dn = &d->donors[sl->donor];
			spare_copy_set_state(map, slab, c, SPARE_COPY_MAPPING);
			if (sl->state == UBLK_SLOT_WHOLE && dn->ctrl.up &&
			    donor_map_flags(dn, id, &cp->addr, &cp->rkey, &flags) == 0) {
				ok = flags & SPARE_MAPPED_F_KEPT;
				if (!ok) {
					/* a fresh, zeroed slab: not our data */
					log_warn("slab %u copy %u: donor %s no longer holds it (restarted, or resume-hold passed): the copy is failed",
						 s, c, dn->host);
					donor_unmap(dn, id);
					lost++;
				}
			} else if (dn->ctrl.up) {
				/* A copy that had failed: what the donor still
				 * holds for it goes back. */
				donor_unmap(dn, id);
				if (sl->state == UBLK_SLOT_WHOLE)
					lost++;
				else
					failed++;
			} else {
				lost += sl->state == UBLK_SLOT_WHOLE;
				failed += sl->state != UBLK_SLOT_WHOLE;
			}
			/*
			 * "written" is still empty: entering MAPPED makes the
			 * copy current for every page. The kept slab holds
			 * every page the device ever wrote there.
			 */
			spare_copy_set_state(map, slab, c,
					     ok ? SPARE_COPY_MAPPED : SPARE_COPY_FAILED);
			whole += ok;
			kept += ok;
		}
		/*
		 * Every page counts as written: which ones were is not in
		 * the file, and a page no copy holds must read as an error,
		 * never as zeros.
		 */
		bitmap_set(slab->written, 0, map->pages_per_slab);
		if (!whole)
			empty++;
	}
	log_info("restart: %u copies kept by their donors, %u lost, %u had failed before",
		 kept, lost, failed);
	if (empty)
		log_err("restart: %u slab(s) have no copy left: their pages read as I/O errors, never as wrong data",
			empty);
	return 0;
}

static int state_write(struct dev *d)
{
	struct ublk_state *st = d->state;
	/* donors may be added while running (life_add_donor()) */
	u32 i, nr = __atomic_load_n(&d->nr_donors, __ATOMIC_ACQUIRE);
	char why[256];
	int ret;

	/* before reading the map: a change made meanwhile writes again */
	d->state_changes = __atomic_load_n(&spare_ublk_map_changes,
					   __ATOMIC_ACQUIRE);
	st->nr_donors = nr;
	for (i = 0; i < nr; i++) {
		snprintf(st->donors[i].host, sizeof(st->donors[i].host), "%s",
			 d->donors[i].host);
		snprintf(st->donors[i].port, sizeof(st->donors[i].port), "%s",
			 d->donors[i].port);
		st->donors[i].token = d->donors[i].resume_token;
	}
	ublk_state_from_map(st, &d->map);
	ret = ublk_state_save(d->state_path, st, why, sizeof(why));
	if (ret)
		log_err("state file %s: %s", d->state_path, why);
	return ret;
}

int pager_state_save(struct dev *d)
{
	struct ublk_state *st;
	int ret;

	if (!d->state_path[0])
		return 0;
	if (!d->state) {
		st = calloc(1, sizeof(*st));
		if (!st || ublk_state_alloc(st, d->map.nr_slabs, d->map.nr_slots)) {
			free(st);
			log_err("state file: out of memory");
			return -1;
		}
		d->state = st;
	}
	st = d->state;
	memcpy(st->uuid, d->uuid, sizeof(st->uuid));
	st->dev_id = d->ctrl.info.dev_id;
	st->size = d->size;
	st->slab_shift = d->slab_shift;
	st->copies = d->copies;
	st->depth = d->depth;
	st->nr_donors = d->nr_donors;
	pthread_mutex_lock(&d->state_lock);
	ret = state_write(d);
	pthread_mutex_unlock(&d->state_lock);
	return ret ? -1 : 0;
}

void pager_state_sync(struct dev *d)
{
	if (!d->state || d->state_broken)
		return;
	pthread_mutex_lock(&d->state_lock);
	/* state_write() reads the counter first: a change made while it
	 * writes makes the state stale again. */
	if (state_write(d)) {
		/*
		 * The file no longer says the truth and cannot be made to:
		 * it goes, so that a restart never reads a copy that failed.
		 * (Such a restart starts a new device; this one's data is
		 * lost with this pager.)
		 */
		if (unlink(d->state_path) && errno != ENOENT)
			log_err("state file %s: cannot remove it either: %s. Remove it before restarting this pager",
				d->state_path, strerror(errno));
		else
			log_err("state file %s removed: a restarted pager will not take this device back",
				d->state_path);
		d->state_broken = true;
	}
	pthread_mutex_unlock(&d->state_lock);
}

void pager_state_remove(struct dev *d)
{
	if (!d->state_path[0] || !d->state)
		return;
	if (unlink(d->state_path) && errno != ENOENT)
		log_warn("state file %s: %s", d->state_path, strerror(errno));
	ublk_state_free(d->state);
	free(d->state);
	d->state = NULL;
}
