/*
 * The kernel's own scheduling tree: CFQ's debugfs file
 * /sys/kernel/debug/block/<disk>/sched/tree (docs/debugfs-tree.md), read
 * and compared with blkiotree's model, so that "show" can mark where the
 * kernel places a group or a task's queue elsewhere than the model does.
 *
 * Only placement is compared (which entity a group or a sync queue sits
 * under), as sets: sibling order, vdisktime and busy say nothing about
 * the model.  Groups of removed cgroups (online=0) and async queues are
 * left out; a task the model does not show (filtered by --pid, exited) is
 * no disagreement, and neither is a model group the kernel has no group
 * for yet (CFQ makes a group at the cgroup's first I/O on the disk).
 */
#ifndef BLKIOTREE_SCHEDTREE_H
#define BLKIOTREE_SCHEDTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "tree.h"

enum bt_kkind {
	BT_KPIVOT,
	BT_KGROUP,
	BT_KQUEUE,
};

struct bt_kentity {
	enum bt_kkind kind;
	unsigned depth;		/* 0 for the pivot */
	long parent;		/* index of the entity it sits under; -1: none */
	char *path;		/* GROUP: "/" or "/a/b" */
	pid_t pid;		/* QUEUE: owner, 0 for an async queue */
	bool online;		/* GROUP: false when marked online=0 */
	bool sync;		/* QUEUE */
};

struct bt_ktree {
	struct bt_kentity *entities;	/* in the file's (pre-)order */
	size_t n;
};

/*
 * Parse the file's text.  Returns 0, or EINVAL with *@why set (caller
 * frees) naming the first line that breaks the format.  Unknown fields
 * are ignored, as the format asks.
 */
int bt_ktree_parse(const char *text, struct bt_ktree *tree, char **why);
/*
 * Read and parse @debugfs/block/@disk/sched/tree.  Returns 0, ENOENT when
 * the kernel has no such file (not cfq, no debugfs, an older cfq),
 * EINVAL as bt_ktree_parse(), or another errno.
 */
int bt_ktree_read(const char *debugfs, const char *disk,
		  struct bt_ktree *tree, char **why);
void bt_ktree_free(struct bt_ktree *tree);

/*
 * Where the kernel and the model (@sched, from bt_sched_build()) place
 * something differently: one sentence each, appended to *@diffs (caller
 * frees each and the array).  Returns how many.
 */
size_t bt_ktree_compare(const struct bt_ktree *tree,
			const struct bt_entity *sched, char ***diffs);

#endif
