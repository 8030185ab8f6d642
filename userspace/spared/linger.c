// SPDX-License-Identifier: GPL-2.0
/* Disconnected cm_ids kept for their DREQ's resends (linger.h). */
#include <stddef.h>

#include "linger.h"

bool spared_linger_add(struct spared_linger *l, void *id, uint64_t until_ms)
{
	if (l->n >= SPARED_DREQ_LINGER_MAX) {
		l->full++;
		return false;
	}
	l->id[l->n] = id;
	l->until_ms[l->n] = until_ms;
	l->n++;
	return true;
}

static void *drop(struct spared_linger *l, unsigned int i)
{
	void *id = l->id[i];

	l->n--;
	l->id[i] = l->id[l->n];
	l->until_ms[i] = l->until_ms[l->n];
	return id;
}

bool spared_linger_take(struct spared_linger *l, const void *id)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (l->id[i] == id) {
			drop(l, i);
			return true;
		}
	return false;
}

void *spared_linger_expired(struct spared_linger *l, uint64_t now_ms)
{
	for (unsigned int i = 0; i < l->n; i++)
		if (now_ms >= l->until_ms[i])
			return drop(l, i);
	return NULL;
}

uint64_t spared_linger_next(const struct spared_linger *l)
{
	uint64_t next = 0;

	for (unsigned int i = 0; i < l->n; i++)
		if (!next || l->until_ms[i] < next)
			next = l->until_ms[i];
	return next;
}
