// SPDX-License-Identifier: GPL-2.0
/*
 * sparectl's grants-to-configfs plan (userspace/lib/grantplan.c): the
 * donors, placement and domains strings `device create ... broker=` writes,
 * and every refusal: a grant count that is not slabs x copies, two copies
 * of a slab on one donor, an address under two donor ids, too many donors,
 * strings longer than one configfs write, a donor under two failure
 * domains. And `device monitor`'s move target: a fresh failure domain
 * first.
 */
#include <stdio.h>
#include <string.h>

#include "broker_proto.h"
#include "brokerask.h"
#include "grantplan.h"
#include "tap.h"

static struct spare_grant_info g[2 * BROKER_MAX_GRANTS];
static struct grantplan plan;
static char why[256];

/* grant i: on donor "dN" at 10.0.0.N:18515 */
static void set(unsigned int i, unsigned int donor)
{
	memset(&g[i], 0, sizeof(g[i]));
	snprintf(g[i].donor_id, sizeof(g[i].donor_id), "d%u", donor);
	snprintf(g[i].donor_addr, sizeof(g[i].donor_addr), "10.0.0.%u:18515", donor);
	snprintf(g[i].client_id, sizeof(g[i].client_id), "trainer1");
	g[i].slabs = 1;
	g[i].expiry = 100;
}

static void sets(const unsigned int *donor, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		set(i, donor[i]);
}

static int build(size_t n, uint32_t slabs, unsigned int copies)
{
	why[0] = 0;
	return grantplan_build(g, n, slabs, copies, 0, &plan, why, sizeof(why));
}

static void nr_slabs_and_batches(void)
{
	EXPECT_EQ(grantplan_nr_slabs(3 << 20, 1 << 20), 3);
	EXPECT_EQ(grantplan_nr_slabs((3 << 20) + 1, 1 << 20), 4);	/* rounded up */
	EXPECT_EQ(grantplan_nr_slabs(1, 1 << 30), 1);
	EXPECT_EQ(grantplan_nr_slabs(0, 1 << 20), 0);
	EXPECT_EQ(grantplan_nr_slabs(1 << 20, 0), 0);
	EXPECT_EQ(grantplan_nr_slabs(UINT64_MAX, 1), 0);		/* > 32 bits */
	EXPECT_EQ(grantplan_batch_slabs(1), BROKER_MAX_SLABS);
	EXPECT_EQ(grantplan_batch_slabs(2), 64);
	EXPECT_EQ(grantplan_batch_slabs(3), 42);			/* 126 grants */
	EXPECT_EQ(grantplan_batch_slabs(8), 16);
	EXPECT_EQ(grantplan_batch_slabs(0), 0);
	EXPECT_EQ(grantplan_batch_slabs(BROKER_MAX_COPIES + 1), 0);
	for (unsigned int c = 1; c <= BROKER_MAX_COPIES; c++)
		EXPECT(grantplan_batch_slabs(c) * c <= BROKER_MAX_GRANTS);
}

/* The example in the report and sparectl(8): 3 slabs, 2 copies. */
static void three_slabs_two_copies(void)
{
	static const unsigned int d[] = { 1, 2, 2, 3, 3, 1 };

	sets(d, 6);
	EXPECT_EQ(build(6, 3, 2), 0);
	EXPECT(!strcmp(plan.donors, "10.0.0.1:18515,10.0.0.2:18515,10.0.0.3:18515"));
	EXPECT(!strcmp(plan.placement, "0,1,1,2,2,0"));
	EXPECT_EQ(plan.ndonors, 3);
}

/* donors in order of first appearance, however the broker numbers them */
static void donor_order(void)
{
	static const unsigned int d[] = { 7, 4, 4, 9, 7, 9, 5, 4 };

	sets(d, 8);
	EXPECT_EQ(build(8, 4, 2), 0);
	EXPECT(!strcmp(plan.donors,
		       "10.0.0.7:18515,10.0.0.4:18515,10.0.0.9:18515,10.0.0.5:18515"));
	EXPECT(!strcmp(plan.placement, "0,1,1,2,0,2,3,1"));
	/* the same placement as numbers (spare-ublk's --grant-file) */
	EXPECT_EQ(plan.nwhere, 8);
	EXPECT(!memcmp(plan.where, (const uint8_t[]){ 0, 1, 1, 2, 0, 2, 3, 1 }, 8));
	/* one copy: every slab can be on the same donor */
	sets((const unsigned int[]){ 3, 3, 3 }, 3);
	EXPECT_EQ(build(3, 3, 1), 0);
	EXPECT(!strcmp(plan.donors, "10.0.0.3:18515"));
	EXPECT(!strcmp(plan.placement, "0,0,0"));
}

static void wrong_count(void)
{
	static const unsigned int d[] = { 1, 2, 2, 3, 3, 1 };

	sets(d, 6);
	EXPECT_EQ(build(5, 3, 2), -1);
	EXPECT(strstr(why, "5 grants for 3 slabs x 2 copies"));
	EXPECT(!plan.donors[0] && !plan.placement[0]);	/* nothing half built */
	EXPECT_EQ(plan.nwhere, 0);
	EXPECT_EQ(build(6, 2, 2), -1);
	EXPECT_EQ(build(6, 3, 3), -1);
	EXPECT_EQ(build(0, 0, 2), -1);
	EXPECT(strstr(why, "no slabs"));
	EXPECT_EQ(build(6, 6, 0), -1);
	EXPECT_EQ(build(9, 1, 9), -1);			/* more than BROKER_MAX_COPIES */
	EXPECT(strstr(why, "replicas 9"));
}

static void same_donor_twice_in_a_slab(void)
{
	static const unsigned int d[] = { 1, 2, 3, 3, 1, 2 };
	static const unsigned int d3[] = { 1, 2, 3, 4, 5, 4 };

	sets(d, 6);
	EXPECT_EQ(build(6, 3, 2), -1);
	EXPECT(strstr(why, "slab 1: copies 0 and 1 both on donor 10.0.0.3:18515"));
	EXPECT(!plan.placement[0]);
	/* three copies: the first and third the same */
	sets(d3, 6);
	EXPECT_EQ(build(6, 2, 3), -1);
	EXPECT(strstr(why, "slab 1: copies 0 and 2 both on donor 10.0.0.4:18515"));
	/* the same address under another donor id counts as the same donor */
	sets((const unsigned int[]){ 1, 2, 3, 4 }, 4);
	strcpy(g[3].donor_addr, g[2].donor_addr);
	EXPECT_EQ(build(4, 2, 2), -1);
	EXPECT(strstr(why, "slab 1"));
}

static void address_under_two_ids(void)
{
	sets((const unsigned int[]){ 1, 2, 3, 4 }, 4);
	strcpy(g[3].donor_addr, g[0].donor_addr);	/* d4 claims d1's address */
	EXPECT_EQ(build(4, 2, 2), -1);
	EXPECT(strstr(why, "both donor 'd1' and donor 'd4'"));
}

static void bad_addresses(void)
{
	static const char *const bad[] = { "", "10.0.0.1:1,10.0.0.2:2", "a b:1", "x:1\n",
					   "\x7f:1" };

	for (unsigned int k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		sets((const unsigned int[]){ 1, 2 }, 2);
		snprintf(g[1].donor_addr, sizeof(g[1].donor_addr), "%s", bad[k]);
		EXPECT_EQ(build(2, 1, 2), -1);
		EXPECT(strstr(why, "cannot be listed in donors"));
	}
	/* an address filling its field without a NUL */
	sets((const unsigned int[]){ 1, 2 }, 2);
	memset(g[1].donor_addr, 'a', sizeof(g[1].donor_addr));
	EXPECT_EQ(build(2, 1, 2), -1);
	/* "[v6]:port" may be listed: the kernel decides what it accepts */
	sets((const unsigned int[]){ 1, 2 }, 2);
	strcpy(g[1].donor_addr, "[fd00::2]:18515");
	EXPECT_EQ(build(2, 1, 2), 0);
	EXPECT(!strcmp(plan.donors, "10.0.0.1:18515,[fd00::2]:18515"));
}

static void grant_for_no_slab(void)
{
	sets((const unsigned int[]){ 1, 2 }, 2);
	g[1].slabs = 0;
	EXPECT_EQ(build(2, 1, 2), -1);
	EXPECT(strstr(why, "covers no slab"));
}

static void too_many_donors(void)
{
	unsigned int i;

	for (i = 0; i < GRANTPLAN_MAX_DONORS; i++)
		set(i, i + 1);
	EXPECT_EQ(build(GRANTPLAN_MAX_DONORS, GRANTPLAN_MAX_DONORS, 1), 0);
	EXPECT_EQ(plan.ndonors, GRANTPLAN_MAX_DONORS);
	set(GRANTPLAN_MAX_DONORS, GRANTPLAN_MAX_DONORS + 1);
	EXPECT_EQ(build(GRANTPLAN_MAX_DONORS + 1, GRANTPLAN_MAX_DONORS + 1, 1), -1);
	EXPECT(strstr(why, "more than 8 donors"));
	/* a lower limit from the caller */
	EXPECT_EQ(grantplan_build(g, 4, 4, 1, 3, &plan, why, sizeof(why)), -1);
	EXPECT(strstr(why, "more than 3 donors"));
	EXPECT_EQ(grantplan_build(g, 3, 3, 1, 3, &plan, why, sizeof(why)), 0);
}

/* One configfs write takes at most 4095 bytes: 2048 one-digit entries
 * (4095 bytes) fit, 2049 (4097) are refused before any broker is asked. */
static void placement_size_limit(void)
{
	unsigned int i;

	EXPECT_EQ(grantplan_check(2048, 1, why, sizeof(why)), 0);
	EXPECT_EQ(grantplan_check(2049, 1, why, sizeof(why)), -1);
	EXPECT(strstr(why, "more than one configfs write"));
	EXPECT_EQ(grantplan_check(682, 3, why, sizeof(why)), 0);
	EXPECT_EQ(grantplan_check(683, 3, why, sizeof(why)), -1);
	EXPECT_EQ(grantplan_check(UINT32_MAX, 8, why, sizeof(why)), -1);
	/* 256 grants (two broker batches at 1 copy) build fine */
	for (i = 0; i < 2 * BROKER_MAX_GRANTS; i++)
		set(i, i % 8 + 1);
	EXPECT_EQ(build(2 * BROKER_MAX_GRANTS, 2 * BROKER_MAX_GRANTS, 1), 0);
	EXPECT_EQ(strlen(plan.placement), 2 * 2 * BROKER_MAX_GRANTS - 1);
	EXPECT_EQ(plan.placement[2 * 2 * BROKER_MAX_GRANTS - 2], '7');
	EXPECT_EQ(plan.nwhere, 2 * BROKER_MAX_GRANTS);
	EXPECT_EQ(plan.where[2 * BROKER_MAX_GRANTS - 1], 7);
}

/* Long addresses: 8 of 63 characters fit (8 * 64 - 1 bytes), so the
 * donors list is bounded by the donor limit; it is checked anyway. */
static void long_addresses(void)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		set(i, i + 1);
		memset(g[i].donor_addr, 'a', sizeof(g[i].donor_addr) - 1);
		g[i].donor_addr[sizeof(g[i].donor_addr) - 1] = 0;
		g[i].donor_addr[0] = (char)('0' + i);
	}
	EXPECT_EQ(build(8, 8, 1), 0);
	EXPECT_EQ(strlen(plan.donors), 8 * 64 - 1);
}

/* brokerask.c's check of broker=: before anything is made */
static void broker_lists(void)
{
	char many[40 * 17] = "";

	EXPECT(!brokerask_check_list("10.0.0.9:18517"));
	EXPECT(!brokerask_check_list("10.0.0.9:18517, b2:18517 ,[fd00::9]:18517"));
	EXPECT(brokerask_check_list(""));
	EXPECT(brokerask_check_list("10.0.0.9"));
	EXPECT(brokerask_check_list("10.0.0.9:"));
	EXPECT(brokerask_check_list(":18517"));
	EXPECT(brokerask_check_list("a:1,,b:2"));
	EXPECT(brokerask_check_list("a:1, ,b:2"));
	EXPECT(brokerask_check_list("a:1,"));
	for (unsigned int i = 0; i < 16; i++)
		strcat(many, i ? ",b:1" : "b:1");
	EXPECT(!brokerask_check_list(many));	/* 16 */
	strcat(many, ",b:1");
	EXPECT(brokerask_check_list(many));	/* 17 */
}

/* sparectl --timeout / SPARECTL_TIMEOUT: seconds, to the millisecond. */
static void timeouts(void)
{
	static const struct { const char *s; unsigned int ms; } good[] = {
		{ "5", 5000 }, { "1", 1000 }, { "0.5", 500 }, { "0.1", 100 },
		{ "2.25", 2250 }, { "1.005", 1005 }, { "3600", 3600000 },
		{ "3600.0", 3600000 }, { "007", 7000 },
	};
	static const char *const bad[] = {
		"", "x", "-1", "+1", " 1", "1 ", "1s", "1.", ".5", "0", "0.05",
		"0.099", "3600.001", "3601", "99999999999999999999", "1.0001",
		"1,5", "1e3", "0x10",
	};
	unsigned int ms;

	for (unsigned int i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		ms = 0;
		EXPECT(!brokerask_parse_timeout(good[i].s, &ms));
		EXPECT_EQ(ms, good[i].ms);
	}
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ms = 42;
		EXPECT(brokerask_parse_timeout(bad[i], &ms));
		EXPECT_EQ(ms, 42);	/* untouched */
	}
	EXPECT(brokerask_parse_timeout(NULL, &ms));
}

/* Renewal: copies per donor from a placement, or the round robin. */
static void counts(void)
{
	uint32_t n[4];
	char msg[128];

	EXPECT_EQ(grantplan_counts("0,1,1,2,2,0", 3, 2, 3, n, msg, sizeof(msg)), 0);
	EXPECT(n[0] == 2 && n[1] == 2 && n[2] == 2);
	EXPECT_EQ(grantplan_counts("1,1,1,1", 4, 1, 2, n, msg, sizeof(msg)), 0);
	EXPECT(n[0] == 0 && n[1] == 4);
	/* "" is the kernel's round robin: copy c of slab s on (s + c) mod 3 */
	EXPECT_EQ(grantplan_counts("", 4, 2, 3, n, msg, sizeof(msg)), 0);
	EXPECT(n[0] == 3 && n[1] == 3 && n[2] == 2);
	EXPECT_EQ(grantplan_counts("0,1,1", 2, 2, 3, n, msg, sizeof(msg)), -1);
	EXPECT(strstr(msg, "3 entries") != NULL);
	EXPECT_EQ(grantplan_counts("0,3", 1, 2, 3, n, msg, sizeof(msg)), -1);
	EXPECT_EQ(grantplan_counts("0,-1", 1, 2, 3, n, msg, sizeof(msg)), -1);
	EXPECT_EQ(grantplan_counts("0;1", 1, 2, 3, n, msg, sizeof(msg)), -1);
	EXPECT_EQ(grantplan_counts("0,1", 1, 2, 1, n, msg, sizeof(msg)), -1);
	EXPECT_EQ(grantplan_counts("", 1, 1, 0, n, msg, sizeof(msg)), -1);
}

/* The monitor's target for a slab being moved. */
/* A donor appended to a running device: its label's number, or a new one. */
static void domain_for(void)
{
	const uint8_t dom[3] = { 0, 1, 0 };
	char labels[3][BROKER_DOMAIN_LEN] = { "rack-a", "", "rack-a" };
	char unterminated[BROKER_DOMAIN_LEN];

	EXPECT_EQ(grantplan_domain_for(dom, labels, 3, "rack-a", 7), 0);
	EXPECT_EQ(grantplan_domain_for(dom, labels, 3, "rack-b", 7), 2);	/* a new one */
	strcpy(labels[1], "rack-b");
	EXPECT_EQ(grantplan_domain_for(dom, labels, 3, "rack-b", 7), 1);
	EXPECT_EQ(grantplan_domain_for(dom, labels, 3, "rack-c", 1), -1);	/* past the max */
	EXPECT_EQ(grantplan_domain_for(dom, labels, 0, "rack-c", 7), 0);
	EXPECT_EQ(grantplan_domain_for(dom, labels, 3, "", 7), -1);
	memset(unterminated, 'x', sizeof(unterminated));
	EXPECT_EQ(grantplan_domain_for(dom, labels, 3, unterminated, 7), -1);
}

static void move_target(void)
{
	const uint32_t n[4] = { 5, 2, 2, 1 };

	EXPECT_EQ(grantplan_move_target(n, 4, 0, 0), 3);
	EXPECT_EQ(grantplan_move_target(n, 4, 1u << 3, 0), 1);	/* tie: lowest index */
	EXPECT_EQ(grantplan_move_target(n, 4, (1u << 3) | (1u << 1), 0), 2);
	EXPECT_EQ(grantplan_move_target(n, 3, 0x6, 0), 0);	/* only 3 donors */
	EXPECT_EQ(grantplan_move_target(n, 4, 0xf, 0), -1);
	EXPECT_EQ(grantplan_move_target(n, 0, 0, 0), -1);
	/* crowded donors only when no other is left */
	EXPECT_EQ(grantplan_move_target(n, 4, 0, 1u << 3), 1);
	EXPECT_EQ(grantplan_move_target(n, 4, 1u << 0, 0xe), 3);
	EXPECT_EQ(grantplan_move_target(n, 4, 0xf, 0xf), -1);
}

/* sparectl device create: one failure-domain number per donor. */
static char lab[2 * BROKER_MAX_GRANTS][BROKER_DOMAIN_LEN];

static void labels(const char *const *l, unsigned int n)
{
	memset(lab, 0, sizeof(lab));
	for (unsigned int i = 0; i < n; i++)
		snprintf(lab[i], sizeof(lab[i]), "%s", l[i]);
}

static int domains(size_t n)
{
	why[0] = 0;
	return grantplan_domains(g, lab, n, &plan, why, sizeof(why));
}

static void domains_numbered(void)
{
	static const unsigned int d[] = { 1, 2, 2, 3, 3, 1 };
	static const char *const l[] = { "rack-1", "rack-1", "rack-1", "rack-2", "rack-2",
					 "rack-1" };
	static const unsigned int d2[] = { 7, 4, 4, 9, 7, 9, 5, 4 };
	static const char *const l2[] = { "z", "a", "a", "z", "z", "z", "m", "a" };

	/* sparectl(8)'s example: A and B in one domain, C in another */
	sets(d, 6);
	labels(l, 6);
	EXPECT_EQ(build(6, 3, 2), 0);
	EXPECT_EQ(domains(6), 0);
	EXPECT(!strcmp(plan.domains, "0,0,1"));
	/* numbered in the donors list's order, not by label */
	sets(d2, 8);
	labels(l2, 8);
	EXPECT_EQ(build(8, 4, 2), 0);
	EXPECT(!strcmp(plan.donors,
		       "10.0.0.7:18515,10.0.0.4:18515,10.0.0.9:18515,10.0.0.5:18515"));
	EXPECT_EQ(domains(8), 0);
	EXPECT(!strcmp(plan.domains, "0,1,0,2"));
	/* every donor its own domain */
	sets(d, 6);
	labels((const char *const[]){ "a", "b", "b", "c", "c", "a" }, 6);
	EXPECT_EQ(build(6, 3, 2), 0);
	EXPECT_EQ(domains(6), 0);
	EXPECT(!strcmp(plan.domains, "0,1,2"));
	/* eight donors in one domain */
	for (unsigned int i = 0; i < 8; i++) {
		set(i, i + 1);
		snprintf(lab[i], sizeof(lab[i]), "room");
	}
	EXPECT_EQ(build(8, 8, 1), 0);
	EXPECT_EQ(domains(8), 0);
	EXPECT(!strcmp(plan.domains, "0,0,0,0,0,0,0,0"));
	/* a label of 31 characters, the longest */
	sets(d, 6);
	labels(l, 6);
	memset(lab[3], 'q', BROKER_DOMAIN_LEN - 1);
	memset(lab[4], 'q', BROKER_DOMAIN_LEN - 1);
	EXPECT_EQ(build(6, 3, 2), 0);
	EXPECT_EQ(domains(6), 0);
	EXPECT(!strcmp(plan.domains, "0,0,1"));
}

static void domains_refused(void)
{
	static const unsigned int d[] = { 1, 2, 2, 3, 3, 1 };
	static const char *const l[] = { "r1", "r1", "r1", "r2", "r2", "r1" };

	/* donor 3's two grants under two labels */
	sets(d, 6);
	labels(l, 6);
	snprintf(lab[4], sizeof(lab[4]), "r3");
	EXPECT_EQ(build(6, 3, 2), 0);
	EXPECT_EQ(domains(6), -1);
	EXPECT(strstr(why, "donor 10.0.0.3:18515 is in failure domain 'r2' in grant 3 and "
		       "'r3' in grant 4"));
	EXPECT(!plan.domains[0]);
	/* an empty label, one without its NUL */
	labels(l, 6);
	lab[5][0] = 0;
	EXPECT_EQ(domains(6), -1);
	EXPECT(strstr(why, "grant 5 (donor 10.0.0.1:18515): no failure domain"));
	labels(l, 6);
	memset(lab[2], 'x', BROKER_DOMAIN_LEN);
	EXPECT_EQ(domains(6), -1);
	/* grants that are not the plan's */
	labels(l, 6);
	EXPECT_EQ(domains(6), 0);
	EXPECT_EQ(domains(2), -1);		/* donors 1 and 2 only */
	EXPECT(strstr(why, "2 donors, the plan 3"));
	set(5, 4);
	EXPECT_EQ(domains(6), -1);		/* a fourth donor */
	EXPECT(!plan.domains[0]);
}

/* sparectl device monitor: configfs `domains` read back. */
static void domains_parsed(void)
{
	uint8_t dom[GRANTPLAN_MAX_DONORS];

	EXPECT_EQ(grantplan_parse_domains("0,0,1", 3, dom, why, sizeof(why)), 0);
	EXPECT(dom[0] == 0 && dom[1] == 0 && dom[2] == 1);
	EXPECT_EQ(grantplan_parse_domains("63 5\n7", 3, dom, why, sizeof(why)), 0);
	EXPECT(dom[0] == 63 && dom[1] == 5 && dom[2] == 7);
	/* empty: every donor its own domain */
	memset(dom, 9, sizeof(dom));
	EXPECT_EQ(grantplan_parse_domains("", 4, dom, why, sizeof(why)), 0);
	EXPECT(dom[0] == 0 && dom[1] == 1 && dom[2] == 2 && dom[3] == 3);
	EXPECT_EQ(grantplan_parse_domains("0,0", 3, dom, why, sizeof(why)), -1);
	EXPECT(strstr(why, "2 entries for 3 donors"));
	EXPECT_EQ(grantplan_parse_domains("0,0,1,1", 3, dom, why, sizeof(why)), -1);
	EXPECT(strstr(why, "more entries than the 3 donors"));
	EXPECT_EQ(grantplan_parse_domains("0,64,1", 3, dom, why, sizeof(why)), -1);
	EXPECT(strstr(why, "entry 1 is above 63"));
	EXPECT_EQ(grantplan_parse_domains("0,-1,1", 3, dom, why, sizeof(why)), -1);
	EXPECT_EQ(grantplan_parse_domains("0,1x,1", 3, dom, why, sizeof(why)), -1);
	EXPECT_EQ(grantplan_parse_domains("0;1;1", 3, dom, why, sizeof(why)), -1);
	EXPECT_EQ(grantplan_parse_domains("99999999999999999999999,0,0", 3, dom, why,
					  sizeof(why)), -1);
	EXPECT_EQ(grantplan_parse_domains("", 9, dom, why, sizeof(why)), -1);
}

/*
 * The monitor's choice for a copy being moved, as monitor_move_grants()
 * makes it: skip the donors holding a copy of the slab (and the evicting
 * one), prefer a domain where no copy stays.
 */
static int pick(const uint32_t *load, const char *domains_attr, unsigned int nd,
		unsigned int from, uint32_t holders)
{
	uint8_t dom[GRANTPLAN_MAX_DONORS];
	uint32_t stay = holders & ~(1u << from);

	EXPECT_EQ(grantplan_parse_domains(domains_attr, nd, dom, why, sizeof(why)), 0);
	return grantplan_move_target(load, nd, holders | (1u << from),
				     grantplan_domain_mask(dom, nd, stay));
}

static void move_to_a_fresh_domain(void)
{
	const uint32_t load[4] = { 5, 1, 2, 3 };
	uint8_t dom[4] = { 0, 0, 1, 2 };

	EXPECT_EQ(grantplan_domain_mask(dom, 4, 0), 0);
	EXPECT_EQ(grantplan_domain_mask(dom, 4, 1u << 2), 1u << 2);
	EXPECT_EQ(grantplan_domain_mask(dom, 4, 1u << 0), 0x3);
	EXPECT_EQ(grantplan_domain_mask(dom, 4, 0x5), 0x7);
	/* donor 0 evicts slab s, whose other copy stays on donor 2 (domain
	 * 1): donor 1 has the fewest copies but shares domain 1 with donor 2,
	 * so donor 3 (domain 2) takes it */
	EXPECT_EQ(pick(load, "0,1,1,2", 4, 0, 0x5), 3);
	/* without domains (every donor its own): donor 1, as before */
	EXPECT_EQ(pick(load, "", 4, 0, 0x5), 1);
	/* the evicting donor's domain is free: its copy leaves */
	EXPECT_EQ(pick(load, "0,0,1,2", 4, 0, 0x5), 1);
	/* every other donor in a domain with a copy: the fewest copies */
	EXPECT_EQ(pick(load, "0,1,1,1", 4, 0, 0x5), 1);
	/* three copies: 0 evicts, 1 (domain 0) and 2 (domain 1) stay; donor
	 * 3 shares domain 0 with donor 1, donor 4 is in domain 2 */
	{
		const uint32_t l5[5] = { 1, 1, 1, 0, 4 };

		EXPECT_EQ(pick(l5, "2,0,1,0,2", 5, 0, 0x7), 4);
		EXPECT_EQ(pick(l5, "", 5, 0, 0x7), 3);
	}
}

/*
 * The monitor's asks for split slabs waiting for a donor (sysfs moving,
 * read every round): at once; after a donor given, MONITOR_ADD_WAIT_S
 * (here 15); after refusals, 5 s doubling up to a minute; nothing waiting
 * starts it over.
 */
static void move_backoff(void)
{
	struct brokerask_backoff b = { 0 };
	uint64_t t = 1000;

	EXPECT(!brokerask_backoff_due(&b, 0, t));	/* none waits */
	EXPECT(brokerask_backoff_due(&b, 1, t));	/* begins: at once */
	brokerask_backoff_asked(&b, false, t, 15);	/* refused */
	EXPECT(!brokerask_backoff_due(&b, 1, t + 4));
	EXPECT(brokerask_backoff_due(&b, 1, t + 5));
	t += 5;
	brokerask_backoff_asked(&b, false, t, 15);	/* refused again: 10 */
	EXPECT(!brokerask_backoff_due(&b, 1, t + 9));
	EXPECT(brokerask_backoff_due(&b, 1, t + 10));
	t += 10;
	brokerask_backoff_asked(&b, false, t, 15);	/* 20 */
	EXPECT(!brokerask_backoff_due(&b, 1, t + 19));
	t += 20;
	brokerask_backoff_asked(&b, false, t, 15);	/* 40 */
	EXPECT(!brokerask_backoff_due(&b, 1, t + 39));
	t += 40;
	brokerask_backoff_asked(&b, false, t, 15);	/* 60, the most */
	EXPECT_EQ(b.next, t + BROKERASK_MOVE_RETRY_MAX_S);
	t += 60;
	brokerask_backoff_asked(&b, false, t, 15);
	EXPECT_EQ(b.next, t + 60);
	/* a donor given: not asked again while it is being added */
	t += 60;
	brokerask_backoff_asked(&b, true, t, 15);
	EXPECT(!brokerask_backoff_due(&b, 2, t + 1));
	EXPECT(!brokerask_backoff_due(&b, 2, t + 14));
	EXPECT(brokerask_backoff_due(&b, 2, t + 15));
	/* then refused: from 5 s again */
	t += 15;
	brokerask_backoff_asked(&b, false, t, 15);
	EXPECT_EQ(b.next, t + BROKERASK_MOVE_RETRY_S);
	/* nothing waits: a new wait is asked for at once */
	EXPECT(!brokerask_backoff_due(&b, 0, t + 1));
	EXPECT(brokerask_backoff_due(&b, 1, t + 1));
	brokerask_backoff_asked(&b, false, t + 1, 15);
	EXPECT_EQ(b.next, t + 1 + BROKERASK_MOVE_RETRY_S);
}

int main(void)
{
	TAP_RUN(nr_slabs_and_batches);
	TAP_RUN(three_slabs_two_copies);
	TAP_RUN(donor_order);
	TAP_RUN(wrong_count);
	TAP_RUN(same_donor_twice_in_a_slab);
	TAP_RUN(address_under_two_ids);
	TAP_RUN(bad_addresses);
	TAP_RUN(grant_for_no_slab);
	TAP_RUN(too_many_donors);
	TAP_RUN(placement_size_limit);
	TAP_RUN(long_addresses);
	TAP_RUN(broker_lists);
	TAP_RUN(timeouts);
	TAP_RUN(counts);
	TAP_RUN(move_target);
	TAP_RUN(domain_for);
	TAP_RUN(domains_numbered);
	TAP_RUN(domains_refused);
	TAP_RUN(domains_parsed);
	TAP_RUN(move_to_a_fresh_domain);
	TAP_RUN(move_backoff);
	return tap_done();
}
