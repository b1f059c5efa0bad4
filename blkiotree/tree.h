/*
 * The blkio model: what blkiotree knows about a cgroup hierarchy, and the
 * effective scheduling tree CFQ builds from it.
 *
 * Two trees live here.
 *
 * The *cgroup tree* (struct bt_tree, struct bt_group) mirrors the blkio
 * hierarchy: one bt_group per cgroup directory with its weight,
 * use_hierarchy flag, per-device weights and tasks.  It is filled by
 * cgroupfs.c from the kernel, by the unit tests by hand, and mutated by
 * plan.c to simulate a command before anything is written.
 *
 * The *scheduling tree* (struct bt_entity) is what CFQ schedules
 * (DESIGN.md section 4): a pivot service tree at the top; a group's
 * entity sits under its parent group's entity when the parent cgroup has
 * use_hierarchy=1, else on the pivot; the root group is always on the
 * pivot; tasks sit under their own group.  Each entity carries its weight
 * and its expected share of the device when every entity is busy: at each
 * level weight / sum of the siblings' weights, times the parent's share;
 * but in a group, as CFQ serves its RT queues first and its IDLE queues
 * only when nothing else waits, the siblings of the highest busy class
 * (child groups count as BE) split the share and the others get 0.
 *
 * Nothing in this file touches the system, so the arithmetic is tested
 * with no cgroup mounted.
 */
#ifndef BLKIOTREE_TREE_H
#define BLKIOTREE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define BT_WEIGHT_MIN		10
#define BT_WEIGHT_MAX		1000
#define BT_WEIGHT_DEFAULT	500
#define BT_WEIGHT_ROOT_DEFAULT	1000
#define BT_IOPRIO_LEVELS	8
#define BT_IOPRIO_DEFAULT_LEVEL	4	/* ionice's when -n is not given */

enum bt_ioclass {
	BT_IOCLASS_NONE = 0,	/* no ionice setting: derived from nice */
	BT_IOCLASS_RT = 1,
	BT_IOCLASS_BE = 2,
	BT_IOCLASS_IDLE = 3,
};

/* A task (a thread: each has its own io_context and CFQ queue). */
struct bt_task {
	pid_t pid;			/* the thread ID */
	pid_t tgid;			/* its process; 0: unknown, its own */
	char comm[32];
	enum bt_ioclass ioclass;	/* effective class, never NONE */
	unsigned level;			/* effective level 0..7 */
	bool from_nice;			/* class and level derived from nice */
	bool kthread;			/* kernel thread, hidden by show */
};

struct bt_devweight {
	unsigned major, minor;
	unsigned weight;
};

struct bt_group {
	char *path;			/* "" for the root, else "a/b" */
	const char *name;		/* last component of path */
	struct bt_group *parent;	/* NULL for the root */
	struct bt_group **children;	/* sorted by name */
	size_t nchildren;
	unsigned weight;
	int use_hierarchy;		/* 0 or 1 */
	struct bt_devweight *devweights;
	size_t ndevweights;
	struct bt_task *tasks;		/* sorted by pid */
	size_t ntasks;
};

struct bt_tree {
	struct bt_group *root;
};

struct bt_tree *bt_tree_new(void);
void bt_tree_free(struct bt_tree *tree);

/*
 * Why @len bytes of @name cannot be one component of a group path, or
 * NULL when they can: empty, a control character, "." or "..", longer
 * than NAME_MAX, or the name of a cgroup control file ("blkio.*",
 * "cgroup.*", "tasks", ...).  One line that names the rule and shows
 * the component escaped; the caller frees it.  The command line and
 * the apply spec both check names here, so they refuse the same ones.
 */
char *bt_name_problem(const char *name, size_t len);
/*
 * Normalize a user's group path: "/a/b/" -> "a/b", "/" -> "".  Returns
 * NULL with the reason in *@why (caller frees), the path shown escaped,
 * when a component fails bt_name_problem().
 */
char *bt_path_normalize(const char *name, char **why);
/* The path of a normalized path's parent: "a/b" -> "a", "a" -> "" (caller frees). */
char *bt_path_parent(const char *path);
/* The name users see, "/" or "/a/b"; the caller frees it. */
char *bt_group_display(const struct bt_group *group);

struct bt_group *bt_group_find(const struct bt_tree *tree, const char *path);
/*
 * Add a child cgroup.  Like the kernel, a child of a use_hierarchy=1
 * parent starts with use_hierarchy=1.
 */
struct bt_group *bt_group_add(struct bt_group *parent, const char *name);
/* Remove a group and everything below it; its tasks go to the parent. */
void bt_group_remove(struct bt_group *group);
void bt_group_add_task(struct bt_group *group, const struct bt_task *task);
struct bt_task *bt_group_take_task(struct bt_group *group, pid_t pid,
				   struct bt_task *out);
/* Keep only the tasks whose pid is in @pids (show --pid). */
void bt_tree_keep_tasks(struct bt_tree *tree, const pid_t *pids, size_t npids);
/*
 * Move the whole process of thread @tid, every thread of it wherever it
 * is, into @to (what a write to cgroup.procs does).
 */
void bt_tree_move_process(struct bt_tree *tree, pid_t tid,
			  struct bt_group *to);
/* Move thread @tid alone into @to (what a write to tasks does). */
void bt_tree_move_thread(struct bt_tree *tree, pid_t tid, struct bt_group *to);
/* Find the group a task is in, or NULL. */
struct bt_group *bt_tree_find_task(const struct bt_tree *tree, pid_t pid);
/* Set a per-device weight; weight 0 removes it (as the kernel file does). */
void bt_group_set_devweight(struct bt_group *group, unsigned major,
			    unsigned minor, unsigned weight);
/* The per-device weight, or 0 when the group has none for that device. */
unsigned bt_group_devweight(const struct bt_group *group, unsigned major,
			    unsigned minor);
bool bt_group_is_ancestor(const struct bt_group *ancestor,
			  const struct bt_group *group);
/* Pre-order walk of the cgroup tree: returns the group after @group. */
struct bt_group *bt_group_next(const struct bt_group *group);

/* CFQ's priority to weight table: 0 -> 1000 ... 7 -> 100. */
unsigned bt_ioprio_weight(unsigned level);
/*
 * What CFQ uses for a task: an explicit ioprio (ioprio_get() value) wins;
 * a task without one gets the class from its scheduling policy and the
 * level (nice + 20) / 5.  IDLE tasks are at level 7.
 */
void bt_ioprio_resolve(int raw_ioprio, int nice, int sched_policy,
		       struct bt_task *task);
/*
 * Parse "CLASS[:LEVEL]" as ionice(1) takes -c CLASS -n LEVEL: CLASS is
 * rt, be, idle or none (or ionice's realtime, best-effort, 1, 2, 3, 0);
 * LEVEL is 0-7, for rt and be only, and 4 when not given.  Returns true
 * with *@ioprio the value for ioprio_set(2), or false with *@rule the
 * rule @text breaks.
 */
bool bt_ioprio_parse(const char *text, int *ioprio, const char **rule);
const char *bt_ioclass_name(enum bt_ioclass ioclass);

enum bt_entity_type {
	BT_ENTITY_PIVOT,
	BT_ENTITY_GROUP,
	BT_ENTITY_TASK,
};

struct bt_measure;

struct bt_entity {
	enum bt_entity_type type;
	const struct bt_group *group;	/* GROUP: the group; TASK: its group */
	const struct bt_task *task;	/* TASK only */
	unsigned weight;		/* 0 for the pivot */
	double share;			/* percent of the device */
	/* top: what was measured over the last interval (measure.h); else NULL */
	struct bt_measure *measure;
	struct bt_entity **children;
	size_t nchildren;
};

/*
 * Build the scheduling tree of @tree for one device (@major:@minor; a
 * group's weight_device entry for it replaces its weight) or, with
 * @have_device false, with the groups' blkio.weight.  Kernel threads are
 * left out.  Children: groups first (cgroup tree breadth-first, as the
 * seed documentation draws them), then tasks by pid.
 */
struct bt_entity *bt_sched_build(const struct bt_tree *tree, bool have_device,
				 unsigned major, unsigned minor);
/*
 * Recompute the shares of a built tree for a running workload: only the
 * tasks in it are busy, a group is busy only while a task is scheduled
 * somewhere below it, and an idle entity gets share 0 (the others split
 * its part, as CFQ serves only busy entities).
 */
void bt_sched_only_tasks_busy(struct bt_entity *pivot);
void bt_sched_free(struct bt_entity *entity);
/* The entity of a group, or NULL. */
const struct bt_entity *bt_sched_find_group(const struct bt_entity *root,
					    const struct bt_group *group);

#endif
