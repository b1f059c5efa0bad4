/*
 * show's -o/--output, -l/--list and -P/--pairs: the column list as the
 * command line gives it, and a small tree printed with chosen columns as
 * a list, as KEY="value" pairs, as a tree and as JSON.
 *
 * The tree: the root flat (use_hierarchy=0) at 1000, a at 500 with
 * use_hierarchy=1, a/b at 500 inside it, and task dd (be/4) in a/b.
 * Root and a are on the pivot: 1000 / 1500 = 66.67 % and 33.33 %; a/b
 * is alone in a, and dd alone in a/b, so both keep a's 33.33 %.
 */
#include "config.h"

#include <json.h>
#include <stdlib.h>

#include "output.h"
#include "render.h"
#include "tap.h"
#include "tasks.h"

/* The names of @format's columns, comma-separated, to compare. */
static char *column_names(const struct bt_show_format *format)
{
	static const char *const names[BT_NCOLUMNS] = {
		[BT_COL_NAME] = "NAME", [BT_COL_TYPE] = "TYPE",
		[BT_COL_PID] = "PID", [BT_COL_WEIGHT] = "WEIGHT",
		[BT_COL_SHARE] = "SHARE", [BT_COL_TIME] = "TIME",
		[BT_COL_BYTES] = "BYTES", [BT_COL_IOPRIO] = "IOPRIO",
		[BT_COL_HIER] = "HIER", [BT_COL_PARENT] = "PARENT",
	};
	static char text[128];

	text[0] = '\0';
	for (size_t i = 0; i < format->ncolumns; i++) {
		if (i)
			strcat(text, ",");
		strcat(text, names[format->columns[i]]);
	}
	return text;
}

/* Parse @list into a format that had NAME alone; its columns after. */
static const char *parse(const char *list, char **why)
{
	struct bt_show_format format = {
		.columns = { BT_COL_NAME }, .ncolumns = 1,
	};

	*why = bt_output_parse_columns(list, &format);
	return column_names(&format);
}

static void is_parsed(const char *list, const char *want)
{
	char *why;

	is_str(parse(list, &why), want, "-o %s: %s", list, want);
	if (why)
		printf("#   refused: %s\n", why);
	free(why);
}

/* Refused with @reason, and the columns it had are kept. */
static void is_refused(const char *list, const char *reason, const char *what)
{
	char *why;

	is_str(parse(list, &why), "NAME", "%s: the columns stay", what);
	is_str(why, reason, "%s: the reason", what);
	free(why);
}

static void test_parse(void)
{
	is_parsed("SHARE,NAME", "SHARE,NAME");
	is_parsed("name,Parent,sHaRe", "NAME,PARENT,SHARE");
	is_parsed("PARENT", "PARENT");
	/* as lsblk's, + keeps the default set (show's: no TIME, no BYTES) */
	is_parsed("+PARENT", "NAME,TYPE,PID,WEIGHT,SHARE,IOPRIO,HIER,PARENT");
	is_parsed("NAME,TYPE,PID,WEIGHT,SHARE,IOPRIO,HIER,PARENT",
		  "NAME,TYPE,PID,WEIGHT,SHARE,IOPRIO,HIER,PARENT");

	is_refused("foo", "unknown column: foo", "unknown column");
	is_refused("NAME,foo,SHARE", "unknown column: foo",
		   "unknown column among known ones");
	is_refused("+foo", "unknown column: foo", "unknown column after +");
	is_refused("NAM", "unknown column: NAM", "no abbreviations");
	is_refused("NAMES", "unknown column: NAMES", "no longer names");
	is_refused("TIME", "unknown column: TIME", "top's TIME is not show's");
	is_refused("a\nb", "unknown column: a\\nb", "a newline shown escaped");
	is_refused("", "--output: no column given", "empty list");
	is_refused("+", "--output: no column given", "+ alone");
	is_refused("NAME,,SHARE", "--output NAME,,SHARE: empty column name",
		   "empty name between commas");
	is_refused("NAME,", "--output NAME,: empty column name",
		   "trailing comma");
	is_refused(",NAME", "--output ,NAME: empty column name",
		   "leading comma");
	is_refused("SHARE,share", "duplicate column: SHARE", "duplicate column");
	is_refused("+PARENT,PARENT", "duplicate column: PARENT",
		   "duplicate column after +");
	is_refused("+PID", "duplicate column: PID (the default set has it)",
		   "+ a default column");
}

static struct bt_tree *small_tree(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a = bt_group_add(tree->root, "a");
	struct bt_group *b;
	struct bt_task dd = task_ioprio(300, "dd", BT_IOCLASS_BE, 4);

	a->use_hierarchy = 1;
	b = bt_group_add(a, "b");
	bt_group_add_task(b, &dd);
	return tree;
}

static const struct bt_blockdev sda = {
	.name = "sda", .major = 8, .minor = 0, .scheduler = "cfq",
};

/* @format with the columns of @list */
static struct bt_show_format with_columns(struct bt_show_format format,
					  const char *list)
{
	char *why = bt_output_parse_columns(list, &format);

	ok(!why, "-o %s parses", list);
	free(why);
	return format;
}

static void is_rendered(const struct bt_show *show,
			const struct bt_show_format *format, const char *want,
			const char *what)
{
	char *text = render(show, format);

	is_str(text, want, "%s", what);
	free(text);
}

static void test_text(const struct bt_show *show)
{
	struct bt_show_format tree = { .ascii = true };
	struct bt_show_format list = { .list = true };
	struct bt_show_format pairs = { .pairs = true };
	struct bt_show show_sda = *show;

	is_rendered(show, &tree,
		    "NAME TYPE PID WEIGHT SHARE IOPRIO HIER\n"
		    "pivot pivot 100.00%\n"
		    "|-/ group 1000 66.67% 0\n"
		    "`-/a group 500 33.33% 1\n"
		    " `-/a/b group 500 33.33% 1\n"
		    " `-dd task 300 484 33.33% be/4\n",
		    "the default columns, as a tree");
	is_rendered(show, &list,
		    "NAME TYPE PID WEIGHT SHARE IOPRIO HIER\n"
		    "pivot pivot 100.00%\n"
		    "/ group 1000 66.67% 0\n"
		    "/a group 500 33.33% 1\n"
		    "/a/b group 500 33.33% 1\n"
		    "dd task 300 484 33.33% be/4\n",
		    "--list: the default columns, no tree drawn");
	list = with_columns(list, "NAME,PARENT,SHARE");
	is_rendered(show, &list,
		    "NAME PARENT SHARE\n"
		    "pivot 100.00%\n"
		    "/ pivot 66.67%\n"
		    "/a pivot 33.33%\n"
		    "/a/b /a 33.33%\n"
		    "dd /a/b 33.33%\n",
		    "--list -o NAME,PARENT,SHARE: where each is scheduled");
	list.noheadings = true;
	is_rendered(show, &list,
		    "pivot 100.00%\n"
		    "/ pivot 66.67%\n"
		    "/a pivot 33.33%\n"
		    "/a/b /a 33.33%\n"
		    "dd /a/b 33.33%\n",
		    "--list --noheadings");
	tree = with_columns(tree, "SHARE,NAME");
	is_rendered(show, &tree,
		    " SHARE NAME\n"
		    "100.00% pivot\n"
		    " 66.67% |-/\n"
		    " 33.33% `-/a\n"
		    " 33.33% `-/a/b\n"
		    " 33.33% `-dd\n",
		    "-o SHARE,NAME: the tree drawn in NAME, second");
	pairs = with_columns(pairs, "name,type,parent,pid");
	is_rendered(show, &pairs,
		    "NAME=\"pivot\" TYPE=\"pivot\" PARENT=\"\" PID=\"\"\n"
		    "NAME=\"/\" TYPE=\"group\" PARENT=\"pivot\" PID=\"\"\n"
		    "NAME=\"/a\" TYPE=\"group\" PARENT=\"pivot\" PID=\"\"\n"
		    "NAME=\"/a/b\" TYPE=\"group\" PARENT=\"/a\" PID=\"\"\n"
		    "NAME=\"dd\" TYPE=\"task\" PARENT=\"/a/b\" PID=\"300\"\n",
		    "--pairs -o name,type,parent,pid");

	show_sda.devices = &sda;
	show_sda.ndevices = 1;
	pairs = with_columns(pairs, "NAME,SHARE");
	is_rendered(&show_sda, &pairs,
		    "NAME=\"pivot\" SHARE=\"100.00%\"\n"
		    "NAME=\"/\" SHARE=\"66.67%\"\n"
		    "NAME=\"/a\" SHARE=\"33.33%\"\n"
		    "NAME=\"/a/b\" SHARE=\"33.33%\"\n"
		    "NAME=\"dd\" SHARE=\"33.33%\"\n"
		    "\n"
		    "DEVICE=\"sda\" MAJ:MIN=\"8:0\" SCHEDULER=\"cfq\" "
		    "WEIGHTS=\"effective\"\n",
		    "--pairs: the device table follows as pairs");
}

/* An entity's keys in their order, comma-separated. */
static char *keys(struct json_object *obj)
{
	static char text[256];

	text[0] = '\0';
	if (!obj)
		return "(none)";
	json_object_object_foreach(obj, key, value) {
		(void)value;
		if (text[0])
			strcat(text, ",");
		strcat(text, key);
	}
	return text;
}

static void test_json(const struct bt_show *show)
{
	struct bt_show_format json = { .json = true };
	struct json_object *doc, *tree, *b;
	char *text;

	text = render(show, &json);
	doc = json_tokener_parse(text);
	tree = at(doc, "tree");
	b = kid(kid(tree, 1), 0);
	is_str(keys(b), "name,type,weight,share,use_hierarchy,children",
	       "json: a group's keys without -o");
	is_str(keys(kid(b, 0)), "name,type,pid,weight,share,ioprio",
	       "json: a task's keys without -o, no parent");
	json_object_put(doc);
	free(text);

	json = with_columns(json, "NAME,PARENT,SHARE");
	text = render(show, &json);
	doc = json_tokener_parse(text);
	ok(doc != NULL, "json -o NAME,PARENT,SHARE parses");
	ok(at(doc, "hierarchy") && at(doc, "devices"),
	   "json -o: the document's own keys stay");
	tree = at(doc, "tree");
	is_str(keys(tree), "name,share,children",
	       "json -o: the pivot has no parent");
	is_str(keys(kid(tree, 0)), "name,parent,share",
	       "json -o: the root group's keys");
	b = kid(kid(tree, 1), 0);
	is_str(keys(b), "name,parent,share,children",
	       "json -o: a/b's keys, in the order of -o");
	is_str(json_object_get_string(at(b, "parent")), "/a",
	       "json -o: a/b is scheduled in /a");
	is_str(keys(kid(b, 0)), "name,parent,share",
	       "json -o: dd has no pid, no weight, no ioprio");
	is_share(json_object_get_double(at(kid(b, 0), "share")), 33.33,
		 "json -o: dd's share");
	json_object_put(doc);
	free(text);
}

int main(void)
{
	struct bt_tree *tree = small_tree();
	struct bt_entity *sched = bt_sched_build(tree, false, 0, 0);
	struct bt_show show = cfq_show(sched);

	test_parse();
	test_text(&show);
	test_json(&show);
	bt_sched_free(sched);
	bt_tree_free(tree);
	return tap_done();
}
