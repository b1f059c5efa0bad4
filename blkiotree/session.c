/* Reading the hierarchy and writing plans; see session.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "session.h"
#include "strutil.h"

int bt_session_open(struct bt_session *session, const char *cmd,
		    bool task_details)
{
	int err, status;

	memset(session, 0, sizeof(*session));
	err = bt_cgroupfs_open(&session->fs);
	if (err == ENOENT) {
		bt_error("%s: no blkio cgroup hierarchy is mounted "
			 "(mount -t cgroup -o blkio blkio /sys/fs/cgroup/blkio)",
			 cmd);
		return BT_EXIT_NO_POLICY;
	}
	if (err) {
		bt_error("%s: cannot initialize libcgroup: %s", cmd,
			 strerror(err));
		return BT_EXIT_FAILURE;
	}
	session->task_details = task_details;
	status = bt_session_reload(session, cmd);
	if (status != BT_EXIT_OK) {
		bt_cgroupfs_close(&session->fs);
		return status;
	}
	/* without /sys/block there are no devices to name, which is no error */
	if (bt_blockdevs_read("/sys", &session->devices, &session->ndevices))
		session->ndevices = 0;
	session->env = (struct bt_env){
		.mount = session->fs.mount,
		.cfq_policy = session->fs.cfq_policy,
		.hierarchy = session->fs.hierarchy,
		.devices = session->devices,
		.ndevices = session->ndevices,
	};
	return BT_EXIT_OK;
}

int bt_session_reload(struct bt_session *session, const char *cmd)
{
	struct bt_tree *tree;
	int err = bt_cgroupfs_load(&session->fs, session->task_details, &tree);

	if (err) {
		bt_error("%s: cannot read %s: %s", cmd, session->fs.mount,
			 strerror(err));
		return BT_EXIT_FAILURE;
	}
	bt_tree_free(session->tree);
	session->tree = tree;
	return BT_EXIT_OK;
}

void bt_session_close(struct bt_session *session)
{
	bt_tree_free(session->tree);
	free(session->devices);
	bt_cgroupfs_close(&session->fs);
	memset(session, 0, sizeof(*session));
}

static int write_set(const struct bt_cgroupfs *fs, const char *path,
		     enum bt_key key, const struct bt_op *op, unsigned number)
{
	char *value = key == BT_KEY_WEIGHT_DEVICE ?
		xasprintf("%u:%u %u", op->major, op->minor, number) :
		xasprintf("%u", number);
	int err = bt_cgroupfs_write(fs, path, bt_key_file(key), value);

	free(value);
	return err;
}

static int write_step(const struct bt_cgroupfs *fs, const struct bt_op *op)
{
	switch (op->type) {
	case BT_OP_CREATE:
		return bt_cgroupfs_create(fs, op->path);
	case BT_OP_SET:
		return write_set(fs, op->path, op->key, op, op->number);
	case BT_OP_DELETE:
		return bt_cgroupfs_delete(op->path, op->recursive);
	case BT_OP_ATTACH:
		return bt_cgroupfs_attach(fs, op->path, op->pid, op->thread);
	}
	return EINVAL;
}

/* Put back what a written step changed.  A delete is always a plan's last step. */
static int undo_step(const struct bt_cgroupfs *fs, const struct bt_op *op,
		     const struct bt_undo *undo)
{
	switch (op->type) {
	case BT_OP_CREATE:
		return bt_cgroupfs_delete(op->path, false);
	case BT_OP_SET:
		return write_set(fs, op->path, op->key, op, undo->number);
	case BT_OP_ATTACH:
		return bt_cgroupfs_attach(fs, undo->from_path, op->pid,
					  op->thread);
	case BT_OP_DELETE:
		break;
	}
	return 0;
}

void bt_plan_print(FILE *out, const struct bt_plan *plan)
{
	for (size_t i = 0; i < plan->nops; i++) {
		char *text;

		if (plan->ops[i].noop)
			continue;
		text = bt_op_describe(&plan->ops[i]);
		fprintf(out, "%s\n", text);
		free(text);
	}
}

int bt_session_commit(struct bt_session *session, const struct bt_plan *plan,
		      FILE *trace)
{
	struct bt_tree *now = NULL;
	char *what, *words;
	size_t failed;
	int err = 0, undo_err = 0;

	for (failed = 0; failed < plan->nops; failed++) {
		const struct bt_op *op = &plan->ops[failed];

		if (op->noop)
			continue;
		if (trace) {
			what = bt_op_describe(op);
			fprintf(trace, "%s\n", what);
			free(what);
		}
		err = write_step(&session->fs, op);
		if (err)
			break;
	}
	if (!err)
		return BT_EXIT_OK;

	/* explain against the hierarchy as the kernel saw it, then undo */
	if (bt_cgroupfs_load(&session->fs, session->task_details, &now))
		now = NULL;
	words = bt_rules_explain(now ? now : session->tree, &session->env,
				 &plan->ops[failed], err);
	bt_tree_free(now);
	for (size_t i = failed; i-- > 0 && !undo_err;)
		if (!plan->ops[i].noop)
			undo_err = undo_step(&session->fs, &plan->ops[i],
					     &plan->undo[i]);

	what = bt_op_describe(&plan->ops[failed]);
	if (undo_err)
		bt_error("%s: %s; undoing the earlier steps failed too: %s",
			 what, words, strerror(undo_err));
	else
		bt_error("%s: %s", what, words);
	free(what);
	free(words);
	return undo_err ? BT_EXIT_FAILURE : bt_exit_for(err);
}

int bt_session_finish(struct bt_session *session, struct bt_plan *plan,
		      int err, char *why)
{
	int status;

	if (err) {
		bt_error("%s", why);
		status = bt_exit_for(err);
	} else {
		status = bt_session_commit(session, plan, NULL);
	}
	free(why);
	bt_plan_free(plan);
	bt_session_close(session);
	return status;
}
