// SPDX-License-Identifier: GPL-2.0
/*
 * spare.ko's uevents as `sparectl device monitor` decodes them
 * (userspace/sparectl/uevent.c): each event the module sends, and every
 * malformed one refused with a reason rather than acted on.
 */
#include <string.h>

#include "tap.h"
#include "uevent.h"

static struct spare_ev ev;
static char why[256];

static void module_events(void)
{
	EXPECT_EQ(spare_ev_parse("slab_moving", "7", "10.0.0.2:18515", &ev, why, sizeof(why)), 0);
	EXPECT_EQ(ev.kind, SPARE_EV_SLAB_MOVING);
	EXPECT_EQ(ev.slab, 7);
	EXPECT(!strcmp(ev.donor, "10.0.0.2:18515"));
	EXPECT_EQ(spare_ev_parse("slab_evicted", "0", "10.0.0.3:18515", &ev, why, sizeof(why)), 0);
	EXPECT_EQ(ev.kind, SPARE_EV_SLAB_EVICTED);
	EXPECT_EQ(ev.slab, 0);
	EXPECT_EQ(spare_ev_parse("donor_up", NULL, "10.0.0.3:18515", &ev, why, sizeof(why)), 0);
	EXPECT_EQ(ev.kind, SPARE_EV_DONOR_UP);
	EXPECT_EQ(ev.slab, -1);
	EXPECT_EQ(spare_ev_parse("donor_lost", NULL, "10.0.0.3:18515", &ev, why, sizeof(why)), 0);
	EXPECT_EQ(ev.kind, SPARE_EV_DONOR_LOST);
	/* a newer module's event: known to be spare's, not acted on */
	EXPECT_EQ(spare_ev_parse("slab_something", NULL, "", &ev, why, sizeof(why)), 0);
	EXPECT_EQ(ev.kind, SPARE_EV_OTHER);
	EXPECT(!strcmp(spare_ev_name(SPARE_EV_SLAB_MOVING), "slab_moving"));
}

static void malformed(void)
{
	char long_donor[80];

	EXPECT_EQ(spare_ev_parse(NULL, "1", "a:1", &ev, why, sizeof(why)), -1);
	EXPECT(strstr(why, "SPARE_EVENT") != NULL);
	EXPECT_EQ(spare_ev_parse("slab_moving", NULL, "a:1", &ev, why, sizeof(why)), -1);
	EXPECT(strstr(why, "without SPARE_SLAB") != NULL);
	EXPECT_EQ(spare_ev_parse("slab_moving", "3", NULL, &ev, why, sizeof(why)), -1);
	EXPECT_EQ(spare_ev_parse("slab_evicted", "3", "", &ev, why, sizeof(why)), -1);
	EXPECT_EQ(spare_ev_parse("slab_moving", "-1", "a:1", &ev, why, sizeof(why)), -1);
	EXPECT(strstr(why, "not a slab number") != NULL);
	EXPECT_EQ(spare_ev_parse("slab_moving", "3x", "a:1", &ev, why, sizeof(why)), -1);
	EXPECT_EQ(spare_ev_parse("slab_moving", "4294967296", "a:1", &ev, why, sizeof(why)), -1);
	memset(long_donor, 'a', sizeof(long_donor) - 1);
	long_donor[sizeof(long_donor) - 1] = 0;
	EXPECT_EQ(spare_ev_parse("donor_up", NULL, long_donor, &ev, why, sizeof(why)), -1);
	EXPECT(strstr(why, "longer than") != NULL);
}

int main(void)
{
	TAP_RUN(module_events);
	TAP_RUN(malformed);
	return tap_done();
}
