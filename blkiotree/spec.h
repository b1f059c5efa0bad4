/*
 * The JSON description of a whole tree that "blkiotree apply" reads
 * (format in man/blkiotree-apply.8).  The parser checks the shape and
 * types and returns a tree of groups; whether the values are allowed is
 * for the rules, against the live hierarchy.  "blkiotree export" writes
 * the same format from the model.
 */
#ifndef BLKIOTREE_SPEC_H
#define BLKIOTREE_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "tree.h"

struct bt_spec_group {
	char *name;			/* NULL for the root */
	bool has_weight;
	long long weight;
	bool has_use_hierarchy;
	long long use_hierarchy;
	char **weight_device;		/* "MAJ:MIN:WEIGHT" */
	size_t nweight_device;
	struct bt_spec_group *children;
	size_t nchildren;
};

/*
 * The largest description apply reads, in bytes: far above any real
 * tree, and it bounds the memory a mistaken input (a log, a disk image)
 * can take before it is refused.
 */
#define BT_SPEC_MAX_SIZE (1024 * 1024)
#define BT_SPEC_MAX_SIZE_TEXT "1 MiB"

/*
 * Parse @text.  Returns the root group, or NULL with a one-line reason in
 * *@why naming where in the document it went wrong (caller frees).
 * Refused besides what the format does not allow: text longer than
 * BT_SPEC_MAX_SIZE, and an object with the same key twice.
 */
struct bt_spec_group *bt_spec_parse(const char *text, size_t len, char **why);
void bt_spec_free(struct bt_spec_group *root);

/*
 * The document "blkiotree export" prints: @group and every group below
 * it with their values, inside their bare ancestors (names only), so
 * that apply recreates them in the same place.  @weights: include
 * weight and weight_device (the kernel has blkio.weight); @hierarchy:
 * include use_hierarchy (it has blkio.use_hierarchy).  The text ends
 * with a newline; the caller frees it.
 */
char *bt_spec_export(const struct bt_group *group, bool weights,
		     bool hierarchy);

#endif
