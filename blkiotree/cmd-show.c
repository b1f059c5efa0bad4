/* blkiotree show: the effective scheduling tree, the devices and warnings. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "output.h"
#include "schedtree.h"
#include "session.h"
#include "strutil.h"

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree show [options] [GROUP]\n"
	      "\n"
	      "Show the effective CFQ scheduling tree: groups placed by the\n"
	      "use_hierarchy rules, tasks under their group, each with its weight\n"
	      "and expected share of the device when all are busy; then each\n"
	      "device's active scheduler.\n"
	      "\n"
	      "Options:\n"
	      " -d, --device MAJ:MIN  use this device's weights (weight_device)\n"
	      " -p, --pid LIST        count only these tasks as busy (comma-separated)\n"
	      " -b, --busy            idle groups (no task below them) get no share\n"
	      " -J, --json            use JSON output format\n"
	      " -r, --raw             use raw output format\n"
	      " -n, --noheadings      don't print headings\n"
	      " -i, --ascii           use ASCII characters for tree formatting\n"
	      " -h, --help            display this help\n"
	      "\n"
	      "For more details see blkiotree-show(8).\n", stdout);
}

#define DEBUGFS "/sys/kernel/debug"

/*
 * Compare the model with the kernel's scheduling tree of every listed
 * device under cfq that has one (docs/debugfs-tree.md).
 */
static struct bt_kernel_check *check_kernel(const struct bt_show *show)
{
	struct bt_kernel_check *checks = xcalloc(show->ndevices ?
						 show->ndevices : 1,
						 sizeof(*checks));

	for (size_t i = 0; i < show->ndevices; i++) {
		struct bt_ktree ktree;
		char *why = NULL;
		int err;

		if (strcmp(show->devices[i].scheduler, "cfq"))
			continue;
		err = bt_ktree_read(DEBUGFS, show->devices[i].name, &ktree,
				    &why);
		if (err == EINVAL) {
			checks[i].error = why;
		} else if (err && err != ENOENT) {
			checks[i].error = xstrdup(strerror(err));
		} else if (!err) {
			checks[i].read = true;
			checks[i].ndiffs = bt_ktree_compare(&ktree, show->sched,
							    &checks[i].diffs);
			bt_ktree_free(&ktree);
		}
	}
	return checks;
}

static void free_kernel_checks(struct bt_kernel_check *checks, size_t n)
{
	for (size_t i = 0; checks && i < n; i++) {
		for (size_t j = 0; j < checks[i].ndiffs; j++)
			free(checks[i].diffs[j]);
		free(checks[i].diffs);
		free(checks[i].error);
	}
	free(checks);
}

/* "12,34" -> pids; false on anything else */
static bool parse_pids(const char *text, pid_t **pids, size_t *npids)
{
	char *copy = xstrdup(text), *save, *item;
	bool ok = true;

	*pids = NULL;
	*npids = 0;
	for (item = strtok_r(copy, ",", &save); item && ok;
	     item = strtok_r(NULL, ",", &save)) {
		long long v;

		ok = !str_to_ll(item, &v) && v > 0 && v <= 0x7fffffff;
		if (ok) {
			*pids = xreallocarray(*pids, *npids + 1, sizeof(**pids));
			(*pids)[(*npids)++] = v;
		}
	}
	free(copy);
	return ok && *npids;
}

int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "busy", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'J' },
		{ "raw", no_argument, NULL, 'r' },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "ascii", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bt_show_format format = { 0 };
	struct bt_show show = { 0 };
	struct bt_session session;
	struct bt_kernel_check *kernel;
	struct bt_entity *sched;
	const char *device = NULL;
	char *path = NULL;
	pid_t *pids = NULL;
	size_t npids = 0;
	bool busy = false;
	int c, status;

	while ((c = getopt_long(argc, argv, ":d:p:bJrnih", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = optarg;
			if (!str_to_devnum(device, &show.major, &show.minor))
				return bt_usage_error("show", "--device %s: "
						      "expected MAJ:MIN", device);
			show.have_device = true;
			break;
		case 'p':
			free(pids);
			if (!parse_pids(optarg, &pids, &npids)) {
				free(pids);
				return bt_usage_error("show", "--pid %s: "
						      "expected PID[,PID...]",
						      optarg);
			}
			break;
		case 'b':
			busy = true;
			break;
		case 'J':
			format.json = true;
			break;
		case 'r':
			format.raw = true;
			break;
		case 'n':
			format.noheadings = true;
			break;
		case 'i':
			format.ascii = true;
			break;
		case 'h':
			free(pids);
			usage();
			return BT_EXIT_OK;
		default:
			free(pids);
			return bt_option_error("show", c, argv, longopts);
		}
	}
	if (argc - optind > 1) {
		free(pids);
		return bt_usage_error("show", "only one group can be shown");
	}
	if (optind < argc) {
		path = bt_group_operand("show", argv[optind], &status);
		if (!path) {
			free(pids);
			return status;
		}
	}

	status = bt_session_open(&session, "show", true);
	if (status != BT_EXIT_OK)
		goto out;
	show.mount = session.fs.mount;
	show.cfq_policy = session.fs.cfq_policy;
	show.hierarchy = session.fs.hierarchy;
	show.devices = session.devices;
	show.ndevices = session.ndevices;
	if (path) {
		show.focus = bt_group_find(session.tree, path);
		if (!show.focus) {
			bt_error("show /%s: no such group (ENOENT)", path);
			status = BT_EXIT_REFUSED;
			goto close;
		}
	}
	if (show.have_device) {
		show.devices = bt_blockdev_find(session.devices,
						session.ndevices, show.major,
						show.minor);
		show.ndevices = 1;
		if (!show.devices) {
			bt_error("show --device %s: no block device %s (ENODEV)",
				 device, device);
			status = BT_EXIT_REFUSED;
			goto close;
		}
	}
	if (pids)
		bt_tree_keep_tasks(session.tree, pids, npids);

	sched = bt_sched_build(session.tree, show.have_device, show.major,
			       show.minor);
	if (busy)
		bt_sched_only_tasks_busy(sched);
	show.sched = sched;
	kernel = check_kernel(&show);
	show.kernel = kernel;
	bt_output_warnings(stderr, &show);
	if (bt_output_show(stdout, &show, &format) || fflush(stdout)) {
		bt_error("show: cannot write the output: %s", strerror(errno));
		status = BT_EXIT_FAILURE;
	}
	free_kernel_checks(kernel, show.ndevices);
	bt_sched_free(sched);
close:
	bt_session_close(&session);
out:
	free(path);
	free(pids);
	return status;
}
