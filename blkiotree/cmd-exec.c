/* blkiotree exec: run a command inside a group. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "session.h"

/* as env(1) and the shells: 126 found but not runnable, 127 not found */
#define EXIT_CANNOT_RUN	126
#define EXIT_NOT_FOUND	127

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree exec GROUP -- COMMAND [ARG...]\n"
	      "\n"
	      "Run a command in a blkio group.\n"
	      "\n"
	      "Options:\n"
	      " -h, --help  display this help\n"
	      "\n"
	      "For more details see blkiotree-exec(8).\n", stdout);
}

int cmd_exec(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bt_session session;
	struct bt_plan plan;
	const char *bad;
	char *path, *why = NULL;
	char **command;
	int c, status, err;

	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (c != 'h')
			return bt_option_error("exec", argv);
		usage();
		return BT_EXIT_OK;
	}
	if (optind >= argc)
		return bt_usage_error("exec", "no group given");
	command = argv + optind + 1;
	if (*command && !strcmp(*command, "--"))
		command++;
	if (!*command)
		return bt_usage_error("exec", "no command given");
	path = bt_path_normalize(argv[optind], &bad);
	if (!path)
		return bt_usage_error("exec", "%s: %s", argv[optind], bad);

	status = bt_session_open(&session, "exec", false);
	if (status != BT_EXIT_OK) {
		free(path);
		return status;
	}
	bt_plan_init(&plan);
	err = bt_plan_add(&plan, session.tree, &session.env,
			  &(struct bt_op){ .type = BT_OP_ATTACH, .path = path,
					   .pid = getpid() }, &why);
	if (err) {
		bt_error("%s", why);
		status = bt_exit_for(err);
	} else {
		status = bt_session_commit(&session, &plan, NULL);
	}
	free(why);
	bt_plan_free(&plan);
	bt_session_close(&session);
	free(path);
	if (status != BT_EXIT_OK)
		return status;

	execvp(command[0], command);
	err = errno;
	bt_error("exec %s: %s", command[0], strerror(err));
	return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
