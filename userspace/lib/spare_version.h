/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The version every program prints for --version ("prog 0.1.0"): the
 * VERSION file at the top of the tree, compiled in (userspace.mk).
 */
#ifndef SPARE_VERSION_H
#define SPARE_VERSION_H

const char *spare_version(void);

#endif /* SPARE_VERSION_H */
