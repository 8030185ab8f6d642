/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The daemons' HTTP endpoint (libmicrohttpd): GET /metrics answers with
 * the Prometheus text format written by a callback. It runs inside the
 * daemon's own epoll loop, on the daemon's thread, so the callback reads
 * daemon state without locks: watch spare_http_fd() for EPOLLIN and call
 * spare_http_run() when it fires.
 */
#ifndef SPARE_HTTP_H
#define SPARE_HTTP_H

#include <stdint.h>
#include <stdio.h>

/* Write the metrics page to @f; 0, or -1 if it could not be made. */
typedef int (*spare_http_metrics_fn)(void *ctx, FILE *f);

struct spare_http;

/*
 * Listen on @listen: "ADDR:PORT", "[IPv6]:PORT" or ":PORT" (every
 * address); PORT 0 picks a free port. NULL on error (logged).
 */
struct spare_http *spare_http_start(const char *listen,
				    spare_http_metrics_fn fn, void *ctx);
int spare_http_fd(const struct spare_http *h);
uint16_t spare_http_port(const struct spare_http *h);
/* Serve whatever is ready, without blocking. */
void spare_http_run(struct spare_http *h);
void spare_http_stop(struct spare_http *h);

/* Split @listen as above; 0, or -1 with a reason in @why. */
int spare_http_parse_listen(const char *listen, char *host, size_t hostlen,
			    uint16_t *port, const char **why);

#endif /* SPARE_HTTP_H */
