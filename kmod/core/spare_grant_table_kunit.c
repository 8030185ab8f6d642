// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for a device's grant table: a known grant id with a later
 * expiry is a renewal, not a new entry. And the form every reader of a
 * grant checks (spare_grant_form_check(), uapi/spare_grant.h), as spare.ko
 * builds it.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "spare_grant_table.h"

#define TABLE	1024	/* as SPARE_MAX_GRANTS */

static void grant_make(struct spare_grant *g, u8 id, u32 slabs, u64 expiry)
{
	memset(g, 0, sizeof(*g));
	g->magic = cpu_to_le32(SPARE_GRANT_MAGIC);
	g->version = cpu_to_le16(SPARE_GRANT_VERSION_ED25519);
	g->size = cpu_to_le16(SPARE_GRANT_SIZE);
	memset(g->grant_id, id, sizeof(g->grant_id));
	strscpy(g->client_id, "trainer", sizeof(g->client_id));
	strscpy(g->donor_id, "donor2", sizeof(g->donor_id));
	strscpy(g->donor_addr, "10.0.0.2:18515", sizeof(g->donor_addr));
	g->slabs = cpu_to_le32(slabs);
	g->key_id = cpu_to_le32(1);
	g->not_before = cpu_to_le64(expiry - 600);
	g->expiry = cpu_to_le64(expiry);
	memset(g->sig, 0x5a ^ id ^ (u8)expiry, sizeof(g->sig));
}

/*
 * What spare_grants_store() does with the answer: append a new id, replace
 * a renewed one, keep the held one if it ends later; -ENOSPC when a new id
 * finds the table full, -EINVAL for a refused one.
 */
static int table_put(struct spare_grant_slot *tab, u32 *n, const struct spare_grant *g)
{
	u32 at = U32_MAX;

	switch (spare_grant_fit(tab, *n, g, &at)) {
	case SPARE_GRANT_FIT_NEW:
		if (*n == TABLE)
			return -ENOSPC;
		tab[(*n)++].g = *g;
		return 0;
	case SPARE_GRANT_FIT_RENEW:
		tab[at].g = *g;
		return 0;
	case SPARE_GRANT_FIT_SAME:
	case SPARE_GRANT_FIT_STALE:
		return 0;
	default:
		return -EINVAL;
	}
}

static void grant_new_ids_append(struct kunit *test)
{
	struct spare_grant_slot tab[3];
	struct spare_grant g;
	u32 at = 7;

	grant_make(&tab[0].g, 1, 4, 1000);
	grant_make(&tab[1].g, 2, 4, 1000);
	grant_make(&g, 3, 4, 1000);
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 2, &g, &at), SPARE_GRANT_FIT_NEW);
	KUNIT_EXPECT_EQ(test, at, 7U);	/* untouched */
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 0, &g, &at), SPARE_GRANT_FIT_NEW);
}

static void grant_later_expiry_renews_in_place(struct kunit *test)
{
	struct spare_grant_slot tab[3];
	struct spare_grant g;
	u32 at = 0;

	grant_make(&tab[0].g, 1, 4, 1000);
	grant_make(&tab[1].g, 2, 4, 1000);
	grant_make(&tab[2].g, 3, 8, 1000);
	grant_make(&g, 2, 4, 1400);
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 3, &g, &at), SPARE_GRANT_FIT_RENEW);
	KUNIT_EXPECT_EQ(test, at, 1U);
	/* a renewal by a rotated key: version 1 renewed as version 2, key 2 */
	tab[1].g.version = cpu_to_le16(SPARE_GRANT_VERSION);
	g.key_id = cpu_to_le32(2);
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 3, &g, &at), SPARE_GRANT_FIT_RENEW);
	KUNIT_EXPECT_EQ(test, at, 1U);
}

static void grant_same_bytes_is_nothing_new(struct kunit *test)
{
	struct spare_grant_slot tab[2];
	struct spare_grant g;
	u32 at = 0;

	grant_make(&tab[0].g, 1, 4, 1000);
	grant_make(&tab[1].g, 2, 4, 1000);
	g = tab[1].g;
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 2, &g, &at), SPARE_GRANT_FIT_SAME);
	KUNIT_EXPECT_EQ(test, at, 1U);
}

static void grant_known_id_other_lease_refused(struct kunit *test)
{
	struct spare_grant_slot tab[1];
	struct spare_grant g;
	u32 at = 9;

	grant_make(&tab[0].g, 1, 4, 1000);
	grant_make(&g, 1, 5, 1400);		/* more slabs */
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 1, &g, &at), SPARE_GRANT_FIT_CONFLICT);
	KUNIT_EXPECT_EQ(test, at, 0U);
	grant_make(&g, 1, 4, 1400);
	strscpy(g.client_id, "other", sizeof(g.client_id));
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 1, &g, &at), SPARE_GRANT_FIT_CONFLICT);
	grant_make(&g, 1, 4, 1400);
	strscpy(g.donor_id, "donor3", sizeof(g.donor_id));
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 1, &g, &at), SPARE_GRANT_FIT_CONFLICT);
	grant_make(&g, 1, 4, 1400);
	strscpy(g.donor_addr, "10.0.0.3:18515", sizeof(g.donor_addr));
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 1, &g, &at), SPARE_GRANT_FIT_CONFLICT);
	KUNIT_EXPECT_STREQ(test, spare_grant_fit_str(SPARE_GRANT_FIT_CONFLICT),
			   "a grant with this id is held for another client, donor, address or slab count");
}

static void grant_known_id_not_later_kept(struct kunit *test)
{
	struct spare_grant_slot tab[1];
	struct spare_grant g;
	u32 n = 1, at = 9;

	grant_make(&tab[0].g, 1, 4, 1000);
	grant_make(&g, 1, 4, 999);		/* a renewal with a shorter lease */
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 1, &g, &at), SPARE_GRANT_FIT_STALE);
	KUNIT_EXPECT_EQ(test, at, 0U);
	KUNIT_EXPECT_EQ(test, table_put(tab, &n, &g), 0);
	KUNIT_EXPECT_EQ(test, n, 1U);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(tab[0].g.expiry), 1000ULL);
	grant_make(&g, 1, 4, 1000);
	g.sig[0] ^= 1;				/* the same expiry, re-signed */
	KUNIT_EXPECT_EQ(test, spare_grant_fit(tab, 1, &g, &at), SPARE_GRANT_FIT_STALE);
}

/* A device renewed for its life: 5,000 renewals of 4 grants keep 4 entries. */
static void grant_renewals_do_not_fill_table(struct kunit *test)
{
	struct spare_grant_slot *tab;
	struct spare_grant g;
	u32 n = 0, r, k;

	tab = kunit_kcalloc(test, TABLE, sizeof(*tab), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tab);
	for (r = 0; r < 5000; r++) {
		for (k = 1; k <= 4; k++) {
			grant_make(&g, k, k, 1000 + r);
			KUNIT_ASSERT_EQ(test, table_put(tab, &n, &g), 0);
		}
	}
	KUNIT_EXPECT_EQ(test, n, 4U);
	for (k = 0; k < 4; k++) {
		KUNIT_EXPECT_EQ(test, tab[k].g.grant_id[0], (u8)(k + 1));
		KUNIT_EXPECT_EQ(test, le64_to_cpu(tab[k].g.expiry), 1000ULL + 4999);
		KUNIT_EXPECT_EQ(test, le32_to_cpu(tab[k].g.slabs), k + 1);
	}
	/* new ids still fill it, and a full table still takes renewals */
	for (k = 5; n < TABLE; k++) {
		grant_make(&g, 0, 1, 2000);
		memcpy(g.grant_id, &k, sizeof(k));
		KUNIT_ASSERT_EQ(test, table_put(tab, &n, &g), 0);
	}
	grant_make(&g, 0, 1, 2000);
	memcpy(g.grant_id, &k, sizeof(k));
	KUNIT_EXPECT_EQ(test, table_put(tab, &n, &g), -ENOSPC);
	grant_make(&g, 2, 2, 9000);
	KUNIT_EXPECT_EQ(test, table_put(tab, &n, &g), 0);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(tab[1].g.expiry), 9000ULL);
}

/* @g as version @version, its key_id and reserved bytes as that version's. */
static void grant_as(struct spare_grant *g, u16 version)
{
	grant_make(g, 1, 4, 1000);
	g->version = cpu_to_le16(version);
	if (version != SPARE_GRANT_VERSION_ED25519)
		memset(g->reserved, 0, sizeof(g->reserved));
	if (version == SPARE_GRANT_VERSION_DONOR_MAC)
		g->key_id = 0;
}

/*
 * The form: magic, version 1, 2 or 3 and size, strings not empty and
 * NUL-terminated, versions 1 and 3 reserved bytes zero, version 3 key_id 0.
 */
static void grant_form_rule(struct kunit *test)
{
	struct spare_grant g;
	unsigned int i;
	u16 v;

	for (v = 0; v < 8; v++) {
		grant_as(&g, v);
		KUNIT_EXPECT_EQ_MSG(test, spare_grant_form_check(&g),
				    v >= 1 && v <= 3 ? SPARE_GRANT_FORM_OK :
				    SPARE_GRANT_FORM_BAD_VERSION, "version %u", v);
	}
	grant_as(&g, SPARE_GRANT_VERSION_ED25519);
	g.magic = cpu_to_le32(SPARE_GRANT_MAGIC ^ 1);
	KUNIT_EXPECT_EQ(test, spare_grant_form_check(&g), SPARE_GRANT_FORM_BAD_MAGIC);
	grant_as(&g, SPARE_GRANT_VERSION_ED25519);
	g.size = cpu_to_le16(SPARE_GRANT_SIZE - 1);
	KUNIT_EXPECT_EQ(test, spare_grant_form_check(&g), SPARE_GRANT_FORM_BAD_VERSION);

	/* reserved bytes: version 2's signature; zero in 1 and 3 */
	for (i = 0; i < sizeof(g.reserved); i++) {
		for (v = 1; v <= 3; v++) {
			grant_as(&g, v);
			g.reserved[i] = 0x80;
			KUNIT_EXPECT_EQ_MSG(test, spare_grant_form_check(&g),
					    v == SPARE_GRANT_VERSION_ED25519 ?
					    SPARE_GRANT_FORM_OK : SPARE_GRANT_FORM_BAD_FIELD,
					    "version %u reserved[%u]", v, i);
		}
	}
	/* key_id: 0 in version 3, any key in 1 and 2 */
	for (i = 0; i < sizeof(g.key_id); i++) {
		for (v = 1; v <= 3; v++) {
			grant_as(&g, v);
			g.key_id = 0;
			((u8 *)&g.key_id)[i] = 1;
			KUNIT_EXPECT_EQ_MSG(test, spare_grant_form_check(&g),
					    v == SPARE_GRANT_VERSION_DONOR_MAC ?
					    SPARE_GRANT_FORM_BAD_FIELD : SPARE_GRANT_FORM_OK,
					    "version %u key_id byte %u", v, i);
		}
	}

	/*
	 * strings: empty, or the last byte not NUL; bytes past the NUL are
	 * the userspace readers' stricter rule, not the form's
	 */
	grant_as(&g, SPARE_GRANT_VERSION_DONOR_MAC);
	g.client_id[0] = 0;
	KUNIT_EXPECT_EQ(test, spare_grant_form_check(&g), SPARE_GRANT_FORM_BAD_FIELD);
	grant_as(&g, SPARE_GRANT_VERSION_DONOR_MAC);
	memset(g.donor_id, 'd', sizeof(g.donor_id));
	KUNIT_EXPECT_EQ(test, spare_grant_form_check(&g), SPARE_GRANT_FORM_BAD_FIELD);
	grant_as(&g, SPARE_GRANT_VERSION_DONOR_MAC);
	g.donor_addr[sizeof(g.donor_addr) - 1] = '5';
	KUNIT_EXPECT_EQ(test, spare_grant_form_check(&g), SPARE_GRANT_FORM_BAD_FIELD);
	grant_as(&g, SPARE_GRANT_VERSION_DONOR_MAC);
	g.donor_addr[sizeof(g.donor_addr) - 2] = 'x';
	KUNIT_EXPECT_EQ(test, spare_grant_form_check(&g), SPARE_GRANT_FORM_OK);
}

static struct kunit_case grant_table_cases[] = {
	KUNIT_CASE(grant_new_ids_append),
	KUNIT_CASE(grant_later_expiry_renews_in_place),
	KUNIT_CASE(grant_same_bytes_is_nothing_new),
	KUNIT_CASE(grant_known_id_other_lease_refused),
	KUNIT_CASE(grant_known_id_not_later_kept),
	KUNIT_CASE(grant_renewals_do_not_fill_table),
	KUNIT_CASE(grant_form_rule),
	{}
};

static struct kunit_suite grant_table_suite = {
	.name = "spare_grant_table",
	.test_cases = grant_table_cases,
};

kunit_test_suite(grant_table_suite);

MODULE_LICENSE("GPL");
