// SPDX-License-Identifier: GPL-2.0
/*
 * GET /metrics over libmicrohttpd, driven from the daemon's epoll loop.
 * See spare_http.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "spare_http.h"
#include "spare_log.h"
#include "spare_metrics.h"
#include "spare_util.h"

struct spare_http {
	struct MHD_Daemon	*mhd;
	spare_http_metrics_fn	fn;
	void			*ctx;
	int			fd;
	uint16_t		port;
};

int spare_http_parse_listen(const char *listen, char *host, size_t hostlen,
			    uint16_t *port, const char **why)
{
	const char *colon, *h = listen;
	size_t len;
	uint64_t p;

	if (listen[0] == '[') {
		const char *close = strchr(listen, ']');

		if (!close || close[1] != ':') {
			*why = "expected [IPv6]:PORT";
			return -1;
		}
		h = listen + 1;
		len = (size_t)(close - h);
		colon = close + 1;
	} else {
		colon = strrchr(listen, ':');
		if (!colon) {
			*why = "expected ADDR:PORT or :PORT";
			return -1;
		}
		len = (size_t)(colon - listen);
		if (memchr(listen, ':', len)) {
			*why = "an IPv6 address needs brackets: [ADDR]:PORT";
			return -1;
		}
	}
	if (len >= hostlen) {
		*why = "address too long";
		return -1;
	}
	if (spare_parse_u64(colon + 1, 0, 65535, &p)) {
		*why = "not a port number (0-65535)";
		return -1;
	}
	memcpy(host, h, len);
	host[len] = '\0';
	*port = (uint16_t)p;
	return 0;
}

static enum MHD_Result answer(struct MHD_Connection *conn, unsigned int code,
			      const char *type, const char *body, size_t len)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(conn, code, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn,
			      const char *url, const char *method,
			      const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_ctx)
{
	static const char text[] = "text/plain; charset=utf-8";
	struct spare_http *h = cls;
	char *page = NULL;
	size_t len = 0;
	enum MHD_Result ret;
	FILE *f;
	int rc;

	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return answer(conn, MHD_HTTP_METHOD_NOT_ALLOWED, text,
			      "only GET\n", 9);
	if (strcmp(url, "/metrics"))
		return answer(conn, MHD_HTTP_NOT_FOUND, text,
			      "not found: try /metrics\n", 24);
	f = open_memstream(&page, &len);
	if (!f)
		return answer(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, text,
			      "out of memory\n", 14);
	rc = h->fn(h->ctx, f);
	if (fclose(f))
		rc = -1;
	if (rc) {
		log_warn("/metrics: page not made: %s", strerror(errno));
		ret = answer(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, text,
			     "metrics not available\n", 22);
	} else {
		ret = answer(conn, MHD_HTTP_OK, SPARE_METRICS_CONTENT_TYPE, page, len);
	}
	free(page);
	return ret;
}

static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[256];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	msg[strcspn(msg, "\n")] = '\0';
	log_warn("http: %s", msg);
}

struct spare_http *spare_http_start(const char *listen,
				    spare_http_metrics_fn fn, void *ctx)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
	struct addrinfo *ai = NULL;
	const union MHD_DaemonInfo *info;
	struct spare_http *h;
	char host[256], port_s[8];
	unsigned int flags = MHD_USE_EPOLL | MHD_USE_ERROR_LOG;
	const char *why;
	uint16_t port;
	int rc;

	if (spare_http_parse_listen(listen, host, sizeof(host), &port, &why)) {
		log_err("metrics address '%s': %s", listen, why);
		return NULL;
	}
	snprintf(port_s, sizeof(port_s), "%u", port);
	rc = getaddrinfo(host[0] ? host : NULL, port_s, &hints, &ai);
	if (rc) {
		log_err("metrics address '%s': %s", listen, gai_strerror(rc));
		return NULL;
	}
	h = calloc(1, sizeof(*h));
	if (!h) {
		freeaddrinfo(ai);
		log_err("metrics: out of memory");
		return NULL;
	}
	h->fn = fn;
	h->ctx = ctx;
	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	/*
	 * The logger comes first: libmicrohttpd warns (on stderr, through
	 * its own logger) about any option given before it.
	 */
	h->mhd = MHD_start_daemon(flags, port, NULL, NULL, handle, h,
				  MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				  MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				  MHD_OPTION_CONNECTION_LIMIT, 16U,
				  MHD_OPTION_CONNECTION_TIMEOUT, 10U,
				  MHD_OPTION_END);
	freeaddrinfo(ai);
	if (!h->mhd) {
		log_err("metrics: cannot listen on %s", listen);
		free(h);
		return NULL;
	}
	info = MHD_get_daemon_info(h->mhd, MHD_DAEMON_INFO_EPOLL_FD);
	h->fd = info ? info->epoll_fd : -1;
	info = MHD_get_daemon_info(h->mhd, MHD_DAEMON_INFO_BIND_PORT);
	h->port = info ? info->port : port;
	if (h->fd < 0) {
		log_err("metrics: no epoll descriptor from libmicrohttpd");
		spare_http_stop(h);
		return NULL;
	}
	log_info("metrics on http://%s/metrics (port %u)", listen, h->port);
	return h;
}

int spare_http_fd(const struct spare_http *h)
{
	return h->fd;
}

uint16_t spare_http_port(const struct spare_http *h)
{
	return h->port;
}

void spare_http_run(struct spare_http *h)
{
	if (MHD_run(h->mhd) != MHD_YES)
		log_warn("http: MHD_run failed");
}

void spare_http_stop(struct spare_http *h)
{
	if (!h)
		return;
	MHD_stop_daemon(h->mhd);
	free(h);
}
