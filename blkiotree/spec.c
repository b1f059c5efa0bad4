/*
 * The apply spec parser: JSON text -> struct bt_spec_group tree; and its
 * writer for export: cgroup tree -> the same JSON.
 *
 * A group is an object; the document's top object is the root group
 * (which has no "name").  Keys: name, weight, use_hierarchy,
 * weight_device ([{"device": "MAJ:MIN", "weight": W}, ...]) and groups
 * (an array of child groups).  Unknown keys are errors, so a typo cannot
 * silently leave a value unset.
 */
#include "config.h"

#include <json.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "strutil.h"

static void group_clear(struct bt_spec_group *group)
{
	free(group->name);
	for (size_t i = 0; i < group->nweight_device; i++)
		free(group->weight_device[i]);
	free(group->weight_device);
	for (size_t i = 0; i < group->nchildren; i++)
		group_clear(&group->children[i]);
	free(group->children);
}

void bt_spec_free(struct bt_spec_group *root)
{
	if (!root)
		return;
	group_clear(root);
	free(root);
}

/* json-c accepts numbers written as "1.0" as doubles; a weight is an integer */
static bool get_int(struct json_object *value, long long *out)
{
	if (!json_object_is_type(value, json_type_int))
		return false;
	*out = json_object_get_int64(value);
	return true;
}

static int parse_group(struct json_object *obj, const char *where,
		       bool is_root, struct bt_spec_group *group, char **why);

static int parse_weight_device(struct json_object *array, const char *where,
			       struct bt_spec_group *group, char **why)
{
	size_t n;

	if (!json_object_is_type(array, json_type_array)) {
		*why = xasprintf("%s: \"weight_device\" must be an array", where);
		return -1;
	}
	n = json_object_array_length(array);
	group->weight_device = xcalloc(n, sizeof(*group->weight_device));
	for (size_t i = 0; i < n; i++) {
		struct json_object *entry = json_object_array_get_idx(array, i);
		struct json_object *device = NULL, *weight = NULL;
		unsigned major, minor;
		long long w;
		size_t nkeys;

		if (!json_object_is_type(entry, json_type_object)) {
			*why = xasprintf("%s: weight_device[%zu] must be an "
					 "object", where, i);
			return -1;
		}
		nkeys = json_object_object_length(entry);
		if (!json_object_object_get_ex(entry, "device", &device) ||
		    !json_object_object_get_ex(entry, "weight", &weight) ||
		    nkeys != 2) {
			*why = xasprintf("%s: weight_device[%zu] must have "
					 "exactly \"device\" and \"weight\"",
					 where, i);
			return -1;
		}
		if (!json_object_is_type(device, json_type_string) ||
		    !str_to_devnum(json_object_get_string(device), &major,
				   &minor)) {
			*why = xasprintf("%s: weight_device[%zu]: \"device\" "
					 "must be a \"MAJ:MIN\" string", where,
					 i);
			return -1;
		}
		if (!get_int(weight, &w)) {
			*why = xasprintf("%s: weight_device[%zu]: \"weight\" "
					 "must be an integer", where, i);
			return -1;
		}
		group->weight_device[i] = xasprintf("%u:%u:%lld", major, minor,
						    w);
		group->nweight_device++;
	}
	return 0;
}

static int parse_children(struct json_object *array, const char *where,
			  struct bt_spec_group *group, char **why)
{
	size_t n;

	if (!json_object_is_type(array, json_type_array)) {
		*why = xasprintf("%s: \"groups\" must be an array", where);
		return -1;
	}
	n = json_object_array_length(array);
	group->children = xcalloc(n, sizeof(*group->children));
	for (size_t i = 0; i < n; i++) {
		struct bt_spec_group *child = &group->children[i];
		char *child_where = xasprintf("%s: groups[%zu]", where, i);
		int rc;

		group->nchildren++;
		rc = parse_group(json_object_array_get_idx(array, i),
				 child_where, false, child, why);
		free(child_where);
		if (rc)
			return rc;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(group->children[j].name, child->name)) {
				*why = xasprintf("%s: group \"%s\" is listed "
						 "twice", where, child->name);
				return -1;
			}
	}
	return 0;
}

static int parse_group(struct json_object *obj, const char *where,
		       bool is_root, struct bt_spec_group *group, char **why)
{
	struct json_object *children = NULL;
	char *here = NULL;
	int rc = 0;

	if (!json_object_is_type(obj, json_type_object)) {
		*why = xasprintf("%s: a group must be an object", where);
		return -1;
	}
	if (!is_root) {
		struct json_object *name;
		const char *text;
		char *problem, *shown;
		size_t len;

		if (!json_object_object_get_ex(obj, "name", &name) ||
		    !json_object_is_type(name, json_type_string) ||
		    strchr(json_object_get_string(name), '/')) {
			*why = xasprintf("%s: \"name\" must be a group name "
					 "without '/'", where);
			return -1;
		}
		/* the length too: a "\u0000" would cut a C string short */
		text = json_object_get_string(name);
		len = json_object_get_string_len(name);
		problem = bt_name_problem(text, len);
		if (problem) {
			*why = xasprintf("%s: \"name\": %s", where, problem);
			free(problem);
			return -1;
		}
		group->name = xstrdup(text);
		shown = str_escape(text, len);
		here = xasprintf("%s (\"%s\")", where, shown);
		free(shown);
		where = here;
	}

	json_object_object_foreach(obj, key, value) {
		if (!strcmp(key, "name") && !is_root)
			continue;
		if (!strcmp(key, "weight")) {
			group->has_weight = get_int(value, &group->weight);
			if (!group->has_weight) {
				*why = xasprintf("%s: \"weight\" must be an "
						 "integer", where);
				rc = -1;
			}
		} else if (!strcmp(key, "use_hierarchy")) {
			group->has_use_hierarchy = true;
			if (json_object_is_type(value, json_type_boolean))
				group->use_hierarchy =
					json_object_get_boolean(value);
			else if (!get_int(value, &group->use_hierarchy)) {
				*why = xasprintf("%s: \"use_hierarchy\" must "
						 "be 0, 1, true or false",
						 where);
				rc = -1;
			}
		} else if (!strcmp(key, "weight_device")) {
			rc = parse_weight_device(value, where, group, why);
		} else if (!strcmp(key, "groups")) {
			children = value;
		} else {
			*why = xasprintf("%s: unknown key \"%s\"", where, key);
			rc = -1;
		}
		if (rc)
			break;
	}
	/* children after the group's own keys, so errors come in order */
	if (!rc && children)
		rc = parse_children(children, where, group, why);
	free(here);
	return rc;
}

/* 1-based line and column of byte @offset */
static void position(const char *text, size_t offset, int *line, int *column)
{
	*line = 1;
	*column = 1;
	for (size_t i = 0; i < offset; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*column = 1;
		} else {
			(*column)++;
		}
	}
}

/* One key of an object, decoded, and where it is in the text. */
struct key_seen {
	char *key;
	size_t offset;
};

/* The objects open at one point of the text, innermost last. */
struct open_object {
	struct key_seen *keys;
	size_t nkeys;
	bool is_array;		/* an array: its strings are values */
	bool want_key;		/* after '{' or ',': the next string is a key */
};

static int compare_keys(const void *a, const void *b)
{
	const struct key_seen *x = a, *y = b;
	int order = strcmp(x->key, y->key);

	if (order)
		return order;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * The key that @object holds twice, the later place of it, or NULL.
 * Keys compare as json-c stores them, decoded and as C strings.
 */
static const struct key_seen *duplicate_key(struct open_object *object)
{
	const struct key_seen *twice = NULL;

	if (object->nkeys < 2)
		return NULL;
	/* sorted, not compared pairwise: an object may have many keys */
	qsort(object->keys, object->nkeys, sizeof(*object->keys),
	      compare_keys);
	for (size_t i = 1; i < object->nkeys; i++)
		if (!strcmp(object->keys[i - 1].key, object->keys[i].key) &&
		    (!twice || object->keys[i].offset < twice->offset))
			twice = &object->keys[i];
	return twice;
}

/* The string literal at @literal (@len bytes with its quotes), decoded. */
static char *decode_key(const char *literal, size_t len)
{
	char *copy = xcalloc(len + 1, 1);
	struct json_object *string;
	char *key;

	memcpy(copy, literal, len);
	string = json_tokener_parse(copy);
	free(copy);
	key = xstrdup(string ? json_object_get_string(string) : "");
	json_object_put(string);
	return key;
}

/*
 * json-c keeps the last of two equal keys in an object and says
 * nothing, so a repeated "weight" would silently drop a value.  Walk
 * @text, which json-c has accepted, and find the first key that some
 * object repeats.  Returns the reason, or NULL when there is none.
 */
static char *find_duplicate_key(const char *text, size_t len)
{
	struct open_object *stack = NULL;
	size_t depth = 0;
	char *why = NULL;

	for (size_t i = 0; i < len && !why; i++) {
		struct open_object *top = depth ? &stack[depth - 1] : NULL;
		size_t end;

		switch (text[i]) {
		case '{':
		case '[':
			stack = xreallocarray(stack, depth + 1, sizeof(*stack));
			stack[depth++] = (struct open_object){
				.is_array = text[i] == '[',
				.want_key = text[i] == '{',
			};
			break;
		case ',':
			if (top && !top->is_array)
				top->want_key = true;
			break;
		case '"':
			for (end = i + 1; end < len && text[end] != '"'; end++)
				if (text[end] == '\\')
					end++;
			if (top && top->want_key) {
				top->keys = xreallocarray(top->keys,
							  top->nkeys + 1,
							  sizeof(*top->keys));
				top->keys[top->nkeys++] = (struct key_seen){
					.key = decode_key(text + i,
							  end + 1 - i),
					.offset = i,
				};
				top->want_key = false;
			}
			i = end;
			break;
		case '}':
		case ']':
			if (!top)
				break;
			if (!top->is_array) {
				const struct key_seen *twice =
					duplicate_key(top);
				int line, column;

				if (twice) {
					char *shown = str_escape(twice->key,
							strlen(twice->key));

					position(text, twice->offset, &line,
						 &column);
					why = xasprintf("line %d, column %d: "
							"key \"%s\" appears "
							"twice in one object",
							line, column, shown);
					free(shown);
				}
			}
			for (size_t k = 0; k < top->nkeys; k++)
				free(top->keys[k].key);
			free(top->keys);
			depth--;
			break;
		}
	}
	while (depth--) {
		for (size_t k = 0; k < stack[depth].nkeys; k++)
			free(stack[depth].keys[k].key);
		free(stack[depth].keys);
	}
	free(stack);
	return why;
}

struct bt_spec_group *bt_spec_parse(const char *text, size_t len, char **why)
{
	struct json_tokener *tok = json_tokener_new();
	struct bt_spec_group *root;
	struct json_object *doc;
	size_t end;

	if (!tok) {
		*why = xstrdup("out of memory");
		return NULL;
	}
	if (len > BT_SPEC_MAX_SIZE) {
		json_tokener_free(tok);
		*why = xasprintf("the description is larger than %s (%d bytes), "
				 "the most apply reads", BT_SPEC_MAX_SIZE_TEXT,
				 BT_SPEC_MAX_SIZE);
		return NULL;
	}
	if (memchr(text, '\0', len)) {
		json_tokener_free(tok);
		*why = xstrdup("not JSON: the file contains a NUL byte");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	doc = json_tokener_parse_ex(tok, text, len);
	end = json_tokener_get_parse_end(tok);
	if (!doc) {
		enum json_tokener_error err = json_tokener_get_error(tok);
		int line, column;

		position(text, end, &line, &column);
		if (err == json_tokener_continue)
			*why = xstrdup("not JSON: the document ends too early");
		else
			*why = xasprintf("not JSON: line %d, column %d: %s",
					 line, column,
					 json_tokener_error_desc(err));
		json_tokener_free(tok);
		return NULL;
	}
	json_tokener_free(tok);
	while (end < len && strchr(" \t\r\n", text[end]))
		end++;
	if (end < len) {
		int line, column;

		position(text, end, &line, &column);
		*why = xasprintf("not JSON: line %d, column %d: text after the "
				 "document", line, column);
		json_object_put(doc);
		return NULL;
	}
	*why = find_duplicate_key(text, len);
	if (*why) {
		json_object_put(doc);
		return NULL;
	}
	root = xcalloc(1, sizeof(*root));
	if (parse_group(doc, "top level", true, root, why)) {
		bt_spec_free(root);
		root = NULL;
	}
	json_object_put(doc);
	return root;
}

/* @group's own values and, with @subtree, every group below it */
static struct json_object *export_group(const struct bt_group *group,
					bool subtree, bool weights,
					bool hierarchy)
{
	struct json_object *obj = json_object_new_object();
	struct json_object *children;

	if (group->parent)
		json_object_object_add(obj, "name",
				       json_object_new_string(group->name));
	if (!subtree)
		return obj;
	if (weights)
		json_object_object_add(obj, "weight",
				       json_object_new_int64(group->weight));
	if (hierarchy)
		json_object_object_add(obj, "use_hierarchy",
				json_object_new_int(group->use_hierarchy));
	if (weights && group->ndevweights) {
		struct json_object *devices = json_object_new_array();

		for (size_t i = 0; i < group->ndevweights; i++) {
			const struct bt_devweight *dw = &group->devweights[i];
			struct json_object *entry = json_object_new_object();
			char *devnum = xasprintf("%u:%u", dw->major, dw->minor);

			json_object_object_add(entry, "device",
					       json_object_new_string(devnum));
			json_object_object_add(entry, "weight",
					       json_object_new_int64(dw->weight));
			json_object_array_add(devices, entry);
			free(devnum);
		}
		json_object_object_add(obj, "weight_device", devices);
	}
	if (!group->nchildren)
		return obj;
	children = json_object_new_array();
	for (size_t i = 0; i < group->nchildren; i++)
		json_object_array_add(children,
				      export_group(group->children[i], true,
						   weights, hierarchy));
	json_object_object_add(obj, "groups", children);
	return obj;
}

char *bt_spec_export(const struct bt_group *group, bool weights,
		     bool hierarchy)
{
	struct json_object *obj = export_group(group, true, weights,
					       hierarchy);
	char *text;

	/* wrap in the ancestors up to the root, which apply starts from */
	for (const struct bt_group *up = group->parent; up; up = up->parent) {
		struct json_object *outer = export_group(up, false, weights,
							 hierarchy);
		struct json_object *children = json_object_new_array();

		json_object_array_add(children, obj);
		json_object_object_add(outer, "groups", children);
		obj = outer;
	}
	text = xasprintf("%s\n", json_object_to_json_string_ext(obj,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(obj);
	return text;
}
