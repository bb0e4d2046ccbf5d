/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader for one protocol line (RFC 8259): objects, arrays, strings, numbers,
 * true, false, null. Values live in an arena that the next json_parse() reuses.
 */
#ifndef KSHIM_JSON_H
#define KSHIM_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json {
	enum json_type type;
	bool boolean;
	bool integral;      /* a number without fraction or exponent that fits a long long */
	long long integer;
	const char *string; /* JSON_STRING: decoded, NUL-terminated (a \u0000 ends it early) */
	size_t count;       /* JSON_ARRAY, JSON_OBJECT: how many items */
	struct json **items;
	const char **keys;  /* JSON_OBJECT: the key of each item */
};

/* The value of `text` (len bytes), or NULL with a reason in `error` (size bytes). */
const struct json *json_parse(const char *text, size_t len, char *error, size_t size);

/* The member `key` of an object, or NULL when it has none (or is no object). */
const struct json *json_get(const struct json *object, const char *key);

#endif
