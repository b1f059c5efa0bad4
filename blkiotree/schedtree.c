/* CFQ's debugfs scheduling tree against the model; see schedtree.h. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schedtree.h"
#include "strutil.h"

void bt_ktree_free(struct bt_ktree *tree)
{
	for (size_t i = 0; i < tree->n; i++)
		free(tree->entities[i].path);
	free(tree->entities);
	tree->entities = NULL;
	tree->n = 0;
}

/* Fill @e from the "key=value" fields of one line (after the kind). */
static bool parse_fields(char *fields, struct bt_kentity *e)
{
	char *save, *field;
	bool have_pid = false;

	e->online = true;
	for (field = strtok_r(fields, " ", &save); field;
	     field = strtok_r(NULL, " ", &save)) {
		char *value = strchr(field, '=');
		long long v;

		if (!value)
			return false;
		*value++ = '\0';
		if (!strcmp(field, "path") && e->kind == BT_KGROUP) {
			if (*value != '/' || e->path)
				return false;
			e->path = xstrdup(value);
		} else if (!strcmp(field, "pid") && e->kind == BT_KQUEUE) {
			if (str_to_ll(value, &v) || v < 0 || v > 0x7fffffff)
				return false;
			e->pid = v;
			have_pid = true;
		} else if (!strcmp(field, "online")) {
			e->online = strcmp(value, "0") != 0;
		} else if (!strcmp(field, "sync")) {
			e->sync = !strcmp(value, "1");
		}
		/* other fields (weight, vdisktime, ...) do not place anything */
	}
	if (e->kind == BT_KGROUP)
		return e->path != NULL;
	if (e->kind == BT_KQUEUE)
		return have_pid;
	return true;
}

/* One line into @e; @depth_limit is one more than the previous depth. */
static bool parse_line(char *line, size_t depth_limit, struct bt_kentity *e)
{
	size_t spaces = strspn(line, " ");
	char *kind = line + spaces, *rest;

	memset(e, 0, sizeof(*e));
	if (spaces % 2 || spaces / 2 > depth_limit)
		return false;
	e->depth = spaces / 2;
	rest = strchr(kind, ' ');
	if (rest)
		*rest++ = '\0';
	if (!strcmp(kind, "pivot"))
		e->kind = BT_KPIVOT;
	else if (!strcmp(kind, "group"))
		e->kind = BT_KGROUP;
	else if (!strcmp(kind, "queue"))
		e->kind = BT_KQUEUE;
	else
		return false;
	if ((e->kind == BT_KPIVOT) != (e->depth == 0))
		return false;
	return parse_fields(rest ? rest : kind + strlen(kind), e);
}

/*
 * Why @e cannot be where it is in the tree parsed so far (@last: the
 * latest entity at each depth), or NULL.  A queue has nothing under it:
 * what sits there has no group to be placed in.
 */
static const char *placement_problem(const struct bt_ktree *tree,
				     const long *last,
				     const struct bt_kentity *e)
{
	if (e->kind == BT_KPIVOT && tree->n)
		return "is a second pivot";
	if (e->depth && tree->entities[last[e->depth - 1]].kind == BT_KQUEUE)
		return "sits under a queue";
	return NULL;
}

/* @line into @e; what is wrong with it, or NULL. */
static const char *read_entity(const char *line, const struct bt_ktree *tree,
			       const long *last, struct bt_kentity *e)
{
	/* parsing cuts a line up, and the message shows it whole */
	char *fields = xstrdup(line);
	bool ok = parse_line(fields, tree->n ?
			     tree->entities[tree->n - 1].depth + 1 : 0, e);

	free(fields);
	if (!ok)
		return "is not an entity of the scheduling tree";
	return placement_problem(tree, last, e);
}

int bt_ktree_parse(const char *text, struct bt_ktree *tree, char **why)
{
	char *copy = xstrdup(text), *line, *next;
	long *last = NULL;	/* index of the latest entity at each depth */
	size_t lineno = 0;
	int err = 0;

	memset(tree, 0, sizeof(*tree));
	for (line = copy; line && *line && !err; line = next) {
		struct bt_kentity e;
		const char *problem;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		problem = read_entity(line, tree, last, &e);
		if (problem) {
			char *shown = str_escape(line, strlen(line));

			free(e.path);
			*why = xasprintf("line %zu: \"%s\" %s", lineno, shown,
					 problem);
			free(shown);
			err = EINVAL;
			break;
		}
		last = xreallocarray(last, e.depth + 1, sizeof(*last));
		last[e.depth] = tree->n;
		e.parent = e.depth ? last[e.depth - 1] : -1;
		tree->entities = xreallocarray(tree->entities, tree->n + 1,
					       sizeof(*tree->entities));
		tree->entities[tree->n++] = e;
	}
	if (!err && !tree->n) {
		*why = xstrdup("empty, not even the pivot line");
		err = EINVAL;
	}
	free(last);
	free(copy);
	if (err)
		bt_ktree_free(tree);
	return err;
}

int bt_ktree_read(const char *debugfs, const char *disk,
		  struct bt_ktree *tree, char **why)
{
	char *path = xasprintf("%s/block/%s/sched/tree", debugfs, disk);
	char *text;
	int err = str_read_file(path, &text);

	free(path);
	if (err)
		return err;
	err = bt_ktree_parse(text, tree, why);
	free(text);
	return err;
}

/* "the pivot tree" or the group's path: where an entity sits. */
static char *model_place(const struct bt_entity *parent)
{
	return parent->type == BT_ENTITY_PIVOT ? xstrdup("the pivot tree")
					       : bt_group_display(parent->group);
}

static char *kernel_place(const struct bt_ktree *tree,
			  const struct bt_kentity *e)
{
	const struct bt_kentity *parent = &tree->entities[e->parent];

	return parent->kind == BT_KPIVOT ? xstrdup("the pivot tree")
					 : xstrdup(parent->path);
}

/* The model's entity for a kernel group or queue, and its parent. */
static const struct bt_entity *find_model(const struct bt_entity *entity,
					  const struct bt_entity *parent,
					  const struct bt_kentity *k,
					  const struct bt_entity **found_parent)
{
	bool match = false;

	if (k->kind == BT_KGROUP && entity->type == BT_ENTITY_GROUP) {
		char *name = bt_group_display(entity->group);

		match = !strcmp(name, k->path);
		free(name);
	} else if (k->kind == BT_KQUEUE && entity->type == BT_ENTITY_TASK) {
		match = entity->task->pid == k->pid;
	}
	if (match) {
		*found_parent = parent;
		return entity;
	}
	for (size_t i = 0; i < entity->nchildren; i++) {
		const struct bt_entity *found = find_model(entity->children[i],
							   entity, k,
							   found_parent);
		if (found)
			return found;
	}
	return NULL;
}

size_t bt_ktree_compare(const struct bt_ktree *tree,
			const struct bt_entity *sched, char ***diffs)
{
	size_t n = 0;

	for (size_t i = 0; i < tree->n; i++) {
		const struct bt_kentity *k = &tree->entities[i];
		const struct bt_entity *model, *model_parent = NULL;
		char *want, *got;

		if (k->kind == BT_KPIVOT || (k->kind == BT_KGROUP && !k->online) ||
		    (k->kind == BT_KQUEUE && (!k->sync || !k->pid)))
			continue;
		model = find_model(sched, NULL, k, &model_parent);
		if (!model || !model_parent)
			continue;
		want = model_place(model_parent);
		got = kernel_place(tree, k);
		if (strcmp(want, got)) {
			*diffs = xreallocarray(*diffs, n + 1, sizeof(**diffs));
			if (k->kind == BT_KGROUP)
				(*diffs)[n++] = xasprintf("group %s: the kernel "
					"schedules it in %s, blkiotree's model "
					"in %s", k->path, got, want);
			else
				(*diffs)[n++] = xasprintf("task %ld (%s): the "
					"kernel queues it in %s, blkiotree's "
					"model in %s", (long)k->pid,
					model->task->comm, got, want);
		}
		free(want);
		free(got);
	}
	return n;
}
