/*
 * Block devices and their active I/O scheduler, from /sys/block.  Weights
 * only take effect on a device whose active scheduler is cfq, and only
 * when the blkio hierarchy has the cfq policy files.
 */
#ifndef BLKIOTREE_SYSBLOCK_H
#define BLKIOTREE_SYSBLOCK_H

#include <stdbool.h>
#include <stddef.h>

struct bt_blockdev {
	char name[64];
	unsigned major, minor;
	char scheduler[32];		/* the active one, "none" if none */
};

/*
 * Read every device under @sysfs/block (normally @sysfs is "/sys"),
 * sorted by name, leaving out devices of size 0.  Returns 0 or a negative errno.
 */
int bt_blockdevs_read(const char *sysfs, struct bt_blockdev **devs,
		      size_t *ndevs);
/*
 * The active scheduler of a queue/scheduler line: "mq-deadline [bfq]
 * none" -> "bfq", and "none" alone (a queue without an elevator) ->
 * "none".  False for any other line (no bracketed name among several,
 * two, a bracket, blank or control character inside a name) and for a
 * name that does not fit @size with its NUL.
 */
bool bt_scheduler_parse(const char *line, char *active, size_t size);
const struct bt_blockdev *bt_blockdev_find(const struct bt_blockdev *devs,
					   size_t ndevs, unsigned major,
					   unsigned minor);
/* Why weights cannot take effect on @dev (the caller frees it), or NULL. */
char *bt_blockdev_weight_problem(const struct bt_blockdev *dev,
				 bool cfq_policy);

#endif
