# SPDX-License-Identifier: GPL-2.0
PROGS += sparectl
sparectl_SRCS   := userspace/sparectl/sparectl.c
sparectl_LDLIBS :=
