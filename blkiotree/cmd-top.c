/*
 * blkiotree top: show's scheduling tree, and beside each entity the share
 * of one device's disk time and bytes it really got over each interval,
 * redrawn as systemd-cgtop does.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmds.h"
#include "measure.h"
#include "output.h"
#include "procinfo.h"
#include "session.h"
#include "strutil.h"

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree top [options] [GROUP]\n"
	      "\n"
	      "Show the effective CFQ scheduling tree as show does and, beside each\n"
	      "entity's expected share, the share of the device's disk time and\n"
	      "bytes it got over the last interval; redraw it every interval.\n"
	      "\n"
	      "Options:\n"
	      " -d, --device MAJ:MIN    measure this device (default: the one that\n"
	      "                         runs cfq)\n"
	      " -i, --interval SECONDS  measure over SECONDS (default 1)\n"
	      " -n, --iterations COUNT  stop after COUNT intervals (default: never)\n"
	      " -b, --batch             print one table an interval, never clear\n"
	      "                         the screen\n"
	      " -J, --json              use JSON output format, one document an\n"
	      "                         interval\n"
	      " -r, --raw               use raw output format\n"
	      " -h, --help              display this help\n"
	      "\n"
	      "For more details see blkiotree-top(8).\n", stdout);
}

#define DEFAULT_INTERVAL_MS	1000

struct top_options {
	struct bt_show_format format;
	const char *device;		/* --device as given, or NULL */
	unsigned major, minor;
	unsigned long interval_ms;
	unsigned long iterations;	/* 0: until interrupted */
	bool batch;
	char *path;			/* GROUP, or NULL */
};

/*
 * Fill @o from the command line.  Returns true when the command is done,
 * with *@status its exit status (help printed, or a usage error).
 */
static bool parse_options(int argc, char **argv, struct top_options *o,
			  int *status)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "interval", required_argument, NULL, 'i' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "batch", no_argument, NULL, 'b' },
		{ "json", no_argument, NULL, 'J' },
		{ "raw", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long long count;
	int c;

	*o = (struct top_options){ .interval_ms = DEFAULT_INTERVAL_MS };
	while ((c = getopt_long(argc, argv, ":d:i:n:bJrh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'd':
			o->device = optarg;
			if (!str_to_devnum(optarg, &o->major, &o->minor)) {
				*status = bt_usage_error("top", "--device %s: "
							 "expected MAJ:MIN",
							 optarg);
				return true;
			}
			break;
		case 'i':
			if (!bt_parse_interval(optarg, &o->interval_ms)) {
				*status = bt_usage_error("top", "--interval %s: "
					"expected SECONDS greater than 0, up to "
					"86400, with at most 3 decimals", optarg);
				return true;
			}
			break;
		case 'n':
			if (str_to_ll(optarg, &count) || count < 1) {
				*status = bt_usage_error("top", "--iterations "
							 "%s: expected a COUNT "
							 "of 1 or more", optarg);
				return true;
			}
			o->iterations = count;
			break;
		case 'b':
			o->batch = true;
			break;
		case 'J':
			o->format.json = true;
			break;
		case 'r':
			o->format.raw = true;
			break;
		case 'h':
			usage();
			*status = BT_EXIT_OK;
			return true;
		default:
			*status = bt_option_error("top", c, argv, longopts);
			return true;
		}
	}
	if (argc - optind > 1) {
		*status = bt_usage_error("top", "only one group can be shown");
		return true;
	}
	if (optind < argc) {
		o->path = bt_group_operand("top", argv[optind], status);
		return !o->path;
	}
	return false;
}

/*
 * The device to measure: --device's, else the only one whose active
 * scheduler is cfq.  NULL after the error, with *@status set.
 */
static const struct bt_blockdev *pick_device(const struct bt_session *session,
					     const struct top_options *o,
					     int *status)
{
	const struct bt_blockdev *found = NULL;
	size_t ncfq = 0;

	if (o->device) {
		found = bt_blockdev_find(session->devices, session->ndevices,
					 o->major, o->minor);
		if (!found) {
			bt_error("top --device %s: no block device %s (ENODEV)",
				 o->device, o->device);
			*status = BT_EXIT_REFUSED;
		}
		return found;
	}
	for (size_t i = 0; i < session->ndevices; i++) {
		if (strcmp(session->devices[i].scheduler, "cfq"))
			continue;
		found = &session->devices[i];
		ncfq++;
	}
	if (ncfq == 1)
		return found;
	if (ncfq) {
		*status = bt_usage_error("top", "%zu block devices run cfq; "
					 "name one with --device MAJ:MIN", ncfq);
	} else {
		bt_error("top: no block device runs cfq; name one with "
			 "--device MAJ:MIN");
		*status = BT_EXIT_NO_POLICY;
	}
	return NULL;
}

/*
 * A group's counter for @dev in @file.  A file without a line for the
 * device is a group that has done no I/O there yet: CFQ starts at 0.
 */
static struct bt_reading read_group_counter(const struct bt_cgroupfs *fs,
					    const struct bt_group *group,
					    const char *file,
					    const struct bt_blockdev *dev,
					    bool (*parse)(const char *text,
							  unsigned major,
							  unsigned minor,
							  uint64_t *value))
{
	struct bt_reading reading = { 0 };
	char *text;

	if (bt_cgroupfs_read(fs, group->path, file, &text))
		return reading;
	reading.valid = true;
	if (!parse(text, dev->major, dev->minor, &reading.value))
		reading.value = 0;
	free(text);
	return reading;
}

static struct bt_reading read_task_bytes(pid_t tid)
{
	struct bt_reading reading = { 0 };
	char *text;

	/* another user's task needs root to read */
	if (bt_procinfo_io_text(tid, &text))
		return reading;
	reading.valid = bt_parse_proc_io(text, &reading.value);
	free(text);
	return reading;
}

/* The counters of every group and of every task show would list. */
static void take_sample(const struct bt_session *session,
			const struct bt_blockdev *dev, struct bt_sample *sample)
{
	for (struct bt_group *g = session->tree->root; g;
	     g = bt_group_next(g)) {
		bt_sample_add_group(sample, g->path,
			read_group_counter(&session->fs, g, "blkio.time", dev,
					   bt_parse_blkio_time),
			read_group_counter(&session->fs, g,
					   "blkio.io_service_bytes", dev,
					   bt_parse_service_bytes));
		for (size_t i = 0; i < g->ntasks; i++)
			if (!g->tasks[i].kthread)
				bt_sample_add_task(sample, g->tasks[i].pid,
					read_task_bytes(g->tasks[i].pid));
	}
}

static void sleep_ms(unsigned long ms)
{
	struct timespec left = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&left, &left) && errno == EINTR)
		;
}

static struct bt_show show_of(const struct bt_session *session,
			      const struct bt_blockdev *dev,
			      unsigned long interval_ms)
{
	return (struct bt_show){
		.mount = session->fs.mount,
		.cfq_policy = session->fs.cfq_policy,
		.hierarchy = session->fs.hierarchy,
		/* the device measured is the one whose weights count */
		.have_device = true,
		.major = dev->major,
		.minor = dev->minor,
		.devices = dev,
		.ndevices = 1,
		.interval_ms = interval_ms,
	};
}

/* The focus group, or NULL after the error naming it. */
static const struct bt_group *find_focus(const struct bt_tree *tree,
					 const char *path)
{
	const struct bt_group *focus = bt_group_find(tree, path);

	if (!focus)
		bt_error("top /%s: no such group (ENOENT)", path);
	return focus;
}

/* One table or document: the tree now, measured from @before to @after. */
static int print_interval(const struct bt_session *session,
			  const struct bt_blockdev *dev,
			  const struct top_options *o, struct bt_sample *before,
			  struct bt_sample *after)
{
	struct bt_show show = show_of(session, dev, o->interval_ms);
	struct bt_measure *measures;
	struct bt_entity *sched;
	int status = BT_EXIT_OK;

	if (o->path) {
		show.focus = find_focus(session->tree, o->path);
		if (!show.focus)
			return BT_EXIT_REFUSED;
	}
	sched = bt_sched_build(session->tree, true, dev->major, dev->minor);
	measures = bt_measure_tree(sched, before, after);
	show.sched = sched;
	if (bt_output_show(stdout, &show, &o->format) || fflush(stdout)) {
		bt_error("top: cannot write the output: %s", strerror(errno));
		status = BT_EXIT_FAILURE;
	}
	free(measures);
	bt_sched_free(sched);
	return status;
}

static int run(struct bt_session *session, const struct bt_blockdev *dev,
	       const struct top_options *o)
{
	bool redraw = !o->batch && !o->format.json && isatty(STDOUT_FILENO);
	struct bt_sample before = { 0 }, after = { 0 };
	int status = BT_EXIT_OK;

	take_sample(session, dev, &before);
	for (unsigned long n = 0; !o->iterations || n < o->iterations; n++) {
		sleep_ms(o->interval_ms);
		status = bt_session_reload(session, "top");
		if (status != BT_EXIT_OK)
			break;
		take_sample(session, dev, &after);
		if (redraw)
			fputs("\033[H\033[2J", stdout);	/* home, clear */
		else if (n && !o->format.json)
			fputc('\n', stdout);	/* between tables */
		status = print_interval(session, dev, o, &before, &after);
		bt_sample_free(&before);
		before = after;
		after = (struct bt_sample){ 0 };
		if (status != BT_EXIT_OK)
			break;
	}
	bt_sample_free(&before);
	return status;
}

int cmd_top(int argc, char **argv)
{
	const struct bt_blockdev *dev;
	struct bt_session session;
	struct top_options o;
	struct bt_show show;
	int status;

	if (parse_options(argc, argv, &o, &status))
		return status;
	status = bt_session_open(&session, "top", true);
	if (status != BT_EXIT_OK)
		goto out;
	if (!session.fs.cfq_policy) {
		bt_error("top: the blkio hierarchy has no cfq policy files "
			 "(blkio.time): nothing to measure");
		status = BT_EXIT_NO_POLICY;
		goto close;
	}
	dev = pick_device(&session, &o, &status);
	if (!dev)
		goto close;
	if (o.path && !find_focus(session.tree, o.path)) {
		status = BT_EXIT_REFUSED;
		goto close;
	}
	/* once: a redrawn screen would wipe them */
	show = show_of(&session, dev, o.interval_ms);
	bt_output_warnings(stderr, &show);
	status = run(&session, dev, &o);
close:
	bt_session_close(&session);
out:
	free(o.path);
	return status;
}
