PROGS += spare-memtest
spare-memtest_SRCS := tests/tools/memtest/memtest.c
