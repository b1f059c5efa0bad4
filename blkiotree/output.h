/*
 * Output of "show" and "top": the scheduling tree as a table with a tree
 * column (libsmartcols, as lsblk and findmnt draw theirs) followed by the
 * device list, or the same data as one JSON document (json-c).  "top"
 * adds what was measured over its interval (measure.h) to each entity.
 */
#ifndef BLKIOTREE_OUTPUT_H
#define BLKIOTREE_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "rules.h"
#include "sysblock.h"
#include "tree.h"

/* What the kernel's debugfs scheduling tree of one device said. */
struct bt_kernel_check {
	bool read;		/* the device has the file and it parsed */
	char *error;		/* it exists but could not be read, or NULL */
	char **diffs;		/* placements that disagree with the model */
	size_t ndiffs;
};

struct bt_show {
	const char *mount;		/* blkio mount point */
	bool cfq_policy;		/* blkio.weight exists */
	bool hierarchy;			/* blkio.use_hierarchy exists too */
	const struct bt_entity *sched;	/* from bt_sched_build() */
	const struct bt_group *focus;	/* show only this subtree; NULL: all */
	bool have_device;		/* --device given */
	unsigned major, minor;
	const struct bt_blockdev *devices;	/* the devices to list */
	size_t ndevices;
	const struct bt_kernel_check *kernel;	/* per device, or NULL */
	/* top: the interval measured (each entity's ->measure); 0: show */
	unsigned long interval_ms;
};

/*
 * The columns of the tree, in the order of the default set.  Each is one
 * column of the table and one or two keys of an entity in the JSON
 * document.
 */
enum bt_column {
	BT_COL_NAME,
	BT_COL_TYPE,
	BT_COL_PID,
	BT_COL_WEIGHT,
	BT_COL_SHARE,
	BT_COL_TIME,		/* top's only */
	BT_COL_BYTES,		/* top's only */
	BT_COL_IOPRIO,
	BT_COL_HIER,
	BT_COL_PARENT,		/* not in the default set */
	BT_NCOLUMNS
};

struct bt_show_format {
	bool json;
	bool raw;
	bool list;		/* no tree drawing; the lines in tree order */
	bool pairs;		/* KEY="value" */
	bool noheadings;
	bool ascii;
	/* the tree's columns in this order; none: the default set */
	enum bt_column columns[BT_NCOLUMNS];
	size_t ncolumns;
};

int bt_output_show(FILE *out, const struct bt_show *show,
		   const struct bt_show_format *format);
/*
 * show's -o/--output: @list is column names in any case, separated by
 * commas; with a leading '+' they follow the default set.  Fills
 * @format's columns and returns NULL, or returns the one-line reason
 * (caller frees) and leaves @format as it was.
 */
char *bt_output_parse_columns(const char *list,
			      struct bt_show_format *format);
/* show --help's list of its columns, a line each: name, description. */
void bt_output_columns_help(FILE *out);
/*
 * One "blkiotree: warning: DEV: ..." line per device where weights cannot
 * act, and one per place the kernel's scheduling tree disagrees with the
 * model.
 */
void bt_output_warnings(FILE *err, const struct bt_show *show);

/*
 * "get": the value of @key in @group alone, one per line, in the form
 * "set" takes it back (weight_device as MAJ:MIN:W, one line per device,
 * none when the group has no device weights).  Returns 0 or -errno.
 */
int bt_output_key(FILE *out, const struct bt_group *group, enum bt_key key);

#endif
