// SPDX-License-Identifier: GPL-2.0
/*
 * spare-memtest: a swap workload that proves nothing was lost.
 *
 * It maps SIZE bytes of anonymous memory and makes PASSES passes over it.
 * Each pass first verifies every page against what the previous pass wrote,
 * then rewrites the page with a pattern derived from (seed, pass, page
 * index), so a page that comes back stale (an older pass), misplaced (another
 * page's content) or corrupt is caught. Run it under a cgroup memory.max
 * smaller than SIZE and every page travels through swap.
 *
 * usage: spare-memtest [-p PASSES] [-u FILE [-c]] [-s SEED] [-r] SIZE[k|m|g]
 *   -r       visit pages in a pseudo-random order instead of sequentially
 *   -u FILE  after PASSES passes, go on making passes while FILE exists
 *            (a test removes it once its faults are done, so the job
 *            swaps through all of them and not much longer)
 *   -c       with -u: a pass made after PASSES stops where it is (within
 *            CUT_EVERY pages) once FILE is gone, instead of at its end;
 *            the verify that follows reads every page all the same,
 *            each against the pass that wrote it last
 * Exit status 0 when every page verified, 1 on a mismatch, 2 on bad usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define WORDS_PER_PAGE(ps)	((ps) / sizeof(uint64_t))
/* -c: how often (in pages) a pass beyond PASSES looks for its FILE */
#define CUT_EVERY		64

static uint64_t mix(uint64_t x)
{
	/* splitmix64 finaliser: cheap, and every input bit moves every output bit */
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void fill_page(uint64_t *w, size_t nwords, uint64_t seed, uint64_t pass,
		      uint64_t page)
{
	uint64_t k = mix(seed ^ mix(pass ^ mix(page)));
	size_t i;

	w[0] = page;
	w[1] = pass;
	for (i = 2; i < nwords; i++)
		w[i] = k + i * 0x100000001b3ULL;
}

/* Returns the index of the first bad word, or -1 when the page is right. */
static long check_page(const uint64_t *w, size_t nwords, uint64_t seed,
		       uint64_t pass, uint64_t page)
{
	uint64_t k = mix(seed ^ mix(pass ^ mix(page)));
	size_t i;

	if (w[0] != page)
		return 0;
	if (w[1] != pass)
		return 1;
	for (i = 2; i < nwords; i++)
		if (w[i] != k + i * 0x100000001b3ULL)
			return (long)i;
	return -1;
}

static int parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'g': case 'G': v <<= 10; /* fall through */
	case 'm': case 'M': v <<= 10; /* fall through */
	case 'k': case 'K': v <<= 10; end++; break;
	case '\0': break;
	default: return -1;
	}
	if (*end || v == 0)
		return -1;
	*out = v;
	return 0;
}

/* The page visited at step N of a pass. */
static size_t walk(size_t n, size_t npages, int random_order, unsigned long seed)
{
	/* A full-period walk of the pages when random: odd stride. */
	return random_order ? (size_t)((n * 2654435761ULL + seed) % npages) : n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long passes = 3, seed = 1;
	size_t size, psize = (size_t)sysconf(_SC_PAGESIZE), npages, nwords, n;
	int random_order = 0, cut_short = 0, opt;
	unsigned long pass;
	size_t cut;		/* steps of the last pass made (npages: all) */
	const char *until = NULL;
	unsigned long long bad = 0;
	uint8_t *mem;
	double t0;

	while ((opt = getopt(argc, argv, "p:s:ru:c")) != -1) {
		switch (opt) {
		case 'p': passes = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'r': random_order = 1; break;
		case 'u': until = optarg; break;
		case 'c': cut_short = 1; break;
		default: goto usage;
		}
	}
	if (optind != argc - 1 || parse_size(argv[optind], &size) || passes < 1 ||
	    (cut_short && !until))
		goto usage;

	npages = size / psize;
	nwords = WORDS_PER_PAGE(psize);
	mem = mmap(NULL, npages * psize, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		fprintf(stderr, "spare-memtest: mmap %zu bytes: %s\n", size, strerror(errno));
		return 1;
	}
	/* Whole pages only: huge pages would defeat per-page swap tests. */
	madvise(mem, npages * psize, MADV_NOHUGEPAGE);

	t0 = now();
	cut = npages;
	for (pass = 0; cut == npages &&
	     (pass < passes || (until && access(until, F_OK) == 0)); pass++) {
		for (n = 0; n < npages; n++) {
			size_t page = walk(n, npages, random_order, seed);
			uint64_t *w = (uint64_t *)(mem + page * psize);

			if (cut_short && pass >= passes && n % CUT_EVERY == 0 &&
			    access(until, F_OK) != 0) {
				cut = n;
				break;
			}

			if (pass > 0) {
				long at = check_page(w, nwords, seed, pass - 1, page);

				if (at >= 0) {
					if (bad < 10)
						fprintf(stderr,
							"spare-memtest: page %zu pass %lu: word %ld is %#" PRIx64
							" (page says index %" PRIu64 ", pass %" PRIu64 ")\n",
							page, pass, at, w[at], w[0], w[1]);
					bad++;
				}
			}
			fill_page(w, nwords, seed, pass, page);
		}
	}
	passes = pass;
	/*
	 * The last pass is verified too: a page at steps before the cut was
	 * written by the last pass, one after it (none when the pass ran to
	 * its end) by the one before.
	 */
	for (n = 0; n < npages; n++) {
		size_t page = walk(n, npages, random_order, seed);

		if (check_page((uint64_t *)(mem + page * psize), nwords, seed,
			       n < cut ? passes - 1 : passes - 2, page) >= 0)
			bad++;
	}

	if (cut < npages)
		printf("spare-memtest: the last pass cut at page %zu of %zu (-c)\n",
		       cut, npages);
	printf("spare-memtest: %zu pages x %lu passes in %.2f s, %llu bad pages\n",
	       npages, passes, now() - t0, bad);
	munmap(mem, npages * psize);
	return bad ? 1 : 0;
usage:
	fprintf(stderr, "usage: spare-memtest [-p PASSES] [-u FILE [-c]] [-s SEED] [-r] SIZE[k|m|g]\n");
	return 2;
}
