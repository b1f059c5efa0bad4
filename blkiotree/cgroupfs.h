/*
 * Access to the blkio cgroup hierarchy through libcgroup.  The only file
 * that touches cgroups.  Functions return 0 or an errno value; a libcgroup
 * error caused by the kernel is turned back into the kernel's errno
 * (cgroup_get_last_errno()) so that the rules can explain it.
 */
#ifndef BLKIOTREE_CGROUPFS_H
#define BLKIOTREE_CGROUPFS_H

#include <stdbool.h>
#include <sys/types.h>

#include "tree.h"

struct bt_cgroupfs {
	char *mount;		/* where blkio is mounted */
	bool cfq_policy;	/* blkio.weight exists: the cfq policy */
	bool hierarchy;		/* blkio.use_hierarchy exists too */
};

/*
 * Find the blkio hierarchy.  Returns 0, or ENOENT when no blkio hierarchy
 * is mounted (other errno values: libcgroup could not start).
 */
int bt_cgroupfs_open(struct bt_cgroupfs *fs);
void bt_cgroupfs_close(struct bt_cgroupfs *fs);

/* Read every group, its policy values and its tasks into a new tree. */
int bt_cgroupfs_load(const struct bt_cgroupfs *fs, struct bt_tree **tree);

int bt_cgroupfs_create(const char *path);
/* Write @value into @file ("blkio.weight", ...) of the group. */
int bt_cgroupfs_write(const char *path,
		      const char *file, const char *value);
/* Remove a group (and its subgroups); its tasks move to the parent. */
int bt_cgroupfs_delete(const char *path,
		       bool recursive);
/*
 * Move the whole process that thread @pid belongs to, every thread of it,
 * into the group: @pid written to the group's cgroup.procs, as cgexec and
 * cgclassify users expect (the tasks file would move one thread only).
 */
int bt_cgroupfs_attach(const struct bt_cgroupfs *fs, const char *path,
		       pid_t pid);

#endif
