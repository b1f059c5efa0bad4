/*
 * A blkio hierarchy in a directory that answers blkiotree's changes
 * (struct bt_cgroupfs_ops) as the kernel's does: mkdir gives a group its
 * files and its parent's use_hierarchy=1, rmdir refuses a group with
 * tasks or child groups (EBUSY), the policy files check their values,
 * a weight_device write sets or removes one device's line, and a write
 * to tasks or cgroup.procs moves the thread from wherever it is (ESRCH
 * when it is nowhere).  Any call can be made to fail instead, which is
 * how the unit tests stop a plan at any step.
 */
#ifndef BLKIOTREE_FAKECG_H
#define BLKIOTREE_FAKECG_H

#include <sys/types.h>

#include "cgroupfs.h"

extern const struct bt_cgroupfs_ops fakecg_ops;

/*
 * Make @dir (which must not exist) the root group, with threads @tids in
 * its tasks file; the fake then works below @dir.
 */
void fakecg_init(const char *dir, const pid_t *tids, size_t ntids);
/* Remove the hierarchy fakecg_init() made, if it is there. */
void fakecg_remove(void);
/*
 * From now on, fail the calls numbered @first and @second (counting from
 * 1; 0 for none) with @err, changing nothing.
 */
void fakecg_fail(unsigned first, unsigned second, int err);
/* The calls made since fakecg_fail(). */
unsigned fakecg_calls(void);
/*
 * The whole hierarchy as text, every group with the content of its
 * files, to compare one state with another (caller frees).
 */
char *fakecg_dump(void);

#endif
