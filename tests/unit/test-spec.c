/* The apply spec parser: a good document, and malformed ones refused with a reason. */
#include "config.h"

#include <stdlib.h>

#include "spec.h"
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

int main(void)
{
	good();
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
	return tap_done();
}
