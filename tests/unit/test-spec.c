/*
 * The apply spec parser: a good document, and malformed ones refused with
 * a reason; and export, whose document applied to an empty tree gives the
 * tree back.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "spec.h"
#include "strutil.h"
#include "tap.h"

static void good(void)
{
	static const char text[] =
		"{\n"
		"  \"use_hierarchy\": false,\n"
		"  \"weight\": 1000,\n"
		"  \"groups\": [\n"
		"    { \"name\": \"grp1\", \"weight\": 500, \"use_hierarchy\": 1,\n"
		"      \"weight_device\": [ { \"device\": \"8:16\", \"weight\": 300 } ],\n"
		"      \"groups\": [ { \"name\": \"grp3\" } ] },\n"
		"    { \"name\": \"grp2\" }\n"
		"  ]\n"
		"}\n";
	char *why = NULL;
	struct bt_spec_group *root = bt_spec_parse(text, sizeof(text) - 1, &why);

	if (!ok(root != NULL, "valid document parses")) {
		printf("# %s\n", why);
		free(why);
		return;
	}
	ok(!root->name, "root has no name");
	ok(root->has_use_hierarchy && root->use_hierarchy == 0,
	   "false -> use_hierarchy 0");
	ok(root->has_weight && root->weight == 1000, "root weight");
	is_int(root->nchildren, 2, "two groups");
	is_str(root->children[0].name, "grp1", "first is grp1");
	ok(root->children[0].has_weight && root->children[0].weight == 500,
	   "grp1 weight 500");
	is_int(root->children[0].nweight_device, 1, "one device weight");
	is_str(root->children[0].weight_device[0], "8:16:300",
	       "device weight as MAJ:MIN:W");
	is_str(root->children[0].children[0].name, "grp3", "grp3 below grp1");
	ok(!root->children[1].has_weight && !root->children[1].has_use_hierarchy,
	   "grp2 leaves its values alone");
	bt_spec_free(root);
}

static void bad_len(const char *text, size_t len, const char *reason_part,
		    const char *what)
{
	char *why = NULL;
	struct bt_spec_group *root = bt_spec_parse(text, len, &why);

	ok(!root && why && strstr(why, reason_part), "refused: %s", what);
	if (why && !strstr(why, reason_part))
		printf("#   got: %s\n", why);
	bt_spec_free(root);
	free(why);
}

static void bad(const char *text, const char *reason_part, const char *what)
{
	bad_len(text, strlen(text), reason_part, what);
}

/* The names the command line refuses (test-tree), refused here alike. */
static void test_names(void)
{
	bad("{ \"groups\": [ { \"name\": \"tasks\" } ] }",
	    "groups[0]: \"name\": component \"tasks\" is the name of a cgroup "
	    "control file", "name of a control file");
	bad("{ \"groups\": [ { \"name\": \"blkio.weight\" } ] }",
	    "control file", "name blkio.weight");
	bad("{ \"groups\": [ { \"name\": \"a\\nb\" } ] }",
	    "\"name\": component \"a\\nb\" has a control character",
	    "name with a newline, escaped");
	bad("{ \"groups\": [ { \"name\": \"a\\u0000b\" } ] }",
	    "component \"a\\x00b\" has a control character",
	    "name with \\u0000, not cut short");
	bad("{ \"groups\": [ { \"name\": \"..\" } ] }",
	    "\".\" and \"..\" are not group names", "name .. by its rule");
}

static void test_duplicate_keys(void)
{
	const char *tricky = "{ \"groups\": [ { \"name\": \"b,\\\"name\\\": {\" "
			     "}, { \"name\": \"c\", \"groups\": [ { \"name\": "
			     "\"d\" } ] } ], \"weight\": 100 }";
	struct bt_spec_group *root;
	char *why = NULL;

	bad("{ \"weight\": 100, \"weight\": 200 }",
	    "line 1, column 18: key \"weight\" appears twice in one object",
	    "a key twice, at its second place");
	bad("{ \"groups\": [ { \"name\": \"a\",\n \"n\\u0061me\": \"b\" } ] }",
	    "line 2, column 2: key \"name\" appears twice",
	    "a key twice, once escaped");
	bad("{ \"weight_device\": [ { \"device\": \"8:0\", \"weight\": 1, "
	    "\"weight\": 2 } ] }", "key \"weight\" appears twice",
	    "a key twice in a weight_device entry");
	bad("{ \"groups\": [ { \"name\": \"a\", \"groups\": [] },\n"
	    "{ \"name\": \"b\", \"groups\": [ { \"name\": \"c\", "
	    "\"name\": \"d\" } ] } ] }", "line 2, column 43: key \"name\"",
	    "a key twice in a nested group");
	bad("{ /* \" */ \"weight\": 1 }", "not JSON",
	    "comments, which could hide keys, are not JSON");

	/* quotes, braces and commas inside strings are not keys */
	root = bt_spec_parse(tricky, strlen(tricky), &why);
	ok(root && root->nchildren == 2 && !strcmp(root->children[0].name,
						    "b,\"name\": {"),
	   "the same key in different objects, and keys inside strings");
	if (why)
		printf("#   %s\n", why);
	bt_spec_free(root);
	free(why);
}

static void test_size_limit(void)
{
	size_t len = BT_SPEC_MAX_SIZE;
	char *text = xcalloc(len + 2, 1);
	struct bt_spec_group *root;
	char *why = NULL;

	/* "{}" padded with blanks to the limit is read */
	memset(text, ' ', len + 1);
	text[0] = '{';
	text[len - 1] = '}';
	root = bt_spec_parse(text, len, &why);
	ok(root != NULL, "a description of exactly %d bytes is read",
	   BT_SPEC_MAX_SIZE);
	if (why)
		printf("#   %s\n", why);
	bt_spec_free(root);
	free(why);
	text[len - 1] = ' ';
	text[len] = '}';
	bad_len(text, len + 1, "larger than 1 MiB (1048576 bytes)",
		"one byte more than the limit");
	free(text);
}

static const struct bt_blockdev disks[] = {
	{ .name = "sda", .major = 8, .minor = 0, .scheduler = "cfq" },
	{ .name = "sdb", .major = 8, .minor = 16, .scheduler = "cfq" },
};
static const struct bt_env env = {
	.mount = "/cg", .cfq_policy = true, .hierarchy = true,
	.devices = disks, .ndevices = 2,
};

static bool same_group(const struct bt_group *a, const struct bt_group *b)
{
	if (strcmp(a->path, b->path) || a->weight != b->weight ||
	    a->use_hierarchy != b->use_hierarchy ||
	    a->ndevweights != b->ndevweights)
		return false;
	for (size_t i = 0; i < a->ndevweights; i++)
		if (bt_group_devweight(b, a->devweights[i].major,
				       a->devweights[i].minor) !=
		    a->devweights[i].weight)
			return false;
	return true;
}

/* Same groups in the same places with the same values; names the first difference. */
static bool same_tree(const struct bt_tree *a, const struct bt_tree *b)
{
	const struct bt_group *ga = a->root, *gb = b->root;

	for (; ga && gb; ga = bt_group_next(ga), gb = bt_group_next(gb))
		if (!same_group(ga, gb)) {
			printf("#   differs at /%s (/%s)\n", ga->path, gb->path);
			return false;
		}
	if (ga || gb)
		printf("#   one tree has more groups: /%s\n",
		       ga ? ga->path : gb->path);
	return !ga && !gb;
}

static struct bt_tree *exported_tree(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a, *b, *d;

	tree->root->weight = 900;
	a = bt_group_add(tree->root, "a");
	a->use_hierarchy = 1;
	a->weight = 800;
	bt_group_set_devweight(a, 8, 16, 300);
	b = bt_group_add(a, "b");	/* use_hierarchy=1 from a */
	b->weight = 200;
	bt_group_add(b, "c");
	d = bt_group_add(tree->root, "d");
	d->weight = 100;
	bt_group_set_devweight(d, 8, 16, 700);
	bt_group_set_devweight(d, 8, 0, 50);
	bt_group_add(d, "e \"quoted\"");
	return tree;
}

/* export's document through the parser and apply's plan onto @into */
static bool reapply(const char *text, struct bt_tree *into)
{
	struct bt_spec_group *spec;
	struct bt_plan plan;
	char *why = NULL;
	int err;

	spec = bt_spec_parse(text, strlen(text), &why);
	if (!spec) {
		printf("#   %s\n", why);
		free(why);
		return false;
	}
	bt_plan_init(&plan);
	err = bt_plan_spec(&plan, into, &env, spec, false, &why);
	if (err)
		printf("#   %s\n", why);
	free(why);
	bt_plan_free(&plan);
	bt_spec_free(spec);
	return !err;
}

static void test_export(void)
{
	struct bt_tree *tree = exported_tree(), *copy = bt_tree_new();
	struct bt_tree *part = bt_tree_new();
	char *text = bt_spec_export(tree->root, true, true);

	ok(reapply(text, copy), "export of the whole tree applies to an empty one");
	ok(same_tree(tree, copy), "and gives the same tree back");
	free(text);

	/* a subtree keeps its place; its ancestors only by name */
	text = bt_spec_export(bt_group_find(tree, "a/b"), true, true);
	ok(reapply(text, part), "export of /a/b applies to an empty tree");
	ok(same_group(bt_group_find(tree, "a/b"), bt_group_find(part, "a/b")) &&
	   same_group(bt_group_find(tree, "a/b/c"),
		      bt_group_find(part, "a/b/c")),
	   "/a/b and /a/b/c come back with their values");
	ok(part->root->weight != 900 && bt_group_find(part, "a")->weight != 800
	   && !bt_group_find(part, "d"),
	   "ancestors keep their own values, other groups are not named");
	free(text);

	/* a kernel without the policy files: no values to guess */
	text = bt_spec_export(tree->root, false, false);
	ok(!strstr(text, "weight") && !strstr(text, "use_hierarchy") &&
	   strstr(text, "\"name\": \"c\""),
	   "without policy files only the names are exported");
	free(text);
	bt_tree_free(part);
	bt_tree_free(copy);
	bt_tree_free(tree);
}

int main(void)
{
	good();
	test_export();
	bad("", "ends too early", "empty input");
	bad("{ \"groups\": [ ", "ends too early", "truncated document");
	bad("{ \"weight\": 500, }", "line 1", "trailing comma");
	bad("{\n \"weight\": 500\n}\n}", "line 4", "text after the document");
	bad("{ weight: 500 }", "not JSON", "unquoted key");
	bad("{ \"weight\": 0x1f4 }", "not JSON", "hexadecimal number");
	bad("[ { \"name\": \"a\" } ]", "must be an object", "top-level array");
	bad("{ \"wieght\": 500 }", "unknown key \"wieght\"", "misspelt key");
	bad("{ \"weight\": \"500\" }", "\"weight\" must be an integer",
	    "weight as a string");
	bad("{ \"weight\": 500.5 }", "must be an integer", "fractional weight");
	bad("{ \"use_hierarchy\": \"yes\" }", "use_hierarchy", "use_hierarchy text");
	bad("{ \"groups\": {} }", "\"groups\" must be an array", "groups object");
	bad("{ \"groups\": [ { \"weight\": 1 } ] }", "\"name\"", "missing name");
	bad("{ \"groups\": [ { \"name\": \"a/b\" } ] }", "without '/'",
	    "name with a slash");
	bad("{ \"groups\": [ { \"name\": \"..\" } ] }", "\"name\"", "name ..");
	bad("{ \"groups\": [ { \"name\": \"\" } ] }", "\"name\"", "empty name");
	bad("{ \"name\": \"root\" }", "unknown key \"name\"", "root with a name");
	bad("{ \"groups\": [ { \"name\": \"a\" }, { \"name\": \"a\" } ] }",
	    "listed twice", "duplicate siblings");
	bad("{ \"groups\": [ { \"name\": \"a\", \"groups\": [ { \"name\": \"b\","
	    " \"bogus\": 1 } ] } ] }", "groups[0] (\"a\"): groups[0] (\"b\")",
	    "errors name the nested place");
	bad("{ \"weight_device\": [ { \"device\": \"sdb\", \"weight\": 1 } ] }",
	    "MAJ:MIN", "device by name");
	bad("{ \"weight_device\": [ { \"device\": \"8:16\" } ] }",
	    "exactly \"device\" and \"weight\"", "device weight missing");
	bad("{ \"weight_device\": { \"8:16\": 300 } }", "must be an array",
	    "weight_device object");
	bad_len("{ \"weight\": 500 }\0{}", 20, "NUL", "NUL byte");
	test_names();
	test_duplicate_keys();
	test_size_limit();
	return tap_done();
}
