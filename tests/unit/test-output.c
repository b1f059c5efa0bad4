/*
 * show's output for the seed documentation's second tree (root with
 * use_hierarchy=1): the table and the pairs as drawn by hand in
 * blkiotree-show(8), and the same tree in the JSON document; and top's
 * measured columns and fields beside them.
 */
#include "config.h"

#include <json.h>
#include <stdlib.h>

#include "measure.h"
#include "output.h"
#include "render.h"
#include "tap.h"
#include "tasks.h"

static struct bt_tree *seed_tree(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *grp1;
	struct bt_task tsk1 = { .pid = 200, .comm = "tsk1" };
	struct bt_task tsk2 = { .pid = 201, .comm = "tsk2" };

	bt_ioprio_resolve(0, 0, 0, &tsk1);
	bt_ioprio_resolve(0, 0, 0, &tsk2);
	tree->root->use_hierarchy = 1;
	grp1 = bt_group_add(tree->root, "grp1");
	bt_group_add(tree->root, "grp2");
	bt_group_add(grp1, "grp3");
	bt_group_add_task(tree->root, &tsk1);
	bt_group_add_task(grp1, &tsk2);
	return tree;
}

static const struct bt_blockdev devices[] = {
	{ .name = "nullb0", .major = 252, .minor = 0, .scheduler = "bfq" },
	{ .name = "sda", .major = 8, .minor = 0, .scheduler = "cfq" },
};

static void test_table(const struct bt_show *show)
{
	struct bt_show_format format = { .ascii = true };
	char *text = render(show, &format);

	is_str(text,
	       "NAME TYPE PID WEIGHT SHARE IOPRIO HIER\n"
	       "pivot pivot 100.00%\n"
	       "`-/ group 1000 100.00% 1\n"
	       " |-/grp1 group 500 33.69% 1\n"
	       " | |-/grp1/grp3 group 500 17.12% 1\n"
	       " | `-tsk2 task 201 484 16.57% be/4 (nice)\n"
	       " |-/grp2 group 500 33.69% 1\n"
	       " `-tsk1 task 200 484 32.61% be/4 (nice)\n"
	       "\n"
	       "DEVICE MAJ:MIN SCHEDULER WEIGHTS\n"
	       "nullb0 252:0 bfq no effect: active scheduler is bfq, not cfq (bfq reads blkio.bfq.weight)\n"
	       "sda 8:0 cfq effective\n",
	       "seed tree 2 as a table");
	free(text);
}

static void is_entity(struct json_object *obj, const char *name, double share,
		      const char *what)
{
	is_str(obj ? json_object_get_string(at(obj, "name")) : NULL, name,
	       "json %s: name", what);
	is_share(obj ? json_object_get_double(at(obj, "share")) : -1, share,
		 "json %s: share", what);
}

static void test_json(const struct bt_show *show)
{
	struct bt_show_format format = { .json = true };
	char *text = render(show, &format);
	struct json_object *doc = json_tokener_parse(text);
	struct json_object *tree = at(doc, "tree"), *root, *grp1;

	ok(doc != NULL, "JSON output parses");
	ok(strstr(text, "\"share\": 33.69") != NULL,
	   "shares printed with two decimals");
	is_str(json_object_get_string(at(doc, "hierarchy")), "/cg", "hierarchy");
	ok(json_object_get_boolean(at(doc, "cfq_policy")), "cfq_policy true");
	ok(json_object_get_boolean(at(doc, "hierarchical_mode")),
	   "hierarchical_mode true");
	is_entity(tree, "pivot", 100, "pivot");
	is_int(json_object_array_length(at(tree, "children")), 1,
	       "json: one entity on the pivot");
	root = kid(tree, 0);
	is_entity(root, "/", 100, "root");
	is_int(json_object_get_int(at(root, "use_hierarchy")), 1,
	       "json root use_hierarchy");
	grp1 = kid(root, 0);
	is_entity(grp1, "/grp1", 33.69, "grp1");
	is_int(json_object_get_int(at(grp1, "weight")), 500, "json grp1 weight");
	is_entity(kid(grp1, 0), "/grp1/grp3", 17.12, "grp3");
	is_entity(kid(grp1, 1), "tsk2", 16.57, "tsk2");
	is_int(json_object_get_int(at(kid(grp1, 1), "pid")), 201, "json tsk2 pid");
	is_str(json_object_get_string(at(at(kid(grp1, 1), "ioprio"), "class")),
	       "be", "json tsk2 ioprio class");
	is_entity(kid(root, 1), "/grp2", 33.69, "grp2");
	is_entity(kid(root, 2), "tsk1", 32.61, "tsk1");
	ok(!at(kid(root, 1), "children"), "json: no children key on a leaf");
	is_int(json_object_array_length(at(doc, "devices")), 2, "json devices");
	ok(!json_object_get_boolean(at(json_object_array_get_idx(
		at(doc, "devices"), 0), "weights_effective")),
	   "json: weights not effective under bfq");
	json_object_put(doc);
	free(text);
}

/* sda (cfq) has a debugfs tree that disagrees once; nullb0 (bfq) none. */
static void test_kernel_tree(const struct bt_show *seed)
{
	char *diff = "group /grp1: the kernel schedules it in the pivot "
		     "tree, blkiotree's model in /";
	const struct bt_kernel_check checks[] = {
		{ .read = false },
		{ .read = true, .diffs = &diff, .ndiffs = 1 },
	};
	struct bt_show show = *seed;
	struct bt_show_format format = { .json = true };
	struct json_object *doc, *sda;
	char *text, *warnings = NULL;
	size_t len = 0;
	FILE *err;

	show.kernel = checks;
	text = render(&show, &format);
	doc = json_tokener_parse(text);
	ok(at(json_object_array_get_idx(at(doc, "devices"), 0), "kernel_tree")
	   == NULL, "json: kernel_tree null without a debugfs tree");
	sda = at(json_object_array_get_idx(at(doc, "devices"), 1), "kernel_tree");
	ok(sda && !json_object_get_boolean(at(sda, "agrees")),
	   "json: sda's kernel tree does not agree");
	is_str(json_object_get_string(json_object_array_get_idx(
		at(sda, "disagreements"), 0)), diff, "json: the disagreement");
	json_object_put(doc);
	free(text);

	err = open_memstream(&warnings, &len);
	bt_output_warnings(err, &show);
	fclose(err);
	ok(strstr(warnings, "blkiotree: warning: sda: group /grp1: the kernel "
			    "schedules it in the pivot tree") != NULL,
	   "a warning names the device and the disagreement");
	free(warnings);
}

/* blkiotree-show(8)'s example of -P -o, on a machine with sda alone */
static void test_pairs(const struct bt_show *seed)
{
	struct bt_show_format format = { .pairs = true };
	struct bt_show show = *seed;
	char *why = bt_output_parse_columns("NAME,PARENT,SHARE", &format);
	char *text;

	ok(!why, "-o NAME,PARENT,SHARE parses");
	free(why);
	show.devices = &devices[1];
	show.ndevices = 1;
	text = render(&show, &format);
	is_str(text,
	       "NAME=\"pivot\" PARENT=\"\" SHARE=\"100.00%\"\n"
	       "NAME=\"/\" PARENT=\"pivot\" SHARE=\"100.00%\"\n"
	       "NAME=\"/grp1\" PARENT=\"/\" SHARE=\"33.69%\"\n"
	       "NAME=\"/grp1/grp3\" PARENT=\"/grp1\" SHARE=\"17.12%\"\n"
	       "NAME=\"tsk2\" PARENT=\"/grp1\" SHARE=\"16.57%\"\n"
	       "NAME=\"/grp2\" PARENT=\"/\" SHARE=\"33.69%\"\n"
	       "NAME=\"tsk1\" PARENT=\"/\" SHARE=\"32.61%\"\n"
	       "\n"
	       "DEVICE=\"sda\" MAJ:MIN=\"8:0\" SCHEDULER=\"cfq\" "
	       "WEIGHTS=\"effective\"\n",
	       "seed tree 2 as the man page's -P -o NAME,PARENT,SHARE");
	free(text);
}

static void test_focus(struct bt_show *show, const struct bt_tree *tree)
{
	struct bt_show_format format = { .ascii = true, .noheadings = true };
	char *text;

	show->focus = bt_group_find(tree, "grp2");
	show->ndevices = 0;
	text = render(show, &format);
	is_str(text,
	       "pivot pivot 100.00%\n"
	       "`-/ group 1000 100.00% 1\n"
	       " `-/grp2 group 500 33.69% 1\n",
	       "show grp2: the group and the entities above it");
	free(text);
}

/*
 * RT and IDLE tasks, flat: Root 1000, batch 500, db 500 -> 50 / 25 / 25;
 * in db the rt/4 reader gets all of db's 25 %, the be/4 one 0; in batch
 * the be/4 reader gets all, the idle one 0.  The table and the JSON
 * document give the same shares, worked out here by hand.
 */
static void test_classes(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *batch = bt_group_add(tree->root, "batch");
	struct bt_group *db = bt_group_add(tree->root, "db");
	struct bt_task scan = task_ioprio(310, "scan", BT_IOCLASS_BE, 4);
	struct bt_task idler = task_ioprio(311, "idler", BT_IOCLASS_IDLE, 0);
	struct bt_task rtread = task_ioprio(320, "rtread", BT_IOCLASS_RT, 4);
	struct bt_task bulk = task_ioprio(321, "bulk", BT_IOCLASS_BE, 4);
	struct bt_show show = { .mount = "/cg", .cfq_policy = true };
	struct bt_show_format table = { .ascii = true, .noheadings = true };
	struct bt_show_format json = { .json = true };
	struct json_object *doc, *tree_json;
	struct bt_entity *sched;
	char *text;

	bt_group_add_task(batch, &scan);
	bt_group_add_task(batch, &idler);
	bt_group_add_task(db, &rtread);
	bt_group_add_task(db, &bulk);
	sched = bt_sched_build(tree, false, 0, 0);
	show.sched = sched;

	text = render(&show, &table);
	is_str(text,
	       "pivot pivot 100.00%\n"
	       "|-/ group 1000 50.00% 0\n"
	       "|-/batch group 500 25.00% 0\n"
	       "| |-scan task 310 484 25.00% be/4\n"
	       "| `-idler task 311 100 0.00% idle/7\n"
	       "`-/db group 500 25.00% 0\n"
	       " |-rtread task 320 484 25.00% rt/4\n"
	       " `-bulk task 321 484 0.00% be/4\n",
	       "classes: RT before BE before IDLE in the table");
	free(text);

	text = render(&show, &json);
	doc = json_tokener_parse(text);
	tree_json = at(doc, "tree");
	is_entity(kid(tree_json, 0), "/", 50, "classes: root");
	is_entity(kid(tree_json, 1), "/batch", 25, "classes: batch");
	is_entity(kid(kid(tree_json, 1), 0), "scan", 25, "classes: be/4 scan");
	is_entity(kid(kid(tree_json, 1), 1), "idler", 0, "classes: idle idler");
	is_entity(kid(tree_json, 2), "/db", 25, "classes: db");
	is_entity(kid(kid(tree_json, 2), 0), "rtread", 25, "classes: rt/4 rtread");
	is_entity(kid(kid(tree_json, 2), 1), "bulk", 0, "classes: be/4 bulk");
	is_str(json_object_get_string(at(at(kid(kid(tree_json, 2), 0), "ioprio"),
					 "class")), "rt", "classes: json rt class");
	json_object_put(doc);
	free(text);
	bt_sched_free(sched);
	bt_tree_free(tree);
}

static struct bt_reading reading(uint64_t value)
{
	return (struct bt_reading){ .valid = true, .value = value };
}

/*
 * top over the seed tree: the groups' counters grow by 300 (root), 200
 * (grp1) and 500 (grp2), grp3's could not be read; tsk1 moved 300 bytes,
 * tsk2 100.
 */
static void test_measured(const struct bt_tree *tree)
{
	static const char *const paths[] = { "", "grp1", "grp2" };
	static const uint64_t grown[] = { 300, 200, 500 };
	struct bt_entity *sched = bt_sched_build(tree, false, 0, 0);
	struct bt_show show = cfq_show(sched);
	struct bt_show_format table = { .ascii = true, .noheadings = true };
	struct bt_show_format json = { .json = true };
	struct bt_sample before = { 0 }, after = { 0 };
	struct json_object *doc, *root, *grp1;
	struct bt_measure *measures;
	char *text;

	for (size_t i = 0; i < 3; i++) {
		bt_sample_add_group(&before, paths[i], reading(0), reading(0));
		bt_sample_add_group(&after, paths[i], reading(grown[i]),
				    reading(grown[i]));
	}
	bt_sample_add_group(&after, "grp1/grp3", (struct bt_reading){ 0 },
			    (struct bt_reading){ 0 });
	bt_sample_add_task(&after, 200, reading(300));
	bt_sample_add_task(&after, 201, reading(100));
	measures = bt_measure_tree(sched, &before, &after);
	show.interval_ms = 1000;

	text = render(&show, &table);
	is_str(text,
	       "pivot pivot 100.00% 100.00% 100.00%\n"
	       "`-/ group 1000 100.00% 100.00% 100.00% 1\n"
	       " |-/grp1 group 500 33.69% 20.00% 20.00% 1\n"
	       " | |-/grp1/grp3 group 500 17.12% - - 1\n"
	       " | `-tsk2 task 201 484 16.57% 25.00% be/4 (nice)\n"
	       " |-/grp2 group 500 33.69% 50.00% 50.00% 1\n"
	       " `-tsk1 task 200 484 32.61% 75.00% be/4 (nice)\n",
	       "top: TIME and BYTES beside SHARE, - for no data");
	free(text);

	text = render(&show, &json);
	doc = json_tokener_parse(text);
	is_int(json_object_get_int(at(doc, "interval_ms")), 1000,
	       "top json: interval_ms");
	root = kid(at(doc, "tree"), 0);
	is_int(json_object_get_int(at(root, "time_ms")), 1000,
	       "top json: the root's time_ms covers the groups inside it");
	grp1 = kid(root, 0);
	is_share(json_object_get_double(at(grp1, "time_share")), 20,
		 "top json: grp1's time_share");
	is_share(json_object_get_double(at(grp1, "bytes_share")), 20,
		 "top json: grp1's bytes_share");
	ok(json_object_object_get_ex(kid(grp1, 0), "time_ms", NULL) &&
	   !at(kid(grp1, 0), "time_ms") && !at(kid(grp1, 0), "bytes_share"),
	   "top json: null for no data");
	ok(!json_object_object_get_ex(kid(grp1, 1), "time_ms", NULL),
	   "top json: no time_ms for a task");
	is_int(json_object_get_int(at(kid(grp1, 1), "bytes")), 100,
	       "top json: a task's bytes");
	is_share(json_object_get_double(at(kid(grp1, 1), "bytes_share")), 25,
		 "top json: a task's bytes_share");
	json_object_put(doc);
	free(text);

	show.interval_ms = 0;
	text = render(&show, &table);
	ok(!strstr(text, "20.00%"), "show: no measured columns");
	free(text);
	free(measures);
	bt_sample_free(&before);
	bt_sample_free(&after);
	bt_sched_free(sched);
}

/* get: the values alone, one per line, in the form set takes them */
static void test_get(const struct bt_tree *tree)
{
	struct bt_group *grp1 = bt_group_find(tree, "grp1");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	bt_output_key(f, grp1, BT_KEY_WEIGHT_DEVICE);
	fflush(f);
	is_str(text, "", "get: no device weights print nothing");
	bt_group_set_devweight(grp1, 8, 16, 300);
	bt_group_set_devweight(grp1, 8, 0, 200);
	bt_output_key(f, grp1, BT_KEY_WEIGHT);
	bt_output_key(f, grp1, BT_KEY_USE_HIERARCHY);
	bt_output_key(f, grp1, BT_KEY_WEIGHT_DEVICE);
	fclose(f);
	is_str(text, "500\n1\n8:16:300\n8:0:200\n",
	       "get: weight, use_hierarchy, a MAJ:MIN:W line per device");
	free(text);
	bt_group_set_devweight(grp1, 8, 16, 0);
	bt_group_set_devweight(grp1, 8, 0, 0);
}

int main(void)
{
	struct bt_tree *tree = seed_tree();
	struct bt_entity *sched = bt_sched_build(tree, false, 0, 0);
	struct bt_show show = cfq_show(sched);

	show.devices = devices;
	show.ndevices = 2;
	test_table(&show);
	test_json(&show);
	test_kernel_tree(&show);
	test_pairs(&show);
	test_focus(&show, tree);
	test_classes();
	test_measured(tree);
	test_get(tree);
	bt_sched_free(sched);
	bt_tree_free(tree);
	return tap_done();
}
