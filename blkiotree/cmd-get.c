/* blkiotree get: policy values alone, one per line, for scripts. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmds.h"
#include "output.h"
#include "session.h"
#include "strutil.h"

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree get GROUP KEY...\n"
	      "\n"
	      "Print policy values of a group, nothing but the values, one per line\n"
	      "in the order of the keys.\n"
	      "\n"
	      "Keys:\n"
	      " weight         blkio.weight\n"
	      " use_hierarchy  blkio.use_hierarchy, 0 or 1\n"
	      " weight_device  blkio.weight_device, a MAJ:MIN:W line per device\n"
	      "\n"
	      "Options:\n"
	      " -h, --help  display this help\n"
	      "\n"
	      "For more details see blkiotree-get(8).\n", stdout);
}

/* Whether this kernel has the file @key reads; its model value is no guess. */
static bool key_present(const struct bt_env *env, enum bt_key key)
{
	return key == BT_KEY_USE_HIERARCHY ? env->hierarchy : env->cfq_policy;
}

int cmd_get(int argc, char **argv)
{
	struct bt_session session;
	const struct bt_group *group;
	enum bt_key *keys;
	char *path, *display;
	int nkeys, status;

	if (bt_parse_help_only("get", argc, argv, usage, &status))
		return status;
	if (argc - optind < 2)
		return bt_usage_error("get", "need a group and at least one KEY");
	/* every key is checked before anything is printed */
	nkeys = argc - optind - 1;
	keys = xcalloc(nkeys, sizeof(*keys));
	for (int i = 0; i < nkeys; i++)
		if (!bt_key_parse(argv[optind + 1 + i], &keys[i])) {
			free(keys);
			return bt_usage_error("get", "%s: unknown key (%s)",
					      argv[optind + 1 + i],
					      bt_key_list());
		}
	path = bt_group_operand("get", argv[optind], &status);
	if (!path) {
		free(keys);
		return status;
	}

	status = bt_session_open(&session, "get", false);
	if (status != BT_EXIT_OK)
		goto out;
	group = bt_group_find(session.tree, path);
	display = xasprintf("/%s", path);
	if (!group) {
		bt_error("get %s: no such group (ENOENT)", display);
		status = BT_EXIT_REFUSED;
	}
	for (int i = 0; group && i < nkeys && status == BT_EXIT_OK; i++)
		if (!key_present(&session.env, keys[i])) {
			bt_error("get %s: %s: %s/%s does not exist (ENOTSUP)",
				 display, bt_key_name(keys[i]),
				 session.fs.mount, bt_key_file(keys[i]));
			status = BT_EXIT_NO_POLICY;
		}
	for (int i = 0; group && i < nkeys && status == BT_EXIT_OK; i++)
		if (bt_output_key(stdout, group, keys[i]) || fflush(stdout)) {
			bt_error("get: cannot write the output: %s",
				 strerror(errno));
			status = BT_EXIT_FAILURE;
		}
	free(display);
	bt_session_close(&session);
out:
	free(path);
	free(keys);
	return status;
}
