/*
 * Plans: steps in an order the rules allow, refusals that leave no step
 * to write, apply's idempotence (a second plan writes nothing) and what
 * apply --prune deletes.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "plan.h"
#include "tap.h"

static const struct bt_env env = { .mount = "/cg", .cfq_policy = true,
				   .hierarchy = true };

static char *steps(const struct bt_plan *plan)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (size_t i = 0; i < plan->nops; i++) {
		char *s;

		if (plan->ops[i].noop)
			continue;
		s = bt_op_describe(&plan->ops[i]);
		fprintf(f, "%s;", s);
		free(s);
	}
	fclose(f);
	return text;
}

static void test_create(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_plan plan;
	char *why = NULL, *text;

	bt_plan_init(&plan);
	is_int(bt_plan_create(&plan, tree, &env, "a/b/c", "800", true, &why), 0,
	       "create a/b/c with parents");
	text = steps(&plan);
	is_str(text, "create /a;create /a/b;create /a/b/c;"
	       "set /a/b/c use_hierarchy=1;set /a/b/c weight=800;",
	       "parents first, use_hierarchy right after the group");
	free(text);
	is_int(bt_group_find(tree, "a/b/c")->weight, 800, "model has the weight");
	is_int(bt_plan_create(&plan, tree, &env, "a/b/c/d", NULL, false, &why),
	       0, "create below a hierarchical group");
	is_int(bt_group_find(tree, "a/b/c/d")->use_hierarchy, 1,
	       "the new child inherits use_hierarchy=1");
	is_int(bt_plan_create(&plan, tree, &env, "a", NULL, false, &why), EEXIST,
	       "create an existing group: EEXIST");
	is_str(why, "create /a: group already exists (EEXIST)",
	       "refusal reads \"what: why\"");
	free(why);
	why = NULL;
	bt_plan_free(&plan);

	bt_plan_init(&plan);
	is_int(bt_plan_create(&plan, tree, &env, "z", "5", false, &why), ERANGE,
	       "create --weight 5: ERANGE");
	free(why);
	bt_plan_free(&plan);
	bt_tree_free(tree);
}

static void test_set_all_or_nothing(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a = bt_group_add(tree->root, "a");
	struct bt_plan plan;
	struct bt_op weight = { .type = BT_OP_SET, .path = "a",
				.key = BT_KEY_WEIGHT, .value = "700" };
	struct bt_op bad = { .type = BT_OP_SET, .path = "a",
			     .key = BT_KEY_WEIGHT, .value = "7000" };
	char *why = NULL;

	bt_group_add(a, "kid");
	bt_plan_init(&plan);
	is_int(bt_plan_add(&plan, tree, &env, &weight, &why), 0,
	       "first value allowed");
	is_int(bt_plan_add(&plan, tree, &env, &bad, &why), ERANGE,
	       "second value refused");
	is_int(plan.nops, 1, "the refused step is not in the plan");
	is_int(plan.undo[0].number, 500, "undo keeps the old weight");
	free(why);
	bt_plan_free(&plan);
	bt_tree_free(tree);
}

/* The seed's third tree as a spec: Grp1 and Grp3 hierarchical. */
static struct bt_spec_group *seed_spec(void)
{
	static const char text[] =
		"{ \"groups\": ["
		"  { \"name\": \"Grp1\", \"use_hierarchy\": 1, \"weight\": 600,"
		"    \"groups\": [ { \"name\": \"Grp3\", \"use_hierarchy\": true } ] },"
		"  { \"name\": \"Grp2\" } ] }";
	char *why = NULL;
	struct bt_spec_group *spec = bt_spec_parse(text, sizeof(text) - 1, &why);

	ok(spec != NULL, "seed spec parses");
	free(why);
	return spec;
}

static void test_spec(void)
{
	struct bt_spec_group *spec = seed_spec();
	struct bt_tree *tree = bt_tree_new();
	struct bt_plan plan;
	char *why = NULL, *text;

	bt_plan_init(&plan);
	is_int(bt_plan_spec(&plan, tree, &env, spec, false, &why), 0,
	       "apply to an empty hierarchy");
	text = steps(&plan);
	is_str(text, "create /Grp1;set /Grp1 use_hierarchy=1;set /Grp1 weight=600;"
	       "create /Grp1/Grp3;create /Grp2;",
	       "use_hierarchy before the child exists; inherited value not written");
	free(text);
	bt_plan_free(&plan);

	bt_plan_init(&plan);
	is_int(bt_plan_spec(&plan, tree, &env, spec, false, &why), 0,
	       "apply again to the result");
	is_int(bt_plan_writes(&plan), 0, "second apply writes nothing");
	bt_plan_free(&plan);
	bt_tree_free(tree);

	/* existing Grp1 with a child but flat: use_hierarchy cannot change */
	tree = bt_tree_new();
	bt_group_add(bt_group_add(tree->root, "Grp1"), "other");
	bt_plan_init(&plan);
	is_int(bt_plan_spec(&plan, tree, &env, spec, false, &why), EBUSY,
	       "apply that needs use_hierarchy on a parent with children: EBUSY");
	ok(why && strstr(why, "/Grp1/other"), "names the child group");
	free(why);
	why = NULL;
	bt_plan_free(&plan);
	bt_tree_free(tree);

	/* hierarchical root: a child asking for 0 is refused */
	tree = bt_tree_new();
	tree->root->use_hierarchy = 1;
	spec->children[0].children[0].use_hierarchy = 0;
	bt_plan_init(&plan);
	is_int(bt_plan_spec(&plan, tree, &env, spec, false, &why), EINVAL,
	       "use_hierarchy=0 under a hierarchical parent: EINVAL");
	ok(why && strstr(why, "parent /Grp1"), "names the parent");
	free(why);
	bt_plan_free(&plan);
	bt_tree_free(tree);
	bt_spec_free(spec);
}

static void test_attach(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a = bt_group_add(tree->root, "a");
	struct bt_task t = { .pid = 9 };
	struct bt_op op = { .type = BT_OP_ATTACH, .path = "a", .pid = 9 };
	struct bt_plan plan;
	char *why = NULL;

	bt_group_add_task(tree->root, &t);
	bt_plan_init(&plan);
	is_int(bt_plan_add(&plan, tree, &env, &op, &why), 0, "attach allowed");
	ok(bt_tree_find_task(tree, 9) == a, "the model has the task in /a");
	is_int(a->ntasks + tree->root->ntasks, 1, "the task is in one group only");
	is_str(plan.undo[0].from_path, "", "undo moves it back to the root");
	is_int(bt_plan_add(&plan, tree, &env, &op, &why), 0,
	       "attach to the group it is in");
	is_int(a->ntasks, 1, "still once in /a");
	bt_plan_free(&plan);
	bt_tree_free(tree);
}

/* A process of three threads spread over groups moves whole, by any tid. */
static void test_attach_process(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a = bt_group_add(tree->root, "a");
	struct bt_group *b = bt_group_add(tree->root, "b");
	struct bt_task leader = { .pid = 20, .tgid = 20 };
	struct bt_task thread1 = { .pid = 21, .tgid = 20 };
	struct bt_task thread2 = { .pid = 22, .tgid = 20 };
	struct bt_task other = { .pid = 30, .tgid = 30 };
	struct bt_op op = { .type = BT_OP_ATTACH, .path = "b", .pid = 21 };
	struct bt_plan plan;
	char *why = NULL;

	bt_group_add_task(tree->root, &leader);
	bt_group_add_task(tree->root, &thread1);
	bt_group_add_task(a, &thread2);
	bt_group_add_task(a, &other);
	bt_plan_init(&plan);
	is_int(bt_plan_add(&plan, tree, &env, &op, &why), 0,
	       "attach by a thread ID allowed");
	is_int(b->ntasks, 3, "all three threads of the process are in /b");
	ok(bt_tree_find_task(tree, 20) == b && bt_tree_find_task(tree, 22) == b,
	   "the leader and the thread from /a moved too");
	ok(bt_tree_find_task(tree, 30) == a, "the other process stayed in /a");
	is_int(tree->root->ntasks + a->ntasks, 1, "no thread left behind twice");
	is_str(plan.undo[0].from_path, "", "undo goes to the given thread's group");
	bt_plan_free(&plan);
	bt_tree_free(tree);
}

/* --thread moves the given thread alone; its process stays where it was. */
static void test_attach_thread(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a = bt_group_add(tree->root, "a");
	struct bt_group *b = bt_group_add(tree->root, "b");
	struct bt_task leader = { .pid = 20, .tgid = 20 };
	struct bt_task thread1 = { .pid = 21, .tgid = 20 };
	struct bt_task thread2 = { .pid = 22, .tgid = 20 };
	struct bt_op op = { .type = BT_OP_ATTACH, .path = "b", .pid = 21,
			    .thread = true };
	struct bt_plan plan;
	char *why = NULL, *text;

	bt_group_add_task(tree->root, &leader);
	bt_group_add_task(a, &thread1);
	bt_group_add_task(a, &thread2);
	bt_plan_init(&plan);
	is_int(bt_plan_add(&plan, tree, &env, &op, &why), 0,
	       "attach --thread allowed");
	ok(bt_tree_find_task(tree, 21) == b, "the thread is in /b");
	is_int(b->ntasks, 1, "only that thread is in /b");
	ok(bt_tree_find_task(tree, 20) == tree->root &&
	   bt_tree_find_task(tree, 22) == a,
	   "the leader and the other thread stayed");
	is_str(plan.undo[0].from_path, "a", "undo goes to the thread's group");
	is_int(bt_plan_add(&plan, tree, &env, &op, &why), 0,
	       "attach --thread to the group it is in");
	is_int(b->ntasks, 1, "still once in /b");
	text = steps(&plan);
	is_str(text, "attach --thread /b 21;attach --thread /b 21;",
	       "the steps name --thread");
	free(text);
	bt_plan_free(&plan);
	bt_tree_free(tree);
}

/* Grp1 (hierarchical) and Grp2 with groups the seed spec does not name, and a stray one */
static struct bt_tree *prune_tree(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *grp1 = bt_group_add(tree->root, "Grp1");
	struct bt_task task = { .pid = 40, .comm = "t" };

	grp1->use_hierarchy = 1;
	bt_group_add_task(bt_group_add(bt_group_add(grp1, "old"), "older"),
			  &task);
	bt_group_add(bt_group_add(tree->root, "Grp2"), "x");
	bt_group_add(bt_group_add(tree->root, "stray"), "s1");
	return tree;
}

static void test_prune(void)
{
	static const char whole[] =
		"{ \"use_hierarchy\": 0, \"groups\": [ { \"name\": \"Grp2\" } ] }";
	struct bt_spec_group *spec = seed_spec();
	struct bt_tree *tree = prune_tree();
	struct bt_plan plan;
	char *why = NULL, *text;

	bt_plan_init(&plan);
	is_int(bt_plan_spec(&plan, tree, &env, spec, true, &why), 0,
	       "apply --prune");
	text = steps(&plan);
	is_str(text, "set /Grp1 weight=600;create /Grp1/Grp3;"
	       "delete /Grp1/old/older;delete /Grp1/old;delete /Grp2/x;",
	       "prune: unnamed groups below described ones, children first, "
	       "after the other steps");
	free(text);
	ok(bt_group_find(tree, "stray/s1") != NULL,
	   "prune: the root given by name only is a path, its other children stay");
	ok(bt_tree_find_task(tree, 40) == bt_group_find(tree, "Grp1"),
	   "prune: a task of a deleted group moves up to the kept parent");
	bt_plan_free(&plan);

	bt_plan_init(&plan);
	is_int(bt_plan_spec(&plan, tree, &env, spec, true, &why), 0,
	       "apply --prune again");
	is_int(bt_plan_writes(&plan), 0, "second apply --prune writes nothing");
	bt_plan_free(&plan);
	bt_tree_free(tree);
	bt_spec_free(spec);

	/* a root with a value is described: the whole hierarchy is the file's */
	spec = bt_spec_parse(whole, sizeof(whole) - 1, &why);
	tree = prune_tree();
	bt_plan_init(&plan);
	is_int(bt_plan_spec(&plan, tree, &env, spec, true, &why), 0,
	       "apply --prune of a described root");
	text = steps(&plan);
	is_str(text, "delete /Grp1/old/older;delete /Grp1/old;delete /Grp1;"
	       "delete /Grp2/x;delete /stray/s1;delete /stray;",
	       "prune: everything the file does not name goes");
	free(text);
	bt_plan_free(&plan);
	bt_tree_free(tree);

	/* without --prune the same file deletes nothing */
	tree = prune_tree();
	bt_plan_init(&plan);
	is_int(bt_plan_spec(&plan, tree, &env, spec, false, &why), 0,
	       "apply without --prune");
	is_int(bt_plan_writes(&plan), 0, "without --prune nothing is deleted");
	bt_plan_free(&plan);
	bt_tree_free(tree);
	bt_spec_free(spec);
}

/*
 * delete -r: one step per group, children first, each remembering what
 * it takes away so that it can be created again.
 */
static void test_delete(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a = bt_group_add(tree->root, "a"), *b;
	struct bt_task t11 = { .pid = 11 }, t12 = { .pid = 12 };
	struct bt_plan plan;
	char *why = NULL, *text;

	a->use_hierarchy = 1;
	b = bt_group_add(a, "b");
	b->weight = 200;
	bt_group_set_devweight(b, 8, 16, 300);
	bt_group_add_task(b, &t11);
	bt_group_add_task(bt_group_add(b, "c"), &t12);

	bt_plan_init(&plan);
	is_int(bt_plan_delete(&plan, tree, &env, "a", false, &why), EBUSY,
	       "delete of a group with child groups: EBUSY");
	is_str(why, "delete /a: group has child groups (/a/b); use -r to "
	       "delete them too (EBUSY)", "the refusal names them and -r");
	free(why);
	why = NULL;
	is_int(bt_plan_delete(&plan, tree, &env, "a", true, &why), 0,
	       "delete -r");
	text = steps(&plan);
	is_str(text, "delete /a/b/c;delete /a/b;delete /a;",
	       "one step per group, children first");
	free(text);
	ok(plan.undo[1].weight == 200 && plan.undo[1].use_hierarchy == 1 &&
	   plan.undo[1].ndevweights == 1 && plan.undo[1].devweights[0].weight == 300,
	   "a delete remembers the group's values");
	ok(plan.undo[1].ntids == 2 && plan.undo[1].tids[0] == 11 &&
	   plan.undo[1].tids[1] == 12,
	   "and its threads, with those of the child group deleted before it");
	ok(bt_tree_find_task(tree, 12) == tree->root,
	   "in the model the threads end in the root");
	is_int(bt_plan_delete(&plan, tree, &env, "a", true, &why), ENOENT,
	       "delete -r of a group already deleted: ENOENT");
	free(why);
	bt_plan_free(&plan);
	bt_tree_free(tree);
}

int main(void)
{
	test_create();
	test_attach();
	test_attach_process();
	test_attach_thread();
	test_set_all_or_nothing();
	test_spec();
	test_prune();
	test_delete();
	return tap_done();
}
