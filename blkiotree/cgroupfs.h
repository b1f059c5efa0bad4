/*
 * Access to the blkio cgroup hierarchy.  The only file that touches
 * cgroups.  libcgroup finds the mount, walks, reads and deletes; creating
 * a group and writing a file are a mkdir(2) and a write(2) in the mount it
 * found (see cgroupfs.c for why).  Functions return 0 or an errno value; a
 * libcgroup error caused by the kernel is turned back into the kernel's
 * errno (cgroup_get_last_errno()) so that the rules can explain it.
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

/*
 * Read every group, its policy values and its tasks into a new tree.
 * Without @task_details a task is only its thread ID (no name, process or
 * I/O priority from /proc): enough for the rules of every command but
 * show and attach, and three /proc reads a task cheaper.
 */
int bt_cgroupfs_load(const struct bt_cgroupfs *fs, bool task_details,
		     struct bt_tree **tree);

/*
 * The whole text of @file ("blkio.time", ...) of the group, in *@text
 * (caller frees).
 */
int bt_cgroupfs_read(const struct bt_cgroupfs *fs, const char *path,
		     const char *file, char **text);
/* Create one group; its parent exists. */
int bt_cgroupfs_create(const struct bt_cgroupfs *fs, const char *path);
/* Write @value into @file ("blkio.weight", ...) of the group, in one write. */
int bt_cgroupfs_write(const struct bt_cgroupfs *fs, const char *path,
		      const char *file, const char *value);
/* Remove a group (and its subgroups); its tasks move to the parent. */
int bt_cgroupfs_delete(const char *path,
		       bool recursive);
/*
 * Move the whole process that thread @pid belongs to, every thread of it,
 * into the group: @pid written to the group's cgroup.procs, as cgexec and
 * cgclassify users expect.  With @thread, move that thread alone: @pid
 * written to the group's tasks file (CFQ queues a thread's I/O on its
 * own, so one thread of a process can be given its own group).
 */
int bt_cgroupfs_attach(const struct bt_cgroupfs *fs, const char *path,
		       pid_t pid, bool thread);

#endif
