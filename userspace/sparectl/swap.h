/* SPDX-License-Identifier: GPL-2.0 */
/* `sparectl swap start|stop NAME` (swap.c) and what it uses of sparectl.c. */
#ifndef SPARECTL_SWAP_H
#define SPARECTL_SWAP_H

#include "cli.h"

/* `device create NAME ARGS...` and `device destroy NAME`: the exit status. */
int device_create(struct sparectl *c, const char *name, int argc, char **argv);
int device_destroy(struct sparectl *c, const char *name);

/* `sparectl swap ...`: argv[0] is "swap". */
int cmd_swap(struct sparectl *c, int argc, char **argv);

#endif /* SPARECTL_SWAP_H */
