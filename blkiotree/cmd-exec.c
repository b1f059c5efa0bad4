/* blkiotree exec: run a command inside a group. */
#include "config.h"

#include <errno.h>
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
	      " blkiotree exec [options] GROUP [--] COMMAND [ARG...]\n"
	      "\n"
	      "Run a command in a blkio group.  Options come before GROUP;\n"
	      "everything after it is the command and its arguments.\n"
	      "\n"
	      "Options:\n"
	      " -h, --help  display this help\n"
	      "\n"
	      "For more details see blkiotree-exec(8).\n", stdout);
}

int cmd_exec(int argc, char **argv)
{
	struct bt_session session;
	struct bt_plan plan;
	const char *bad;
	char *path, *why = NULL;
	char **command;
	int status, err;

	if (bt_parse_help_only("exec", argc, argv, true, usage, &status))
		return status;
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
	status = bt_session_finish(&session, &plan, err, why);
	free(path);
	if (status != BT_EXIT_OK)
		return status;

	execvp(command[0], command);
	err = errno;
	bt_error("exec %s: %s", command[0], strerror(err));
	return err == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
