/* blkiotree attach: move processes, or single threads, into a group. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmds.h"
#include "session.h"
#include "strutil.h"

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree attach [options] GROUP PID...\n"
	      "\n"
	      "Move processes, with all their threads, into a blkio group\n"
	      "(through cgroup.procs; a thread ID moves its whole process).\n"
	      "\n"
	      "Options:\n"
	      " -t, --thread  move only the given threads (through tasks);\n"
	      "               CFQ queues each thread's I/O on its own\n"
	      " -h, --help    display this help\n"
	      "\n"
	      "For more details see blkiotree-attach(8).\n", stdout);
}

int cmd_attach(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "thread", no_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bt_session session;
	struct bt_plan plan;
	char *path, *why = NULL;
	bool thread = false;
	int c, status, err = 0;

	while ((c = getopt_long(argc, argv, ":th", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			thread = true;
			break;
		case 'h':
			usage();
			return BT_EXIT_OK;
		default:
			return bt_option_error("attach", c, argv, longopts);
		}
	}
	if (argc - optind < 2)
		return bt_usage_error("attach", "need a group and at least one "
				      "%s", thread ? "TID" : "PID");
	for (int i = optind + 1; i < argc; i++) {
		long long pid;

		if (str_to_ll(argv[i], &pid) || pid <= 0 || pid > 0x7fffffff)
			return bt_usage_error("attach", "%s: not a %s ID",
					      argv[i],
					      thread ? "thread" : "process");
	}
	path = bt_group_operand("attach", argv[optind], &status);
	if (!path)
		return status;

	status = bt_session_open(&session, "attach", true);
	if (status != BT_EXIT_OK) {
		free(path);
		return status;
	}
	bt_plan_init(&plan);
	for (int i = optind + 1; i < argc && !err; i++) {
		long long pid;
		struct bt_op op = { .type = BT_OP_ATTACH, .path = path,
				    .thread = thread };

		str_to_ll(argv[i], &pid);
		op.pid = pid;
		err = bt_plan_add(&plan, session.tree, &session.env, &op, &why);
	}
	status = bt_session_finish(&session, &plan, err, why);
	free(path);
	return status;
}
