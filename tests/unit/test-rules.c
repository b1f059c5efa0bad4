/*
 * The blkio rules as pure checks: which errno, and whether the words name
 * the child groups or the parent that cause a refusal.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "rules.h"
#include "strutil.h"
#include "tap.h"

static const struct bt_blockdev devices[] = {
	{ .name = "sdb", .major = 8, .minor = 16, .scheduler = "cfq" },
	{ .name = "sdd", .major = 8, .minor = 48, .scheduler = "bfq" },
};

static const struct bt_env env = {
	.mount = "/sys/fs/cgroup/blkio",
	.cfq_policy = true,
	.hierarchy = true,
	.devices = devices,
	.ndevices = 2,
};

/* Check one op; returns the errno, keeps the words in *why_out (or frees). */
static int check(const struct bt_tree *tree, const struct bt_env *e,
		 enum bt_op_type type, const char *path, enum bt_key key,
		 const char *value, char **why_out, struct bt_op *out)
{
	struct bt_op op = {
		.type = type,
		.path = (char *)path,
		.key = key,
		.value = (char *)value,
		.pid = 42,
	};
	char *why = NULL;
	int err = bt_rules_check(tree, e, &op, &why);

	if (out)
		*out = op;
	if (why_out)
		*why_out = why;
	else
		free(why);
	return err;
}

static int set(const struct bt_tree *tree, const char *path, enum bt_key key,
	       const char *value, char **why)
{
	return check(tree, &env, BT_OP_SET, path, key, value, why, NULL);
}

static void words(char *why, const char *want, const char *what)
{
	ok(why && strstr(why, want), "%s: words name \"%s\"", what, want);
	if (why && !strstr(why, want))
		printf("#   got: %s\n", why);
	free(why);
}

static void test_weight(struct bt_tree *tree)
{
	char *why;

	is_int(set(tree, "a", BT_KEY_WEIGHT, "10", NULL), 0, "weight 10 allowed");
	is_int(set(tree, "a", BT_KEY_WEIGHT, "1000", NULL), 0,
	       "weight 1000 allowed");
	is_int(set(tree, "a", BT_KEY_WEIGHT, "9", &why), ERANGE, "weight 9: ERANGE");
	words(why, "10-1000", "weight 9");
	is_int(set(tree, "a", BT_KEY_WEIGHT, "1001", NULL), ERANGE,
	       "weight 1001: ERANGE");
	is_int(set(tree, "a", BT_KEY_WEIGHT, "-5", NULL), ERANGE,
	       "weight -5: ERANGE");
	is_int(set(tree, "a", BT_KEY_WEIGHT, "99999999999999999999", NULL),
	       ERANGE, "weight that overflows: ERANGE");
	is_int(set(tree, "a", BT_KEY_WEIGHT, "abc", &why), EINVAL,
	       "weight abc: EINVAL");
	words(why, "not a number", "weight abc");
	is_int(set(tree, "a", BT_KEY_WEIGHT, "", NULL), EINVAL,
	       "empty weight: EINVAL");
	is_int(set(tree, "a", BT_KEY_WEIGHT, " 500", NULL), EINVAL,
	       "weight with a blank: EINVAL");
	is_int(set(tree, "a", BT_KEY_WEIGHT, "500x", NULL), EINVAL,
	       "weight 500x: EINVAL");
	is_int(set(tree, "nope", BT_KEY_WEIGHT, "500", &why), ENOENT,
	       "missing group: ENOENT");
	words(why, "no such group", "missing group");
	is_int(set(tree, "", BT_KEY_WEIGHT, "800", NULL), 0,
	       "root weight allowed");
}

static void test_weight_device(struct bt_tree *tree)
{
	char *why;

	is_int(set(tree, "a", BT_KEY_WEIGHT_DEVICE, "8:16:300", NULL), 0,
	       "weight_device 8:16:300 allowed");
	is_int(set(tree, "a", BT_KEY_WEIGHT_DEVICE, "8:16:0", NULL), 0,
	       "weight_device 0 (remove) allowed");
	is_int(set(tree, "a", BT_KEY_WEIGHT_DEVICE, "8:16:5", NULL), ERANGE,
	       "device weight 5: ERANGE");
	is_int(set(tree, "a", BT_KEY_WEIGHT_DEVICE, "8:32:300", &why), ENODEV,
	       "unknown device: ENODEV");
	words(why, "8:32", "unknown device");
	is_int(set(tree, "a", BT_KEY_WEIGHT_DEVICE, "8:16", NULL), EINVAL,
	       "MAJ:MIN without weight: EINVAL");
	is_int(set(tree, "a", BT_KEY_WEIGHT_DEVICE, "sdb:300", NULL), EINVAL,
	       "device name: EINVAL");
}

static void test_use_hierarchy(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *a = bt_group_add(tree->root, "a");
	struct bt_group *h = bt_group_add(tree->root, "h");
	struct bt_op op;
	char *why;

	bt_group_add(a, "c1");
	bt_group_add(a, "c2");
	h->use_hierarchy = 1;
	bt_group_add(h, "child");

	is_int(set(tree, "a", BT_KEY_USE_HIERARCHY, "1", &why), EBUSY,
	       "use_hierarchy change with children: EBUSY");
	words(xstrdup(why), "/a/c1", "EBUSY");
	words(why, "/a/c2", "EBUSY");
	is_int(set(tree, "a/c1", BT_KEY_USE_HIERARCHY, "1", NULL), 0,
	       "use_hierarchy on a leaf under a flat parent allowed");
	is_int(set(tree, "h/child", BT_KEY_USE_HIERARCHY, "0", &why), EINVAL,
	       "use_hierarchy=0 under a hierarchical parent: EINVAL");
	words(why, "parent /h", "EINVAL under /h");
	is_int(check(tree, &env, BT_OP_SET, "h/child", BT_KEY_USE_HIERARCHY, "1",
		     NULL, &op), 0, "writing the inherited value succeeds");
	ok(op.noop, "... and changes nothing");
	is_int(check(tree, &env, BT_OP_SET, "a", BT_KEY_USE_HIERARCHY, "0",
		     NULL, &op), 0, "same value with children succeeds");
	ok(op.noop, "... as a no-op");
	is_int(set(tree, "a/c1", BT_KEY_USE_HIERARCHY, "2", &why), EINVAL,
	       "use_hierarchy=2: EINVAL");
	words(why, "0 or 1", "use_hierarchy=2");
	is_int(set(tree, "h/child", BT_KEY_USE_HIERARCHY, "yes", &why), EINVAL,
	       "use_hierarchy=yes under hierarchical parent: EINVAL");
	words(why, "0 or 1", "the bad value, not the parent, is named");
	is_int(set(tree, "", BT_KEY_USE_HIERARCHY, "1", NULL), EBUSY,
	       "root use_hierarchy with children: EBUSY");
	bt_tree_free(tree);
}

static void test_no_policy(struct bt_tree *tree)
{
	struct bt_env bare = env;
	char *why;

	bare.cfq_policy = false;
	is_int(check(tree, &bare, BT_OP_SET, "a", BT_KEY_WEIGHT, "500", &why,
		     NULL), ENOTSUP, "no cfq policy files: ENOTSUP");
	words(why, "no cfq policy files (blkio.weight) in /sys/fs/cgroup/blkio",
	      "no cfq policy files");
	is_int(check(tree, &bare, BT_OP_CREATE, "new", 0, NULL, NULL, NULL), 0,
	       "create works without the cfq policy files");
}

/* cfq with flat groups only: blkio.weight, no blkio.use_hierarchy */
static void test_flat_only(struct bt_tree *tree)
{
	struct bt_env flat = env;
	struct bt_op op;
	char *why;

	flat.hierarchy = false;
	is_int(check(tree, &flat, BT_OP_SET, "a", BT_KEY_WEIGHT, "300", NULL,
		     NULL), 0, "flat only: weight can be set");
	is_int(check(tree, &flat, BT_OP_SET, "a", BT_KEY_WEIGHT_DEVICE,
		     "8:16:300", NULL, NULL), 0,
	       "flat only: weight_device can be set");
	is_int(check(tree, &flat, BT_OP_SET, "a", BT_KEY_WEIGHT, "5", NULL,
		     NULL), ERANGE, "flat only: weight 5 still ERANGE");
	is_int(check(tree, &flat, BT_OP_SET, "a", BT_KEY_USE_HIERARCHY, "1",
		     &why, NULL), ENOTSUP, "flat only: use_hierarchy=1 ENOTSUP");
	words(why, "no blkio.use_hierarchy in /sys/fs/cgroup/blkio",
	      "names the missing file");
	is_int(check(tree, &flat, BT_OP_SET, "a", BT_KEY_USE_HIERARCHY, "0",
		     NULL, &op), 0, "flat only: use_hierarchy=0 allowed");
	ok(op.noop, "... as a no-op (nothing to write)");
	is_int(check(tree, &flat, BT_OP_SET, "a", BT_KEY_USE_HIERARCHY, "2",
		     NULL, NULL), EINVAL, "flat only: use_hierarchy=2 EINVAL");
}

static void test_weight_device_scheduler(struct bt_tree *tree)
{
	struct bt_op op = {
		.type = BT_OP_SET, .path = "a", .key = BT_KEY_WEIGHT_DEVICE,
		.value = "8:48:300",
	};
	char *why;

	is_int(check(tree, &env, BT_OP_SET, "a", BT_KEY_WEIGHT_DEVICE,
		     "8:48:300", &why, NULL), ENOTSUP,
	       "weight_device on a bfq device: ENOTSUP (the kernel's EOPNOTSUPP)");
	words(why, "sdd (8:48) is scheduled by bfq, not cfq",
	      "names the device and its scheduler");
	/* the kernel's EOPNOTSUPP for a device checked as cfq is explained alike */
	op.major = 8;
	op.minor = 48;
	words(bt_rules_explain(tree, &env, &op, EOPNOTSUPP),
	      "scheduled by bfq, not cfq", "kernel EOPNOTSUPP in the rules' words");
}

static void test_create_delete_attach(struct bt_tree *tree)
{
	struct bt_task t = { .pid = 42 };
	struct bt_op thread_op;
	char *why;

	is_int(check(tree, &env, BT_OP_CREATE, "a", 0, NULL, &why, NULL), EEXIST,
	       "create existing: EEXIST");
	words(why, "already exists", "EEXIST");
	is_int(check(tree, &env, BT_OP_CREATE, "x/y", 0, NULL, NULL, NULL),
	       ENOENT, "create without parent: ENOENT");
	is_int(check(tree, &env, BT_OP_CREATE, "", 0, NULL, NULL, NULL), EPERM,
	       "create the root: EPERM");
	is_int(check(tree, &env, BT_OP_DELETE, "a", 0, NULL, &why, NULL), EBUSY,
	       "delete with children: EBUSY");
	words(why, "/a/b", "delete EBUSY");
	is_int(check(tree, &env, BT_OP_DELETE, "a/b", 0, NULL, NULL, NULL), 0,
	       "delete a leaf allowed");
	is_int(check(tree, &env, BT_OP_DELETE, "", 0, NULL, NULL, NULL), EPERM,
	       "delete the root: EPERM");
	is_int(check(tree, &env, BT_OP_ATTACH, "a", 0, NULL, &why, NULL), ESRCH,
	       "attach unknown pid: ESRCH");
	words(why, "no such process 42", "ESRCH");
	thread_op = (struct bt_op){ .type = BT_OP_ATTACH, .path = "a",
				    .pid = 42, .thread = true };
	is_int(bt_rules_check(tree, &env, &thread_op, &why), ESRCH,
	       "attach --thread unknown tid: ESRCH");
	words(why, "no such thread 42", "ESRCH for a thread");
	why = bt_op_describe(&thread_op);
	is_str(why, "attach --thread /a 42", "attach --thread described");
	free(why);
	bt_group_add_task(tree->root, &t);
	is_int(check(tree, &env, BT_OP_ATTACH, "a", 0, NULL, NULL, NULL), 0,
	       "attach known pid allowed");
}

static void test_explain_kernel_errno(struct bt_tree *tree)
{
	struct bt_op op = {
		.type = BT_OP_SET, .path = "a", .key = BT_KEY_WEIGHT,
		.value = "5000",
	};
	char *why = bt_rules_explain(tree, &env, &op, ERANGE);

	words(why, "out of range 10-1000 (ERANGE)",
	      "kernel ERANGE in the rules' words");
	why = bt_rules_explain(tree, &env, &op, EIO);
	words(why, "Input/output error", "unknown errno falls back to strerror");
}

/* A change refused for lack of permission names the file and the rule. */
static void test_explain_permission(struct bt_tree *tree)
{
	struct bt_op set = { .type = BT_OP_SET, .path = "a/b",
			     .key = BT_KEY_WEIGHT, .value = "300" };
	struct bt_op create = { .type = BT_OP_CREATE, .path = "a/n" };
	struct bt_op delete = { .type = BT_OP_DELETE, .path = "a/b" };
	struct bt_op attach = { .type = BT_OP_ATTACH, .path = "", .pid = 9 };
	struct bt_op root = { .type = BT_OP_DELETE, .path = "" };

	words(bt_rules_explain(tree, &env, &set, EACCES),
	      "cannot write /sys/fs/cgroup/blkio/a/b/blkio.weight: permission "
	      "denied; only root, or a user the group is delegated to, may "
	      "write it (EACCES)", "EACCES on a value");
	words(bt_rules_explain(tree, &env, &create, EACCES),
	      "cannot create /sys/fs/cgroup/blkio/a/n: permission denied; only "
	      "root, or a user the parent group is delegated to",
	      "EACCES on a new group");
	words(bt_rules_explain(tree, &env, &delete, EPERM),
	      "cannot remove /sys/fs/cgroup/blkio/a/b: permission denied; "
	      "only root, or a user the parent group is delegated to, may "
	      "move its tasks there and remove it (EPERM)",
	      "the kernel's EPERM on a delete");
	words(bt_rules_explain(tree, &env, &attach, EACCES),
	      "cannot write /sys/fs/cgroup/blkio/cgroup.procs: permission "
	      "denied; only root, or a user the group is delegated to, may move "
	      "a process there, and only one of its own (EACCES)",
	      "EACCES moving a process into the root group");
	words(bt_rules_explain(tree, &env, &root, EPERM),
	      "the root group cannot be deleted (EPERM)",
	      "the rules' own EPERM keeps its words");
}

/* The kernel keeps a group with a task in it: a delete raced with one. */
static void test_explain_delete_busy(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_task task = { .pid = 7 };
	struct bt_op op = { .type = BT_OP_DELETE, .path = "a" };

	bt_group_add_task(bt_group_add(tree->root, "a"), &task);
	words(bt_rules_explain(tree, &env, &op, EBUSY),
	      "a task came into the group while it was being deleted (EBUSY)",
	      "kernel EBUSY for a group without child groups");
	bt_tree_free(tree);
}

/* the one list of keys that set and get accept and name in their errors */
static void test_keys(void)
{
	enum bt_key key;

	is_str(bt_key_list(), "weight, use_hierarchy, weight_device",
	       "every key in the list, in order");
	ok(bt_key_parse("weight_device", &key) && key == BT_KEY_WEIGHT_DEVICE,
	   "weight_device parses");
	ok(!bt_key_parse("blkio.weight", &key), "a file name is no key");
}

int main(void)
{
	struct bt_tree *tree = bt_tree_new();

	bt_group_add(bt_group_add(tree->root, "a"), "b");
	test_keys();
	test_weight(tree);
	test_weight_device(tree);
	test_use_hierarchy();
	test_no_policy(tree);
	test_flat_only(tree);
	test_weight_device_scheduler(tree);
	test_create_delete_attach(tree);
	test_explain_kernel_errno(tree);
	test_explain_delete_busy();
	test_explain_permission(tree);
	bt_tree_free(tree);
	return tap_done();
}
