/*
 * The debugfs scheduling-tree parser (schedtree.c, format in
 * docs/debugfs-tree.md) on any text, and what it accepts compared with
 * a small model, as show does.  Every entity but the pivot must sit
 * under an earlier entity one level up, and a refusal must say why.
 */
#include "config.h"

#include "fuzz.h"
#include "schedtree.h"

/*
 * The model: /a (use_hierarchy=1) with /a/b, /c, and tasks 1, 2 and 3 in
 * /, /a/b and /c, so that parsed groups and queues find their match.
 */
static struct bt_entity *model(void)
{
	/* made once, for every input, and kept for the process's life */
	static struct bt_entity *sched;
	static struct bt_tree *tree;
	struct bt_group *a;

	if (sched)
		return sched;
	tree = bt_tree_new();
	a = bt_group_add(tree->root, "a");
	a->use_hierarchy = 1;
	bt_group_add_task(tree->root, &(struct bt_task){ .pid = 1,
							.comm = "one" });
	bt_group_add_task(bt_group_add(a, "b"), &(struct bt_task){ .pid = 2,
							.comm = "two" });
	bt_group_add_task(bt_group_add(tree->root, "c"),
			  &(struct bt_task){ .pid = 3, .comm = "three" });
	sched = bt_sched_build(tree, false, 0, 0);
	return sched;
}

static void check_shape(const struct bt_ktree *tree)
{
	fuzz_assert(tree->n && tree->entities[0].kind == BT_KPIVOT &&
		    tree->entities[0].parent == -1);
	for (size_t i = 1; i < tree->n; i++) {
		const struct bt_kentity *e = &tree->entities[i];

		fuzz_assert(e->parent >= 0 && (size_t)e->parent < i);
		fuzz_assert(tree->entities[e->parent].depth + 1 == e->depth);
		fuzz_assert(e->kind != BT_KPIVOT);
		fuzz_assert(e->kind != BT_KGROUP || (e->path &&
						     e->path[0] == '/'));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *why = NULL, **diffs = NULL;
	struct bt_ktree tree;
	size_t n;

	if (bt_ktree_parse(text, &tree, &why)) {
		fuzz_assert(why && tree.n == 0);
		free(why);
		free(text);
		return 0;
	}
	check_shape(&tree);
	n = bt_ktree_compare(&tree, model(), &diffs);
	for (size_t i = 0; i < n; i++)
		free(diffs[i]);
	free(diffs);
	bt_ktree_free(&tree);
	free(text);
	return 0;
}
