/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The peer side of the spare-broker protocol, blocking with timeouts: for
 * spared's broker link (its own thread), sparectl and the test tools.
 * Links -lsodium.
 */
#ifndef BROKER_CLIENT_H
#define BROKER_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "broker_proto.h"

/*
 * Connect to "host:port" ("[v6]:port" too) with @timeout_ms for the
 * connection and for every later send and receive. Returns the fd, or -1
 * with the reason in @why.
 */
int broker_connect(const char *hostport, unsigned int timeout_ms, char *why, size_t whylen);

/* Send one frame. 0 or -1 (errno). */
int broker_send(int fd, uint16_t type, uint32_t seq, const void *body, size_t len);

/*
 * Receive one frame into body[0..cap). 0, or -1: errno EMSGSIZE (longer
 * than cap), EPROTONOSUPPORT (another protocol version: h->version is the
 * peer's), EBADMSG (bad header), EPIPE (closed), or the socket's error.
 */
int broker_recv(int fd, struct broker_hdr *h, uint8_t *body, size_t cap);

/*
 * Authenticate as @name (@role) with @key: CHALLENGE, HELLO, WELCOME, and
 * check the broker's proof. 0, or -1 with the reason in @why (an ERROR's
 * text when the broker refused). @broker_id (may be NULL) gets the
 * broker's name.
 */
int broker_authenticate(int fd, unsigned int role, const char *name,
			const uint8_t key[BROKER_KEY_LEN], char broker_id[BROKER_ID_LEN],
			char *why, size_t whylen);

/* Read a "SPARE-1:" secret from a file (whole file, blanks allowed). */
int broker_read_key_file(const char *path, uint8_t key[BROKER_KEY_LEN], char *why,
			 size_t whylen);

#endif /* BROKER_CLIENT_H */
