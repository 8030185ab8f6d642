PROGS += spare-memtest
spare-memtest_SRCS := userspace/memtest/memtest.c
