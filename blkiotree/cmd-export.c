/* blkiotree export: the live tree as a file for apply. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "session.h"
#include "spec.h"
#include "strutil.h"

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree export [GROUP]\n"
	      "\n"
	      "Print the hierarchy, or GROUP and the groups below it, with their\n"
	      "weight, use_hierarchy and weight_device as a JSON file for apply.\n"
	      "\n"
	      "Options:\n"
	      " -h, --help  display this help\n"
	      "\n"
	      "For more details see blkiotree-export(8).\n", stdout);
}

int cmd_export(int argc, char **argv)
{
	struct bt_session session;
	const struct bt_group *group;
	char *path, *text;
	int status;

	if (bt_parse_help_only("export", argc, argv, usage, &status))
		return status;
	if (argc - optind > 1)
		return bt_usage_error("export", "only one group can be exported");
	path = bt_group_operand("export", optind < argc ? argv[optind] : "/",
				&status);
	if (!path)
		return status;

	status = bt_session_open(&session, "export", false);
	if (status != BT_EXIT_OK) {
		free(path);
		return status;
	}
	group = bt_group_find(session.tree, path);
	if (!group) {
		bt_error("export /%s: no such group (ENOENT)", path);
		status = BT_EXIT_REFUSED;
	} else {
		/* what this kernel has no file for is left out, not guessed */
		text = bt_spec_export(group, session.env.cfq_policy,
				      session.env.hierarchy);
		if (fputs(text, stdout) == EOF || fflush(stdout)) {
			bt_error("export: cannot write the output: %s",
				 strerror(errno));
			status = BT_EXIT_FAILURE;
		}
		free(text);
	}
	bt_session_close(&session);
	free(path);
	return status;
}
