// SPDX-License-Identifier: GPL-2.0
/*
 * spared's RDMA side: rdma_cm events, client sessions, the control
 * protocol, and lending/revoking slabs. Starting and stopping it is here;
 * the rest is in session.c, conn.c, messages.c and slabs.c (server.h).
 *
 * Every client session owns one protection domain. Its CONTROL connection
 * carries the messages; its DATA connections are bound to it by the
 * session cookie and live in the same PD, so the rkeys of its slabs are
 * valid on them and nowhere else. A client that breaks the protocol loses
 * its session and nothing else: the rest of the daemon never depends on a
 * peer behaving.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <sys/resource.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "broker_client.h"
#include "slabmem.h"
#include "spare_fdlimit.h"
#include "hold.h"
#include "server.h"
#include "spared.h"
#include "spare_log.h"
#include "spare_rdma.h"
#include "spare_util.h"

/* Host keys from the config, the donor's name for the transcript. */
static int auth_start(struct spared *d)
{
	char why[512], name[256] = "";
	unsigned int clients = 0;

	if (spare_auth_init()) {
		log_err("libsodium cannot initialise");
		return -1;
	}
	if (d->cfg.name[0])
		snprintf(name, sizeof(name), "%s", d->cfg.name);
	else if (gethostname(name, sizeof(name) - 1))
		strcpy(name, "spared");
	memset(d->donor_id, 0, sizeof(d->donor_id));
	memcpy(d->donor_id, name, strnlen(name, sizeof(d->donor_id)));
	if (!d->cfg.host_keys[0]) {
		log_warn("open mode: no host-keys, so any host that reaches port %u can borrow memory (see 'sparectl gen-key' and Documentation/spared.md)",
			 d->cfg.port);
		return 0;
	}
	if (spare_host_keys_load(d->cfg.host_keys, &d->keys, why, sizeof(why))) {
		log_err("host-keys %s", why);
		return -1;
	}
	for (unsigned int i = 0; i < d->keys.n; i++)
		clients += !!(d->keys.v[i].roles & SPARE_ROLE_CLIENT);
	log_info("host-keys %s: %u clients may connect, each must authenticate%s",
		 d->cfg.host_keys, clients,
		 clients < d->keys.n ? " (keys of role=donor only cannot borrow)" : "");
	return 0;
}

/*
 * grant-v3: the version 3 grant key of donor @id, derived from
 * broker-key-file, the key broker_link authenticates with (read here once
 * at start, as broker_link reads it once). 0 or -1 (logged: the setting,
 * never the key).
 */
static int grant_v3_key(const struct spared_config *cfg, const char *id,
			struct spare_grant_keys *k)
{
	uint8_t kd[BROKER_KEY_LEN];
	char err[512];
	int ret;

	if (broker_read_key_file(cfg->broker_key_file, kd, err, sizeof(err))) {
		log_err("grant-v3: broker-key-file %s", err);
		return -1;
	}
	ret = spare_grant_keys_set_v3(k, kd, id);
	sodium_memzero(kd, sizeof(kd));
	if (ret) {
		log_err("grant-v3: donor name \"%s\" does not fit a grant", id);
		return -1;
	}
	log_info("grant-v3: taking version 3 grants for %s, keyed from broker-key-file %s",
		 id, cfg->broker_key_file);
	return 0;
}

int spared_grant_keys_read(const struct spared_config *cfg, struct spare_grant_keys *k)
{
	char why[512];

	if (spare_grant_keys_load(k, cfg->grant_key_file, NULL, cfg->grant_key_id,
				  cfg->grant_public_keys, why, sizeof(why))) {
		log_err("%s", why);	/* names the setting and the file */
		return -1;
	}
	if (k->has_hmac)
		log_warn("grant-key-file: accepting version 1 (HMAC) grants, which anyone holding that key (every donor) can forge; deprecated: give grant-public-keys and drop grant-key-file once the brokers sign with grant-signing-key");
	return 0;
}

/* With grant-public-keys (or grant-key-file), MAPs need the brokers' grants. */
static int grants_start(struct spared *d)
{
	struct spare_grant_keys keys;
	char id[SPARE_AUTH_ID_LEN + 1] = "";
	int ret;

	if (!d->cfg.grant_key_file[0] && !d->cfg.grant_public_keys[0] && !d->cfg.grant_v3)
		return 0;
	if (spared_grant_keys_read(&d->cfg, &keys))
		return -1;
	/* As broker_link registers it: at most 15 characters. */
	memcpy(id, d->donor_id, SPARE_AUTH_ID_LEN - 1);
	if (d->cfg.grant_v3 && grant_v3_key(&d->cfg, id, &keys)) {
		spare_grant_keys_wipe(&keys);
		return -1;
	}
	ret = spared_grants_init(&d->grants, NULL, id, d->cfg.max_grants);
	if (!ret)
		spared_grants_set_keys(&d->grants, &keys);
	spare_grant_keys_wipe(&keys);
	if (!ret) {
		ret = spared_backstop_init(&d->backstop, d->pool.nslabs);
		if (ret)
			spared_grants_free(&d->grants);
	}
	if (ret) {
		log_err("grants: %s", strerror(-ret));
		return -1;
	}
	d->grants_on = true;
	d->backstop_next_ms = spare_now_ms() + 1000;
	spared_arm_timer(d);
	log_info("grants: %u public keys from %s%s%s: lending only against grants for donor %s",
		 d->grants.keys.npub,
		 d->cfg.grant_public_keys[0] ? d->cfg.grant_public_keys : "(none)",
		 d->grants.keys.has_hmac ? ", version 1 key from " : "",
		 d->grants.keys.has_hmac ? d->cfg.grant_key_file : "", id);
	return 0;
}

/*
 * Move the rdma_cm event channel to the highest descriptor spared may
 * hold, so that a killed spared tells its clients first. Every cm_id
 * (listener, control and data connections) lives in this one file, and
 * its release (ucma_close -> rdma_destroy_id) sends their DREQs. A task's
 * exit closes its descriptors in ascending order (close_files) but queues
 * each last fput as task_work, which runs newest first: so the highest
 * descriptor is released first, before the slabs' memfds and the uverbs
 * file (whose MRs take seconds to unpin on a slow kernel). Below
 * SPARED_CM_FD_CEIL, so that the descriptor table (8 bytes a slot) stays
 * small. Best effort: on failure the channel stays where it is.
 * Documentation/spared.md, "When spared is killed".
 */
static void cm_channel_to_top(struct rdma_event_channel *ch)
{
	struct rlimit rl;
	rlim_t top = SPARED_CM_FD_CEIL;
	int fd;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < top)
		top = rl.rlim_cur;
	if (top <= (rlim_t)ch->fd + 1)
		return;
	fd = fcntl(ch->fd, F_DUPFD_CLOEXEC, (int)(top - 1));
	if (fd < 0) {
		log_warn("rdma_cm channel: cannot move it to descriptor %llu (%s): a killed spared's clients learn it later",
			 (unsigned long long)(top - 1), strerror(errno));
		return;
	}
	close(ch->fd);
	ch->fd = fd;	/* librdmacm reads it on every call */
}

int spared_server_start(struct spared *d)
{
	struct addrinfo hints = { 0 }, *ai = NULL;
	struct spare_rdma_err e;
	char port[8];
	int ret;

	if (auth_start(d) || grants_start(d))
		return -1;

	if (spare_rdma_open(&d->cm_channel, &d->listen_id, NULL, true, &e)) {
		log_err("%s: %s%s", e.step, strerror(e.err), d->cm_channel ? "" :
			" (is an RDMA device up? try 'rdma link')");
		return -1;
	}
	cm_channel_to_top(d->cm_channel);
	d->cm_src.fd = d->cm_channel->fd;
	d->cm_src.handle = cm_handler;
	if (spared_epoll_add(d, &d->cm_src))
		return -1;
	snprintf(port, sizeof(port), "%u", d->cfg.port);
	hints.ai_flags = AI_PASSIVE | AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_family = d->cfg.listen_addr[0] ? AF_UNSPEC : AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	ret = getaddrinfo(d->cfg.listen_addr[0] ? d->cfg.listen_addr : NULL,
			  port, &hints, &ai);
	if (ret) {
		log_err("listen address '%s': %s", d->cfg.listen_addr,
			gai_strerror(ret));
		return -1;
	}
	ret = spare_rdma_listen(d->listen_id, ai->ai_addr, 64, &e);
	freeaddrinfo(ai);
	if (ret) {
		log_err("%s %s port %u: %s", e.step,
			d->cfg.listen_addr[0] ? d->cfg.listen_addr : "*",
			d->cfg.port, strerror(e.err));
		return -1;
	}
	return 0;
}

void spared_server_stop(struct spared *d)
{
	struct session *s;

	for (s = d->sessions; s; s = s->next) {
		session_fail(s, "donor shutting down");
		s->disconnect_pending = false;
	}
	spared_reap_sessions(d);
	/* Restarting for an upgrade: the held slabs go to the next image,
	 * their memory as it is (restart.c). */
	if (d->upgrading && !spared_keep_save(d)) {
		while ((s = d->held)) {
			d->held = s->next;
			free(s);
		}
	}
	while ((s = d->held)) {
		d->held = s->next;
		held_free(d, s, "donor shutting down");
	}
	while (d->nasync)
		spared_epoll_del(d, &d->async[--d->nasync].src);
	if (d->cm_channel)
		spared_linger_drain(d);
	if (d->listen_id && rdma_destroy_id(d->listen_id))
		log_warn("rdma_destroy_id(listener): %s", strerror(errno));
	d->listen_id = NULL;
	spare_host_keys_free(&d->keys);
	if (d->grants_on) {
		spared_grants_free(&d->grants);
		spared_backstop_free(&d->backstop);
	}
	d->grants_on = false;
	d->backstop_next_ms = 0;
	if (d->cm_channel) {
		if (d->cm_src.fd > 0)
			spared_epoll_del(d, &d->cm_src);
		rdma_destroy_event_channel(d->cm_channel);
		d->cm_channel = NULL;
	}
}
