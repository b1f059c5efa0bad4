/*
 * show's output for the unit tests: what it shows, printed into memory,
 * blanks squeezed out of the tables, and a look into the JSON document.
 */
#ifndef BLKIOTREE_TEST_RENDER_H
#define BLKIOTREE_TEST_RENDER_H

#include <json.h>
#include <stdio.h>

#include "output.h"
#include "tap.h"

/*
 * Column padding is libsmartcols' business; compare the words and the
 * tree drawing: runs of blanks become one, blanks at line ends go.
 */
static inline char *squeeze(char *text)
{
	char *out = text;

	for (const char *in = text; *in; in++) {
		if (*in == ' ' && (in[1] == ' ' || in[1] == '\n' || !in[1]))
			continue;
		*out++ = *in;
	}
	*out = '\0';
	return text;
}

/* The output (caller frees): the JSON as printed, the tables squeezed. */
static inline char *render(const struct bt_show *show,
			   const struct bt_show_format *f)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	ok(bt_output_show(out, show, f) == 0, "output written");
	fclose(out);
	return f->json ? text : squeeze(text);
}

/* @sched shown as from a blkio mount at /cg with all of cfq's files. */
static inline struct bt_show cfq_show(const struct bt_entity *sched)
{
	return (struct bt_show){
		.mount = "/cg",
		.cfq_policy = true,
		.hierarchy = true,
		.sched = sched,
	};
}

/* The value of @key in @obj, or NULL. */
static inline struct json_object *at(struct json_object *obj, const char *key)
{
	struct json_object *v = NULL;

	json_object_object_get_ex(obj, key, &v);
	return v;
}

/* The @i-th entity below @obj, or NULL. */
static inline struct json_object *kid(struct json_object *obj, size_t i)
{
	struct json_object *children = at(obj, "children");

	return children ? json_object_array_get_idx(children, i) : NULL;
}

#endif
