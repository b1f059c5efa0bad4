/* blkiotree delete: remove groups; their tasks move to the parent. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>

#include "cmds.h"
#include "session.h"

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree delete [options] GROUP...\n"
	      "\n"
	      "Delete blkio groups; their tasks move to the parent group.\n"
	      "\n"
	      "Options:\n"
	      " -r, --recursive  delete the groups' child groups too\n"
	      " -h, --help       display this help\n"
	      "\n"
	      "For more details see blkiotree-delete(8).\n", stdout);
}

int cmd_delete(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "recursive", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bt_session session;
	struct bt_plan plan;
	bool recursive = false;
	char *why = NULL;
	int c, status, err = 0;

	while ((c = getopt_long(argc, argv, ":rh", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			recursive = true;
			break;
		case 'h':
			usage();
			return BT_EXIT_OK;
		default:
			return bt_option_error("delete", c, argv, longopts);
		}
	}
	if (optind >= argc)
		return bt_usage_error("delete", "no group given");
	for (int i = optind; i < argc; i++) {
		char *path = bt_group_operand("delete", argv[i], &status);

		if (!path)
			return status;
		free(path);
	}

	status = bt_session_open(&session, "delete", false);
	if (status != BT_EXIT_OK)
		return status;
	bt_plan_init(&plan);
	for (int i = optind; i < argc && !err; i++) {
		/* every group was checked above, before the session */
		char *path = bt_group_operand("delete", argv[i], &status);

		err = bt_plan_delete(&plan, session.tree, &session.env, path,
				     recursive, &why);
		free(path);
	}
	status = bt_session_finish(&session, &plan, err, why);
	return status;
}
