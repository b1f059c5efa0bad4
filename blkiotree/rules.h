/*
 * The blkio rules (DESIGN.md section 3) as pure functions over the model:
 * may this operation be applied to this tree?  The same words explain a
 * refusal found here and an errno the kernel returns, so a user reads the
 * same reason whichever side caught it.
 */
#ifndef BLKIOTREE_RULES_H
#define BLKIOTREE_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sysblock.h"
#include "tree.h"

enum bt_op_type {
	BT_OP_CREATE,		/* mkdir of one group, its parent exists */
	BT_OP_SET,		/* write one policy file */
	BT_OP_DELETE,		/* rmdir of a group without child groups,
				   its tasks moved to the parent first */
	BT_OP_ATTACH,		/* move a process (all its threads) by cgroup.procs,
				   or one thread by tasks */
};

enum bt_key {
	BT_KEY_WEIGHT,
	BT_KEY_USE_HIERARCHY,
	BT_KEY_WEIGHT_DEVICE,
};

struct bt_op {
	enum bt_op_type type;
	char *path;		/* normalized group path */
	enum bt_key key;	/* SET */
	char *value;		/* SET: the text the user gave */
	pid_t pid;		/* ATTACH: a thread ID */
	bool thread;		/* ATTACH: that thread only, not its process */

	/* filled in by bt_rules_check() */
	unsigned number;	/* SET: the parsed weight or flag */
	unsigned major, minor;	/* SET weight_device */
	bool noop;		/* SET to the value it already has */
};

/* What the checks need to know besides the tree. */
struct bt_env {
	const char *mount;	/* where blkio is mounted, for messages */
	bool cfq_policy;	/* blkio.weight exists: weights can be set */
	bool hierarchy;		/* blkio.use_hierarchy exists too */
	const struct bt_blockdev *devices;
	size_t ndevices;
};

/* "weight" -> BT_KEY_WEIGHT ...; false for an unknown key. */
bool bt_key_parse(const char *name, enum bt_key *key);
const char *bt_key_name(enum bt_key key);
/* "weight, use_hierarchy, weight_device": the keys, for messages. */
const char *bt_key_list(void);
/* The kernel file a key writes, e.g. "blkio.weight". */
const char *bt_key_file(enum bt_key key);

/*
 * Check @op against @tree.  Returns 0 when allowed (and fills the parsed
 * fields of @op), else the errno the kernel would give with the reason
 * in *@why (caller frees).  ENOTSUP (the kernel's EOPNOTSUPP) means the
 * policy cannot act: no blkio.weight, use_hierarchy=1 without
 * blkio.use_hierarchy, or weight_device for a device not under cfq.
 */
int bt_rules_check(const struct bt_tree *tree, const struct bt_env *env,
		   struct bt_op *op, char **why);
/*
 * Words for @err refusing @op on @tree, the tree as it is when refused.
 * Used for the kernel's errno too; unknown errors get strerror().
 */
char *bt_rules_explain(const struct bt_tree *tree, const struct bt_env *env,
		       const struct bt_op *op, int err);
/* "set /a weight=5", "create /a", ... (caller frees) */
char *bt_op_describe(const struct bt_op *op);

#endif
