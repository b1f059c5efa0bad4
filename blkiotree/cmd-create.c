/* blkiotree create: make groups, their missing parents and first settings. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "session.h"
#include "strutil.h"

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree create [options] GROUP...\n"
	      "\n"
	      "Create blkio groups; missing parent groups are created too.\n"
	      "\n"
	      "Options:\n"
	      " -w, --weight W   set blkio.weight of each GROUP (10-1000)\n"
	      " -H, --hierarchy  set use_hierarchy=1 on each GROUP before it has children\n"
	      " -h, --help       display this help\n"
	      "\n"
	      "For more details see blkiotree-create(8).\n", stdout);
}

static int compare_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_create(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "weight", required_argument, NULL, 'w' },
		{ "hierarchy", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bt_session session;
	struct bt_plan plan;
	const char *weight = NULL;
	bool hierarchy = false;
	char **paths, *why = NULL;
	int c, npaths, status, err = 0;

	while ((c = getopt_long(argc, argv, ":w:Hh", longopts, NULL)) != -1) {
		switch (c) {
		case 'w':
			weight = optarg;
			break;
		case 'H':
			hierarchy = true;
			break;
		case 'h':
			usage();
			return BT_EXIT_OK;
		default:
			return bt_option_error("create", c, argv, longopts);
		}
	}
	if (optind >= argc)
		return bt_usage_error("create", "no group given");

	npaths = argc - optind;
	paths = xcalloc(npaths, sizeof(*paths));
	for (int i = 0; i < npaths; i++) {
		paths[i] = bt_group_operand("create", argv[optind + i],
					    &status);
		if (!paths[i]) {
			while (i--)
				free(paths[i]);
			free(paths);
			return status;
		}
	}
	/* parents before children, so "create a/b a" creates a explicitly */
	qsort(paths, npaths, sizeof(*paths), compare_paths);

	status = bt_session_open(&session, "create", false);
	if (status == BT_EXIT_OK) {
		bt_plan_init(&plan);
		for (int i = 0; i < npaths && !err; i++)
			if (!i || strcmp(paths[i], paths[i - 1]))
				err = bt_plan_create(&plan, session.tree,
						     &session.env, paths[i],
						     weight, hierarchy, &why);
		status = bt_session_finish(&session, &plan, err, why);
	}
	for (int i = 0; i < npaths; i++)
		free(paths[i]);
	free(paths);
	return status;
}
