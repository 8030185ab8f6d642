/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kcompat.h: the few kernel calls that the pure-logic files of kmod/core/
 * (spare_slab.c, spare_split.c) use, mapped onto libc, so that libspare
 * compiles the very same sources as spare.ko (one implementation of the
 * logic; issue 10).
 *
 * Those files are built with -Iuserspace/lib/kshim, whose linux/ headers
 * stand-ins include this header and nothing else (linux/types.h first pulls
 * in the real UAPI <linux/types.h> for __u32 and friends).
 *
 * Locking: struct spare_slab carries a spinlock_t. spare-ublk serves each
 * device from one thread per queue and takes slab->lock around every call
 * (spin_lock/spin_unlock below), as spare.ko does.
 */
#ifndef SPARE_UBLK_KCOMPAT_H
#define SPARE_UBLK_KCOMPAT_H

#include <stdint.h>

/*
 * Copy state and placement changes of the slab map (kmod/spare_slab.h's
 * hook), counted for spare-ublk's state file: the queue thread writes the
 * file again before it commits a request once the count has moved
 * (io.c). One map per process. Defined in kcompat.c.
 */
extern uint64_t spare_ublk_map_changes;
#define spare_slab_changed(map) \
	((void)(map), (void)__atomic_fetch_add(&spare_ublk_map_changes, 1, \
					       __ATOMIC_RELEASE))



#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;

#ifndef U32_MAX
#define U32_MAX		UINT32_MAX
#endif
#ifndef S64_MAX
#define S64_MAX		INT64_MAX
#endif
#ifndef U64_MAX
#define U64_MAX		UINT64_MAX
#endif

#define GFP_KERNEL	0
#define kvcalloc(n, size, gfp)	calloc((n), (size))
#define kvfree(p)		free(p)
#define kcalloc(n, size, gfp)	calloc((n), (size))
#define kzalloc(size, gfp)	calloc(1, (size))
#define kfree(p)		free(p)

#define min_t(type, a, b)	((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define max_t(type, a, b)	((type)(a) > (type)(b) ? (type)(a) : (type)(b))
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* A runtime check that logs once and evaluates to its condition. */
#define WARN_ON_ONCE(cond) ({						\
	static bool __warned;						\
	bool __c = !!(cond);						\
	if (__c && !__warned) {						\
		__warned = true;					\
		fprintf(stderr, "spare-ublk: warning: %s at %s:%d\n",	\
			#cond, __FILE__, __LINE__);			\
	}								\
	__c;								\
})
#define WARN_ON(cond)		WARN_ON_ONCE(cond)

/* ---- spinlock_t: a pthread mutex (never held across a sleep) ---- */
typedef struct { pthread_mutex_t m; } spinlock_t;
#define spin_lock_init(l)	pthread_mutex_init(&(l)->m, NULL)
#define spin_lock(l)		pthread_mutex_lock(&(l)->m)
#define spin_unlock(l)		pthread_mutex_unlock(&(l)->m)
#define spin_lock_irqsave(l, f)	do { (void)(f); spin_lock(l); } while (0)
#define spin_unlock_irqrestore(l, f) do { (void)(f); spin_unlock(l); } while (0)

/* ---- atomic64_t ---- */
typedef struct { int64_t counter; } atomic64_t;
#define atomic64_set(a, v)	__atomic_store_n(&(a)->counter, (v), __ATOMIC_RELAXED)
#define atomic64_read(a)	__atomic_load_n(&(a)->counter, __ATOMIC_RELAXED)
#define atomic64_add(v, a)	__atomic_fetch_add(&(a)->counter, (v), __ATOMIC_RELAXED)
#define atomic64_xchg(a, v)	__atomic_exchange_n(&(a)->counter, (v), __ATOMIC_RELAXED)

/* ---- bitmaps (unsigned long words, bit 0 first, as the kernel's) ---- */
#define BITS_PER_LONG		(sizeof(unsigned long) * CHAR_BIT)
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))

static inline unsigned long *bitmap_zalloc(unsigned int nbits, int gfp)
{
	(void)gfp;
	return calloc(BITS_TO_LONGS(nbits) ? BITS_TO_LONGS(nbits) : 1,
		      sizeof(unsigned long));
}

static inline void bitmap_free(unsigned long *b)
{
	free(b);
}

static inline bool test_bit(unsigned long nr, const unsigned long *b)
{
	return b[BIT_WORD(nr)] & BIT_MASK(nr);
}

static inline void __set_bit(unsigned long nr, unsigned long *b)
{
	b[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void __clear_bit(unsigned long nr, unsigned long *b)
{
	b[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

/* Atomic, as the kernel's: several queue threads may set bits of one map. */
static inline bool test_and_set_bit(unsigned long nr, unsigned long *b)
{
	return __atomic_fetch_or(&b[BIT_WORD(nr)], BIT_MASK(nr),
				 __ATOMIC_RELAXED) & BIT_MASK(nr);
}

static inline void bitmap_set(unsigned long *b, unsigned int start,
			      unsigned int n)
{
	while (n--)
		__set_bit(start++, b);
}

static inline void bitmap_clear(unsigned long *b, unsigned int start,
				unsigned int n)
{
	while (n--)
		__clear_bit(start++, b);
}

static inline void bitmap_zero(unsigned long *b, unsigned int nbits)
{
	memset(b, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

/* dst = ~src over nbits; bits past nbits in the last word are cleared. */
static inline void bitmap_complement(unsigned long *dst,
				     const unsigned long *src,
				     unsigned int nbits)
{
	unsigned int i;

	for (i = 0; i < nbits; i++) {
		if (test_bit(i, src))
			__clear_bit(i, dst);
		else
			__set_bit(i, dst);
	}
}

static inline void bitmap_copy(unsigned long *dst, const unsigned long *src,
			       unsigned int nbits)
{
	memcpy(dst, src, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_or(unsigned long *dst, const unsigned long *a,
			     const unsigned long *b, unsigned int nbits)
{
	unsigned int i;

	for (i = 0; i < BITS_TO_LONGS(nbits); i++)
		dst[i] = a[i] | b[i];
}

static inline unsigned int bitmap_weight(const unsigned long *b,
					 unsigned int nbits)
{
	unsigned int i, w = 0;

	for (i = 0; i < nbits; i++)
		w += test_bit(i, b);
	return w;
}

/* First set (or clear) bit in [offset, size), or size if none. */
static inline unsigned long find_next_bit(const unsigned long *b,
					  unsigned long size,
					  unsigned long offset)
{
	for (; offset < size; offset++)
		if (test_bit(offset, b))
			return offset;
	return size;
}

static inline unsigned long find_next_zero_bit(const unsigned long *b,
					       unsigned long size,
					       unsigned long offset)
{
	for (; offset < size; offset++)
		if (!test_bit(offset, b))
			return offset;
	return size;
}

/* Every bit of @a set in @b too, over @nbits. */
static inline bool bitmap_subset(const unsigned long *a, const unsigned long *b,
				 unsigned int nbits)
{
	unsigned int i;

	for (i = 0; i < nbits; i++)
		if (test_bit(i, a) && !test_bit(i, b))
			return false;
	return true;
}

#define hweight32(x)		((unsigned int)__builtin_popcount(x))
/* The lowest set bit of a non-zero word. */
#define __ffs(x)		((unsigned long)__builtin_ctzl(x))

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = find_next_bit((addr), (size), 0); (bit) < (size);	\
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

/* Plain stores and loads: the map is used under its slab lock here. */
#define WRITE_ONCE(x, v)	do { (x) = (v); } while (0)
#define READ_ONCE(x)		(x)

#endif /* SPARE_UBLK_KCOMPAT_H */
