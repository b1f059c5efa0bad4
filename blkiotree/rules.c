/*
 * The blkio rules: see rules.h.  The verdict (an errno) is decided in
 * check_*(); the words for it in bt_rules_explain(), from the same tree,
 * so that a refusal found here and one returned by the kernel read alike.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "strutil.h"

static const char *const key_names[] = {
	[BT_KEY_WEIGHT] = "weight",
	[BT_KEY_USE_HIERARCHY] = "use_hierarchy",
	[BT_KEY_WEIGHT_DEVICE] = "weight_device",
};

bool bt_key_parse(const char *name, enum bt_key *key)
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (!strcmp(name, key_names[i])) {
			*key = i;
			return true;
		}
	return false;
}

const char *bt_key_name(enum bt_key key)
{
	return key_names[key];
}

const char *bt_key_list(void)
{
	static char list[64];

	/* built from key_names once, so a new key cannot be left out */
	if (!*list)
		for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]);
		     i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%s", i ? ", " : "", key_names[i]);
	return list;
}

const char *bt_key_file(enum bt_key key)
{
	switch (key) {
	case BT_KEY_WEIGHT:
		return "blkio.weight";
	case BT_KEY_USE_HIERARCHY:
		return "blkio.use_hierarchy";
	case BT_KEY_WEIGHT_DEVICE:
		break;
	}
	return "blkio.weight_device";
}

static int parse_weight(const char *text, unsigned *weight, bool zero_ok)
{
	long long v;
	int rc = str_to_ll(text, &v);

	if (rc == -EINVAL)
		return EINVAL;
	if (rc == -ERANGE || v > BT_WEIGHT_MAX ||
	    (v < BT_WEIGHT_MIN && !(zero_ok && v == 0)))
		return ERANGE;
	*weight = v;
	return 0;
}

/* "MAJ:MIN:WEIGHT" */
static int parse_weight_device(const char *text, struct bt_op *op)
{
	const char *last = strrchr(text, ':');
	char *devnum;
	bool ok;

	if (!last)
		return EINVAL;
	devnum = xstrdup(text);
	devnum[last - text] = '\0';
	ok = str_to_devnum(devnum, &op->major, &op->minor);
	free(devnum);
	if (!ok)
		return EINVAL;
	return parse_weight(last + 1, &op->number, true);
}

static int check_set(const struct bt_group *group, const struct bt_env *env,
		     struct bt_op *op)
{
	const struct bt_blockdev *dev;
	int err;

	if (!env->cfq_policy)
		return ENOTSUP;
	switch (op->key) {
	case BT_KEY_WEIGHT:
		err = parse_weight(op->value, &op->number, false);
		if (!err)
			op->noop = op->number == group->weight;
		return err;
	case BT_KEY_WEIGHT_DEVICE:
		err = parse_weight_device(op->value, op);
		if (err)
			return err;
		dev = bt_blockdev_find(env->devices, env->ndevices, op->major,
				       op->minor);
		if (!dev)
			return ENODEV;
		/* the kernel has no cfq group on a disk cfq does not schedule */
		if (strcmp(dev->scheduler, "cfq"))
			return ENOTSUP;
		op->noop = op->number ==
			   bt_group_devweight(group, op->major, op->minor);
		return 0;
	case BT_KEY_USE_HIERARCHY:
		if (strcmp(op->value, "0") && strcmp(op->value, "1"))
			return EINVAL;
		op->number = op->value[0] == '1';
		/* writing the value it already has succeeds, changes nothing */
		op->noop = (int)op->number == group->use_hierarchy;
		/* a cfq without hierarchical mode is flat: 0 is what it has */
		if (!env->hierarchy)
			return op->number ? ENOTSUP : 0;
		if (op->noop)
			return 0;
		if (group->parent && group->parent->use_hierarchy)
			return EINVAL;
		if (group->nchildren)
			return EBUSY;
		return 0;
	}
	return EINVAL;
}

static int check_op(const struct bt_tree *tree, const struct bt_env *env,
		    struct bt_op *op)
{
	const struct bt_group *group = bt_group_find(tree, op->path);

	op->noop = false;
	switch (op->type) {
	case BT_OP_CREATE: {
		char *parent_path;
		bool parent_exists;

		if (group)
			return group->parent ? EEXIST : EPERM;
		parent_path = bt_path_parent(op->path);
		parent_exists = bt_group_find(tree, parent_path) != NULL;
		free(parent_path);
		return parent_exists ? 0 : ENOENT;
	}
	case BT_OP_SET:
		return group ? check_set(group, env, op) : ENOENT;
	case BT_OP_DELETE:
		if (!group)
			return ENOENT;
		if (!group->parent)
			return EPERM;
		return group->nchildren ? EBUSY : 0;
	case BT_OP_ATTACH:
		if (!group)
			return ENOENT;
		return bt_tree_find_task(tree, op->pid) ? 0 : ESRCH;
	}
	return EINVAL;
}

int bt_rules_check(const struct bt_tree *tree, const struct bt_env *env,
		   struct bt_op *op, char **why)
{
	int err = check_op(tree, env, op);

	*why = err ? bt_rules_explain(tree, env, op, err) : NULL;
	return err;
}

static const char *errno_name(int err)
{
	switch (err) {
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case ENOENT: return "ENOENT";
	case EEXIST: return "EEXIST";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ESRCH: return "ESRCH";
	case ENOTSUP: return "ENOTSUP";
	}
	return NULL;
}

/* "/a/b, /a/c" (caller frees) */
static char *child_list(const struct bt_group *group)
{
	char *list = xstrdup("");

	for (size_t i = 0; i < group->nchildren; i++) {
		char *name = bt_group_display(group->children[i]);
		char *longer = xasprintf("%s%s%s", list, i ? ", " : "", name);

		free(name);
		free(list);
		list = longer;
	}
	return list;
}

static char *explain_use_hierarchy(const struct bt_group *group,
				   const struct bt_op *op, int err)
{
	bool flag = !strcmp(op->value, "0") || !strcmp(op->value, "1");
	char *name, *other, *text;

	switch (err) {
	case EINVAL:
		if (!flag || !group || !group->parent ||
		    !group->parent->use_hierarchy)
			break;
		name = bt_group_display(group);
		other = bt_group_display(group->parent);
		text = xasprintf("parent %s has use_hierarchy=1: %s inherits it "
				 "and cannot change it", other, name);
		free(name);
		free(other);
		return text;
	case EBUSY:
		if (!group || !group->nchildren)
			return xstrdup("use_hierarchy can change only while the "
				       "group has no child groups");
		other = child_list(group);
		text = xasprintf("use_hierarchy can change only while the group "
				 "has no child groups; it has %s", other);
		free(other);
		return text;
	}
	if (err == EINVAL)
		return xstrdup("use_hierarchy must be 0 or 1");
	return NULL;
}

/* Why the policy cannot act on @op: which file or scheduler is missing. */
static char *explain_not_supported(const struct bt_env *env,
				   const struct bt_op *op)
{
	const char *mount = env->mount ? env->mount : "the blkio hierarchy";
	const struct bt_blockdev *dev;

	if (!env->cfq_policy)
		return xasprintf("no cfq policy files (blkio.weight) in %s: "
				 "this kernel's blkio controller has no cfq "
				 "policy", mount);
	if (op->key == BT_KEY_USE_HIERARCHY)
		return xasprintf("no blkio.use_hierarchy in %s: this kernel's "
				 "cfq schedules groups flat only, so "
				 "use_hierarchy=1 cannot be set", mount);
	dev = bt_blockdev_find(env->devices, env->ndevices, op->major,
			       op->minor);
	if (op->key == BT_KEY_WEIGHT_DEVICE && dev)
		return xasprintf("%s (%u:%u) is scheduled by %s, not cfq: "
				 "a device weight needs cfq as the device's "
				 "scheduler", dev->name, dev->major,
				 dev->minor, dev->scheduler);
	return NULL;
}

static char *explain_set(const struct bt_group *group,
			 const struct bt_env *env, const struct bt_op *op,
			 int err)
{
	if (err == ENOTSUP)
		return explain_not_supported(env, op);
	switch (op->key) {
	case BT_KEY_USE_HIERARCHY:
		return explain_use_hierarchy(group, op, err);
	case BT_KEY_WEIGHT:
		if (err == ERANGE)
			return xasprintf("weight %s is out of range %d-%d",
					 op->value, BT_WEIGHT_MIN,
					 BT_WEIGHT_MAX);
		if (err == EINVAL)
			return xasprintf("weight \"%s\" is not a number",
					 op->value);
		break;
	case BT_KEY_WEIGHT_DEVICE:
		if (err == ERANGE)
			return xasprintf("device weight in \"%s\" is out of "
					 "range %d-%d (0 removes it)",
					 op->value, BT_WEIGHT_MIN,
					 BT_WEIGHT_MAX);
		if (err == EINVAL)
			return xasprintf("\"%s\" is not MAJ:MIN:WEIGHT",
					 op->value);
		if (err == ENODEV)
			return xasprintf("no block device %u:%u", op->major,
					 op->minor);
		break;
	}
	return NULL;
}

/*
 * EACCES, or the kernel's EPERM (the rules give EPERM only for creating
 * or deleting the root group): a write refused for lack of permission.
 */
static bool is_permission_refusal(const struct bt_op *op, int err)
{
	if (err == EACCES)
		return true;
	return err == EPERM && (*op->path || op->type == BT_OP_SET ||
				op->type == BT_OP_ATTACH);
}

/*
 * The file the kernel refused to let us change, and who may.  A blkio
 * group's files are root's, unless the group is delegated to a user
 * (its directory and files chown'd to them, as systemd's Delegate=
 * does); moving a task also takes owning it.
 */
static char *explain_permission(const struct bt_env *env,
				const struct bt_op *op)
{
	const char *mount = env->mount ? env->mount : "the blkio hierarchy";
	const char *sep = *op->path ? "/" : "";

	switch (op->type) {
	case BT_OP_CREATE:
		return xasprintf("cannot create %s/%s: permission denied; only "
				 "root, or a user the parent group is delegated "
				 "to, may create groups in it", mount, op->path);
	case BT_OP_SET:
		return xasprintf("cannot write %s%s%s/%s: permission denied; "
				 "only root, or a user the group is delegated "
				 "to, may write it", mount, sep, op->path,
				 bt_key_file(op->key));
	case BT_OP_DELETE:
		return xasprintf("cannot remove %s/%s: permission denied; only "
				 "root, or a user the parent group is delegated "
				 "to, may move its tasks there and remove it",
				 mount, op->path);
	case BT_OP_ATTACH:
		break;
	}
	return xasprintf("cannot write %s%s%s/%s: permission denied; only "
			 "root, or a user the group is delegated to, may move a "
			 "%s there, and only one of its own", mount, sep,
			 op->path, op->thread ? "tasks" : "cgroup.procs",
			 op->thread ? "thread" : "process");
}

static char *explain_words(const struct bt_tree *tree,
			   const struct bt_env *env, const struct bt_op *op,
			   int err)
{
	const struct bt_group *group = bt_group_find(tree, op->path);
	char *list, *text;

	if (is_permission_refusal(op, err))
		return explain_permission(env, op);
	if (err == ENOENT && op->type == BT_OP_CREATE)
		return xstrdup("parent group does not exist");
	if (err == ENOENT && !group)
		return xstrdup("no such group");
	switch (op->type) {
	case BT_OP_CREATE:
		if (err == EEXIST)
			return xstrdup("group already exists");
		if (err == EPERM)
			return xstrdup("the root group always exists");
		break;
	case BT_OP_SET:
		return explain_set(group, env, op, err);
	case BT_OP_DELETE:
		if (err == EPERM)
			return xstrdup("the root group cannot be deleted");
		/* the kernel keeps a group that has tasks: one came in late */
		if (err == EBUSY && group && !group->nchildren &&
		    group->ntasks)
			return xstrdup("a task came into the group while it was "
				       "being deleted");
		if (err != EBUSY || !group || !group->nchildren)
			break;
		list = child_list(group);
		text = xasprintf("group has child groups (%s); use -r to "
				 "delete them too", list);
		free(list);
		return text;
	case BT_OP_ATTACH:
		if (err == ESRCH)
			return xasprintf("no such %s %ld",
					 op->thread ? "thread" : "process",
					 (long)op->pid);
		break;
	}
	return NULL;
}

char *bt_rules_explain(const struct bt_tree *tree, const struct bt_env *env,
		       const struct bt_op *op, int err)
{
	char *words = explain_words(tree, env, op, err);
	const char *name = errno_name(err);
	char *text;

	if (!words)
		words = xstrdup(strerror(err));
	if (!name)
		return words;
	text = xasprintf("%s (%s)", words, name);
	free(words);
	return text;
}

char *bt_op_describe(const struct bt_op *op)
{
	switch (op->type) {
	case BT_OP_CREATE:
		return xasprintf("create /%s", op->path);
	case BT_OP_SET:
		return xasprintf("set /%s %s=%s", op->path,
				 bt_key_name(op->key), op->value);
	case BT_OP_DELETE:
		return xasprintf("delete /%s", op->path);
	case BT_OP_ATTACH:
		return xasprintf("attach%s /%s %ld", op->thread ? " --thread" : "",
				 op->path, (long)op->pid);
	}
	return xstrdup("?");
}
