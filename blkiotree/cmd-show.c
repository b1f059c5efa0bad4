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
	      " -l, --list            use list format output\n"
	      " -o, --output COLUMNS  output columns; +COLUMNS adds to the default\n"
	      " -P, --pairs           use key=\"value\" output format\n"
	      " -r, --raw             use raw output format\n"
	      " -n, --noheadings      don't print headings\n"
	      " -i, --ascii           use ASCII characters for tree formatting\n"
	      " -h, --help            display this help\n", stdout);
	bt_output_columns_help(stdout);
	fputs("\nFor more details see blkiotree-show(8).\n", stdout);
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
		/* debugfs is root's: say so once, not once a device */
		if (err == EACCES || err == EPERM) {
			bt_error("warning: cannot read the kernel's scheduling "
				 "trees in %s: %s (debugfs is root's), so they "
				 "are not compared with the model", DEBUGFS,
				 strerror(err));
			break;
		}
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

struct show_options {
	struct bt_show_format format;
	const char *device;	/* --device as given, or NULL */
	unsigned major, minor;
	pid_t *pids;		/* --pid's, or NULL */
	size_t npids;
	bool busy;
	char *path;		/* GROUP, or NULL */
};

/* The output options that cannot go together, as lsblk's; or NULL. */
static const char *format_conflict(const struct bt_show_format *format)
{
	if (format->json + format->pairs + format->raw > 1)
		return "--json --pairs --raw";
	/* the JSON document is a tree; --pairs is the list for scripts */
	if (format->json && format->list)
		return "--json --list";
	return NULL;
}

/*
 * Fill @o from the command line (the caller frees its pids and path).
 * Returns true when the command is done, with *@status its exit status
 * (help printed, or a usage error).
 */
static bool parse_options(int argc, char **argv, struct show_options *o,
			  int *status)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "pid", required_argument, NULL, 'p' },
		{ "busy", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'J' },
		{ "list", no_argument, NULL, 'l' },
		{ "output", required_argument, NULL, 'o' },
		{ "pairs", no_argument, NULL, 'P' },
		{ "raw", no_argument, NULL, 'r' },
		{ "noheadings", no_argument, NULL, 'n' },
		{ "ascii", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *conflict;
	char *why;
	int c;

	*o = (struct show_options){ 0 };
	while ((c = getopt_long(argc, argv, ":d:p:bJlo:Prnih", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			o->device = optarg;
			if (!str_to_devnum(optarg, &o->major, &o->minor)) {
				*status = bt_usage_error("show", "--device %s: "
							 "expected MAJ:MIN",
							 optarg);
				return true;
			}
			break;
		case 'p':
			free(o->pids);
			if (!parse_pids(optarg, &o->pids, &o->npids)) {
				*status = bt_usage_error("show", "--pid %s: "
							 "expected PID[,PID...]",
							 optarg);
				return true;
			}
			break;
		case 'b':
			o->busy = true;
			break;
		case 'J':
			o->format.json = true;
			break;
		case 'l':
			o->format.list = true;
			break;
		case 'o':
			/* as lsblk's, the last --output counts */
			why = bt_output_parse_columns(optarg, &o->format);
			if (why) {
				*status = bt_usage_error("show", "%s", why);
				free(why);
				return true;
			}
			break;
		case 'P':
			o->format.pairs = true;
			break;
		case 'r':
			o->format.raw = true;
			break;
		case 'n':
			o->format.noheadings = true;
			break;
		case 'i':
			o->format.ascii = true;
			break;
		case 'h':
			usage();
			*status = BT_EXIT_OK;
			return true;
		default:
			*status = bt_option_error("show", c, argv, longopts);
			return true;
		}
	}
	conflict = format_conflict(&o->format);
	if (conflict) {
		*status = bt_usage_error("show", "mutually exclusive arguments: "
					 "%s", conflict);
		return true;
	}
	if (argc - optind > 1) {
		*status = bt_usage_error("show", "only one group can be shown");
		return true;
	}
	if (optind < argc) {
		o->path = bt_group_operand("show", argv[optind], status);
		return !o->path;
	}
	return false;
}

int cmd_show(int argc, char **argv)
{
	struct bt_show show = { 0 };
	struct bt_session session;
	struct bt_kernel_check *kernel;
	struct show_options o;
	struct bt_entity *sched;
	int status;

	if (parse_options(argc, argv, &o, &status))
		goto out;
	status = bt_session_open(&session, "show", true);
	if (status != BT_EXIT_OK)
		goto out;
	show.mount = session.fs.mount;
	show.cfq_policy = session.fs.cfq_policy;
	show.hierarchy = session.fs.hierarchy;
	show.devices = session.devices;
	show.ndevices = session.ndevices;
	if (o.path) {
		show.focus = bt_group_find(session.tree, o.path);
		if (!show.focus) {
			bt_error("show /%s: no such group (ENOENT)", o.path);
			status = BT_EXIT_REFUSED;
			goto close;
		}
	}
	if (o.device) {
		show.have_device = true;
		show.major = o.major;
		show.minor = o.minor;
		show.devices = bt_blockdev_find(session.devices,
						session.ndevices, o.major,
						o.minor);
		show.ndevices = 1;
		if (!show.devices) {
			bt_error("show --device %s: no block device %s (ENODEV)",
				 o.device, o.device);
			status = BT_EXIT_REFUSED;
			goto close;
		}
	}
	if (o.pids)
		bt_tree_keep_tasks(session.tree, o.pids, o.npids);

	sched = bt_sched_build(session.tree, show.have_device, show.major,
			       show.minor);
	if (o.busy)
		bt_sched_only_tasks_busy(sched);
	show.sched = sched;
	kernel = check_kernel(&show);
	show.kernel = kernel;
	bt_output_warnings(stderr, &show);
	if (bt_output_show(stdout, &show, &o.format) || fflush(stdout)) {
		bt_error("show: cannot write the output: %s", strerror(errno));
		status = BT_EXIT_FAILURE;
	}
	free_kernel_checks(kernel, show.ndevices);
	bt_sched_free(sched);
close:
	bt_session_close(&session);
out:
	free(o.path);
	free(o.pids);
	return status;
}
