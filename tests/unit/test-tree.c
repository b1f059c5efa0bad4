/*
 * The model and the share arithmetic, on the three trees of the seed
 * documentation (blkio-controller.txt, "Hierarchical Cgroups") and a few
 * more.  Expected shares are worked out by hand in the comments.
 */
#include "config.h"

#include <stdlib.h>

#include "tap.h"
#include "tree.h"

static struct bt_task task(pid_t pid, const char *comm, int nice)
{
	struct bt_task t = { .pid = pid };

	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	bt_ioprio_resolve(0, nice, 0, &t);
	return t;
}

/*
 *        Root
 *      /  |   \
 *   Grp1 Grp2 tsk1
 *   /  \
 * Grp3 tsk2
 */
static struct bt_tree *seed_tree(int root_uh, int grp1_uh, int grp3_uh)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *grp1, *grp3;
	struct bt_task tsk1 = task(100, "tsk1", 0), tsk2 = task(200, "tsk2", 0);

	tree->root->use_hierarchy = root_uh;
	grp1 = bt_group_add(tree->root, "Grp1");
	bt_group_add(tree->root, "Grp2");
	grp1->use_hierarchy |= grp1_uh;
	grp3 = bt_group_add(grp1, "Grp3");
	grp3->use_hierarchy |= grp3_uh;
	bt_group_add_task(tree->root, &tsk1);
	bt_group_add_task(grp1, &tsk2);
	return tree;
}

static const struct bt_entity *child(const struct bt_entity *e, size_t i)
{
	return i < e->nchildren ? e->children[i] : NULL;
}

static const char *label(const struct bt_entity *e)
{
	if (!e)
		return "(none)";
	if (e->type == BT_ENTITY_TASK)
		return e->task->comm;
	if (e->type == BT_ENTITY_GROUP)
		return *e->group->path ? e->group->path : "Root";
	return "pivot";
}

static void test_flat(void)
{
	struct bt_tree *tree = seed_tree(0, 0, 0);
	struct bt_entity *pivot = bt_sched_build(tree, false, 0, 0);
	const struct bt_entity *root = child(pivot, 0);

	/* pivot: Root 1000, Grp1 500, Grp2 500, Grp3 500 -> 40/20/20/20 */
	is_int(pivot->nchildren, 4, "flat: four groups on the pivot tree");
	is_str(label(child(pivot, 0)), "Root", "flat: Root first");
	is_str(label(child(pivot, 1)), "Grp1", "flat: then Grp1");
	is_str(label(child(pivot, 2)), "Grp2", "flat: then Grp2");
	is_str(label(child(pivot, 3)), "Grp1/Grp3", "flat: then Grp3");
	is_share(root->share, 40.0, "flat: Root 40%%");
	for (size_t i = 1; i < 4; i++)
		is_share(child(pivot, i)->share, 20.0, "flat: %s 20%%",
			 label(child(pivot, i)));
	is_int(root->nchildren, 1, "flat: tsk1 alone under Root");
	is_share(child(root, 0)->share, 40.0, "flat: tsk1 gets Root's 40%%");
	is_int(child(root, 0)->weight, 484, "flat: default task weight 484");
	is_str(label(child(child(pivot, 1), 0)), "tsk2", "flat: tsk2 under Grp1");
	is_share(child(child(pivot, 1), 0)->share, 20.0,
		 "flat: tsk2 gets Grp1's 20%%");
	is_int(child(pivot, 3)->nchildren, 0, "flat: Grp3 has no entities");
	bt_sched_free(pivot);
	bt_tree_free(tree);
}

static void test_root_hierarchical(void)
{
	struct bt_tree *tree = seed_tree(1, 0, 0);
	struct bt_entity *pivot = bt_sched_build(tree, false, 0, 0);
	const struct bt_entity *root = child(pivot, 0), *grp1;

	is_int(tree->root->children[0]->use_hierarchy, 1,
	       "children of a hierarchical root inherit use_hierarchy=1");
	is_int(pivot->nchildren, 1, "root uh=1: only Root on the pivot tree");
	is_share(root->share, 100.0, "root uh=1: Root 100%%");
	/* Root: Grp1 500, Grp2 500, tsk1 484 of 1484 */
	is_int(root->nchildren, 3, "root uh=1: Grp1, Grp2, tsk1 under Root");
	grp1 = child(root, 0);
	is_str(label(grp1), "Grp1", "root uh=1: Grp1 first");
	is_str(label(child(root, 1)), "Grp2", "root uh=1: Grp2 second");
	is_str(label(child(root, 2)), "tsk1", "root uh=1: tsk1 last");
	is_share(grp1->share, 100.0 * 500 / 1484, "root uh=1: Grp1 500/1484");
	is_share(child(root, 1)->share, 100.0 * 500 / 1484,
		 "root uh=1: Grp2 500/1484");
	is_share(child(root, 2)->share, 100.0 * 484 / 1484,
		 "root uh=1: tsk1 484/1484");
	is_share(grp1->share, 33.69, "root uh=1: Grp1 33.69%%");
	is_share(child(root, 2)->share, 32.61, "root uh=1: tsk1 32.61%%");
	/* Grp1: Grp3 500, tsk2 484 of Grp1's share */
	is_int(grp1->nchildren, 2, "root uh=1: Grp3 and tsk2 under Grp1");
	is_str(label(child(grp1, 0)), "Grp1/Grp3", "root uh=1: Grp3 first");
	is_str(label(child(grp1, 1)), "tsk2", "root uh=1: then tsk2");
	is_share(child(grp1, 0)->share, grp1->share * 500 / 984,
		 "root uh=1: Grp3 500/984 of Grp1");
	is_share(child(grp1, 1)->share, grp1->share * 484 / 984,
		 "root uh=1: tsk2 484/984 of Grp1");
	is_share(child(grp1, 0)->share, 17.12, "root uh=1: Grp3 17.12%%");
	is_share(child(grp1, 1)->share, 16.57, "root uh=1: tsk2 16.57%%");
	bt_sched_free(pivot);
	bt_tree_free(tree);
}

static void test_grp1_grp3_hierarchical(void)
{
	struct bt_tree *tree = seed_tree(0, 1, 1);
	struct bt_entity *pivot = bt_sched_build(tree, false, 0, 0);
	const struct bt_entity *grp1 = child(pivot, 1);

	/* pivot: Root 1000, Grp1 500, Grp2 500 -> 50/25/25 */
	is_int(pivot->nchildren, 3, "grp1+grp3 uh=1: Root, Grp1, Grp2 on pivot");
	is_str(label(child(pivot, 0)), "Root", "grp1+grp3: Root first");
	is_str(label(grp1), "Grp1", "grp1+grp3: Grp1 second");
	is_str(label(child(pivot, 2)), "Grp2", "grp1+grp3: Grp2 third");
	is_share(child(pivot, 0)->share, 50.0, "grp1+grp3: Root 50%%");
	is_share(grp1->share, 25.0, "grp1+grp3: Grp1 25%%");
	is_share(child(pivot, 2)->share, 25.0, "grp1+grp3: Grp2 25%%");
	is_str(label(child(child(pivot, 0), 0)), "tsk1",
	       "grp1+grp3: tsk1 stays under Root");
	is_share(child(child(pivot, 0), 0)->share, 50.0,
		 "grp1+grp3: tsk1 50%%");
	is_str(label(child(grp1, 0)), "Grp1/Grp3", "grp1+grp3: Grp3 under Grp1");
	is_str(label(child(grp1, 1)), "tsk2", "grp1+grp3: tsk2 under Grp1");
	is_share(child(grp1, 0)->share, 25.0 * 500 / 984,
		 "grp1+grp3: Grp3 12.70%%");
	is_share(child(grp1, 1)->share, 25.0 * 484 / 984,
		 "grp1+grp3: tsk2 12.30%%");
	bt_sched_free(pivot);
	bt_tree_free(tree);
}

static void test_weights(void)
{
	static const unsigned table[] = { 1000, 868, 740, 612, 484, 356, 228, 100 };
	struct bt_task t;

	for (unsigned level = 0; level < 8; level++)
		is_int(bt_ioprio_weight(level), table[level],
		       "prio %u -> weight %u", level, table[level]);

	bt_ioprio_resolve(0, 0, 0, &t);
	ok(t.from_nice && t.ioclass == BT_IOCLASS_BE && t.level == 4,
	   "no ionice, nice 0 -> be/4 from nice");
	bt_ioprio_resolve(0, -20, 0, &t);
	is_int(t.level, 0, "nice -20 -> level 0");
	bt_ioprio_resolve(0, 19, 0, &t);
	is_int(t.level, 7, "nice 19 -> level 7");
	bt_ioprio_resolve(0, 5, 0, &t);
	is_int(t.level, 5, "nice 5 -> level (5+20)/5 = 5");
	bt_ioprio_resolve(0, 0, 1, &t);
	ok(t.ioclass == BT_IOCLASS_RT, "SCHED_FIFO without ionice -> rt class");
	bt_ioprio_resolve((2 << 13) | 6, 0, 0, &t);
	ok(!t.from_nice && t.ioclass == BT_IOCLASS_BE && t.level == 6,
	   "ionice -c2 -n6 -> be/6");
	bt_ioprio_resolve(3 << 13, 0, 0, &t);
	ok(t.ioclass == BT_IOCLASS_IDLE && t.level == 7,
	   "ionice -c3 -> idle at level 7");
}

static void test_device_weights(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a = bt_group_add(tree->root, "a");
	struct bt_group *b = bt_group_add(tree->root, "b");
	struct bt_entity *pivot;

	a->weight = 100;
	b->weight = 100;
	bt_group_set_devweight(a, 8, 16, 800);
	pivot = bt_sched_build(tree, true, 8, 16);
	/* root 1000, a 800 (device weight), b 100 */
	is_share(child(pivot, 1)->share, 100.0 * 800 / 1900,
		 "weight_device replaces the weight on its device");
	bt_sched_free(pivot);
	pivot = bt_sched_build(tree, true, 8, 0);
	is_share(child(pivot, 1)->share, 100.0 * 100 / 1200,
		 "other devices keep blkio.weight");
	bt_sched_free(pivot);
	bt_group_set_devweight(a, 8, 16, 0);
	is_int(bt_group_devweight(a, 8, 16), 0, "device weight 0 removes it");
	bt_tree_free(tree);
}

static void test_model(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a = bt_group_add(tree->root, "a");
	struct bt_group *ab = bt_group_add(a, "b");
	struct bt_task t = task(7, "x", 0);
	const char *why = NULL;
	char *path;

	bt_group_add(tree->root, "0first");
	is_str(tree->root->children[0]->name, "0first", "children sorted by name");
	ok(bt_group_find(tree, "a/b") == ab, "find a/b");
	ok(bt_group_find(tree, "") == tree->root, "\"\" is the root");
	ok(!bt_group_find(tree, "a/c"), "a/c does not exist");
	path = bt_path_normalize("//a//b/", &why);
	is_str(path, "a/b", "normalize //a//b/");
	free(path);
	path = bt_path_normalize("/", &why);
	is_str(path, "", "normalize / to the root");
	free(path);
	ok(!bt_path_normalize("a/../b", &why) && why, "refuse ..");
	bt_group_add_task(ab, &t);
	ok(bt_tree_find_task(tree, 7) == ab, "task found in a/b");
	bt_group_remove(a);
	ok(bt_tree_find_task(tree, 7) == tree->root,
	   "removing a group moves its tasks to the parent");
	ok(!bt_group_find(tree, "a"), "a is gone");
	bt_tree_keep_tasks(tree, (pid_t[]){ 8 }, 1);
	ok(!bt_tree_find_task(tree, 7), "keep_tasks drops the others");
	bt_tree_free(tree);
}

/*
 * A running tree: only tsk1 (Root) and tsk2 (Grp1) are busy.
 * Flat: Root 1000 and Grp1 500 busy on the pivot, Grp2 and Grp3 idle:
 * Root 1000/1500 = 66.67 %, Grp1 33.33 %.  Grp1 and Grp3 hierarchical:
 * pivot Root 1000, Grp1 500 (tsk2 below), Grp2 idle -> 66.67 / 33.33;
 * in Grp1 only tsk2 is busy, so it gets all 33.33 %, Grp3 0.
 */
static void test_only_tasks_busy(void)
{
	struct bt_tree *tree = seed_tree(0, 0, 0);
	struct bt_entity *pivot = bt_sched_build(tree, false, 0, 0);

	bt_sched_only_tasks_busy(pivot);
	is_share(child(pivot, 0)->share, 100.0 * 1000 / 1500,
		 "busy only, flat: Root 1000/1500");
	is_share(child(child(pivot, 0), 0)->share, 100.0 * 1000 / 1500,
		 "busy only, flat: tsk1 gets Root's share");
	is_share(child(pivot, 1)->share, 100.0 * 500 / 1500,
		 "busy only, flat: Grp1 500/1500");
	is_share(child(pivot, 2)->share, 0.0, "busy only, flat: idle Grp2 0");
	is_share(child(pivot, 3)->share, 0.0, "busy only, flat: idle Grp3 0");
	bt_sched_free(pivot);
	bt_tree_free(tree);

	tree = seed_tree(0, 1, 1);
	pivot = bt_sched_build(tree, false, 0, 0);
	bt_sched_only_tasks_busy(pivot);
	is_str(label(child(pivot, 1)), "Grp1", "busy only, hier: Grp1 on pivot");
	is_share(child(pivot, 1)->share, 100.0 * 500 / 1500,
		 "busy only, hier: Grp1 busy through tsk2 500/1500");
	is_str(label(child(child(pivot, 1), 0)), "Grp1/Grp3",
	       "busy only, hier: Grp3 inside Grp1");
	is_share(child(child(pivot, 1), 0)->share, 0.0,
		 "busy only, hier: idle Grp3 0");
	is_share(child(child(pivot, 1), 1)->share, 100.0 * 500 / 1500,
		 "busy only, hier: tsk2 gets all of Grp1");
	bt_sched_free(pivot);
	bt_tree_free(tree);
}

int main(void)
{
	test_flat();
	test_only_tasks_busy();
	test_root_hierarchical();
	test_grp1_grp3_hierarchical();
	test_weights();
	test_device_weights();
	test_model();
	return tap_done();
}
