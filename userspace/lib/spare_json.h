/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON output of spare's tools, through json-c: every -j prints one JSON
 * value made with json-c, never by hand.
 */
#ifndef SPARE_JSON_H
#define SPARE_JSON_H

#include <stddef.h>
#include <stdio.h>
#include <json-c/json.h>

/*
 * Counters as "name value" lines (spared's control socket, or Prometheus
 * text without comments) into one object {"name": value, ...} in line
 * order; integers stay integers. NULL if a line has another shape, with
 * the line named in @why.
 */
struct json_object *spare_json_from_counters(const char *text, char *why,
					     size_t whylen);

/* Print @obj on one line to @f and drop the reference; 0 or -1. */
int spare_json_print(FILE *f, struct json_object *obj);

#endif /* SPARE_JSON_H */
