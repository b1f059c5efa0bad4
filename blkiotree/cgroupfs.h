/*
 * Access to the blkio cgroup hierarchy.  The only file that touches
 * cgroups.  libcgroup finds the mount; everything below it is read and
 * written straight in the mount it found (see cgroupfs.c for why), so
 * that the errno is the kernel's own and the same code runs on the unit
 * tests' fake hierarchy in a directory.  Functions return 0 or an errno
 * value.
 */
#ifndef BLKIOTREE_CGROUPFS_H
#define BLKIOTREE_CGROUPFS_H

#include <stdbool.h>
#include <sys/types.h>

#include "tree.h"

/*
 * The three system calls that change the hierarchy, each given a full
 * path below the mount, each returning 0 or an errno value.  Every change
 * blkiotree makes goes through one of them: the seam where the unit tests
 * put a fake hierarchy that behaves as the kernel's does and fail any one
 * call (tests/unit/fakecg.c).
 */
struct bt_cgroupfs_ops {
	int (*mkdir)(const char *dir);
	int (*rmdir)(const char *dir);
	/* @value in one write(2), as the kernel takes a policy value */
	int (*write)(const char *file, const char *value);
};

struct bt_cgroupfs {
	char *mount;		/* where blkio is mounted */
	bool cfq_policy;	/* blkio.weight exists: the cfq policy */
	bool hierarchy;		/* blkio.use_hierarchy exists too */
	const struct bt_cgroupfs_ops *ops;
};

/*
 * Find the blkio hierarchy.  Returns 0, or ENOENT when no blkio hierarchy
 * is mounted (other errno values: libcgroup could not start).
 */
int bt_cgroupfs_open(struct bt_cgroupfs *fs);
/* Use the hierarchy at @mount, changed through @ops: for the unit tests. */
void bt_cgroupfs_open_at(struct bt_cgroupfs *fs, const char *mount,
			 const struct bt_cgroupfs_ops *ops);
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
/*
 * Remove a group that has no child group: its tasks move to the parent
 * one thread at a time (as libcgroup's cgdelete moves them), then the
 * directory goes.  When this fails, some threads may have moved: the
 * caller puts them back.
 */
int bt_cgroupfs_delete(const struct bt_cgroupfs *fs, const char *path);
/* The thread IDs in the group's tasks file, in *@tids (caller frees). */
int bt_cgroupfs_threads(const struct bt_cgroupfs *fs, const char *path,
			pid_t **tids, size_t *ntids);
/*
 * Move threads @tids one by one into the group (its tasks file); one that
 * has exited is no error.  Returns 0 or the first other error, with
 * *@moved how many were moved before it.
 */
int bt_cgroupfs_move_threads(const struct bt_cgroupfs *fs, const char *path,
			     const pid_t *tids, size_t ntids, size_t *moved);
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
