/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by spare's userspace programs: parsing numbers and
 * sizes from the command line or a config file, clocks, formatting.
 */
#ifndef SPARE_UTIL_H
#define SPARE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
/* A macro's value as a string literal: SPARE_STR(SPARE_MAX_DONORS) is "8". */
#define SPARE_STR_(x)	#x
#define SPARE_STR(x)	SPARE_STR_(x)

/*
 * Parse a byte size: a decimal number with an optional binary suffix
 * K, M, G or T (also KiB, MiB, ..., case-insensitive). Returns 0 and sets
 * *out, or -1 (errno = EINVAL or ERANGE) if @s is not a whole valid size.
 */
int spare_parse_size(const char *s, uint64_t *out);

/* Parse an unsigned decimal (or 0x hex) in [min, max]; 0 or -1 as above. */
int spare_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * mkdir -p: @dir and its missing parents, made with @mode (existing ones
 * are left as they are). 0, or -1 with errno.
 */
int spare_mkdir_p(const char *dir, unsigned int mode);

/* log2 of @v if @v is a power of two, else -1. */
int spare_ilog2_exact(uint64_t v);

/* Format @bytes as "256M", "1G", "1536K" (exact, largest unit). */
const char *spare_fmt_size(uint64_t bytes, char *buf, size_t len);

/* CLOCK_MONOTONIC in nanoseconds and milliseconds. */
uint64_t spare_now_ns(void);
uint64_t spare_now_ms(void);

/* Fill @buf with random bytes from getrandom(); 0 or -1 (errno set). */
int spare_random_bytes(void *buf, size_t len);

/* Every byte of @p is @byte; returns the index of the first that is not,
 * or @len if all are. */
size_t spare_find_not_byte(const void *p, size_t len, uint8_t byte);

#endif /* SPARE_UTIL_H */
