/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bit-exact reinterpretation between binary32 and its encoding, shared by
 * the wire codec (lr and momentum travel as bits) and the summation kernels
 * (fp16/bf16 conversions). memcpy, not a union or a pointer cast: defined
 * behaviour, and compilers turn it into a register move.
 */
#ifndef SPARE_AGG_BITS_H
#define SPARE_AGG_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint32_t f32_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof(u));
	return u;
}

static inline float bits_f32(uint32_t u)
{
	float f;

	memcpy(&f, &u, sizeof(f));
	return f;
}

#endif /* SPARE_AGG_BITS_H */
