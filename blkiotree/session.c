/* Reading the hierarchy and writing plans; see session.h. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "session.h"
#include "strutil.h"

/* The rest of opening, once session->fs has its mount. */
static int session_start(struct bt_session *session, const char *cmd,
			 bool task_details)
{
	int status;

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

int bt_session_open(struct bt_session *session, const char *cmd,
		    bool task_details)
{
	int err;

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
	return session_start(session, cmd, task_details);
}

int bt_session_open_at(struct bt_session *session, const char *cmd,
		       const char *mount, const struct bt_cgroupfs_ops *ops,
		       bool task_details)
{
	memset(session, 0, sizeof(*session));
	bt_cgroupfs_open_at(&session->fs, mount, ops);
	return session_start(session, cmd, task_details);
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

static int write_value(const struct bt_cgroupfs *fs, const char *path,
		       enum bt_key key, unsigned major, unsigned minor,
		       unsigned number)
{
	char *value = key == BT_KEY_WEIGHT_DEVICE ?
		xasprintf("%u:%u %u", major, minor, number) :
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
		return write_value(fs, op->path, op->key, op->major, op->minor,
				   op->number);
	case BT_OP_DELETE:
		return bt_cgroupfs_delete(fs, op->path);
	case BT_OP_ATTACH:
		return bt_cgroupfs_attach(fs, op->path, op->pid, op->thread);
	}
	return EINVAL;
}

/* A recreated group's values, use_hierarchy first as the rules want. */
static int restore_values(const struct bt_cgroupfs *fs, const char *path,
			  const struct bt_undo *undo)
{
	int err = 0;

	/* a new group has 0, or 1 from its parent, which writing 1 keeps */
	if (fs->hierarchy && undo->use_hierarchy)
		err = write_value(fs, path, BT_KEY_USE_HIERARCHY, 0, 0, 1);
	if (!err && fs->cfq_policy)
		err = write_value(fs, path, BT_KEY_WEIGHT, 0, 0, undo->weight);
	for (size_t i = 0; !err && i < undo->ndevweights; i++)
		err = write_value(fs, path, BT_KEY_WEIGHT_DEVICE,
				  undo->devweights[i].major,
				  undo->devweights[i].minor,
				  undo->devweights[i].weight);
	return err;
}

/* Move back those of @undo's threads that are in the parent now. */
static int restore_threads(const struct bt_cgroupfs *fs, const char *path,
			   const struct bt_undo *undo, size_t *moved)
{
	char *parent = bt_path_parent(path);
	pid_t *there, *back;
	size_t nthere, nback = 0;
	int err = bt_cgroupfs_threads(fs, parent, &there, &nthere);

	*moved = 0;
	free(parent);
	if (err)
		return err;
	/* one that has moved on from the parent was moved by someone else */
	back = xcalloc(undo->ntids, sizeof(*back));
	for (size_t i = 0; i < undo->ntids; i++)
		for (size_t j = 0; j < nthere; j++)
			if (undo->tids[i] == there[j])
				back[nback++] = undo->tids[i];
	err = bt_cgroupfs_move_threads(fs, path, back, nback, moved);
	free(back);
	free(there);
	return err;
}

/*
 * Undo a delete: the group created again as @undo remembers it (unless
 * the delete failed before removing it: @removed false), then its
 * threads moved back from the parent.  *@partly: this changed something
 * before it failed.
 */
static int restore_group(const struct bt_cgroupfs *fs, const char *path,
			 const struct bt_undo *undo, bool removed,
			 bool *partly)
{
	size_t moved = 0;
	int err = 0;

	if (removed) {
		err = bt_cgroupfs_create(fs, path);
		*partly = !err;
		if (!err)
			err = restore_values(fs, path, undo);
	}
	if (!err)
		err = restore_threads(fs, path, undo, &moved);
	*partly = *partly || moved;
	return err;
}

/*
 * Put back what a step changed; @done: the step was written whole, not
 * the one that failed.  *@partly: the undo failed after changing
 * something, so the step is neither done nor undone.
 */
static int undo_step(const struct bt_cgroupfs *fs, const struct bt_op *op,
		     const struct bt_undo *undo, bool done, bool *partly)
{
	*partly = false;
	switch (op->type) {
	case BT_OP_CREATE:
		return bt_cgroupfs_delete(fs, op->path);
	case BT_OP_SET:
		return write_value(fs, op->path, op->key, op->major, op->minor,
				   undo->number);
	case BT_OP_ATTACH:
		return bt_cgroupfs_attach(fs, undo->from_path, op->pid,
					  op->thread);
	case BT_OP_DELETE:
		return restore_group(fs, op->path, undo, done, partly);
	}
	return 0;
}

/*
 * Undo the steps before @end, last first, stopping at the first undo
 * that fails; with @last_failed, step @end - 1 is the one that failed
 * (a delete, which may have moved threads before it failed).  Returns
 * how many steps stay written: 0, or up to and with the one whose undo
 * failed, its error in *@err, *@partly as undo_step() says and always
 * for the step that failed.
 */
static size_t undo_steps(const struct bt_cgroupfs *fs,
			 const struct bt_plan *plan, size_t end,
			 bool last_failed, int *err, bool *partly)
{
	for (size_t i = end; i-- > 0;) {
		bool failed = last_failed && i == end - 1;

		if (plan->ops[i].noop)
			continue;
		*err = undo_step(fs, &plan->ops[i], &plan->undo[i], !failed,
				 partly);
		if (*err) {
			*partly = *partly || failed;
			return i + 1;
		}
	}
	return 0;
}

/* The first @n steps that write something, @sep between them. */
static void print_steps(FILE *out, const struct bt_plan *plan, size_t n,
			const char *sep)
{
	const char *before = "";

	for (size_t i = 0; i < n; i++) {
		char *text;

		if (plan->ops[i].noop)
			continue;
		text = bt_op_describe(&plan->ops[i]);
		fprintf(out, "%s%s", before, text);
		free(text);
		before = sep;
	}
}

void bt_plan_print(FILE *out, const struct bt_plan *plan)
{
	print_steps(out, plan, plan->nops, "\n");
	if (bt_plan_writes(plan))
		fputc('\n', out);
}

/*
 * The refusal of step @failed when the steps before it could not all be
 * undone: what failed, and the @remain steps that stay written.
 */
static void report_remains(const struct bt_plan *plan, size_t failed,
			   const char *words, size_t remain, int undo_err,
			   bool partly)
{
	char *what = bt_op_describe(&plan->ops[failed]);
	char *undo_what = bt_op_describe(&plan->ops[remain - 1]);
	char *list = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&list, &len);

	if (!out)
		abort();
	print_steps(out, plan, remain, ", ");
	fclose(out);
	bt_error("%s: %s; undoing %s failed: %s, so these steps stay "
		 "written: %s%s", what, words, undo_what, strerror(undo_err),
		 list, partly ? " (in part)" : "");
	free(list);
	free(undo_what);
	free(what);
}

int bt_session_commit(struct bt_session *session, const struct bt_plan *plan,
		      FILE *trace)
{
	struct bt_tree *now = NULL;
	char *what, *words;
	size_t failed, remain;
	bool partly = false, undo_failed_step;
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
	/*
	 * A delete can fail after moving threads away: undo it as well,
	 * unless its group was gone (ENOENT), which moved nothing.
	 */
	undo_failed_step = plan->ops[failed].type == BT_OP_DELETE &&
			   err != ENOENT;
	remain = undo_steps(&session->fs, plan, failed + undo_failed_step,
			    undo_failed_step, &undo_err, &partly);
	if (remain) {
		report_remains(plan, failed, words, remain, undo_err, partly);
	} else {
		what = bt_op_describe(&plan->ops[failed]);
		bt_error("%s: %s", what, words);
		free(what);
	}
	free(words);
	return remain ? BT_EXIT_FAILURE : bt_exit_for(err);
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
