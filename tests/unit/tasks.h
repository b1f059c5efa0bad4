/*
 * Tasks for the unit tests of the model, made as procinfo would read them
 * from /proc, so that a test can place a task of any I/O class and level.
 */
#ifndef BLKIOTREE_TEST_TASKS_H
#define BLKIOTREE_TEST_TASKS_H

#include <stdio.h>

#include "tree.h"

/* A task with an ionice setting: @ioclass at @level (ioprio_get(2)'s form). */
static inline struct bt_task task_ioprio(pid_t pid, const char *comm,
					 enum bt_ioclass ioclass, unsigned level)
{
	struct bt_task t = { .pid = pid };

	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	bt_ioprio_resolve((ioclass << 13) | level, 0, 0, &t);
	return t;
}

#endif
