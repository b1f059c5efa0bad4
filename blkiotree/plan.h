/*
 * A plan: the operations one command will write, each checked against the
 * rules on a model that already holds the effect of the ones before it.
 * Building the plan changes only the model, so a refused command has
 * written nothing; session.c then writes the plan, undoing the written
 * part if the kernel refuses one step.
 */
#ifndef BLKIOTREE_PLAN_H
#define BLKIOTREE_PLAN_H

#include "rules.h"
#include "spec.h"

/* What writing a step changed, so that it can be put back. */
struct bt_undo {
	unsigned number;	/* SET: the previous value */
	char *from_path;	/* ATTACH: the group thread pid was in; undo
				   brings the whole process back there (with
				   thread, that thread alone) */
	/*
	 * DELETE: the group as it was, to create it again: its values and
	 * the threads in it, among them those that earlier deletes of the
	 * plan moved up from its child groups.
	 */
	unsigned weight;
	int use_hierarchy;
	struct bt_devweight *devweights;
	size_t ndevweights;
	pid_t *tids;
	size_t ntids;
};

struct bt_plan {
	struct bt_op *ops;
	struct bt_undo *undo;
	size_t nops;
};

void bt_plan_init(struct bt_plan *plan);
void bt_plan_free(struct bt_plan *plan);

/*
 * Check @op (its strings are copied) against @tree and, if allowed, apply
 * it to @tree and append it.  Returns 0, or an errno with *@why set to
 * "what: why" (the step and the reason; caller frees).
 */
int bt_plan_add(struct bt_plan *plan, struct bt_tree *tree,
		const struct bt_env *env, const struct bt_op *op, char **why);
/* Number of steps that write something (not no-ops). */
size_t bt_plan_writes(const struct bt_plan *plan);

/*
 * Steps for create: every missing ancestor, the group, then its weight
 * and use_hierarchy (before any child can exist).  @weight may be NULL.
 */
int bt_plan_create(struct bt_plan *plan, struct bt_tree *tree,
		   const struct bt_env *env, const char *path,
		   const char *weight, bool hierarchy, char **why);
/*
 * Steps for delete: one per group, so that each can be undone; with
 * @recursive, every group below @path first, children before their
 * parent.  Without, a group with child groups is refused (EBUSY).
 */
int bt_plan_delete(struct bt_plan *plan, struct bt_tree *tree,
		   const struct bt_env *env, const char *path, bool recursive,
		   char **why);
/*
 * Steps for apply: the spec's groups in pre-order, each created if
 * missing and its use_hierarchy set before its children are created.
 * With @prune, then the deletion of every group below a described spec
 * group that the spec does not name, children first (deletes come last,
 * so that a value the rules refuse because of a group to be pruned is
 * refused before anything is deleted).  A spec group is described
 * when it sets a value or has no child groups; one given by name only
 * with child groups is just the path to them (as export writes the
 * ancestors of a group), and its other children are left alone.
 */
int bt_plan_spec(struct bt_plan *plan, struct bt_tree *tree,
		 const struct bt_env *env, const struct bt_spec_group *spec,
		 bool prune, char **why);

void bt_op_free(struct bt_op *op);

#endif
