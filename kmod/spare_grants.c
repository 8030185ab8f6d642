// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko grants: leases on donor memory, issued and signed by
 * spare-broker (uapi/spare_grant.h), written by sparectl into the configfs
 * attribute "grants", one per write, as 512 hex digits.
 *
 * The module does not verify a grant: the donor does, and the module could
 * not (version 2 grants are Ed25519 signatures, which the crypto API of 6.1
 * and 6.12 does not offer; version 1 tags need the secret that only the
 * broker and donors hold, version 3 tags the one only the broker and the
 * grant's donor hold). A forged grant a client writes here gets it
 * nothing: the donor refuses its MAPs. It checks the form, that the grant
 * has not expired and
 * that its donor address is an IPv4 "a.b.c.d:port", then keeps it until
 * "clear" or the device's removal. A grant whose id it holds is a renewal
 * (spare_grant_table.h): with the same client, donor, address and slab
 * count and a later expiry it replaces the held one, with an expiry not
 * later it changes nothing (the donor, too, keeps the later), and with
 * other fields it is refused with a reason. After each HELLO, connect work's
 * map_work sends a donor every unexpired grant whose address is that
 * donor's (GRANT messages, uapi/spare.h), and MAPs name the one sent
 * that expires last. The donor decides. Grants may be added while powered
 * (renewal, new donors): live donors get them at once; a renewal makes
 * the module send each live donor its grants again.
 *
 * A grant is a credential: it is never logged whole, only its token (the
 * first 8 bytes of its random id).
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "spare.h"

static u64 grant_token(const struct spare_grant *g)
{
	__le64 t;

	memcpy(&t, g->grant_id, sizeof(t));
	return le64_to_cpu(t);
}

/* Whether @g is still good at @now (seconds, wall clock, as its expiry). */
static bool grant_live(const struct spare_grant *g, u64 now)
{
	return le64_to_cpu(g->expiry) > now;
}

/* Checks a decoded grant; NULL or why it is refused. */
static const char *grant_check(const struct spare_grant *g,
			       struct sockaddr_in *addr)
{
	u64 now = ktime_get_real_seconds();

	switch (spare_grant_form_check(g)) {
	case SPARE_GRANT_FORM_OK:
		break;
	case SPARE_GRANT_FORM_BAD_MAGIC:
		return "not a grant (bad magic)";
	case SPARE_GRANT_FORM_BAD_VERSION:
		return "grant version or size not supported";
	default:
		return "malformed grant";
	}
	if (!le32_to_cpu(g->slabs))
		return "malformed grant";
	if (!grant_live(g, now))
		return "grant has expired";
	if (spare_parse_donor(g->donor_addr, strlen(g->donor_addr), addr))
		return "grant's donor address is not IPv4 a.b.c.d:port";
	return NULL;
}

/*
 * A full table drops its expired grants, so that new grants (more room,
 * moved copies, a legacy RENEW_REQ's fresh grant) can keep coming for the
 * device's life; a renewal by RENEW_GRANT takes no entry. The order of the
 * rest is kept: MAPs name the newest grant a donor was sent. Readers walk the table by index under grant_gen,
 * so the generation changes and they start again. Called with dev->lock.
 */
static void grants_drop_expired(struct spare_dev *dev)
{
	u64 now = ktime_get_real_seconds();
	u32 i, n = 0;

	spin_lock(&dev->grant_lock);
	for (i = 0; i < dev->nr_grants; i++) {
		if (!grant_live(&dev->grants[i].g, now))
			continue;
		if (n != i)
			dev->grants[n] = dev->grants[i];
		n++;
	}
	for (i = n; i < dev->nr_grants; i++)
		memzero_explicit(&dev->grants[i], sizeof(dev->grants[i]));
	if (n != dev->nr_grants) {
		pr_info("%s: grants: dropped %u expired\n",
			config_item_name(&dev->item), dev->nr_grants - n);
		dev->nr_grants = n;
		dev->grant_gen++;
		dev->grant_seq++;
	}
	spin_unlock(&dev->grant_lock);
}

/*
 * Puts checked grant @g into the table: a renewal of a held id replaces it in
 * place (the generation changes, so every donor is sent its grants again
 * and gets the later expiry), a new id takes the next entry. Called with
 * dev->lock. 0, or -ENOSPC, -EINVAL (with a reason logged).
 */
static int grants_put(struct spare_dev *dev, const struct spare_grant *g,
		      const struct sockaddr_in *addr)
{
	const char *name = config_item_name(&dev->item);
	struct spare_grant_slot *slot;
	enum spare_grant_fit fit;
	u32 at = 0;

	fit = spare_grant_fit(dev->grants, dev->nr_grants, g, &at);
	switch (fit) {
	case SPARE_GRANT_FIT_SAME:
		return 0;
	case SPARE_GRANT_FIT_STALE:
		pr_info("%s: grant %016llx: %s\n", name, grant_token(g),
			spare_grant_fit_str(fit));
		return 0;
	case SPARE_GRANT_FIT_RENEW:
		slot = &dev->grants[at];
		spin_lock(&dev->grant_lock);
		slot->g = *g;
		dev->grant_gen++;
		dev->grant_seq++;
		spin_unlock(&dev->grant_lock);
		pr_info("%s: grant %016llx renewed until %llu\n", name,
			slot->token, le64_to_cpu(g->expiry));
		return 0;
	case SPARE_GRANT_FIT_NEW:
		break;
	default:
		pr_warn("%s: grants: %016llx refused: %s\n", name, grant_token(g),
			spare_grant_fit_str(fit));
		return -EINVAL;
	}
	if (dev->nr_grants == SPARE_MAX_GRANTS)
		grants_drop_expired(dev);
	if (dev->nr_grants == SPARE_MAX_GRANTS) {
		pr_warn("%s: grants: already %d unexpired (write 'clear' first)\n",
			name, SPARE_MAX_GRANTS);
		return -ENOSPC;
	}
	/* Fill the free entry: readers look only below nr_grants. */
	slot = &dev->grants[dev->nr_grants];
	slot->g = *g;
	slot->addr = *addr;
	slot->token = grant_token(g);
	spin_lock(&dev->grant_lock);
	dev->nr_grants++;
	dev->grant_seq++;
	spin_unlock(&dev->grant_lock);
	pr_info("%s: grant %016llx for %u slab(s) on %pI4:%u until %llu\n", name,
		slot->token, le32_to_cpu(g->slabs), &addr->sin_addr,
		ntohs(addr->sin_port), le64_to_cpu(g->expiry));
	return 0;
}

int spare_grants_store(struct spare_dev *dev, const char *page, size_t count)
{
	const char *name = config_item_name(&dev->item);
	struct sockaddr_in addr;
	struct spare_grant *g;
	const char *why;
	int ret = 0;

	if (count && page[count - 1] == '\n')
		count--;
	g = kmalloc(sizeof(*g), GFP_KERNEL);
	if (!g)
		return -ENOMEM;
	mutex_lock(&dev->lock);
	if (count == 5 && !memcmp(page, "clear", 5)) {
		spin_lock(&dev->grant_lock);
		dev->nr_grants = 0;
		dev->grant_gen++;
		dev->grant_seq++;
		spin_unlock(&dev->grant_lock);
		pr_info("%s: grants cleared\n", name);
		goto out;
	}
	if (count != SPARE_GRANT_HEX_LEN) {
		pr_warn("%s: grants: want %d hex digits (one grant) or 'clear', got %zu characters\n",
			name, SPARE_GRANT_HEX_LEN, count);
		ret = -EINVAL;
		goto out;
	}
	if (!dev->grants) {
		dev->grants = kvcalloc(SPARE_MAX_GRANTS, sizeof(*dev->grants),
				       GFP_KERNEL);
		if (!dev->grants) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (hex2bin((u8 *)g, page, SPARE_GRANT_SIZE)) {
		pr_warn("%s: grants: not hex\n", name);
		ret = -EINVAL;
		goto out;
	}
	why = grant_check(g, &addr);
	if (why) {
		pr_warn("%s: grants: %s\n", name, why);
		ret = -EINVAL;
		goto out;
	}
	ret = grants_put(dev, g, &addr);
	if (!ret && dev->powered)
		spare_donors_grants_added(dev);
out:
	mutex_unlock(&dev->lock);
	kfree_sensitive(g);
	return ret;
}

ssize_t spare_grants_show(struct spare_dev *dev, char *page)
{
	ssize_t len = 0;
	u32 i;

	mutex_lock(&dev->lock);
	for (i = 0; i < dev->nr_grants && len < PAGE_SIZE - 96; i++) {
		const struct spare_grant_slot *s = &dev->grants[i];

		len += sysfs_emit_at(page, len, "%016llx %pI4:%u slabs=%u expiry=%llu\n",
				     s->token, &s->addr.sin_addr,
				     ntohs(s->addr.sin_port),
				     le32_to_cpu(s->g.slabs),
				     le64_to_cpu(s->g.expiry));
	}
	if (i < dev->nr_grants)
		len += sysfs_emit_at(page, len, "... %u more\n", dev->nr_grants - i);
	mutex_unlock(&dev->lock);
	return len;
}

/* Is grant @g for the donor at @addr? */
static bool grant_is_for(const struct spare_grant_slot *g,
			 const struct sockaddr_in *addr)
{
	return g->addr.sin_addr.s_addr == addr->sin_addr.s_addr &&
	       g->addr.sin_port == addr->sin_port;
}

int spare_grant_take(struct spare_dev *dev, u32 *gen, u32 i,
		     const struct sockaddr_in *addr, struct spare_grant *out,
		     u64 *token)
{
	int ret = 0;

	spin_lock(&dev->grant_lock);
	if (*gen != dev->grant_gen) {
		*gen = dev->grant_gen;
		ret = -ESTALE;
	} else if (i >= dev->nr_grants) {
		ret = -ENOENT;
	} else if (grant_is_for(&dev->grants[i], addr) &&
		   grant_live(&dev->grants[i].g, ktime_get_real_seconds())) {
		/* an expired one is skipped: the donor would only refuse it */
		*out = dev->grants[i].g;
		*token = dev->grants[i].token;
		ret = 1;
	}
	spin_unlock(&dev->grant_lock);
	return ret;
}

/*
 * How many slabs the unexpired grants for the donor at @addr cover (the
 * donor's budget for this client is their sum), or SPARE_ROOM_OPEN if the
 * device holds none for it. For choosing where a moved copy goes.
 */
s64 spare_grants_cover(struct spare_dev *dev, const struct sockaddr_in *addr)
{
	u64 now = ktime_get_real_seconds();
	s64 cover = 0;
	bool any = false;
	u32 i;

	spin_lock(&dev->grant_lock);
	for (i = 0; i < dev->nr_grants; i++) {
		const struct spare_grant_slot *g = &dev->grants[i];

		if (!grant_is_for(g, addr))
			continue;
		any = true;
		if (grant_live(&g->g, now))
			cover += le32_to_cpu(g->g.slabs);
	}
	spin_unlock(&dev->grant_lock);
	return any ? cover : SPARE_ROOM_OPEN;
}

/*
 * The latest expiry (wall clock, seconds) of the device's grants for the
 * donor at @addr, or 0: no grant the module holds for it outlives it.
 */
u64 spare_grants_last_expiry(struct spare_dev *dev,
			     const struct sockaddr_in *addr)
{
	u64 last = 0;
	u32 i;

	spin_lock(&dev->grant_lock);
	for (i = 0; i < dev->nr_grants; i++)
		if (grant_is_for(&dev->grants[i], addr))
			last = max(last, le64_to_cpu(dev->grants[i].g.expiry));
	spin_unlock(&dev->grant_lock);
	return last;
}

u32 spare_grants_seq(struct spare_dev *dev)
{
	u32 seq;

	spin_lock(&dev->grant_lock);
	seq = dev->grant_seq;
	spin_unlock(&dev->grant_lock);
	return seq;
}

void spare_grants_free(struct spare_dev *dev)
{
	if (!dev->grants)
		return;
	memzero_explicit(dev->grants, SPARE_MAX_GRANTS * sizeof(*dev->grants));
	kvfree(dev->grants);
	dev->grants = NULL;
	dev->nr_grants = 0;
}
