// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko: remote-memory swap over RDMA. Module glue and configfs.
 *
 * Devices are configured in configfs, in the null_blk / nvmet style:
 *
 *   mkdir /sys/kernel/config/spare/<name>
 *   echo 256M                      > size
 *   echo 16M                       > slab_size
 *   echo 2                         > replicas
 *   echo 10.0.0.2:18515,10.0.0.3   > donors
 *   echo 0,1,1,0                   > placement     (optional; from a broker)
 *   echo 0,0,1                     > domains       (optional; from a broker)
 *   echo <512 hex digits>          > grants        (optional; one per write)
 *   echo 10.0.0.1                  > source        (optional local address)
 *   echo /dev/vdb                  > backup        (optional)
 *   echo sync                      > backup_mode   (sync | async)
 *   echo crc32c                    > integrity     (none | crc32c)
 *   echo 0                         > ec_delta      (ec:K+R: 0..R spare split reads)
 *   echo 30000                     > rehome_delay_ms (a lost donor's copies move)
 *   echo 20000                     > hold_ms       (a restarting donor is waited for; 0: none)
 *   echo SPARE-1:...               > key           (optional; sparectl gen-key)
 *   echo 1                         > power         -> /dev/spareN
 *   cat disk                                       -> spareN
 *
 * Attributes other than power and grants can only change while powered
 * off, except that donors (and their domains) can be appended to a running
 * device for moved copies to go to. A write
 * that is refused returns -EINVAL (-EBUSY while powered) and logs one line
 * saying why. Documentation/ABI/testing/configfs-spare describes each one.
 */
#include <linux/ctype.h>
#include <linux/inet.h>
#include <linux/in.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "spare.h"

/* Defaults: the one place they are written down. */
#define SPARE_DEFAULT_REPLICAS	1

static bool cfg_locked(struct spare_dev *dev, const char *attr)
{
	if (dev->powered) {
		pr_warn("%s: %s cannot change while powered on\n",
			config_item_name(&dev->item), attr);
		return true;
	}
	return false;
}

#define SPARE_WARN_INVAL(dev, fmt, ...)					\
	({								\
		pr_warn("%s: " fmt "\n", config_item_name(&(dev)->item),	\
			##__VA_ARGS__);					\
		-EINVAL;						\
	})

/* Parse a size with an optional K/M/G suffix; rejects trailing junk. */
static int parse_size(const char *page, u64 *out)
{
	char *end;
	u64 v;

	if (!isdigit(*page))
		return -EINVAL;
	v = memparse(page, &end);
	if (*end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * Configuration attributes, each declared once (as null_blk declares its
 * device attributes). SPARE_CFG_ATTR(name, fmt, value) makes the configfs
 * attribute "name": show prints @value, an expression of
 * "struct spare_dev *dev", with @fmt; store takes dev->lock, refuses with
 * -EBUSY while the device is powered (cfg_locked(), the one place of that
 * rule) and otherwise calls spare_cfg_set_<name>(dev, page, count), which
 * sets the value and returns 0, or logs why not (SPARE_WARN_INVAL()) and
 * returns the error. SPARE_CFG_STORE(name) is the store alone, for an
 * attribute whose show is written out. SPARE_CFG_ATTR_U32(name, min, max)
 * is a plain number cfg.name from @min to @max, its setter included.
 */
#define SPARE_CFG_STORE(_name)						\
static ssize_t spare_##_name##_store(struct config_item *item,		\
				     const char *page, size_t count)	\
{									\
	struct spare_dev *dev = to_spare_dev(item);			\
	int ret;							\
									\
	mutex_lock(&dev->lock);						\
	ret = cfg_locked(dev, #_name) ? -EBUSY :			\
	      spare_cfg_set_##_name(dev, page, count);			\
	mutex_unlock(&dev->lock);					\
	return ret ? ret : count;					\
}									\
CONFIGFS_ATTR(spare_, _name)

#define SPARE_CFG_ATTR(_name, _fmt, _value)				\
static ssize_t spare_##_name##_show(struct config_item *item, char *page) \
{									\
	struct spare_dev *dev = to_spare_dev(item);			\
									\
	return sysfs_emit(page, _fmt "\n", _value);			\
}									\
SPARE_CFG_STORE(_name)

#define SPARE_CFG_ATTR_U32(_name, _min, _max)				\
static int spare_cfg_set_##_name(struct spare_dev *dev,		\
				 const char *page, size_t count)	\
{									\
	u32 v;								\
									\
	if (kstrtou32(page, 10, &v) || v < (_min) || v > (_max))	\
		return SPARE_WARN_INVAL(dev, #_name ": must be %u to %u", \
					(u32)(_min), (u32)(_max));	\
	dev->cfg._name = v;						\
	return 0;							\
}									\
SPARE_CFG_ATTR(_name, "%u", dev->cfg._name)

static int spare_cfg_set_size(struct spare_dev *dev, const char *page,
			      size_t count)
{
	u64 v;

	if (parse_size(page, &v))
		return SPARE_WARN_INVAL(dev, "size: not a number of bytes");
	if (!v || v % SPARE_PAGE_SIZE)
		return SPARE_WARN_INVAL(dev, "size %llu: must be a non-zero multiple of 4096", v);
	if (v > (1ULL << 50))
		return SPARE_WARN_INVAL(dev, "size %llu: larger than 1 PiB", v);
	dev->cfg.size = v;
	return 0;
}
SPARE_CFG_ATTR(size, "%llu", dev->cfg.size);

static int spare_cfg_set_slab_size(struct spare_dev *dev, const char *page,
				   size_t count)
{
	u64 v;

	if (parse_size(page, &v))
		return SPARE_WARN_INVAL(dev, "slab_size: not a number of bytes");
	if (!is_power_of_2(v) || ilog2(v) < SPARE_SLAB_SHIFT_MIN ||
	    ilog2(v) > SPARE_SLAB_SHIFT_MAX)
		return SPARE_WARN_INVAL(dev, "slab_size %llu: must be a power of two from %llu to %llu",
					v, 1ULL << SPARE_SLAB_SHIFT_MIN,
					1ULL << SPARE_SLAB_SHIFT_MAX);
	dev->cfg.slab_shift = ilog2(v);
	return 0;
}
SPARE_CFG_ATTR(slab_size, "%llu", 1ULL << dev->cfg.slab_shift);

SPARE_CFG_ATTR_U32(replicas, 1, SPARE_MAX_REPLICAS);

static ssize_t spare_redundancy_show(struct config_item *item, char *page)
{
	char name[SPARE_EC_NAME_MAX];

	spare_ec_format(&to_spare_dev(item)->cfg.ec, name, sizeof(name));
	return sysfs_emit(page, "%s\n", name);
}

static int spare_cfg_set_redundancy(struct spare_dev *dev, const char *page,
				    size_t count)
{
	size_t shown = min_t(size_t, strcspn(page, "\n"), 16);
	struct spare_ec_geom g;
	const char *why;

	if (spare_ec_parse(page, count, &g, &why))
		return SPARE_WARN_INVAL(dev, "redundancy '%.*s': %s",
					(int)shown, page, why);
	if (spare_ec_on(&g) && dev->cfg.replicas > 1)
		return SPARE_WARN_INVAL(dev,
					"redundancy '%.*s': replicas is %u: a page is copied or split, not both: set replicas=1 first",
					(int)shown, page, dev->cfg.replicas);
	dev->cfg.ec = g;
	return 0;
}
SPARE_CFG_STORE(redundancy);

/*
 * "ec_delta": split reads an ec:K+R read posts beyond K (late binding,
 * the first K to arrive complete it), 0 to SPARE_EC_MAX_R here; above R,
 * or other than the default without ec:K+R, is refused at power-on.
 */
SPARE_CFG_ATTR_U32(ec_delta, 0, SPARE_EC_MAX_R);

static int spare_cfg_set_backup(struct spare_dev *dev, const char *page,
				size_t count)
{
	size_t len = strcspn(page, "\n");

	if (len >= sizeof(dev->cfg.backup))
		return SPARE_WARN_INVAL(dev, "backup: path longer than %zu bytes",
					sizeof(dev->cfg.backup) - 1);
	if (len && page[0] != '/')
		return SPARE_WARN_INVAL(dev, "backup: '%.*s' is not an absolute path",
					(int)len, page);
	strscpy(dev->cfg.backup, page, len + 1);
	return 0;
}
SPARE_CFG_ATTR(backup, "%s", dev->cfg.backup);

static const char *const backup_mode_names[] = {
	[SPARE_BACKUP_SYNC]	= "sync",
	[SPARE_BACKUP_ASYNC]	= "async",
};

static int spare_cfg_set_backup_mode(struct spare_dev *dev, const char *page,
				     size_t count)
{
	int mode = sysfs_match_string(backup_mode_names, page);

	if (mode < 0)
		return SPARE_WARN_INVAL(dev, "backup_mode: must be sync or async");
	dev->cfg.backup_mode = mode;
	return 0;
}
SPARE_CFG_ATTR(backup_mode, "%s", backup_mode_names[dev->cfg.backup_mode]);

/* "a.b.c.d[:port]" -> sockaddr_in. */
int spare_parse_donor(const char *s, size_t len, struct sockaddr_in *sin)
{
	char buf[32];
	const char *colon;
	u16 port = SPARE_DEFAULT_PORT;
	size_t alen;

	if (!len || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	colon = strchr(buf, ':');
	alen = colon ? colon - buf : len;
	if (colon && (kstrtou16(colon + 1, 10, &port) || !port))
		return -EINVAL;
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_port = htons(port);
	if (!in4_pton(buf, alen, (u8 *)&sin->sin_addr.s_addr, -1, NULL) ||
	    !sin->sin_addr.s_addr)
		return -EINVAL;
	return 0;
}

static ssize_t spare_donors_show(struct config_item *item, char *page)
{
	struct spare_dev *dev = to_spare_dev(item);
	ssize_t len = 0;
	u32 i;

	mutex_lock(&dev->lock);
	for (i = 0; i < dev->cfg.nr_donors; i++)
		len += sysfs_emit_at(page, len, "%s%s", i ? "," : "",
				     dev->cfg.donor_name[i]);
	len += sysfs_emit_at(page, len, "\n");
	mutex_unlock(&dev->lock);
	return len;
}

static void donor_set(struct spare_config *cfg, u32 i,
		      const struct sockaddr_in *addr)
{
	memset(&cfg->donor_addr[i], 0, sizeof(cfg->donor_addr[i]));
	memcpy(&cfg->donor_addr[i], addr, sizeof(*addr));
	snprintf(cfg->donor_name[i], sizeof(cfg->donor_name[i]), "%pI4:%u",
		 &addr->sin_addr, ntohs(addr->sin_port));
}

/*
 * A list attribute written while powered (donors, domains) may only grow:
 * the @old current entries, the first @same of which the write repeats,
 * and new ones after them (@n in all). Logs why not, and returns false.
 */
static bool appends_only(struct spare_dev *dev, const char *attr, u32 old,
			 u32 n, u32 same)
{
	const char *why = !old ? "the device started without it" :
			  same < old ? "the current entries changed" :
			  n == old ? "none added" : NULL;

	if (why)
		pr_warn("%s: %s: while powered on, only new entries at the end of the list can be written (%s)\n",
			config_item_name(&dev->item), attr, why);
	return !why;
}

/*
 * "donors" written while the device runs: the list must be the current one
 * with donors added at its end (sparectl device monitor adds the donor a
 * broker granted for a copy that must move). They connect at once and can
 * take moved copies; no copy is placed on them otherwise. Anything else
 * cannot change while powered (-EBUSY). 0, or an error (logged).
 */
static int donors_append(struct spare_dev *dev, const struct sockaddr_in *addr,
			 u32 n)
{
	struct spare_config *cfg = &dev->cfg;
	u32 old = cfg->nr_donors, i;
	int ret;

	for (i = 0; i < old && i < n; i++) {
		const struct sockaddr_in *cur =
			(const struct sockaddr_in *)&cfg->donor_addr[i];

		if (cur->sin_addr.s_addr != addr[i].sin_addr.s_addr ||
		    cur->sin_port != addr[i].sin_port)
			break;
	}
	if (!appends_only(dev, "donors", old, n, i))
		return -EBUSY;
	for (i = old; i < n; i++)
		donor_set(cfg, i, &addr[i]);
	ret = spare_donors_add(dev, n);
	if (ret)
		pr_warn("%s: donors: cannot add: %d\n",
			config_item_name(&dev->item), ret);
	return ret;
}

static ssize_t spare_donors_store(struct config_item *item, const char *page,
				  size_t count)
{
	struct spare_dev *dev = to_spare_dev(item);
	struct spare_config *cfg = &dev->cfg;
	struct sockaddr_in addr[SPARE_MAX_DONORS];
	const char *p = page, *end = page + count;
	ssize_t ret = count;
	u32 n = 0, i, j;

	mutex_lock(&dev->lock);
	while (p < end) {
		size_t len = strcspn(p, ", \n");

		if (p + len > end)
			len = end - p;
		if (len) {
			if (n == SPARE_MAX_DONORS) {
				ret = SPARE_WARN_INVAL(dev, "donors: more than %d",
						       SPARE_MAX_DONORS);
				goto out;
			}
			if (spare_parse_donor(p, len, &addr[n])) {
				ret = SPARE_WARN_INVAL(dev, "donors: '%.*s' is not IPv4[:port]",
						       (int)len, p);
				goto out;
			}
			for (j = 0; j < n; j++)
				if (addr[j].sin_addr.s_addr ==
				    addr[n].sin_addr.s_addr &&
				    addr[j].sin_port == addr[n].sin_port) {
					ret = SPARE_WARN_INVAL(dev, "donors: '%.*s' listed twice",
							       (int)len, p);
					goto out;
				}
			n++;
		}
		p += len + 1;
	}
	if (dev->powered) {
		ret = donors_append(dev, addr, n) ?: count;
		goto out;
	}
	for (i = 0; i < n; i++)
		donor_set(cfg, i, &addr[i]);
	cfg->nr_donors = n;
out:
	mutex_unlock(&dev->lock);
	return ret;
}

static ssize_t spare_source_show(struct config_item *item, char *page)
{
	struct spare_dev *dev = to_spare_dev(item);
	struct sockaddr_in *sin = (struct sockaddr_in *)&dev->cfg.source;

	if (sin->sin_family != AF_INET)
		return sysfs_emit(page, "\n");
	return sysfs_emit(page, "%pI4\n", &sin->sin_addr);
}

static int spare_cfg_set_source(struct spare_dev *dev, const char *page,
				size_t count)
{
	size_t len = strcspn(page, "\n");
	struct sockaddr_in sin = { .sin_family = AF_INET };

	if (!len)
		memset(&dev->cfg.source, 0, sizeof(dev->cfg.source));
	else if (!in4_pton(page, len, (u8 *)&sin.sin_addr.s_addr, -1, NULL))
		return SPARE_WARN_INVAL(dev, "source: '%.*s' is not an IPv4 address",
					(int)len, page);
	else
		memcpy(&dev->cfg.source, &sin, sizeof(sin));
	return 0;
}
SPARE_CFG_STORE(source);

static ssize_t spare_power_show(struct config_item *item, char *page)
{
	return sysfs_emit(page, "%d\n", to_spare_dev(item)->powered);
}

static ssize_t spare_power_store(struct config_item *item, const char *page,
				 size_t count)
{
	struct spare_dev *dev = to_spare_dev(item);
	bool on;
	int ret;

	if (kstrtobool(page, &on))
		return SPARE_WARN_INVAL(dev, "power: must be 0 or 1");
	mutex_lock(&dev->lock);
	if (on == dev->powered)
		ret = 0;
	else if (on)
		ret = spare_dev_power_on(dev);
	else
		ret = spare_dev_power_off(dev);
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

static int spare_cfg_set_integrity(struct spare_dev *dev, const char *page,
				   size_t count)
{
	if (sysfs_streq(page, "crc32c"))
		dev->cfg.integrity = true;
	else if (sysfs_streq(page, "none"))
		dev->cfg.integrity = false;
	else
		return SPARE_WARN_INVAL(dev, "integrity: must be none or crc32c");
	return 0;
}
SPARE_CFG_ATTR(integrity, "%s", dev->cfg.integrity ? "crc32c" : "none");

/*
 * "rehome_delay_ms": how long a donor stays down before its copies go to
 * other donors (spare_donor_rehome_arm()); SPARE_LIFE_REHOME_MS unless
 * set. Only the bounds apply here: a donor that holds our slabs over a
 * restart is waited for its hold whatever the delay (spare_life_rehome_due()
 * is false while spare_life_holding()), so a delay below the hold re-homes
 * a held donor's copies when the hold runs out. The pager with a state
 * file keeps its delay above the hold (spare_life_rehome_check()).
 */
static int spare_cfg_set_rehome_delay_ms(struct spare_dev *dev,
					 const char *page, size_t count)
{
	u32 v;

	if (kstrtou32(page, 10, &v) || spare_life_rehome_check(v, 0))
		return SPARE_WARN_INVAL(dev,
					"rehome_delay_ms: must be %u to %u (ms a lost donor stays down before its copies move)",
					SPARE_LIFE_REHOME_MIN_MS,
					SPARE_LIFE_REHOME_MAX_MS);
	dev->cfg.rehome_delay_ms = v;
	return 0;
}
SPARE_CFG_ATTR(rehome_delay_ms, "%u", dev->cfg.rehome_delay_ms);

/*
 * "hold_ms": how long a lost donor that holds our slabs over its restart
 * (HELLO F_HOLD granted) is waited for before its copies fail
 * (spare_life_hold()); SPARE_LIFE_HOLD_MS unless set; 0: HELLO asks no
 * donor for a hold, and a lost donor's copies fail at once. As with
 * rehome_delay_ms, a held donor is not re-homed while it is waited for,
 * so either may be written first.
 */
static int spare_cfg_set_hold_ms(struct spare_dev *dev, const char *page,
				 size_t count)
{
	u32 v;

	if (kstrtou32(page, 10, &v) || spare_life_hold_check(v))
		return SPARE_WARN_INVAL(dev,
					"hold_ms: must be 0 (no hold) or %u to %u (ms a donor that holds our slabs over its restart is waited for)",
					SPARE_LIFE_HOLD_MIN_MS,
					SPARE_LIFE_HOLD_MAX_MS);
	dev->cfg.hold_ms = v;
	return 0;
}
SPARE_CFG_ATTR(hold_ms, "%u", dev->cfg.hold_ms);

/* Write-only: reads say whether a secret is set, never what it is. */
static ssize_t spare_key_show(struct config_item *item, char *page)
{
	struct spare_dev *dev = to_spare_dev(item);
	ssize_t ret;

	mutex_lock(&dev->lock);
	ret = sysfs_emit(page, "%s\n", dev->auth_tfm ? "set" : "unset");
	mutex_unlock(&dev->lock);
	return ret;
}

static int spare_cfg_set_key(struct spare_dev *dev, const char *page,
			     size_t count)
{
	return spare_auth_set_key(dev, page, count);
}
SPARE_CFG_STORE(key);

static ssize_t spare_disk_show(struct config_item *item, char *page)
{
	struct spare_dev *dev = to_spare_dev(item);
	ssize_t ret;

	mutex_lock(&dev->lock);
	ret = sysfs_emit(page, "%s\n", dev->powered && dev->disk ?
			 dev->disk->disk_name : "");
	mutex_unlock(&dev->lock);
	return ret;
}

/*
 * "placement": the donor of every slab copy, slab-major, as indices into
 * "donors" ("0,1,1,2,2,0" for three slabs of two copies). Checked against
 * the geometry at power on; empty: round robin.
 */
/* Show a list of donor indices ("placement", "domains"). Under dev->lock. */
static ssize_t show_donor_indices(char *page, const u16 *v, u32 n)
{
	ssize_t len = 0;
	u32 i;

	for (i = 0; i < n && len < PAGE_SIZE - 8; i++)
		len += sysfs_emit_at(page, len, "%s%u", i ? "," : "", v[i]);
	return len + sysfs_emit_at(page, len, "\n");
}

static ssize_t spare_placement_show(struct config_item *item, char *page)
{
	struct spare_dev *dev = to_spare_dev(item);
	ssize_t len;

	mutex_lock(&dev->lock);
	len = show_donor_indices(page, dev->cfg.placement, dev->cfg.nr_placement);
	mutex_unlock(&dev->lock);
	return len;
}

/*
 * Parse a list of donor indices (each below SPARE_MAX_DONORS) separated by
 * commas, blanks or newlines into @v[0 .. *@n), at most @max of them.
 */
static int parse_donor_indices(const char *page, size_t count, u16 *v,
			       u32 max, u32 *n)
{
	const char *p = page, *end = page + count;

	*n = 0;
	while (p < end) {
		size_t len = strcspn(p, ", \n");
		char num[8];

		if (p + len > end)
			len = end - p;
		if (len) {
			if (len >= sizeof(num) || *n == max)
				return -EINVAL;
			memcpy(num, p, len);
			num[len] = '\0';
			if (kstrtou16(num, 10, &v[*n]) ||
			    v[*n] >= SPARE_MAX_DONORS)
				return -EINVAL;
			(*n)++;
		}
		p += len + 1;
	}
	return 0;
}

static ssize_t spare_placement_store(struct config_item *item,
				     const char *page, size_t count)
{
	struct spare_dev *dev = to_spare_dev(item);
	u16 *v = NULL;
	ssize_t ret = count;
	u32 n = 0, max = count / 2 + 1;

	mutex_lock(&dev->lock);
	if (cfg_locked(dev, "placement")) {
		ret = -EBUSY;
		goto out;
	}
	v = kcalloc(max, sizeof(*v), GFP_KERNEL);
	if (!v) {
		ret = -ENOMEM;
		goto out;
	}
	if (parse_donor_indices(page, count, v, max, &n))
		goto bad;
	kfree(dev->cfg.placement);
	dev->cfg.placement = n ? v : NULL;
	dev->cfg.nr_placement = n;
	if (!n)
		kfree(v);
	v = NULL;
	goto out;
bad:
	ret = SPARE_WARN_INVAL(dev, "placement: want donor indices (0-%d) separated by commas",
			       SPARE_MAX_DONORS - 1);
out:
	kfree(v);
	mutex_unlock(&dev->lock);
	return ret;
}

/*
 * "domains": the failure domain of each donor, in the order of "donors",
 * as small numbers ("0,0,1": the first two share one), from a broker's
 * donor labels (sparectl numbers them). A moved copy goes to a domain
 * holding no other copy of its slab when one can take it. Checked against
 * the donors at power on; empty: every donor is its own domain.
 */
static ssize_t spare_domains_show(struct config_item *item, char *page)
{
	struct spare_dev *dev = to_spare_dev(item);
	ssize_t len;

	mutex_lock(&dev->lock);
	len = show_donor_indices(page, dev->cfg.domain, dev->cfg.nr_domains);
	mutex_unlock(&dev->lock);
	return len;
}

/*
 * "domains" written while the device runs: the current list with numbers
 * added at its end, for donors appended to "donors" (before or after them;
 * a donor beyond the list is its own domain meanwhile). A device started
 * without domains keeps every donor its own. 0 or -EBUSY (logged).
 */
static int domains_extend(struct spare_dev *dev, const u16 *v, u32 n)
{
	struct spare_config *cfg = &dev->cfg;
	u32 old = cfg->nr_domains, i;

	for (i = 0; i < old && i < n; i++)
		if (v[i] != cfg->domain[i])
			break;
	if (!appends_only(dev, "domains", old, n, i))
		return -EBUSY;
	for (i = old; i < n; i++)
		WRITE_ONCE(cfg->domain[i], v[i]);
	/* the numbers before their count: move_target() reads it unlocked */
	smp_store_release(&cfg->nr_domains, n);
	return 0;
}

static ssize_t spare_domains_store(struct config_item *item,
				   const char *page, size_t count)
{
	struct spare_dev *dev = to_spare_dev(item);
	u16 v[SPARE_MAX_DONORS];
	ssize_t ret = count;
	u32 n;

	mutex_lock(&dev->lock);
	if (parse_donor_indices(page, count, v, SPARE_MAX_DONORS, &n)) {
		ret = SPARE_WARN_INVAL(dev, "domains: want one domain number (0-%d) per donor, separated by commas",
				       SPARE_MAX_DONORS - 1);
	} else if (dev->powered) {
		ret = domains_extend(dev, v, n) ?: count;
	} else {
		memcpy(dev->cfg.domain, v, n * sizeof(v[0]));
		dev->cfg.nr_domains = n;
	}
	mutex_unlock(&dev->lock);
	return ret;
}

/*
 * A root-only attribute (mode 0600) kept in its own file, which shows and
 * stores through spare_<name>_show(dev, page) and spare_<name>_store(dev,
 * page, count) (0 or an error): "grants" (spare_grants.c) and "giveback"
 * (spare_giveback.c).
 */
#define SPARE_PRIVATE_ATTR(_name)					\
static ssize_t spare_##_name##_show_attr(struct config_item *item,	\
					 char *page)			\
{									\
	return spare_##_name##_show(to_spare_dev(item), page);		\
}									\
static ssize_t spare_##_name##_store_attr(struct config_item *item,	\
					  const char *page, size_t count) \
{									\
	int ret = spare_##_name##_store(to_spare_dev(item), page, count); \
									\
	return ret ? ret : count;					\
}									\
static struct configfs_attribute spare_attr_##_name = {			\
	.ca_name	= __stringify(_name),				\
	.ca_mode	= 0600,						\
	.ca_owner	= THIS_MODULE,					\
	.show		= spare_##_name##_show_attr,			\
	.store		= spare_##_name##_store_attr,			\
}

SPARE_PRIVATE_ATTR(grants);
SPARE_PRIVATE_ATTR(giveback);

CONFIGFS_ATTR(spare_, donors);
CONFIGFS_ATTR(spare_, placement);
CONFIGFS_ATTR(spare_, domains);
CONFIGFS_ATTR(spare_, power);
CONFIGFS_ATTR_RO(spare_, disk);

static struct configfs_attribute *spare_dev_attrs[] = {
	&spare_attr_size,
	&spare_attr_slab_size,
	&spare_attr_replicas,
	&spare_attr_redundancy,
	&spare_attr_ec_delta,
	&spare_attr_backup,
	&spare_attr_backup_mode,
	&spare_attr_donors,
	&spare_attr_placement,
	&spare_attr_domains,
	&spare_attr_grants,
	&spare_attr_giveback,
	&spare_attr_source,
	&spare_attr_integrity,
	&spare_attr_rehome_delay_ms,
	&spare_attr_hold_ms,
	&spare_attr_key,
	&spare_attr_power,
	&spare_attr_disk,
	NULL,
};

static void spare_dev_release(struct config_item *item)
{
	struct spare_dev *dev = to_spare_dev(item);

	/* Open devices hold a configfs dependency: never powered-and-open here. */
	mutex_lock(&dev->lock);
	spare_dev_power_off(dev);
	spare_auth_free(dev);
	spare_grants_free(dev);
	kfree(dev->cfg.placement);
	mutex_unlock(&dev->lock);
	kfree(dev);
}

static struct configfs_item_operations spare_dev_item_ops = {
	.release	= spare_dev_release,
};

static const struct config_item_type spare_dev_type = {
	.ct_item_ops	= &spare_dev_item_ops,
	.ct_attrs	= spare_dev_attrs,
	.ct_owner	= THIS_MODULE,
};

static struct config_item *spare_group_make_item(struct config_group *group,
						 const char *name)
{
	struct spare_dev *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	if (!dev)
		return ERR_PTR(-ENOMEM);
	mutex_init(&dev->lock);
	mutex_init(&dev->open_lock);
	dev->index = -1;
	INIT_LIST_HEAD(&dev->powered_node);
	dev->cfg.slab_shift = SPARE_SLAB_SHIFT_DEFAULT;
	dev->cfg.replicas = SPARE_DEFAULT_REPLICAS;
	dev->cfg.ec_delta = SPARE_EC_DELTA_DEFAULT;
	dev->cfg.backup_mode = SPARE_BACKUP_SYNC;
	dev->cfg.rehome_delay_ms = SPARE_LIFE_REHOME_MS;
	dev->cfg.hold_ms = SPARE_LIFE_HOLD_MS;
	spin_lock_init(&dev->backup_lock);
	spin_lock_init(&dev->grant_lock);
	init_waitqueue_head(&dev->backup_wait);
	init_waitqueue_head(&dev->inflight_wait);
	get_random_bytes(dev->uuid, sizeof(dev->uuid));
	config_item_init_type_name(&dev->item, name, &spare_dev_type);
	return &dev->item;
}

static struct configfs_group_operations spare_group_ops = {
	.make_item	= spare_group_make_item,
};

static const struct config_item_type spare_group_type = {
	.ct_group_ops	= &spare_group_ops,
	.ct_owner	= THIS_MODULE,
};

struct configfs_subsystem spare_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf	= "spare",
			.ci_type	= &spare_group_type,
		},
	},
};

static int __init spare_init(void)
{
	int ret;

	ret = spare_blk_init();
	if (ret)
		return ret;
	config_group_init(&spare_subsys.su_group);
	mutex_init(&spare_subsys.su_mutex);
	ret = configfs_register_subsystem(&spare_subsys);
	if (ret) {
		pr_err("cannot register configfs subsystem: %d\n", ret);
		spare_blk_exit();
		return ret;
	}
	pr_info("loaded; configure devices in /sys/kernel/config/spare/\n");
	return 0;
}

static void __exit spare_exit(void)
{
	configfs_unregister_subsystem(&spare_subsys);
	spare_blk_exit();
}

module_init(spare_init);
module_exit(spare_exit);

MODULE_DESCRIPTION("spare: remote-memory swap block device over RDMA");
MODULE_AUTHOR("spare developers");
MODULE_LICENSE("GPL");
