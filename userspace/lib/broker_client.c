// SPDX-License-Identifier: GPL-2.0
/*
 * Blocking peer side of the spare-broker protocol (broker_client.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "spare_keyfile.h"
#include "spare_auth.h"

static int split_hostport(const char *s, char *host, size_t hl, char *port, size_t pl)
{
	const char *colon;

	if (s[0] == '[') {
		const char *end = strchr(s, ']');

		if (!end || end[1] != ':' || (size_t)(end - s - 1) >= hl)
			return -1;
		memcpy(host, s + 1, (size_t)(end - s - 1));
		host[end - s - 1] = 0;
		colon = end + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || colon == s || (size_t)(colon - s) >= hl)
			return -1;
		memcpy(host, s, (size_t)(colon - s));
		host[colon - s] = 0;
	}
	if (!colon[1] || strlen(colon + 1) >= pl)
		return -1;
	strcpy(port, colon + 1);
	return 0;
}

int broker_connect(const char *hostport, unsigned int timeout_ms, char *why, size_t whylen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *ai, *a;
	struct timeval tv = { .tv_sec = timeout_ms / 1000,
			      .tv_usec = (suseconds_t)(timeout_ms % 1000) * 1000 };
	char host[256], port[16];
	int fd = -1, ret, one = 1;

	if (split_hostport(hostport, host, sizeof(host), port, sizeof(port))) {
		snprintf(why, whylen, "%s: not host:port", hostport);
		return -1;
	}
	ret = getaddrinfo(host, port, &hints, &ai);
	if (ret) {
		snprintf(why, whylen, "%s: %s", hostport, gai_strerror(ret));
		return -1;
	}
	for (a = ai; a; a = a->ai_next) {
		struct pollfd p;
		int err = 0;
		socklen_t el = sizeof(err);

		fd = socket(a->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0)
			continue;
		if (connect(fd, a->ai_addr, a->ai_addrlen) && errno != EINPROGRESS) {
			err = errno;
		} else {
			p.fd = fd;
			p.events = POLLOUT;
			ret = poll(&p, 1, (int)timeout_ms);
			if (ret == 0)
				err = ETIMEDOUT;
			else if (ret < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el))
				err = errno;
		}
		if (!err)
			break;
		snprintf(why, whylen, "%s: %s", hostport, strerror(err));
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0)
		return -1;
	/* back to blocking, with timeouts */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static int write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int read_all(int fd, uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n == 0) {
			errno = EPIPE;
			return -1;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int broker_send(int fd, uint16_t type, uint32_t seq, const void *body, size_t len)
{
	uint8_t h[BROKER_HDR_SIZE];
	struct iovec iov[2] = {
		{ .iov_base = h, .iov_len = sizeof(h) },
		{ .iov_base = (void *)body, .iov_len = len },
	};
	struct msghdr mh = { .msg_iov = iov, .msg_iovlen = len ? 2 : 1 };
	ssize_t n;

	if (len > BROKER_MAX_BODY) {
		errno = EMSGSIZE;
		return -1;
	}
	broker_hdr_encode(h, type, seq, (uint32_t)len);
	/* one syscall for the whole frame, and the rest if it was cut short */
	do
		n = sendmsg(fd, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -1;
	if ((size_t)n < sizeof(h)) {
		if (write_all(fd, h + n, sizeof(h) - (size_t)n))
			return -1;
		n = 0;
	} else {
		n -= (ssize_t)sizeof(h);
	}
	return (size_t)n < len ? write_all(fd, (const uint8_t *)body + n, len - (size_t)n) : 0;
}

int broker_recv(int fd, struct broker_hdr *h, uint8_t *body, size_t cap)
{
	uint8_t hb[BROKER_HDR_SIZE];

	if (read_all(fd, hb, sizeof(hb)))
		return -1;
	switch (broker_hdr_decode(hb, h)) {
	case 0:
		break;
	case -EPROTONOSUPPORT:	/* h->version is the peer's */
		errno = EPROTONOSUPPORT;
		return -1;
	default:
		errno = EBADMSG;
		return -1;
	}
	if (h->len > cap) {
		errno = EMSGSIZE;
		return -1;
	}
	return read_all(fd, body, h->len);
}

/* An ERROR frame's text into why. */
static void error_why(const uint8_t *body, size_t len, char *why, size_t whylen)
{
	struct broker_error e;

	if (broker_error_decode(body, len, &e))
		snprintf(why, whylen, "malformed ERROR from the broker");
	else
		snprintf(why, whylen, "broker: %s: %s", broker_err_name(e.code), e.text);
}

int broker_authenticate(int fd, unsigned int role, const char *name,
			const uint8_t key[BROKER_KEY_LEN], char broker_id[BROKER_ID_LEN],
			char *why, size_t whylen)
{
	uint8_t body[512];
	struct broker_hdr h;
	struct broker_challenge ch;
	struct broker_hello m;
	struct broker_welcome w;
	int n;

	if (broker_recv(fd, &h, body, sizeof(body))) {
		if (errno == EPROTONOSUPPORT)
			snprintf(why, whylen, "the broker speaks protocol version %u, we speak %u",
				 h.version, BROKER_VERSION);
		else
			snprintf(why, whylen, "no CHALLENGE: %s", strerror(errno));
		return -1;
	}
	if (h.type == BROKER_ERROR) {
		error_why(body, h.len, why, whylen);
		return -1;
	}
	if (h.type != BROKER_CHALLENGE || broker_challenge_decode(body, h.len, &ch)) {
		snprintf(why, whylen, "bad CHALLENGE");
		return -1;
	}
	memset(&m, 0, sizeof(m));
	m.role = (uint8_t)role;
	if (strlen(name) >= sizeof(m.name)) {
		snprintf(why, whylen, "name too long");
		return -1;
	}
	strcpy(m.name, name);
	do
		randombytes_buf(m.nonce, sizeof(m.nonce));
	while (sodium_is_zero(m.nonce, sizeof(m.nonce)));
	broker_auth_mac(m.mac, key, BROKER_DIR_PEER, role, m.name, ch.broker_id, m.nonce, ch.nonce);
	n = broker_hello_encode(&m, body, sizeof(body));
	if (n < 0) {
		snprintf(why, whylen, "bad name or role");
		return -1;
	}
	if (broker_send(fd, BROKER_HELLO, 1, body, (size_t)n) ||
	    broker_recv(fd, &h, body, sizeof(body))) {
		snprintf(why, whylen, "HELLO: %s", strerror(errno));
		return -1;
	}
	if (h.type == BROKER_ERROR) {
		error_why(body, h.len, why, whylen);
		return -1;
	}
	if (h.type != BROKER_WELCOME || broker_welcome_decode(body, h.len, &w) ||
	    !broker_auth_mac_ok(w.mac, key, BROKER_DIR_BROKER, role, m.name, ch.broker_id,
				m.nonce, ch.nonce)) {
		snprintf(why, whylen, "the broker's proof is wrong (is it using our key?)");
		return -1;
	}
	if (broker_id)
		memcpy(broker_id, ch.broker_id, BROKER_ID_LEN);
	return 0;
}

int broker_read_key_file(const char *path, uint8_t key[BROKER_KEY_LEN], char *why,
			 size_t whylen)
{
	char text[256];
	const char *err;

	if (spare_key_file_read(path, text, sizeof(text), why, whylen) < 0)
		return -1;
	err = spare_key_parse(text, key);
	sodium_memzero(text, sizeof(text));
	if (err) {
		snprintf(why, whylen, "%s: %s", path, err);
		return -1;
	}
	return 0;
}
