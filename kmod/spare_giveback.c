// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko gives slab copies back to the pool on a broker's move marks
 * (Documentation/protocol.md, "Taking excess back"; kmod.md, "Move
 * marks"). sparectl's renewal asks the broker for its marks and writes to
 * the configfs attribute "giveback" how many copies on a donor go beyond
 * the grants the broker did not mark: "ADDR COUNT", one donor a write,
 * ADDR as the device's "donors" lists it (a.b.c.d:port). The count
 * replaces the donor's last one, less the copies given back already and
 * still draining (a renewal that saw them in slab_map counts them). The
 * donor's evict work then judges each copy there, the last slab first, by
 * the core's spare_reclaim_decide() (spare_evict.c, giveback_look()):
 * a copy goes only if no page is lost by it, as a mark is a request.
 *
 * A write the module cannot act on (not "ADDR COUNT", no donor of the
 * device at ADDR, more copies than slabs, copies asked of a device that is
 * off) is refused with -EINVAL and changes nothing; none asked of a device
 * that is off is no change. Reading shows the copies still owed, one
 * "ADDR COUNT" line per donor owing any.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "spare.h"

/* "ADDR COUNT" (a newline at the end allowed) into @sin and @n. 0, or -EINVAL. */
static int giveback_parse(const char *page, size_t count,
			  struct sockaddr_in *sin, u32 *n)
{
	const char *sp;
	char num[12];
	size_t len;

	if (count && page[count - 1] == '\n')
		count--;
	sp = memchr(page, ' ', count);
	if (!sp || sp == page)
		return -EINVAL;
	len = count - (sp + 1 - page);
	if (!len || len >= sizeof(num))
		return -EINVAL;
	memcpy(num, sp + 1, len);
	num[len] = '\0';
	if (!isdigit(num[0]) || kstrtou32(num, 10, n) ||
	    spare_parse_donor(page, sp - page, sin) || !sin->sin_port)
		return -EINVAL;
	return 0;
}

/* The donor of @dev at @sin, or NULL. Under dev->lock, powered. */
static struct spare_donor *giveback_donor(struct spare_dev *dev,
					  const struct sockaddr_in *sin)
{
	u32 i;

	for (i = 0; i < dev->cfg.nr_donors; i++) {
		const struct sockaddr_in *a =
			(const struct sockaddr_in *)&dev->cfg.donor_addr[i];

		if (a->sin_addr.s_addr == sin->sin_addr.s_addr &&
		    a->sin_port == sin->sin_port)
			return &dev->donors[i];
	}
	return NULL;
}

int spare_giveback_store(struct spare_dev *dev, const char *page, size_t count)
{
	const char *name = config_item_name(&dev->item);
	struct spare_donor *d;
	struct sockaddr_in sin;
	u32 n, was, owed, leaving;
	int ret = -EINVAL;

	if (giveback_parse(page, count, &sin, &n)) {
		pr_warn("%s: giveback: want \"ADDR:PORT COUNT\" (a donor of the device and a number of its slab copies)\n",
			name);
		return -EINVAL;
	}
	mutex_lock(&dev->lock);
	if (!dev->powered || !dev->donors) {
		/* nothing is owed while off: none asked is no change */
		if (n)
			pr_warn("%s: giveback: the device is not powered on\n",
				name);
		ret = n ? -EINVAL : 0;
		goto out;
	}
	if (n > dev->map.nr_slabs) {
		pr_warn("%s: giveback: %u copies asked back, the device has %u slabs\n",
			name, n, dev->map.nr_slabs);
		goto out;
	}
	d = giveback_donor(dev, &sin);
	if (!d) {
		pr_warn("%s: giveback: %pI4:%u is no donor of the device\n",
			name, &sin.sin_addr, ntohs(sin.sin_port));
		goto out;
	}
	if (n)	/* a marked grant the module holds lapses by then */
		WRITE_ONCE(d->giveback_until, spare_grants_last_expiry(dev, &sin));
	spin_lock_bh(&d->pending_lock);
	was = d->giveback;
	leaving = atomic_read(&d->giveback_leaving);
	owed = n > leaving ? n - leaving : 0;
	d->giveback = owed;
	if (owed != was) {
		d->giveback_kept_said = 0;
		d->giveback_nomove_said = false;
		WRITE_ONCE(d->giveback_next, 0);	/* look at once */
	}
	spin_unlock_bh(&d->pending_lock);
	if (owed && owed != was)
		pr_info("donor %s: %u slab cop%s asked back by the broker's move marks (%u leaving already)\n",
			d->name, owed, owed == 1 ? "y" : "ies", leaving);
	if (owed)
		queue_work(dev->wq, &d->evict_work);
	ret = 0;
out:
	mutex_unlock(&dev->lock);
	return ret;
}

ssize_t spare_giveback_show(struct spare_dev *dev, char *page)
{
	ssize_t len = 0;
	u32 i, owed;

	mutex_lock(&dev->lock);
	for (i = 0; dev->powered && dev->donors && i < dev->cfg.nr_donors; i++) {
		owed = READ_ONCE(dev->donors[i].giveback);
		if (owed)
			len += sysfs_emit_at(page, len, "%s %u\n",
					     dev->cfg.donor_name[i], owed);
	}
	mutex_unlock(&dev->lock);
	return len;
}
