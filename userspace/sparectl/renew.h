/* SPDX-License-Identifier: GPL-2.0 */
/* sparectl device renew and device monitor (renew.c). */
#ifndef SPARECTL_RENEW_H
#define SPARECTL_RENEW_H

#include "cli.h"

/* Exit status: 0, 1 (a failure, logged) or EXIT_USAGE. */
int device_renew(struct sparectl *c, const char *name, int argc, char **argv);
int device_monitor(struct sparectl *c, const char *name, int argc, char **argv);

#endif
