// SPDX-License-Identifier: GPL-2.0
/* A small JSON reader for one protocol line: see json.h. */
#include "json.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The arena: every value and string of the current line, in blocks (newest first). A parse frees
 * all but the newest block and starts it again, so memory stays near one line's worth.
 */
struct block {
	struct block *next;
	size_t size, used;
	max_align_t data[];
};
static struct block *blocks;

static void *take(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!blocks || blocks->used + n > blocks->size) {
		size_t size = n > ((size_t)1 << 16) ? n : (size_t)1 << 16;
		struct block *b = malloc(sizeof(*b) + size);

		if (!b)
			return NULL;
		b->next = blocks;
		b->size = size;
		b->used = 0;
		blocks = b;
	}
	p = (char *)blocks->data + blocks->used;
	blocks->used += n;
	return p;
}

static void reset(void)
{
	if (!blocks)
		return;
	while (blocks->next) {
		struct block *older = blocks->next;

		blocks->next = older->next;
		free(older);
	}
	blocks->used = 0;
}

struct reader {
	const char *p, *end;
	char *error;
	size_t size;
	int depth;
};

static bool fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->error[0])
		return false;
	va_start(ap, fmt);
	vsnprintf(r->error, r->size, fmt, ap);
	va_end(ap);
	return false;
}

static void blank(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n'))
		r->p++;
}

static struct json *value(struct reader *r);

static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool code_unit(struct reader *r, unsigned *u)
{
	*u = 0;
	if (r->end - r->p < 4)
		return fail(r, "a \\u escape with fewer than 4 hex digits");
	for (int i = 0; i < 4; i++) {
		int h = hex(r->p[i]);

		if (h < 0)
			return fail(r, "a \\u escape with '%c', which is no hex digit", r->p[i]);
		*u = *u * 16 + (unsigned)h;
	}
	r->p += 4;
	return true;
}

static char *put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xc0 | cp >> 6);
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xe0 | cp >> 12);
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*o++ = (char)(0xf0 | cp >> 18);
		*o++ = (char)(0x80 | (cp >> 12 & 0x3f));
		*o++ = (char)(0x80 | (cp >> 6 & 0x3f));
		*o++ = (char)(0x80 | (cp & 0x3f));
	}
	return o;
}

/* A string after its opening quote; the decoded text is never longer than the encoded one. */
static const char *string(struct reader *r)
{
	const char *start = r->p;
	char *out, *o;

	while (r->p < r->end && *r->p != '"') {
		if (*r->p == '\\')
			r->p++;
		r->p++;
	}
	if (r->p >= r->end)
		return fail(r, "a string without its closing quote"), NULL;
	out = o = take((size_t)(r->p - start) + 1);
	if (!out)
		return fail(r, "out of memory"), NULL;
	r->p = start;
	while (*r->p != '"') {
		unsigned char c = (unsigned char)*r->p++;

		if (c < 0x20)
			return fail(r, "a control character in a string"), NULL;
		if (c != '\\') {
			*o++ = (char)c;
			continue;
		}
		switch (*r->p++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			unsigned u, low;

			if (!code_unit(r, &u))
				return NULL;
			if (u >= 0xd800 && u < 0xdc00 && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
				r->p += 2;
				if (!code_unit(r, &low))
					return NULL;
				if (low >= 0xdc00 && low < 0xe000)
					u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
			}
			o = put_utf8(o, u);
			break;
		}
		default:
			return fail(r, "an unknown escape \\%c", r->p[-1]), NULL;
		}
	}
	r->p++;
	*o = 0;
	return out;
}

static bool number(struct reader *r, struct json *v)
{
	const char *start = r->p;
	bool integral = true;
	char buf[64];

	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
		return fail(r, "a number without digits");
	while (r->p < r->end && ((*r->p >= '0' && *r->p <= '9') || *r->p == '.' || *r->p == 'e' || *r->p == 'E'
				 || ((*r->p == '+' || *r->p == '-') && (r->p[-1] == 'e' || r->p[-1] == 'E')))) {
		if (*r->p == '.' || *r->p == 'e' || *r->p == 'E')
			integral = false;
		r->p++;
	}
	v->type = JSON_NUMBER;
	if (integral && (size_t)(r->p - start) < sizeof(buf)) {
		memcpy(buf, start, (size_t)(r->p - start));
		buf[r->p - start] = 0;
		errno = 0;
		v->integer = strtoll(buf, NULL, 10);
		v->integral = errno == 0;
	}
	return true;
}

static bool items(struct reader *r, struct json *v, bool object)
{
	size_t cap = 0;
	char close = object ? '}' : ']';

	v->type = object ? JSON_OBJECT : JSON_ARRAY;
	blank(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return true;
	}
	for (;;) {
		const char *key = NULL;
		struct json *item;

		blank(r);
		if (object) {
			if (r->p >= r->end || *r->p != '"')
				return fail(r, "an object member without a string key");
			r->p++;
			if (!(key = string(r)))
				return false;
			blank(r);
			if (r->p >= r->end || *r->p != ':')
				return fail(r, "a key without ':'");
			r->p++;
		}
		if (!(item = value(r)))
			return false;
		if (v->count == cap) {
			size_t ncap = cap ? 2 * cap : 8;
			struct json **ni = take(ncap * sizeof(*ni));
			const char **nk = take(ncap * sizeof(*nk));

			if (!ni || !nk)
				return fail(r, "out of memory");
			if (cap) {
				memcpy(ni, v->items, cap * sizeof(*ni));
				memcpy(nk, v->keys, cap * sizeof(*nk));
			}
			v->items = ni;
			v->keys = nk;
			cap = ncap;
		}
		v->items[v->count] = item;
		v->keys[v->count] = key;
		v->count++;
		blank(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return true;
		}
		return fail(r, object ? "an object without ',' or '}' after a member" : "an array without ',' or ']' after an item");
	}
}

static bool word(struct reader *r, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, w, n) != 0)
		return fail(r, "'%c', which starts no JSON value", *r->p);
	r->p += n;
	return true;
}

static struct json *value(struct reader *r)
{
	struct json *v = take(sizeof(*v));

	if (!v)
		return fail(r, "out of memory"), NULL;
	memset(v, 0, sizeof(*v));
	if (++r->depth > 64)
		return fail(r, "values nested deeper than 64"), NULL;
	blank(r);
	if (r->p >= r->end)
		return fail(r, "the line ends where a value should be"), NULL;
	switch (*r->p) {
	case '{':
		r->p++;
		if (!items(r, v, true))
			return NULL;
		break;
	case '[':
		r->p++;
		if (!items(r, v, false))
			return NULL;
		break;
	case '"':
		r->p++;
		v->type = JSON_STRING;
		if (!(v->string = string(r)))
			return NULL;
		break;
	case 't':
		v->type = JSON_BOOL;
		v->boolean = true;
		if (!word(r, "true"))
			return NULL;
		break;
	case 'f':
		v->type = JSON_BOOL;
		if (!word(r, "false"))
			return NULL;
		break;
	case 'n':
		if (!word(r, "null"))
			return NULL;
		break;
	default:
		if (!number(r, v))
			return NULL;
	}
	r->depth--;
	return v;
}

const struct json *json_parse(const char *text, size_t len, char *error, size_t size)
{
	struct reader r = { text, text + len, error, size, 0 };
	struct json *v;

	error[0] = 0;
	reset();
	v = value(&r);
	if (!v)
		return NULL;
	blank(&r);
	if (r.p != r.end)
		return fail(&r, "more after the value"), NULL;
	return v;
}

const struct json *json_get(const struct json *object, const char *key)
{
	if (!object || object->type != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < object->count; i++)
		if (strcmp(object->keys[i], key) == 0)
			return object->items[i];
	return NULL;
}
