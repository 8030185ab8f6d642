// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for spare-sim's CSV readers (tools/sim/sim_csv.c): the
 * cluster spec, the trace and the Gittins duration sample. The first byte
 * picks the reader (and, for a trace, the cluster size); the rest is the
 * file. Whatever a reader accepts must satisfy what the scheduler needs.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../tools/sim/sim_csv.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sim_errs e = { .out = NULL, .file = "fuzz" };
	const char *buf;
	size_t len;
	int64_t gpus;

	if (size < 1)
		return 0;
	buf = (const char *)data + 1;
	len = size - 1;
	gpus = 1 + (data[0] >> 2);
	switch (data[0] & 3) {
	case 0: {
		struct sim_spec spec;

		if (sim_parse_spec(buf, len, &spec, &e) == 0 &&
		    (spec.gpus < 1 || spec.nodes < 1 || spec.gpus_per_node < 1 ||
		     spec.gpus != spec.nodes * spec.gpus_per_node))
			abort();
		break;
	}
	case 1:
	case 2: {
		struct sim_trace t;

		if (sim_parse_trace(buf, len, gpus, &t, &e) == 0) {
			if (t.n == 0)
				abort();
			for (size_t i = 0; i < t.n; i++) {
				const struct tir_job *j = &t.jobs[i];

				if (j->num_gpu < 1 || j->num_gpu > gpus || j->duration < 1 ||
				    j->submit < 0 || j->id < 0 ||
				    (i && j->submit < t.jobs[i - 1].submit))
					abort();
				for (size_t k = 0; k < i && t.n < 64; k++)
					if (t.jobs[k].id == j->id)
						abort();	/* duplicates are refused */
			}
			sim_trace_free(&t);
		} else if (t.jobs || t.n) {
			abort();
		}
		break;
	}
	default: {
		int64_t *d;
		size_t n;

		if (sim_parse_durations(buf, len, &d, &n, &e) == 0) {
			if (n == 0)
				abort();
			for (size_t i = 0; i < n; i++)
				if (d[i] < 1 || (i && d[i] < d[i - 1]))
					abort();
			free(d);
		}
		break;
	}
	}
	return 0;
}
