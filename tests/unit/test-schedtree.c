/*
 * The reader of CFQ's debugfs scheduling tree on sample text written by
 * hand from docs/debugfs-tree.md, and its comparison with the model.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "schedtree.h"
#include "tap.h"

/* The example of docs/debugfs-tree.md: Grp1 hierarchical, Grp3 in it. */
static const char doc_example[] =
	"pivot\n"
	"  group path=/ weight=1000 vdisktime=1200 busy=1\n"
	"    queue pid=201 class=be prio=4 weight=484 vdisktime=300 busy=1 sync=1\n"
	"  group path=/Grp1 weight=500 vdisktime=1100 busy=1\n"
	"    group path=/Grp1/Grp3 weight=500 vdisktime=900 busy=1\n"
	"      queue pid=204 class=be prio=4 weight=484 vdisktime=0 busy=1 sync=1\n"
	"    queue pid=202 class=be prio=4 weight=484 vdisktime=40 busy=1 sync=1\n";

static void test_parse(void)
{
	struct bt_ktree tree;
	char *why = NULL;

	is_int(bt_ktree_parse(doc_example, &tree, &why), 0,
	       "the documented example parses");
	is_int(tree.n, 7, "seven entities");
	is_int(tree.entities[0].kind, BT_KPIVOT, "the pivot first");
	is_str(tree.entities[4].path, "/Grp1/Grp3", "a nested group's path");
	is_int(tree.entities[4].parent, 3, "Grp3 sits under Grp1");
	is_int(tree.entities[5].pid, 204, "a queue's pid");
	is_int(tree.entities[5].parent, 4, "pid 204 queued in Grp3");
	is_int(tree.entities[6].parent, 3, "pid 202 back at Grp1's level");
	ok(tree.entities[6].sync && tree.entities[3].online,
	   "sync queue, online group");
	bt_ktree_free(&tree);

	is_int(bt_ktree_parse("pivot\n  group path=/a weight=1 new=x online=0\n"
			      "    queue pid=0 class=be prio=4 sync=0 more=1\n",
			      &tree, &why), 0,
	       "unknown fields are ignored; online=0 and async queues read");
	ok(tree.n == 3 && !tree.entities[1].online && !tree.entities[2].sync &&
	   tree.entities[2].pid == 0, "removed group and async queue marked");
	bt_ktree_free(&tree);
}

static void refused(const char *text, const char *what, const char *words)
{
	struct bt_ktree tree;
	char *why = NULL;

	is_int(bt_ktree_parse(text, &tree, &why), EINVAL, "refused: %s", what);
	ok(why && strstr(why, words), "... and the reason names %s", words);
	if (why && !strstr(why, words))
		printf("#   got: %s\n", why);
	free(why);
}

static void test_refused(void)
{
	refused("", "empty text", "empty");
	refused("  group path=/ weight=1\n", "no pivot line first", "line 1");
	refused("pivot\n    group path=/a\n", "a level skipped", "line 2");
	refused("pivot\n   group path=/a\n", "odd indentation", "line 2");
	refused("pivot\n  group weight=5\n", "a group without path", "line 2");
	refused("pivot\n  group path=a\n", "a relative path", "line 2");
	refused("pivot\n  queue class=be\n", "a queue without pid", "line 2");
	refused("pivot\n  queue pid=x1\n", "a pid that is no number", "line 2");
	refused("pivot\n  disk name=x\n", "an unknown kind", "line 2");
	refused("pivot\npivot\n", "a second pivot", "line 2: \"pivot\" is a second pivot");
	/* found by fuzz-schedtree: show crashed on the queue's missing path */
	refused("pivot\n  group path=/\n    queue pid=1 sync=1\n"
		"      queue pid=3 sync=1\n", "a queue under a queue",
		"line 4: \"      queue pid=3 sync=1\" sits under a queue");
	refused("pivot\n  group path=/\n    queue pid=1 sync=1\n"
		"      group path=/a\n", "a group under a queue",
		"sits under a queue");
	refused("pivot\n  group path=/ weight\n", "a field without =", "line 2");
}

/*
 * The model: Root, Grp1 hierarchical with Grp3 inside, tasks 201 in the
 * root, 202 in Grp1, 204 in Grp3 (the doc's example).
 */
static struct bt_tree *model_tree(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *grp1 = bt_group_add(tree->root, "Grp1");
	struct bt_group *grp3;
	struct bt_task t1 = { .pid = 201, .comm = "tsk1" };
	struct bt_task t2 = { .pid = 202, .comm = "tsk2" };
	struct bt_task t4 = { .pid = 204, .comm = "tsk4" };

	grp1->use_hierarchy = 1;
	grp3 = bt_group_add(grp1, "Grp3");
	bt_group_add_task(tree->root, &t1);
	bt_group_add_task(grp1, &t2);
	bt_group_add_task(grp3, &t4);
	return tree;
}

static size_t compare_text(const char *text, const struct bt_entity *sched,
			   char ***diffs)
{
	struct bt_ktree tree;
	char *why = NULL;
	size_t n;

	*diffs = NULL;
	if (bt_ktree_parse(text, &tree, &why)) {
		printf("# sample does not parse: %s\n", why);
		free(why);
		return (size_t)-1;
	}
	n = bt_ktree_compare(&tree, sched, diffs);
	bt_ktree_free(&tree);
	return n;
}

static void free_diffs(char **diffs, size_t n)
{
	for (size_t i = 0; i < n && n != (size_t)-1; i++)
		free(diffs[i]);
	free(diffs);
}

static void test_compare(void)
{
	struct bt_tree *tree = model_tree();
	struct bt_entity *sched = bt_sched_build(tree, false, 0, 0);
	char **diffs;
	size_t n;

	n = compare_text(doc_example, sched, &diffs);
	is_int(n, 0, "the kernel agrees with the model");
	free_diffs(diffs, n);

	/* Grp3 on the pivot tree although Grp1 is hierarchical */
	n = compare_text("pivot\n"
			 "  group path=/ weight=1000\n"
			 "  group path=/Grp1 weight=500\n"
			 "    queue pid=202 sync=1\n"
			 "  group path=/Grp1/Grp3 weight=500\n"
			 "    queue pid=204 sync=1\n", sched, &diffs);
	is_int(n, 1, "a misplaced group is one disagreement");
	is_str(n == 1 ? diffs[0] : NULL,
	       "group /Grp1/Grp3: the kernel schedules it in the pivot tree, "
	       "blkiotree's model in /Grp1", "... which names both places");
	free_diffs(diffs, n);

	/* task 202's queue still in the root group (a move not seen yet) */
	n = compare_text("pivot\n"
			 "  group path=/\n"
			 "    queue pid=202 sync=1\n"
			 "    queue pid=0 sync=0\n"
			 "  group path=/Grp1\n"
			 "    group path=/Grp1/Grp3\n", sched, &diffs);
	is_int(n, 1, "a queue in another group is one disagreement");
	is_str(n == 1 ? diffs[0] : NULL,
	       "task 202 (tsk2): the kernel queues it in /, blkiotree's "
	       "model in /Grp1", "... naming the task and both groups");
	free_diffs(diffs, n);

	/* removed cgroups, unknown tasks and groups, async queues: no word */
	n = compare_text("pivot\n"
			 "  group path=/Grp1 online=0\n"
			 "    queue pid=999 sync=1\n"
			 "  group path=/gone online=0\n"
			 "  group path=/new\n"
			 "    queue pid=0 sync=0\n", sched, &diffs);
	is_int(n, 0, "removed groups, unknown tasks, async queues: no disagreement");
	free_diffs(diffs, n);

	bt_sched_free(sched);
	bt_tree_free(tree);
}

int main(void)
{
	test_parse();
	test_refused();
	test_compare();
	return tap_done();
}
