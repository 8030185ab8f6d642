// SPDX-License-Identifier: GPL-2.0
/*
 * Reading spare devices from configfs and sysfs, and printing them as a
 * table, JSON or Prometheus text. See devstat.h.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devstat.h"
#include "spare_metrics.h"
#include "spare_version.h"
#include "spare_util.h"

const char *const dev_io_fields[DEV_IO_FIELDS] = {
	"rdma_reads", "rdma_writes", "backup_reads", "backup_writes",
	"zero_reads", "redrives", "failovers", "io_errors", "bytes_read",
	"bytes_written", "write_waits", "resync_pages", "backup_waits",
	"integrity_errors",
};

const char *const dev_slab_fields[DEV_SLAB_FIELDS] = {
	"nr_slabs", "slab_shift", "copies", "mapped", "mapping", "unmapped",
	"evicting", "failed", "current_pages",
};

const char *const dev_attrs[] = {
	"size", "slab_size", "replicas", "redundancy", "donors", "placement", "domains",
	"source", "backup", "backup_mode", "integrity", NULL,
};

static int say(char *why, size_t whylen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int say(char *why, size_t whylen, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	errno = err;
	return -1;
}

/* Read a small file into @buf with the trailing newline dropped. */
static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	if (ferror(f)) {
		fclose(f);
		errno = EIO;
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	while (n && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

/* Split @text into at most @max unsigned fields; how many, or -1. */
static int split_u64(const char *text, uint64_t *out, int max)
{
	const char *p = text;
	int n = 0;

	while (*p) {
		char *end;

		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			break;
		if (n == max)
			return n;	/* a later version appended fields */
		if (*p < '0' || *p > '9')
			return -1;
		errno = 0;
		out[n++] = strtoull(p, &end, 10);
		if (errno || (*end && *end != ' ' && *end != '\n'))
			return -1;
		p = end;
	}
	return n;
}

/*
 * Parse "VERSION F1 F2 ..." into @vals[0..nfields). Version 1 must carry at
 * least @v1_fields fields (the rest read as 0: that kernel does not count
 * them); any later version at least @nfields. Fields a newer version
 * appends after those are ignored.
 */
static int parse_versioned(const char *what, const char *text, uint64_t *vals,
			   int nfields, int v1_fields, char *why, size_t whylen)
{
	uint64_t buf[1 + 16];
	int n = split_u64(text, buf, 1 + nfields), need;

	if (n < 1)
		return say(why, whylen, EPROTO, "%s: not a line of numbers", what);
	if (buf[0] < 1)
		return say(why, whylen, EPROTO, "%s: version %" PRIu64 " not understood",
			   what, buf[0]);
	need = buf[0] == 1 ? v1_fields : nfields;
	if (n < 1 + need)
		return say(why, whylen, EPROTO, "%s: %d fields, version %" PRIu64 " has %d",
			   what, n, buf[0], 1 + need);
	memset(vals, 0, (size_t)nfields * sizeof(*vals));
	memcpy(vals, buf + 1, (size_t)(n - 1) * sizeof(*vals));
	return 0;
}

int dev_parse_io_stat(const char *text, uint64_t io[DEV_IO_FIELDS],
		      char *why, size_t whylen)
{
	return parse_versioned("io_stat", text, io, DEV_IO_FIELDS, DEV_IO_FIELDS_V1,
			       why, whylen);
}

int dev_parse_slab_stat(const char *text, uint64_t slab[DEV_SLAB_FIELDS],
			char *why, size_t whylen)
{
	return parse_versioned("slab_stat", text, slab, DEV_SLAB_FIELDS, DEV_SLAB_FIELDS,
			       why, whylen);
}

int dev_parse_donor_stat(const char *text, struct dev_donor_stat *donor,
			 unsigned int *n, char *why, size_t whylen)
{
	const char *line = text, *end;

	*n = 0;
	for (; *line; line = *end ? end + 1 : end) {
		struct dev_donor_stat *s;
		unsigned int version;
		int used = 0;

		end = strchrnul(line, '\n');
		if (end == line)
			continue;
		if (*n == DEV_MAX_DONORS)
			return say(why, whylen, EPROTO, "donor_stat: more than %d donors",
				   DEV_MAX_DONORS);
		s = &donor[*n];
		if (sscanf(line, "%u %u %63s %15s %" SCNu64 " %" SCNu64 " %" SCNu64
			   " %" SCNu64 " %" SCNu64 "%n", &version, &s->index, s->address,
			   s->state, &s->connects, &s->losses, &s->evictions,
			   &s->bad_msgs, &s->maps_refused, &used) != 9 ||
		    version < 1 || (line[used] != '\n' && line[used] && line[used] != ' '))
			return say(why, whylen, EPROTO, "donor_stat: line not understood: %.*s",
				   (int)(end - line), line);
		s->moves = s->moves_short = 0;
		if (version >= 2) {
			int more = 0;

			if (sscanf(line + used, " %" SCNu64 " %" SCNu64 "%n", &s->moves,
				   &s->moves_short, &more) != 2 ||
			    (line[used + more] != '\n' && line[used + more] &&
			     line[used + more] != ' '))
				return say(why, whylen, EPROTO,
					   "donor_stat: version %u line not understood: %.*s",
					   version, (int)(end - line), line);
		}
		(*n)++;
	}
	return 0;
}

static int attr(const struct dev_roots *r, const char *name, const char *a,
		char *buf, size_t len, char *why, size_t whylen)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/%s", r->configfs, name, a);
	if (read_small(path, buf, len))
		return say(why, whylen, errno, "%s: %s", path, strerror(errno));
	return 0;
}

int dev_attr_text(const struct dev_roots *r, const char *name, const char *a,
		  char *buf, size_t len, char *why, size_t whylen)
{
	return attr(r, name, a, buf, len, why, whylen);
}

int dev_attr_u64(const struct dev_roots *r, const char *name, const char *a,
		 uint64_t *v, char *why, size_t whylen)
{
	char buf[32];

	if (attr(r, name, a, buf, sizeof(buf), why, whylen))
		return -1;
	if (spare_parse_u64(buf, 0, UINT64_MAX, v))
		return say(why, whylen, EPROTO, "%s: '%s' is not a number", a, buf);
	return 0;
}

static int stat_file(const struct dev_roots *r, const char *disk, const char *file,
		     char *buf, size_t len, char *why, size_t whylen)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/spare/%s", r->sysfs_block, disk, file);
	if (read_small(path, buf, len))
		return say(why, whylen, errno, "%s: %s", path, strerror(errno));
	return 0;
}

bool dev_ublk_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n && n < 64 && !strchr(name, '/') && name[0] != '.' &&
	       !(n >= 4 && (!strcmp(name + n - 4, ".tmp") || !strcmp(name + n - 4, ".log") ||
			    !strcmp(name + n - 4, ".map")));
}

/* Copy @val into @dst of @len bytes; -1 if it does not fit. */
static int put_field(char *dst, size_t len, const char *val)
{
	size_t n = strlen(val);

	if (n >= len)
		return -1;
	memcpy(dst, val, n + 1);
	return 0;
}

/* "key value" lines; io_stat, slab_stat and donor_stat as spare.ko's files. */
int dev_parse_ublk(const char *text, struct dev_info *d, char *why, size_t whylen)
{
	char donors[2048] = "";
	const char *line, *end;
	bool io = false, slab = false, version = false;
	size_t dl = 0;

	for (line = text; *line; line = *end ? end + 1 : end) {
		char key[32], val[512];
		int klen;

		end = strchrnul(line, '\n');
		klen = (int)strcspn(line, " \n");
		if (line + klen > end || klen == 0 || klen >= (int)sizeof(key)) {
			if (end == line)
				continue;
			return say(why, whylen, EPROTO, "counters file: line not understood: %.*s",
				   (int)(end - line), line);
		}
		snprintf(key, sizeof(key), "%.*s", klen, line);
		snprintf(val, sizeof(val), "%.*s", (int)(end - line - klen - (line[klen] == ' ')),
			 line + klen + (line[klen] == ' '));
		if (!strcmp(key, "spare-ublk")) {
			version = !strcmp(val, "1") || atoi(val) >= 1;
		} else if (!strcmp(key, "name")) {
			if (put_field(d->name, sizeof(d->name), val))
				return say(why, whylen, EPROTO, "counters file: %s too long",
					   key);
		} else if (!strcmp(key, "pid")) {
			d->pid = atol(val);
		} else if (!strcmp(key, "disk")) {
			if (put_field(d->disk, sizeof(d->disk), val))
				return say(why, whylen, EPROTO, "counters file: %s too long",
					   key);
		} else if (!strcmp(key, "size")) {
			if (spare_parse_u64(val, 0, UINT64_MAX, &d->size))
				return say(why, whylen, EPROTO, "counters file: size '%s'", val);
		} else if (!strcmp(key, "slab_size")) {
			if (spare_parse_u64(val, 0, UINT64_MAX, &d->slab_size))
				return say(why, whylen, EPROTO, "counters file: slab_size '%s'", val);
		} else if (!strcmp(key, "replicas")) {
			d->replicas = (unsigned int)atoi(val);
		} else if (!strcmp(key, "redundancy")) {
			char tail;

			if (strcmp(val, "none") &&
			    (sscanf(val, "ec:%u+%u%c", &d->ec_k, &d->ec_r, &tail) != 2 ||
			     !d->ec_k || !d->ec_r))
				return say(why, whylen, EPROTO, "counters file: redundancy '%s'",
					   val);
		} else if (!strcmp(key, "donors")) {
			if (put_field(d->donors, sizeof(d->donors), val))
				return say(why, whylen, EPROTO, "counters file: %s too long",
					   key);
		} else if (!strcmp(key, "source")) {
			if (put_field(d->source, sizeof(d->source), val))
				return say(why, whylen, EPROTO, "counters file: %s too long",
					   key);
		} else if (!strcmp(key, "backup")) {
			if (put_field(d->backup, sizeof(d->backup), val))
				return say(why, whylen, EPROTO, "counters file: %s too long",
					   key);
		} else if (!strcmp(key, "backup_mode")) {
			if (put_field(d->backup_mode, sizeof(d->backup_mode), val))
				return say(why, whylen, EPROTO, "counters file: %s too long",
					   key);
		} else if (!strcmp(key, "io_stat")) {
			if (dev_parse_io_stat(val, d->io, why, whylen))
				return -1;
			io = true;
		} else if (!strcmp(key, "slab_stat")) {
			if (dev_parse_slab_stat(val, d->slab, why, whylen))
				return -1;
			slab = true;
		} else if (!strcmp(key, "donor_stat")) {
			int n = snprintf(donors + dl, sizeof(donors) - dl, "%s\n", val);

			if (n < 0 || (size_t)n >= sizeof(donors) - dl)
				return say(why, whylen, EPROTO, "counters file: too many donors");
			dl += (size_t)n;
		}	/* a later version's keys are ignored */
	}
	if (!version || !io || !slab)
		return say(why, whylen, EPROTO, "counters file: %s",
			   !version ? "not a spare-ublk counters file" : "no io_stat or slab_stat");
	if (dev_parse_donor_stat(donors, d->donor, &d->ndonors, why, whylen))
		return -1;
	if (!d->backup_mode[0])
		snprintf(d->backup_mode, sizeof(d->backup_mode), "sync");
	d->ublk = true;
	d->has_stats = true;
	return 0;
}

bool dev_pid_running(long pid)
{
	char path[64], buf[512], *rp;

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (read_small(path, buf, sizeof(buf)))
		return false;
	rp = strrchr(buf, ')');		/* "pid (comm) S ..." */
	return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}

static int read_ublk(const struct dev_roots *r, const char *name, struct dev_info *d,
		     char *why, size_t whylen)
{
	char buf[4096], path[512];

	snprintf(path, sizeof(path), "%s/%s", r->ublk_run, name);
	if (read_small(path, buf, sizeof(buf)))
		return say(why, whylen, errno, "%s: %s", path, strerror(errno));
	if (dev_parse_ublk(buf, d, why, whylen))
		return -1;
	snprintf(d->name, sizeof(d->name), "%s", name);
	/* A pager that died leaves its file: its device is gone with it. */
	d->power = dev_pid_running(d->pid);
	if (!d->power)
		d->disk[0] = '\0';
	return 0;
}

int dev_read(const struct dev_roots *r, const char *name, struct dev_info *d,
	     char *why, size_t whylen)
{
	char buf[2048], path[512];
	uint64_t v;

	memset(d, 0, sizeof(*d));
	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..") ||
	    strlen(name) >= sizeof(d->name))
		return say(why, whylen, EINVAL, "'%s' is not a device name", name);
	snprintf(path, sizeof(path), "%s/%s", r->configfs, name);
	if (access(path, F_OK)) {
		char upath[512];

		if (r->ublk_run && dev_ublk_name_ok(name)) {
			snprintf(upath, sizeof(upath), "%s/%s", r->ublk_run, name);
			if (!access(upath, F_OK))
				return read_ublk(r, name, d, why, whylen);
		}
		return say(why, whylen, ENOENT, "no device '%s' (%s)", name, path);
	}
	strcpy(d->name, name);
	if (attr(r, name, "power", buf, sizeof(buf), why, whylen))
		return -1;
	d->power = !strcmp(buf, "1");
	if (attr(r, name, "disk", d->disk, sizeof(d->disk), why, whylen) ||
	    dev_attr_u64(r, name, "size", &d->size, why, whylen) ||
	    dev_attr_u64(r, name, "slab_size", &d->slab_size, why, whylen) ||
	    dev_attr_u64(r, name, "replicas", &v, why, whylen) ||
	    attr(r, name, "donors", d->donors, sizeof(d->donors), why, whylen) ||
	    attr(r, name, "source", d->source, sizeof(d->source), why, whylen) ||
	    attr(r, name, "backup", d->backup, sizeof(d->backup), why, whylen) ||
	    attr(r, name, "backup_mode", d->backup_mode, sizeof(d->backup_mode), why, whylen))
		return -1;
	d->replicas = (unsigned int)v;
	if (!d->disk[0])
		return 0;
	if (stat_file(r, d->disk, "io_stat", buf, sizeof(buf), why, whylen) ||
	    dev_parse_io_stat(buf, d->io, why, whylen) ||
	    stat_file(r, d->disk, "slab_stat", buf, sizeof(buf), why, whylen) ||
	    dev_parse_slab_stat(buf, d->slab, why, whylen) ||
	    stat_file(r, d->disk, "donor_stat", buf, sizeof(buf), why, whylen) ||
	    dev_parse_donor_stat(buf, d->donor, &d->ndonors, why, whylen))
		return -1;
	d->has_stats = true;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool have_name(char **names, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

char **dev_names(const struct dev_roots *r, unsigned int *n)
{
	struct dirent *e;
	char **names = NULL;
	unsigned int cap = 0;
	bool ublk_pass = false;
	DIR *dir;

	*n = 0;
	dir = opendir(r->configfs);
	if (!dir) {
		/* No spare.ko: the spare-ublk devices only, if there are any. */
		if (errno != ENOENT || !r->ublk_run ||
		    !(dir = opendir(r->ublk_run))) {
			errno = ENOENT;
			return NULL;
		}
		ublk_pass = true;
	}
again:
	while ((e = readdir(dir))) {
		if (e->d_name[0] == '.' ||
		    e->d_type != (ublk_pass ? DT_REG : DT_DIR))
			continue;
		if (ublk_pass && (!dev_ublk_name_ok(e->d_name) ||
				  have_name(names, *n, e->d_name)))
			continue;
		if (*n == cap) {
			char **grown = realloc(names, (cap = cap ? 2 * cap : 8) * sizeof(*names));

			if (!grown)
				goto fail;
			names = grown;
		}
		names[*n] = strdup(e->d_name);
		if (!names[*n])
			goto fail;
		(*n)++;
	}
	closedir(dir);
	if (!ublk_pass && r->ublk_run && (dir = opendir(r->ublk_run))) {
		ublk_pass = true;
		goto again;
	}
	if (!names)
		names = calloc(1, sizeof(*names));
	else
		qsort(names, *n, sizeof(*names), cmp_str);
	return names;
fail:
	closedir(dir);
	dev_names_free(names, *n);
	errno = ENOMEM;
	return NULL;
}

void dev_names_free(char **names, unsigned int n)
{
	unsigned int i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

/* ---- printers ---- */

static unsigned int count_donors(const char *list)
{
	unsigned int n = 0;
	const char *p;

	if (!*list)
		return 0;
	for (p = list, n = 1; *p; p++)
		n += *p == ',';
	return n;
}

void dev_print_table(FILE *f, const struct dev_info *devs, unsigned int n)
{
	unsigned int i;

	fprintf(f, "%-16s %-8s %-5s %10s %10s %8s %6s %s\n", "NAME", "DISK", "POWER",
		"SIZE", "SLAB", "REPLICAS", "DONORS", "BACKUP");
	for (i = 0; i < n; i++) {
		const struct dev_info *d = &devs[i];
		char size[32], slab[32];

		fprintf(f, "%-16s %-8s %-5s %10s %10s %8u %6u %s\n", d->name,
			d->disk[0] ? d->disk : "-", d->power ? "on" : "off",
			spare_fmt_size(d->size, size, sizeof(size)),
			spare_fmt_size(d->slab_size, slab, sizeof(slab)), d->replicas,
			count_donors(d->donors), d->backup[0] ? d->backup : "-");
	}
}

void dev_print_show(FILE *f, const struct dev_info *d)
{
	char size[32], slab[32];
	unsigned int i;

	fprintf(f, "name:        %s\n", d->name);
	fprintf(f, "disk:        %s\n", d->disk[0] ? d->disk : "-");
	fprintf(f, "power:       %s\n", d->power ? "on" : "off");
	fprintf(f, "size:        %s (%" PRIu64 " bytes)\n",
		spare_fmt_size(d->size, size, sizeof(size)), d->size);
	fprintf(f, "slab_size:   %s\n", spare_fmt_size(d->slab_size, slab, sizeof(slab)));
	fprintf(f, "replicas:    %u\n", d->replicas);
	fprintf(f, "donors:      %s\n", d->donors[0] ? d->donors : "-");
	fprintf(f, "source:      %s\n", d->source[0] ? d->source : "-");
	fprintf(f, "backup:      %s\n", d->backup[0] ? d->backup : "-");
	fprintf(f, "backup_mode: %s\n", d->backup_mode);
	if (d->ublk)
		fprintf(f, "backend:     ublk (spare-ublk pid %ld%s)\n", d->pid,
			d->power ? "" : ", not running");
	if (!d->has_stats)
		return;
	fprintf(f, "\nio_stat:\n");
	for (i = 0; i < DEV_IO_FIELDS; i++)
		fprintf(f, "  %-16s %" PRIu64 "\n", dev_io_fields[i], d->io[i]);
	fprintf(f, "slab_stat:\n");
	for (i = 0; i < DEV_SLAB_FIELDS; i++)
		fprintf(f, "  %-16s %" PRIu64 "\n", dev_slab_fields[i], d->slab[i]);
	fprintf(f, "\n%-5s %-22s %-10s %8s %6s %9s %8s %11s %6s %11s\n", "DONOR", "ADDRESS",
		"STATE", "CONNECTS", "LOSSES", "EVICTIONS", "BAD_MSGS", "MAPS_REFUSED",
		"MOVES", "MOVES_SHORT");
	for (i = 0; i < d->ndonors; i++) {
		const struct dev_donor_stat *s = &d->donor[i];

		fprintf(f, "%-5u %-22s %-10s %8" PRIu64 " %6" PRIu64 " %9" PRIu64 " %8"
			PRIu64 " %11" PRIu64 " %6" PRIu64 " %11" PRIu64 "\n", s->index,
			s->address, s->state, s->connects, s->losses, s->evictions,
			s->bad_msgs, s->maps_refused, s->moves, s->moves_short);
	}
}

static struct json_object *jstr_or_null(const char *s)
{
	return *s ? json_object_new_string(s) : NULL;
}

struct json_object *dev_json(const struct dev_info *d, bool stats)
{
	struct json_object *o = json_object_new_object(), *donors, *x;
	char buf[sizeof(d->donors)], *tok, *save = NULL;
	unsigned int i;

	json_object_object_add(o, "name", json_object_new_string(d->name));
	json_object_object_add(o, "disk", jstr_or_null(d->disk));
	json_object_object_add(o, "power", json_object_new_boolean(d->power));
	json_object_object_add(o, "size", json_object_new_uint64(d->size));
	json_object_object_add(o, "slab_size", json_object_new_uint64(d->slab_size));
	json_object_object_add(o, "replicas", json_object_new_int((int)d->replicas));
	donors = json_object_new_array();
	snprintf(buf, sizeof(buf), "%s", d->donors);
	for (tok = strtok_r(buf, ", \n", &save); tok; tok = strtok_r(NULL, ", \n", &save))
		json_object_array_add(donors, json_object_new_string(tok));
	json_object_object_add(o, "donors", donors);
	json_object_object_add(o, "source", jstr_or_null(d->source));
	json_object_object_add(o, "backup", jstr_or_null(d->backup));
	json_object_object_add(o, "backup_mode", json_object_new_string(d->backup_mode));
	json_object_object_add(o, "backend", json_object_new_string(d->ublk ? "ublk" : "module"));
	if (!stats || !d->has_stats)
		return o;
	x = json_object_new_object();
	for (i = 0; i < DEV_IO_FIELDS; i++)
		json_object_object_add(x, dev_io_fields[i], json_object_new_uint64(d->io[i]));
	json_object_object_add(o, "io_stat", x);
	x = json_object_new_object();
	for (i = 0; i < DEV_SLAB_FIELDS; i++)
		json_object_object_add(x, dev_slab_fields[i], json_object_new_uint64(d->slab[i]));
	json_object_object_add(o, "slab_stat", x);
	donors = json_object_new_array();
	for (i = 0; i < d->ndonors; i++) {
		const struct dev_donor_stat *s = &d->donor[i];

		x = json_object_new_object();
		json_object_object_add(x, "index", json_object_new_int((int)s->index));
		json_object_object_add(x, "address", json_object_new_string(s->address));
		json_object_object_add(x, "state", json_object_new_string(s->state));
		json_object_object_add(x, "connects", json_object_new_uint64(s->connects));
		json_object_object_add(x, "losses", json_object_new_uint64(s->losses));
		json_object_object_add(x, "evictions", json_object_new_uint64(s->evictions));
		json_object_object_add(x, "bad_msgs", json_object_new_uint64(s->bad_msgs));
		json_object_object_add(x, "maps_refused", json_object_new_uint64(s->maps_refused));
		json_object_object_add(x, "moves", json_object_new_uint64(s->moves));
		json_object_object_add(x, "moves_short", json_object_new_uint64(s->moves_short));
		json_object_array_add(donors, x);
	}
	json_object_object_add(o, "donor_stat", donors);
	return o;
}

/* ---- Prometheus text (Documentation/admin-guide.md lists the names) ---- */

static const char *const io_help[DEV_IO_FIELDS] = {
	"Read requests served by RDMA READ.",
	"Write requests that reached at least one remote copy.",
	"Read requests served by the backup device.",
	"Write requests also written to the backup device.",
	"Request parts never written, returned as zeros.",
	"Requests re-driven after a failure.",
	"Reads served by RDMA after a re-drive.",
	"Requests failed with an I/O error.",
	"Bytes read by completed requests.",
	"Bytes written by completed requests.",
	"Times a write waited for the write window.",
	"Pages copied to a copy mapped again after a failure.",
	"Times a write waited for room for its asynchronous backup copy.",
	"Pages whose checksum did not match when read from a copy.",
};

/* The numeric code of spare_device_donor_state (enum spare_donor_state's order). */
static const char *const donor_states[] = { "offline", "connecting", "live", "error",
					    "deleting" };

int dev_donor_state_code(const char *state)
{
	for (unsigned int k = 0; k < ARRAY_SIZE(donor_states); k++)
		if (!strcmp(state, donor_states[k]))
			return (int)k;
	return -1;
}

static const char *const slab_states[] = { "mapped", "mapping", "unmapped",
					   "evicting", "failed" };

int dev_print_metrics(FILE *f, const struct dev_info *devs, unsigned int n)
{
	struct spare_metrics m;
	unsigned int i, j, k;

#define DEV_LABELS(d) (const char *const[]){ "device", (d)->name, "disk", (d)->disk, NULL }
#define DONOR_LABELS(d, dn) (const char *const[]){ "device", (d)->name, "disk", (d)->disk, \
						"donor", (dn)->address, NULL }

	spare_metrics_begin(&m, f, true);
	/*
	 * A node_exporter textfile: no process_start_time_seconds, which
	 * would clash with node_exporter's own.
	 */
	spare_metrics_family(&m, "spare_build_info", SPARE_GAUGE,
			     "Always 1; the labels name the program and its version.");
	spare_metrics_u64(&m, (const char *const[]){ "program", "sparectl",
			  "version", spare_version(), NULL }, 1);
	spare_metrics_family(&m, "spare_device_powered", SPARE_GAUGE,
			     "1 if the device is powered on (configfs power).");
	for (i = 0; i < n; i++)
		spare_metrics_u64(&m, (const char *const[]){ "device", devs[i].name, NULL },
				  devs[i].power);
	spare_metrics_family(&m, "spare_device_size_bytes", SPARE_GAUGE, "Device size in bytes.");
	for (i = 0; i < n; i++)
		spare_metrics_u64(&m, (const char *const[]){ "device", devs[i].name, NULL },
				  devs[i].size);
	for (j = 0; j < DEV_IO_FIELDS; j++) {
		/* A static name per family: the writer keeps the pointer. */
		static char io_names[DEV_IO_FIELDS][64];

		snprintf(io_names[j], sizeof(io_names[j]), "spare_device_%s_total", dev_io_fields[j]);
		spare_metrics_family(&m, io_names[j], SPARE_COUNTER, io_help[j]);
		for (i = 0; i < n; i++)
			if (devs[i].has_stats)
				spare_metrics_u64(&m, DEV_LABELS(&devs[i]), devs[i].io[j]);
	}
	spare_metrics_family(&m, "spare_device_slabs", SPARE_GAUGE, "Slabs in the device.");
	for (i = 0; i < n; i++)
		if (devs[i].has_stats)
			spare_metrics_u64(&m, DEV_LABELS(&devs[i]), devs[i].slab[0]);
	spare_metrics_family(&m, "spare_device_slab_size_bytes", SPARE_GAUGE, "Slab size in bytes.");
	for (i = 0; i < n; i++)
		if (devs[i].has_stats)
			spare_metrics_u64(&m, DEV_LABELS(&devs[i]),
					  devs[i].slab[1] < 64 ? 1ULL << devs[i].slab[1] : 0);
	spare_metrics_family(&m, "spare_device_slab_replicas", SPARE_GAUGE, "Remote copies of every slab.");
	for (i = 0; i < n; i++)
		if (devs[i].has_stats)
			spare_metrics_u64(&m, DEV_LABELS(&devs[i]), devs[i].slab[2]);
	spare_metrics_family(&m, "spare_device_slab_copies", SPARE_GAUGE, "Slab copies by state.");
	for (i = 0; i < n; i++) {
		if (!devs[i].has_stats)
			continue;
		for (k = 0; k < ARRAY_SIZE(slab_states); k++)
			spare_metrics_u64(&m, (const char *const[]){ "device", devs[i].name,
					  "disk", devs[i].disk, "state", slab_states[k], NULL },
					  devs[i].slab[3 + k]);
	}
	spare_metrics_family(&m, "spare_device_current_pages", SPARE_GAUGE,
			     "Pages, over all copies, whose remote copy holds the last written data.");
	for (i = 0; i < n; i++)
		if (devs[i].has_stats)
			spare_metrics_u64(&m, DEV_LABELS(&devs[i]), devs[i].slab[8]);

	spare_metrics_family(&m, "spare_device_donor_up", SPARE_GAUGE,
			     "1 if the connection to the donor is live, else 0.");
	for (i = 0; i < n; i++)
		for (k = 0; k < devs[i].ndonors; k++)
			spare_metrics_u64(&m, DONOR_LABELS(&devs[i], &devs[i].donor[k]),
					  !strcmp(devs[i].donor[k].state, "live"));
	spare_metrics_family(&m, "spare_device_donor_state", SPARE_GAUGE,
			     "State of the connection to the donor: 0 offline, 1 connecting, 2 live, 3 error, 4 deleting.");
	for (i = 0; i < n; i++)
		for (k = 0; k < devs[i].ndonors; k++) {
			int code = dev_donor_state_code(devs[i].donor[k].state);

			if (code >= 0)
				spare_metrics_u64(&m, DONOR_LABELS(&devs[i], &devs[i].donor[k]),
						  (uint64_t)code);
		}
#define DONOR_FAMILY(field, help)							\
	do {										\
		spare_metrics_family(&m, "spare_device_donor_" #field "_total",		\
				     SPARE_COUNTER, help);				\
		for (i = 0; i < n; i++)							\
			for (k = 0; k < devs[i].ndonors; k++)				\
				spare_metrics_u64(&m, (const char *const[]){ "device",	\
						  devs[i].name, "disk", devs[i].disk,	\
						  "donor", devs[i].donor[k].address, NULL },\
						  devs[i].donor[k].field);		\
	} while (0)
	DONOR_FAMILY(connects, "Successful connections to the donor.");
	DONOR_FAMILY(losses, "Times the connection to the donor was lost (error road).");
	DONOR_FAMILY(evictions, "Slabs given back to the donor on EVICT.");
	DONOR_FAMILY(bad_msgs, "Malformed or unexpected messages from the donor.");
	DONOR_FAMILY(maps_refused, "MAP requests the donor refused.");
	DONOR_FAMILY(moves, "Evicted copies moved to another donor before UNMAP.");
	DONOR_FAMILY(moves_short, "Moves cut short by the EVICT deadline (pages not copied lost).");
#undef DONOR_FAMILY
#undef DONOR_LABELS
#undef DEV_LABELS
	return spare_metrics_end(&m);
}

int dev_parse_slab_map(const char *text, struct dev_slab_copy **out,
		       unsigned int *n, char *why, size_t whylen)
{
	const char *line = text, *end;
	struct dev_slab_copy *v = NULL, *nv;
	unsigned int cap = 0;

	*out = NULL;
	*n = 0;
	for (; *line; line = *end ? end + 1 : end) {
		unsigned int version;
		int used = 0;

		end = strchrnul(line, '\n');
		if (end == line)
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return say(why, whylen, ENOMEM, "slab_map: out of memory");
			}
			v = nv;
		}
		if (sscanf(line, "%u %u %u %u %63s %15s %" SCNu64 "%n", &version,
			   &v[*n].slab, &v[*n].slot, &v[*n].donor, v[*n].address,
			   v[*n].state, &v[*n].current_pages, &used) != 7 ||
		    version < 1 || (line[used] != '\n' && line[used] && line[used] != ' ')) {
			free(v);
			*n = 0;
			return say(why, whylen, EPROTO, "slab_map: line not understood: %.*s",
				   (int)(end - line), line);
		}
		(*n)++;
	}
	*out = v;
	return 0;
}

/* The whole of file @path into *@text (malloc'd). 0, or -1 (@why, errno). */
static int read_text(const char *path, char **text, char *why, size_t whylen)
{
	size_t len = 0;
	FILE *f, *m;
	int ret;

	*text = NULL;
	f = fopen(path, "re");
	if (!f)
		return say(why, whylen, errno, "%s: %s", path, strerror(errno));
	m = open_memstream(text, &len);
	if (!m) {
		fclose(f);
		return say(why, whylen, ENOMEM, "%s: out of memory", path);
	}
	for (;;) {
		char buf[8192];
		size_t got = fread(buf, 1, sizeof(buf), f);

		fwrite(buf, 1, got, m);
		if (got < sizeof(buf))
			break;
	}
	ret = ferror(f);
	fclose(f);
	fclose(m);
	if (ret) {
		free(*text);
		*text = NULL;
		return say(why, whylen, EIO, "%s: read error", path);
	}
	return 0;
}

static int read_slab_map(const char *path, struct dev_slab_copy **out, unsigned int *n,
			 char *why, size_t whylen)
{
	char *text;
	int ret;

	*out = NULL;
	*n = 0;
	if (read_text(path, &text, why, whylen))
		return -1;
	ret = dev_parse_slab_map(text, out, n, why, whylen);
	free(text);
	return ret;
}

int dev_read_slab_map(const struct dev_roots *r, const char *disk,
		      struct dev_slab_copy **out, unsigned int *n,
		      char *why, size_t whylen)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/spare/slab_map", r->sysfs_block, disk);
	return read_slab_map(path, out, n, why, whylen);
}

int dev_read_ublk_slab_map(const struct dev_roots *r, const char *name,
			   struct dev_slab_copy **out, unsigned int *n,
			   char *why, size_t whylen)
{
	char path[512];

	*out = NULL;
	*n = 0;
	if (!r->ublk_run || !dev_ublk_name_ok(name))
		return say(why, whylen, ENOENT, "%s: no spare-ublk device of that name", name);
	snprintf(path, sizeof(path), "%s/%s.map", r->ublk_run, name);
	return read_slab_map(path, out, n, why, whylen);
}

int dev_parse_moving(const char *text, struct dev_move_wait *out, unsigned int max,
		     unsigned int *n, char *why, size_t whylen)
{
	const char *line = text, *end;

	*n = 0;
	for (; *line; line = *end ? end + 1 : end) {
		struct dev_move_wait w;
		unsigned int version;
		int used = 0;

		end = strchrnul(line, '\n');
		if (end == line)
			continue;
		if (sscanf(line, "%u %u %u %63s%n", &version, &w.slab, &w.donor, w.address,
			   &used) != 4 || version < 1 ||
		    (line[used] != '\n' && line[used] && line[used] != ' '))
			return say(why, whylen, EPROTO, "moving: line not understood: %.*s",
				   (int)(end - line), line);
		if (*n < max)
			out[(*n)++] = w;
	}
	return 0;
}

int dev_read_ublk_moving(const struct dev_roots *r, const char *name,
			 struct dev_move_wait *out, unsigned int max, unsigned int *n,
			 char *why, size_t whylen)
{
	char path[512], *text;
	int ret;

	*n = 0;
	if (!r->ublk_run || !dev_ublk_name_ok(name))
		return say(why, whylen, EINVAL, "%s: no spare-ublk device of that name", name);
	snprintf(path, sizeof(path), "%s/%s.moving", r->ublk_run, name);
	if (read_text(path, &text, why, whylen))
		return errno == ENOENT ? 0 : -1;	/* none waits */
	ret = dev_parse_moving(text, out, max, n, why, whylen);
	free(text);
	return ret;
}

int dev_read_moving(const struct dev_roots *r, const char *disk,
		    struct dev_move_wait *out, unsigned int max, unsigned int *n,
		    char *why, size_t whylen)
{
	char path[512], *text;
	int ret;

	*n = 0;
	if (!disk[0] || strchr(disk, '/'))
		return say(why, whylen, EINVAL, "\"%s\": not a disk name", disk);
	snprintf(path, sizeof(path), "%s/%s/spare/moving", r->sysfs_block, disk);
	if (read_text(path, &text, why, whylen))
		return errno == ENOENT ? 0 : -1;	/* a module without it */
	ret = dev_parse_moving(text, out, max, n, why, whylen);
	free(text);
	return ret;
}

void dev_print_slab_map(FILE *f, const struct dev_slab_copy *c, unsigned int n)
{
	unsigned int i;

	fprintf(f, "\n%-5s %-4s %-5s %-22s %-9s %s\n", "SLAB", "SLOT", "DONOR",
		"ADDRESS", "STATE", "CURRENT_PAGES");
	for (i = 0; i < n; i++)
		fprintf(f, "%-5u %-4u %-5u %-22s %-9s %" PRIu64 "\n", c[i].slab,
			c[i].slot, c[i].donor, c[i].address, c[i].state,
			c[i].current_pages);
}

/* [{"slab":0,"copies":[{"slot":0,"donor":0,"address":..,"state":..,"current_pages":N}]}] */
struct json_object *dev_slab_map_json(const struct dev_slab_copy *c,
				      unsigned int n)
{
	struct json_object *slabs = json_object_new_array(), *slab = NULL, *copies = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct json_object *x = json_object_new_object();

		if (i == 0 || c[i].slab != c[i - 1].slab) {
			slab = json_object_new_object();
			copies = json_object_new_array();
			json_object_object_add(slab, "slab", json_object_new_int((int)c[i].slab));
			json_object_object_add(slab, "copies", copies);
			json_object_array_add(slabs, slab);
		}
		json_object_object_add(x, "slot", json_object_new_int((int)c[i].slot));
		json_object_object_add(x, "donor", json_object_new_int((int)c[i].donor));
		json_object_object_add(x, "address", json_object_new_string(c[i].address));
		json_object_object_add(x, "state", json_object_new_string(c[i].state));
		json_object_object_add(x, "current_pages",
				       json_object_new_uint64(c[i].current_pages));
		json_object_array_add(copies, x);
	}
	return slabs;
}
