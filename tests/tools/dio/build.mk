PROGS += spare-dio
spare-dio_SRCS := tests/tools/dio/dio.c
