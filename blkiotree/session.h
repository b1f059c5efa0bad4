/*
 * What every command that reads or writes the hierarchy starts from: the
 * blkio mount, the model read from it and the device list; and the one
 * way plans are written.
 */
#ifndef BLKIOTREE_SESSION_H
#define BLKIOTREE_SESSION_H

#include <stdio.h>

#include "cgroupfs.h"
#include "plan.h"
#include "rules.h"
#include "sysblock.h"
#include "tree.h"

struct bt_session {
	struct bt_cgroupfs fs;
	struct bt_tree *tree;
	struct bt_blockdev *devices;
	size_t ndevices;
	struct bt_env env;
	bool task_details;
};

/*
 * Returns an exit status; on failure the reason is already printed.
 * @task_details: see bt_cgroupfs_load().
 */
int bt_session_open(struct bt_session *session, const char *cmd,
		    bool task_details);
/*
 * The same on the hierarchy at @mount, changed through @ops: how the unit
 * tests run a command's plan on a fake hierarchy in a directory.
 */
int bt_session_open_at(struct bt_session *session, const char *cmd,
		       const char *mount, const struct bt_cgroupfs_ops *ops,
		       bool task_details);
void bt_session_close(struct bt_session *session);
/*
 * Read the groups and tasks again into session->tree (top, at every
 * interval); the mount and the device list stay.  Returns an exit
 * status; on failure the reason is already printed.
 */
int bt_session_reload(struct bt_session *session, const char *cmd);

/*
 * Write the plan's steps in order.  If the kernel refuses one, the steps
 * already written are undone, last first (a deleted group is created
 * again with its values and threads), and the refusal is explained in
 * the rules' words against the hierarchy as it was when refused.  If an
 * undo fails too, the message lists the steps that stay written and the
 * exit status is BT_EXIT_FAILURE.  With @trace, each step is printed to
 * @trace as it is written.  Returns an exit status.
 */
int bt_session_commit(struct bt_session *session, const struct bt_plan *plan,
		      FILE *trace);
/*
 * The end shared by the commands that build a plan from their arguments
 * (create, set, delete, attach, exec), so they report a refusal and clean
 * up in one way: if building the plan failed with @err, print @why and
 * return the exit status for @err, else commit the plan (no trace).
 * Either way frees @why and the plan and closes the session.
 */
int bt_session_finish(struct bt_session *session, struct bt_plan *plan,
		      int err, char *why);
/* Print the steps that write something, one per line. */
void bt_plan_print(FILE *out, const struct bt_plan *plan);

#endif
