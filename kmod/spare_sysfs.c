// SPDX-License-Identifier: GPL-2.0
/*
 * Stats under /sys/block/spareN/spare/, versioned like zram's mm_stat: the
 * first field of every line is the format version, fields are only ever
 * appended. Documentation/ABI/testing/sysfs-block-spare describes them.
 */
#include <linux/device.h>
#include <linux/sysfs.h>

#include "spare.h"

#define SPARE_IO_STAT_VERSION		2
#define SPARE_SLAB_STAT_VERSION		1
#define SPARE_DONOR_STAT_VERSION	2
#define SPARE_SLAB_MAP_VERSION		1

static struct spare_dev *dev_of(struct device *d)
{
	return dev_to_disk(d)->private_data;
}

static ssize_t io_stat_show(struct device *d, struct device_attribute *attr,
			    char *buf)
{
	struct spare_io_stats *s = &dev_of(d)->stats;

	return sysfs_emit(buf,
		"%u %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld\n",
		SPARE_IO_STAT_VERSION,
		atomic64_read(&s->rdma_reads), atomic64_read(&s->rdma_writes),
		atomic64_read(&s->backup_reads),
		atomic64_read(&s->backup_writes),
		atomic64_read(&s->zero_reads), atomic64_read(&s->redrives),
		atomic64_read(&s->failovers), atomic64_read(&s->io_errors),
		atomic64_read(&s->bytes_read), atomic64_read(&s->bytes_written),
		atomic64_read(&s->write_waits),
		atomic64_read(&s->resync_pages),
		atomic64_read(&s->backup_waits),
		atomic64_read(&s->integrity_errors),
		atomic64_read(&s->held_waits));
}
static DEVICE_ATTR_RO(io_stat);

static ssize_t slab_stat_show(struct device *d, struct device_attribute *attr,
			      char *buf)
{
	struct spare_dev *dev = dev_of(d);
	struct spare_slab_map *map = &dev->map;
	u32 count[SPARE_COPY_NR_STATES] = {};
	u64 current_pages = 0;
	u32 s, c;

	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		unsigned long flags;

		spin_lock_irqsave(&slab->lock, flags);
		for (c = 0; c < map->nr_slots; c++) {
			if (slab->copy[c].donor == SPARE_NO_DONOR)
				continue;	/* the spare slot */
			count[slab->copy[c].state]++;
			current_pages += spare_copy_current_pages(map,
							&slab->copy[c]);
		}
		spin_unlock_irqrestore(&slab->lock, flags);
	}
	return sysfs_emit(buf, "%u %u %u %u %u %u %u %u %u %llu\n",
			  SPARE_SLAB_STAT_VERSION, map->nr_slabs,
			  map->slab_shift, map->nr_copies,
			  count[SPARE_COPY_MAPPED], count[SPARE_COPY_MAPPING],
			  count[SPARE_COPY_UNMAPPED], count[SPARE_COPY_EVICTING],
			  count[SPARE_COPY_FAILED], current_pages);
}
static DEVICE_ATTR_RO(slab_stat);

static ssize_t donor_stat_show(struct device *d, struct device_attribute *attr,
			       char *buf)
{
	struct spare_dev *dev = dev_of(d);
	ssize_t len = 0;
	u32 i;

	for (i = 0; i < dev->cfg.nr_donors && dev->donors; i++) {
		struct spare_donor *dn = &dev->donors[i];
		struct spare_donor_stats *s = &dn->stats;

		len += sysfs_emit_at(buf, len,
			"%u %u %s %s %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld\n",
			SPARE_DONOR_STAT_VERSION, i, dn->name,
			spare_donor_state_name(atomic_read(&dn->state)),
			atomic64_read(&s->connects), atomic64_read(&s->losses),
			atomic64_read(&s->evictions),
			atomic64_read(&s->bad_msgs),
			atomic64_read(&s->maps_refused),
			atomic64_read(&s->moves), atomic64_read(&s->moves_short),
			atomic64_read(&s->kept_copies),
			atomic64_read(&s->kept_pages),
			atomic64_read(&s->holds_expired));
	}
	return len;
}
static DEVICE_ATTR_RO(donor_stat);

/*
 * slab_map: one line per slab copy, where it lives now (a copy moves on
 * eviction, so this is the live placement, not configfs "placement"):
 * version, slab, slot, donor index, donor address, state, current pages.
 * One line per copy does not fit a page for large devices: a binary
 * attribute, text all the same, built whole on each read. That costs a
 * buffer of the whole map and every slab's lock, and the donor addresses
 * are the site's: readable by root only.
 */
static ssize_t slab_map_read(struct file *f, struct kobject *kobj,
			     struct bin_attribute *attr, char *buf, loff_t off,
			     size_t count)
{
	struct spare_dev *dev = dev_of(kobj_to_dev(kobj));
	struct spare_slab_map *map = &dev->map;
	size_t cap = (size_t)map->nr_slabs * map->nr_slots * 96 + 1, len = 0;
	ssize_t ret;
	char *text;
	u32 s, c;

	text = kvmalloc(cap, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	for (s = 0; s < map->nr_slabs; s++) {
		struct spare_slab *slab = &map->slabs[s];
		unsigned long flags;

		spin_lock_irqsave(&slab->lock, flags);
		for (c = 0; c < map->nr_slots; c++) {
			const struct spare_copy *cp = &slab->copy[c];

			if (cp->donor >= dev->cfg.nr_donors || !dev->donors)
				continue;	/* the spare slot */
			len += scnprintf(text + len, cap - len,
					 "%u %u %u %u %s %s %u\n",
					 SPARE_SLAB_MAP_VERSION, s, c, cp->donor,
					 dev->donors[cp->donor].name,
					 spare_copy_state_name(cp->state),
					 spare_copy_current_pages(map, cp));
		}
		spin_unlock_irqrestore(&slab->lock, flags);
	}
	ret = memory_read_from_buffer(buf, count, &off, text, len);
	kvfree(text);
	return ret;
}
static BIN_ATTR_ADMIN_RO(slab_map, 0);

/*
 * moving: what waits for a donor the device does not have, one line per
 * slab, "version slab donor-index donor-address" (the core's
 * spare_moving_line(), as spare-ublk's NAME.moving): today an ec
 * device's split slabs whose re-home found no donor under its grants
 * (spare_ec_moving()). Empty when none waits; sparectl device monitor
 * reads it every round and asks a broker for a donor. Built whole on each
 * read, as slab_map; it names donors: root only.
 */
static ssize_t moving_read(struct file *f, struct kobject *kobj,
			   struct bin_attribute *attr, char *buf, loff_t off,
			   size_t count)
{
	struct spare_dev *dev = dev_of(kobj_to_dev(kobj));
	size_t cap = spare_ec_moving_cap(dev), len;
	ssize_t ret;
	char *text;

	text = kvmalloc(cap, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	len = spare_ec_moving(dev, text, cap);
	ret = memory_read_from_buffer(buf, count, &off, text, len);
	kvfree(text);
	return ret;
}
static BIN_ATTR_ADMIN_RO(moving, 0);

/* redundancy=ec:K+R's counters (spare_ec_blk.c); zeros on other devices */
static ssize_t ec_stat_show(struct device *d, struct device_attribute *attr,
			    char *buf)
{
	return spare_ec_stat_show(dev_of(d), buf);
}
static DEVICE_ATTR_RO(ec_stat);

static struct attribute *spare_attrs[] = {
	&dev_attr_io_stat.attr,
	&dev_attr_ec_stat.attr,
	&dev_attr_slab_stat.attr,
	&dev_attr_donor_stat.attr,
	NULL,
};

static struct bin_attribute *spare_bin_attrs[] = {
	&bin_attr_slab_map,
	&bin_attr_moving,
	NULL,
};

static const struct attribute_group spare_attr_group = {
	.name		= "spare",
	.attrs		= spare_attrs,
	.bin_attrs	= spare_bin_attrs,
};

const struct attribute_group *spare_disk_groups[] = {
	&spare_attr_group,
	NULL,
};
