/* blkiotree set: change policy values, all checked before any is written. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "session.h"
#include "strutil.h"

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree set GROUP KEY=VALUE...\n"
	      "\n"
	      "Set policy values of a group; all are checked before any is written.\n"
	      "\n"
	      "Keys:\n"
	      " weight=W                 blkio.weight, 10-1000\n"
	      " use_hierarchy=0|1        blkio.use_hierarchy\n"
	      " weight_device=MAJ:MIN:W  blkio.weight_device; W=0 removes it\n"
	      "\n"
	      "Options:\n"
	      " -h, --help  display this help\n"
	      "\n"
	      "For more details see blkiotree-set(8).\n", stdout);
}

int cmd_set(int argc, char **argv)
{
	struct bt_session session;
	struct bt_plan plan;
	char *path, *why = NULL;
	int status, err = 0;

	if (bt_parse_help_only("set", argc, argv, usage, &status))
		return status;
	if (argc - optind < 2)
		return bt_usage_error("set", "need a group and at least one "
				      "KEY=VALUE");
	/* the syntax of every argument first: a typo changes nothing */
	for (int i = optind + 1; i < argc; i++) {
		char *eq = strchr(argv[i], '=');
		enum bt_key key;
		bool known;

		if (!eq)
			return bt_usage_error("set", "%s: expected KEY=VALUE",
					      argv[i]);
		*eq = '\0';
		known = bt_key_parse(argv[i], &key);
		*eq = '=';
		if (!known)
			return bt_usage_error("set", "%s: unknown key (%s)",
					      argv[i], bt_key_list());
	}
	path = bt_group_operand("set", argv[optind], &status);
	if (!path)
		return status;

	status = bt_session_open(&session, "set", false);
	if (status != BT_EXIT_OK) {
		free(path);
		return status;
	}
	bt_plan_init(&plan);
	for (int i = optind + 1; i < argc && !err; i++) {
		char *eq = strchr(argv[i], '=');
		struct bt_op op = {
			.type = BT_OP_SET,
			.path = path,
			.value = eq + 1,
		};

		*eq = '\0';
		bt_key_parse(argv[i], &op.key);
		*eq = '=';
		err = bt_plan_add(&plan, session.tree, &session.env, &op, &why);
	}
	status = bt_session_finish(&session, &plan, err, why);
	free(path);
	return status;
}
