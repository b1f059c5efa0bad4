/* blkiotree exec: run a command inside a group. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "procinfo.h"
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
	      "     --ioprio CLASS[:LEVEL]  run COMMAND with this I/O priority, as\n"
	      "                             ionice -c CLASS -n LEVEL: CLASS rt, be,\n"
	      "                             idle or none, LEVEL 0-7 (rt and be only)\n"
	      " -h, --help                  display this help\n"
	      "\n"
	      "For more details see blkiotree-exec(8).\n", stdout);
}

int cmd_exec(int argc, char **argv)
{
	/* long only: a -p would read as ionice's -p, which takes a PID */
	enum { OPT_IOPRIO = CHAR_MAX + 1 };
	static const struct option longopts[] = {
		{ "ioprio", required_argument, NULL, OPT_IOPRIO },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bt_session session;
	struct bt_plan plan;
	const char *bad, *ioprio_text = NULL;
	char *path, *why = NULL;
	char **command;
	int c, status, err, ioprio = 0;

	/* "+": the options end at GROUP; the command's own follow it */
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_IOPRIO:
			ioprio_text = optarg;
			if (!bt_ioprio_parse(ioprio_text, &ioprio, &bad))
				return bt_usage_error("exec", "--ioprio %s: %s",
						      ioprio_text, bad);
			break;
		case 'h':
			usage();
			return BT_EXIT_OK;
		default:
			return bt_option_error("exec", c, argv, longopts);
		}
	}
	if (optind >= argc)
		return bt_usage_error("exec", "no group given");
	command = argv + optind + 1;
	if (*command && !strcmp(*command, "--"))
		command++;
	if (!*command)
		return bt_usage_error("exec", "no command given");
	path = bt_group_operand("exec", argv[optind], &status);
	if (!path)
		return status;
	/* first, so that a refusal (rt without privilege) leaves no trace */
	if (ioprio_text) {
		err = bt_procinfo_set_ioprio(ioprio);
		if (err) {
			/* only the rt class takes a privilege (ioprio_set(2)) */
			bt_error("exec: cannot set the I/O priority %s: %s",
				 ioprio_text, err == EPERM ?
				 "permission denied; only root (CAP_SYS_ADMIN "
				 "or CAP_SYS_NICE) may use the rt class (EPERM)" :
				 strerror(err));
			free(path);
			return bt_exit_for(err);
		}
	}

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
