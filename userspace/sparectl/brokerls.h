/* SPDX-License-Identifier: GPL-2.0 */
/* sparectl broker donors (brokerls.c). */
#ifndef SPARECTL_BROKERLS_H
#define SPARECTL_BROKERLS_H

#include "cli.h"

/* `sparectl [-j] broker donors broker=HOST:PORT broker-name=N broker-key=F` */
int cmd_broker(struct sparectl *c, int argc, char **argv);

#endif
