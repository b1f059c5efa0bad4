/*
 * What "top" measures: how one device's disk time and bytes were really
 * shared over an interval, to set beside the shares the model expects
 * (tree.h).  Counters are read at both ends of the interval (a sample);
 * an entity's measured amount is the growth of its counters.
 *
 * Groups: CFQ charges a group's blkio.time (ms) and blkio.io_service_bytes
 * to the group whose queue was served, its own and not its children's.
 * A group's entity in the scheduling tree competes for the time of every
 * group scheduled inside it, so its amount is its own growth plus that of
 * the group entities below it in the scheduling tree.  The _recursive
 * files are not used: they sum the cgroup tree, and a child of a
 * use_hierarchy=0 group is scheduled on the pivot, not in its parent.
 * Shares are of the growth of all groups together (the pivot's amount).
 *
 * Tasks: their /proc io counters (read_bytes + write_bytes), which cover
 * every device they touch; their shares are of all the tasks' growth.
 *
 * Nothing here touches the system: the command reads the files and hands
 * their text to the parsers.
 */
#ifndef BLKIOTREE_MEASURE_H
#define BLKIOTREE_MEASURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "tree.h"

/*
 * The device's value in blkio.time text ("MAJ:MIN VALUE" lines): true with
 * *@value, false when the text has no line for the device.
 */
bool bt_parse_blkio_time(const char *text, unsigned major, unsigned minor,
			 uint64_t *value);
/*
 * The device's "MAJ:MIN Total N" line of blkio.io_service_bytes text
 * (every direction together); false when there is none.
 */
bool bt_parse_service_bytes(const char *text, unsigned major,
			    unsigned minor, uint64_t *value);
/* read_bytes + write_bytes of /proc/.../io text; false if one is missing. */
bool bt_parse_proc_io(const char *text, uint64_t *bytes);

/*
 * "SECONDS" as --interval takes it: a decimal number greater than 0 with
 * at most 3 decimals, up to a day.  True with *@msec.
 */
bool bt_parse_interval(const char *text, unsigned long *msec);

/* A counter read at one moment. */
struct bt_reading {
	bool valid;		/* false: could not be read */
	uint64_t value;
};

struct bt_group_sample {
	char *path;		/* as in struct bt_group */
	struct bt_reading time_ms;
	struct bt_reading bytes;
};

struct bt_task_sample {
	pid_t pid;
	struct bt_reading bytes;
};

/* Every group's and task's counters at one moment. */
struct bt_sample {
	struct bt_group_sample *groups;
	size_t ngroups;
	struct bt_task_sample *tasks;
	size_t ntasks;
	bool sorted;		/* by path and pid, for lookups */
};

void bt_sample_add_group(struct bt_sample *sample, const char *path,
			 struct bt_reading time_ms, struct bt_reading bytes);
void bt_sample_add_task(struct bt_sample *sample, pid_t pid,
			struct bt_reading bytes);
void bt_sample_free(struct bt_sample *sample);

/*
 * The growth of a counter from @before (NULL: the group or task did not
 * exist then, and its counters start at 0) to @after.  False, no data,
 * when either end could not be read or the counter went backwards (a
 * group removed and made again, a thread ID reused).
 */
bool bt_reading_delta(const struct bt_reading *before,
		      const struct bt_reading *after, uint64_t *delta);

/* An amount measured over the interval, and its part of the whole. */
struct bt_amount {
	bool measured;		/* delta is known */
	uint64_t delta;
	bool has_share;		/* measured, and the whole grew */
	double share;		/* percent of the whole */
};

struct bt_measure {
	struct bt_amount time_ms;	/* the pivot and groups */
	struct bt_amount bytes;
};

/*
 * Measure every entity of @pivot (from bt_sched_build()) between the
 * samples, and point each entity's ->measure at its amounts.  A group or
 * task with no data counts 0 in the amounts above it and in the whole.
 * Returns the array that holds the amounts; free it once the tree is.
 */
struct bt_measure *bt_measure_tree(struct bt_entity *pivot,
				   struct bt_sample *before,
				   struct bt_sample *after);

#endif
