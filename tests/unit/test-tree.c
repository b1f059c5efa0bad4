/*
 * The model and the share arithmetic, on the three trees of the seed
 * documentation (blkio-controller.txt, "Hierarchical Cgroups") and a few
 * more.  Expected shares are worked out by hand in the comments.
 */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tasks.h"
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

/* exec --ioprio: ionice's classes and levels, and the rule each bad form breaks */
static void test_ioprio_parse(void)
{
	static const struct {
		const char *text;
		int ioprio;	/* the kernel's (class << 13) | level */
	} valid[] = {
		{ "rt", (1 << 13) | 4 }, { "rt:0", 1 << 13 },
		{ "realtime:7", (1 << 13) | 7 }, { "1:3", (1 << 13) | 3 },
		{ "be", (2 << 13) | 4 }, { "be:7", (2 << 13) | 7 },
		{ "best-effort:2", (2 << 13) | 2 }, { "2", (2 << 13) | 4 },
		{ "BE:1", (2 << 13) | 1 },
		{ "idle", 3 << 13 }, { "3", 3 << 13 },
		{ "none", 0 }, { "0", 0 },
	};
	static const struct {
		const char *text, *rule;
	} invalid[] = {
		{ "", "CLASS is" }, { "fast", "CLASS is" }, { "4", "CLASS is" },
		{ ":3", "CLASS is" }, { "r", "CLASS is" }, { "rt4", "CLASS is" },
		{ "rt:8", "LEVEL is 0-7" }, { "be:-1", "LEVEL is 0-7" },
		{ "rt:", "LEVEL is 0-7" }, { "be:x", "LEVEL is 0-7" },
		{ "be:4:1", "LEVEL is 0-7" }, { "be: 4", "LEVEL is 0-7" },
		{ "idle:7", "only for rt and be" }, { "3:0", "only for rt and be" },
		{ "none:0", "only for rt and be" },
	};
	struct bt_task t;
	const char *rule;
	int ioprio;

	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		ioprio = -1;
		rule = NULL;
		ok(bt_ioprio_parse(valid[i].text, &ioprio, &rule),
		   "ioprio \"%s\" is valid", valid[i].text);
		is_int(ioprio, valid[i].ioprio, "ioprio \"%s\" value",
		       valid[i].text);
	}
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		rule = NULL;
		ok(!bt_ioprio_parse(invalid[i].text, &ioprio, &rule) && rule &&
		   strstr(rule, invalid[i].rule),
		   "ioprio \"%s\" refused: %s", invalid[i].text,
		   invalid[i].rule);
	}
	/* what exec sets is what show reads back */
	bt_ioprio_parse("be:6", &ioprio, &rule);
	bt_ioprio_resolve(ioprio, 0, 0, &t);
	ok(t.ioclass == BT_IOCLASS_BE && t.level == 6 && !t.from_nice,
	   "be:6 reads back as be/6");
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
	char *why = NULL;
	char *path;

	bt_group_add(tree->root, "0first");
	is_str(tree->root->children[0]->name, "0first", "children sorted by name");
	ok(bt_group_find(tree, "a/b") == ab, "find a/b");
	ok(bt_group_find(tree, "") == tree->root, "\"\" is the root");
	ok(!bt_group_find(tree, "a/c"), "a/c does not exist");
	path = bt_path_normalize("/a/b/", &why);
	is_str(path, "a/b", "normalize /a/b/");
	free(path);
	path = bt_path_normalize("/", &why);
	is_str(path, "", "normalize / to the root");
	free(path);
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
/* @path is refused, with @reason_part in the one-line reason. */
static void refused_path(const char *path, const char *reason_part,
			 const char *what)
{
	char *why = NULL, *normal = bt_path_normalize(path, &why);

	ok(!normal && why && strstr(why, reason_part) && !strchr(why, '\n'),
	   "refuse %s", what);
	if (why && !strstr(why, reason_part))
		printf("#   got: %s\n", why);
	free(normal);
	free(why);
}

static void test_group_names(void)
{
	char long_name[NAME_MAX + 2];
	char *problem;

	refused_path("a/../b", "a/../b: component \"..\": \".\" and \"..\" "
		     "are not group names", "..");
	refused_path("./a", "component \".\"", ".");
	refused_path("a//b", "empty component", "an empty component");
	refused_path("//a", "empty component", "a leading //");
	refused_path("a//", "empty component", "a trailing //");
	refused_path("", "empty component", "an empty path");
	refused_path("//", "empty component", "// for the root");
	refused_path("a/b\nc", "a/b\\nc: component \"b\\nc\" has a control "
		     "character", "a newline, escaped");
	refused_path("a\tb", "component \"a\\tb\" has a control character",
		     "a tab, escaped");
	refused_path("x/\x01", "component \"\\x01\" has a control",
		     "\\x01, escaped");
	refused_path("a\x7f", "component \"a\\x7f\" has a control", "DEL");
	refused_path("a/blkio.weight", "component \"blkio.weight\" is the "
		     "name of a cgroup control file", "blkio.weight");
	refused_path("blkio.anything", "control file", "any blkio.* name");
	refused_path("cgroup.procs/a", "control file", "cgroup.procs");
	refused_path("tasks", "control file", "tasks");
	refused_path("a/notify_on_release", "control file",
		     "notify_on_release");
	refused_path("release_agent", "control file", "release_agent");

	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	refused_path(long_name, "longer than NAME_MAX", "NAME_MAX + 1 bytes");
	problem = bt_name_problem(long_name, NAME_MAX);
	ok(!problem, "NAME_MAX bytes is a name");
	free(problem);
	problem = bt_name_problem("a\0b", 3);
	ok(problem && strstr(problem, "\"a\\x00b\" has a control"),
	   "a NUL inside the length is a control character");
	free(problem);
	for (const char *const *name = (const char *const[]){ "blkio", "cgroup",
		"tasks.d", "mytasks", "blkio-a", ".hidden", "...", "caf\xc3\xa9",
		NULL }; *name; name++) {
		problem = bt_name_problem(*name, strlen(*name));
		ok(!problem, "\"%s\" is a name", *name);
		free(problem);
	}
}

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

/*
 * I/O classes (CFQ serves a group's RT entities first, BE ones when no RT
 * one waits, IDLE ones when nothing else does), flat: Root 1000, batch
 * 500, db 500 and scrub 1000 on the pivot, by weight whatever their
 * tasks' classes -> 33.33 / 16.67 / 16.67 / 33.33 %.
 *   db: an rt/4 and a be/4 reader -> the RT one all of db, the BE one 0;
 *   batch: be/4 and idle -> BE all of batch, IDLE 0;
 *   Root: rt/0 (1000), rt/7 (100) and be/0 -> 1000/1100 and 100/1100 of
 *   Root, the BE one 0 however high its level;
 *   scrub: two idle tasks and nothing else -> half of scrub each.
 */
static void test_classes_flat(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *db = bt_group_add(tree->root, "db");
	struct bt_group *batch = bt_group_add(tree->root, "batch");
	struct bt_group *scrub = bt_group_add(tree->root, "scrub");
	struct bt_task rt4 = task_ioprio(10, "rt4", BT_IOCLASS_RT, 4);
	struct bt_task be4 = task_ioprio(11, "be4", BT_IOCLASS_BE, 4);
	struct bt_task be = task(20, "be", 0);
	struct bt_task idle = task_ioprio(21, "idle", BT_IOCLASS_IDLE, 0);
	struct bt_task rt0 = task_ioprio(30, "rt0", BT_IOCLASS_RT, 0);
	struct bt_task rt7 = task_ioprio(31, "rt7", BT_IOCLASS_RT, 7);
	struct bt_task be0 = task_ioprio(32, "be0", BT_IOCLASS_BE, 0);
	struct bt_task idle1 = task_ioprio(40, "idle1", BT_IOCLASS_IDLE, 0);
	struct bt_task idle2 = task_ioprio(41, "idle2", BT_IOCLASS_IDLE, 0);
	struct bt_entity *pivot;
	const struct bt_entity *e;

	scrub->weight = 1000;
	bt_group_add_task(db, &rt4);
	bt_group_add_task(db, &be4);
	bt_group_add_task(batch, &be);
	bt_group_add_task(batch, &idle);
	bt_group_add_task(tree->root, &rt0);
	bt_group_add_task(tree->root, &rt7);
	bt_group_add_task(tree->root, &be0);
	bt_group_add_task(scrub, &idle1);
	bt_group_add_task(scrub, &idle2);
	pivot = bt_sched_build(tree, false, 0, 0);

	/* pivot: Root 1000, batch 500, db 500, scrub 1000 of 3000 */
	e = bt_sched_find_group(pivot, db);
	is_share(e->share, 100.0 * 500 / 3000, "classes: db by weight, RT or not");
	is_str(label(child(e, 0)), "rt4", "classes: db's rt/4 task");
	is_share(child(e, 0)->share, 100.0 * 500 / 3000,
		 "classes: rt/4 gets all of db");
	is_share(child(e, 1)->share, 0.0, "classes: be/4 beside rt/4 gets 0");
	e = bt_sched_find_group(pivot, batch);
	is_share(child(e, 0)->share, e->share, "classes: be gets all of batch");
	is_int(child(e, 1)->weight, 100, "classes: idle at level 7's weight");
	is_share(child(e, 1)->share, 0.0, "classes: idle beside be gets 0");
	e = bt_sched_find_group(pivot, tree->root);
	is_share(child(e, 0)->share, 100.0 * 1000 / 3000 * 1000 / 1100,
		 "classes: rt/0 1000/1100 of Root");
	is_share(child(e, 1)->share, 100.0 * 1000 / 3000 * 100 / 1100,
		 "classes: rt/7 100/1100 of Root");
	is_share(child(e, 2)->share, 0.0, "classes: be/0 beside rt gets 0");
	e = bt_sched_find_group(pivot, scrub);
	is_share(child(e, 0)->share, 100.0 * 1000 / 3000 / 2,
		 "classes: idle alone splits its group's share");
	is_share(child(e, 1)->share, 100.0 * 1000 / 3000 / 2,
		 "classes: so does the other idle task");
	bt_sched_free(pivot);
	bt_tree_free(tree);
}

/*
 * Hierarchical: a child group sits on its parent's BE tree.  Root
 * (use_hierarchy=1) holds an rt/4 task, a be/4 task, an idle task and
 * group web with a be/4 task: the RT task gets Root's 100 %, web and its
 * task 0.  Without the RT task web 500 and be/4 484 split Root and the
 * idle task still gets 0: web counts as BE.  With --busy and web's task
 * gone, web is idle and so the idle task beside it is served.
 */
static void test_classes_hierarchical(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *web;
	struct bt_task rt = task_ioprio(10, "rt", BT_IOCLASS_RT, 4);
	struct bt_task be = task(11, "be", 0);
	struct bt_task idle = task_ioprio(12, "idle", BT_IOCLASS_IDLE, 0);
	struct bt_task webbe = task(20, "webbe", 0);
	struct bt_task out;
	struct bt_entity *pivot;
	const struct bt_entity *root, *e;

	tree->root->use_hierarchy = 1;
	web = bt_group_add(tree->root, "web");
	bt_group_add_task(tree->root, &rt);
	bt_group_add_task(tree->root, &be);
	bt_group_add_task(tree->root, &idle);
	bt_group_add_task(web, &webbe);
	pivot = bt_sched_build(tree, false, 0, 0);
	root = child(pivot, 0);
	e = bt_sched_find_group(pivot, web);
	is_str(label(child(root, 1)), "rt", "hier classes: rt under Root");
	is_share(child(root, 1)->share, 100.0, "hier classes: rt gets Root's 100%%");
	is_share(e->share, 0.0, "hier classes: web beside rt gets 0");
	is_share(child(e, 0)->share, 0.0, "hier classes: web's task gets 0");
	is_share(child(root, 2)->share, 0.0, "hier classes: be beside rt gets 0");
	is_share(child(root, 3)->share, 0.0, "hier classes: idle gets 0");
	bt_sched_free(pivot);

	bt_group_take_task(tree->root, 10, &out);
	pivot = bt_sched_build(tree, false, 0, 0);
	root = child(pivot, 0);
	e = bt_sched_find_group(pivot, web);
	is_share(e->share, 100.0 * 500 / 984, "hier classes: web 500/984 of Root");
	is_share(child(e, 0)->share, 100.0 * 500 / 984,
		 "hier classes: web's task gets all of web");
	is_share(child(root, 1)->share, 100.0 * 484 / 984,
		 "hier classes: be 484/984 of Root");
	is_share(child(root, 2)->share, 0.0,
		 "hier classes: idle beside a child group gets 0");
	bt_sched_free(pivot);

	bt_group_take_task(tree->root, 11, &out);
	bt_group_take_task(web, 20, &out);
	pivot = bt_sched_build(tree, false, 0, 0);
	root = child(pivot, 0);
	is_share(child(root, 1)->share, 0.0,
		 "hier classes: idle beside an empty group, all busy: 0");
	bt_sched_only_tasks_busy(pivot);
	is_share(bt_sched_find_group(pivot, web)->share, 0.0,
		 "hier classes, busy only: web idle");
	is_share(child(root, 1)->share, 100.0,
		 "hier classes, busy only: idle served when nothing else waits");
	bt_sched_free(pivot);
	bt_tree_free(tree);
}

/* A task read without details (no class) competes as best effort. */
static void test_class_unknown(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_task unknown = { .pid = 1, .level = 4 };
	struct bt_task idle = task_ioprio(2, "idle", BT_IOCLASS_IDLE, 0);
	struct bt_entity *pivot;

	bt_group_add_task(tree->root, &unknown);
	bt_group_add_task(tree->root, &idle);
	pivot = bt_sched_build(tree, false, 0, 0);
	is_share(child(child(pivot, 0), 0)->share, 100.0,
		 "no class: served before idle, as best effort");
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
	test_ioprio_parse();
	test_device_weights();
	test_model();
	test_group_names();
	test_classes_flat();
	test_classes_hierarchical();
	test_class_unknown();
	return tap_done();
}
