/* Plans: checked steps on a model, see plan.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "strutil.h"

void bt_plan_init(struct bt_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
}

void bt_op_free(struct bt_op *op)
{
	free(op->path);
	free(op->value);
}

void bt_plan_free(struct bt_plan *plan)
{
	for (size_t i = 0; i < plan->nops; i++) {
		bt_op_free(&plan->ops[i]);
		free(plan->undo[i].from_path);
		free(plan->undo[i].devweights);
		free(plan->undo[i].tids);
	}
	free(plan->ops);
	free(plan->undo);
	bt_plan_init(plan);
}

/* What a group about to be deleted has, to create it again. */
static void remember_group(const struct bt_group *group, struct bt_undo *undo)
{
	undo->weight = group->weight;
	undo->use_hierarchy = group->use_hierarchy;
	undo->ndevweights = group->ndevweights;
	undo->devweights = xcalloc(group->ndevweights,
				   sizeof(*undo->devweights));
	for (size_t i = 0; i < group->ndevweights; i++)
		undo->devweights[i] = group->devweights[i];
	undo->ntids = group->ntasks;
	undo->tids = xcalloc(group->ntasks, sizeof(*undo->tids));
	for (size_t i = 0; i < group->ntasks; i++)
		undo->tids[i] = group->tasks[i].pid;
}

/* Apply an allowed step to the model, remembering what it replaces. */
static void apply_to_model(struct bt_tree *tree, const struct bt_op *op,
			   struct bt_undo *undo)
{
	struct bt_group *group = bt_group_find(tree, op->path);

	switch (op->type) {
	case BT_OP_CREATE: {
		char *parent_path = bt_path_parent(op->path);
		const char *slash = strrchr(op->path, '/');

		bt_group_add(bt_group_find(tree, parent_path),
			     slash ? slash + 1 : op->path);
		free(parent_path);
		return;
	}
	case BT_OP_SET:
		switch (op->key) {
		case BT_KEY_WEIGHT:
			undo->number = group->weight;
			group->weight = op->number;
			return;
		case BT_KEY_USE_HIERARCHY:
			undo->number = group->use_hierarchy;
			group->use_hierarchy = op->number;
			return;
		case BT_KEY_WEIGHT_DEVICE:
			undo->number = bt_group_devweight(group, op->major,
							  op->minor);
			bt_group_set_devweight(group, op->major, op->minor,
					       op->number);
			return;
		}
		return;
	case BT_OP_DELETE:
		remember_group(group, undo);
		bt_group_remove(group);
		return;
	case BT_OP_ATTACH:
		undo->from_path = xstrdup(bt_tree_find_task(tree,
							    op->pid)->path);
		if (op->thread)
			bt_tree_move_thread(tree, op->pid, group);
		else
			bt_tree_move_process(tree, op->pid, group);
		return;
	}
}

int bt_plan_add(struct bt_plan *plan, struct bt_tree *tree,
		const struct bt_env *env, const struct bt_op *op, char **why)
{
	struct bt_op copy = *op;
	struct bt_undo undo = { 0 };
	char *words;
	int err;

	copy.path = xstrdup(op->path);
	copy.value = op->value ? xstrdup(op->value) : NULL;
	err = bt_rules_check(tree, env, &copy, &words);
	if (err) {
		char *what = bt_op_describe(&copy);

		*why = xasprintf("%s: %s", what, words);
		free(what);
		free(words);
		bt_op_free(&copy);
		return err;
	}
	if (!copy.noop)
		apply_to_model(tree, &copy, &undo);
	plan->ops = xreallocarray(plan->ops, plan->nops + 1,
				  sizeof(*plan->ops));
	plan->undo = xreallocarray(plan->undo, plan->nops + 1,
				   sizeof(*plan->undo));
	plan->ops[plan->nops] = copy;
	plan->undo[plan->nops] = undo;
	plan->nops++;
	return 0;
}

size_t bt_plan_writes(const struct bt_plan *plan)
{
	size_t n = 0;

	for (size_t i = 0; i < plan->nops; i++)
		n += !plan->ops[i].noop;
	return n;
}

static int add_set(struct bt_plan *plan, struct bt_tree *tree,
		   const struct bt_env *env, const char *path, enum bt_key key,
		   const char *value, char **why)
{
	struct bt_op op = {
		.type = BT_OP_SET,
		.path = (char *)path,
		.key = key,
		.value = (char *)value,
	};

	return bt_plan_add(plan, tree, env, &op, why);
}

static int add_create(struct bt_plan *plan, struct bt_tree *tree,
		      const struct bt_env *env, const char *path, char **why)
{
	struct bt_op op = { .type = BT_OP_CREATE, .path = (char *)path };

	return bt_plan_add(plan, tree, env, &op, why);
}

int bt_plan_create(struct bt_plan *plan, struct bt_tree *tree,
		   const struct bt_env *env, const char *path,
		   const char *weight, bool hierarchy, char **why)
{
	char *prefix = xstrdup(path);
	int err = 0;

	/* missing ancestors first, shortest prefix first */
	for (char *slash = strchr(prefix, '/'); slash && !err;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (!bt_group_find(tree, prefix))
			err = add_create(plan, tree, env, prefix, why);
		*slash = '/';
	}
	free(prefix);
	if (!err)
		err = add_create(plan, tree, env, path, why);
	if (!err && hierarchy)
		err = add_set(plan, tree, env, path, BT_KEY_USE_HIERARCHY, "1",
			      why);
	if (!err && weight)
		err = add_set(plan, tree, env, path, BT_KEY_WEIGHT, weight,
			      why);
	return err;
}

static int plan_spec_group(struct bt_plan *plan, struct bt_tree *tree,
			   const struct bt_env *env,
			   const struct bt_spec_group *spec, const char *path,
			   char **why)
{
	char *text;
	int err = 0;

	if (!bt_group_find(tree, path))
		err = add_create(plan, tree, env, path, why);
	/* use_hierarchy before any child group is created */
	if (!err && spec->has_use_hierarchy) {
		text = xasprintf("%lld", spec->use_hierarchy);
		err = add_set(plan, tree, env, path, BT_KEY_USE_HIERARCHY,
			      text, why);
		free(text);
	}
	if (!err && spec->has_weight) {
		text = xasprintf("%lld", spec->weight);
		err = add_set(plan, tree, env, path, BT_KEY_WEIGHT, text, why);
		free(text);
	}
	for (size_t i = 0; !err && i < spec->nweight_device; i++)
		err = add_set(plan, tree, env, path, BT_KEY_WEIGHT_DEVICE,
			      spec->weight_device[i], why);
	for (size_t i = 0; !err && i < spec->nchildren; i++) {
		const struct bt_spec_group *child = &spec->children[i];
		char *child_path = *path ? xasprintf("%s/%s", path, child->name)
					 : xstrdup(child->name);

		err = plan_spec_group(plan, tree, env, child, child_path, why);
		free(child_path);
	}
	return err;
}

/* Delete @group and everything below it, one group at a time, children first. */
static int add_delete_subtree(struct bt_plan *plan, struct bt_tree *tree,
			      const struct bt_env *env, struct bt_group *group,
			      char **why)
{
	struct bt_op op = { .type = BT_OP_DELETE };
	int err = 0;

	/* each delete takes the child out of the model: [0] is the next */
	while (!err && group->nchildren)
		err = add_delete_subtree(plan, tree, env, group->children[0],
					 why);
	if (err)
		return err;
	op.path = group->path;
	return bt_plan_add(plan, tree, env, &op, why);
}

/*
 * Whether the file says all there is below @spec (see bt_plan_spec()):
 * a group named only to reach its children is a path, not a description.
 */
static bool describes_children(const struct bt_spec_group *spec)
{
	return spec->has_weight || spec->has_use_hierarchy ||
	       spec->nweight_device || !spec->nchildren;
}

static const struct bt_spec_group *spec_child(const struct bt_spec_group *spec,
					      const char *name)
{
	for (size_t i = 0; i < spec->nchildren; i++)
		if (!strcmp(spec->children[i].name, name))
			return &spec->children[i];
	return NULL;
}

/*
 * The prune steps below @group, which @spec names; @pruning: an ancestor
 * is described, so every unnamed group below it goes.
 */
static int plan_prune(struct bt_plan *plan, struct bt_tree *tree,
		      const struct bt_env *env,
		      const struct bt_spec_group *spec,
		      struct bt_group *group, bool pruning, char **why)
{
	size_t i = 0;
	int err = 0;

	pruning = pruning || describes_children(spec);
	while (!err && i < group->nchildren) {
		struct bt_group *child = group->children[i];
		const struct bt_spec_group *named = spec_child(spec, child->name);

		if (named) {
			err = plan_prune(plan, tree, env, named, child, pruning,
					 why);
		} else if (pruning) {
			/* the next child moves up to [i] */
			err = add_delete_subtree(plan, tree, env, child, why);
			continue;
		}
		i++;
	}
	return err;
}

int bt_plan_delete(struct bt_plan *plan, struct bt_tree *tree,
		   const struct bt_env *env, const char *path, bool recursive,
		   char **why)
{
	struct bt_group *group = bt_group_find(tree, path);
	struct bt_op op = { .type = BT_OP_DELETE, .path = (char *)path };

	/* a missing group or the root: refused by the rules, in their words */
	if (recursive && group && group->parent)
		return add_delete_subtree(plan, tree, env, group, why);
	return bt_plan_add(plan, tree, env, &op, why);
}

int bt_plan_spec(struct bt_plan *plan, struct bt_tree *tree,
		 const struct bt_env *env, const struct bt_spec_group *spec,
		 bool prune, char **why)
{
	int err = plan_spec_group(plan, tree, env, spec, "", why);

	if (!err && prune)
		err = plan_prune(plan, tree, env, spec, tree->root, false, why);
	return err;
}
