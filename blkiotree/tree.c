/*
 * The blkio model and the scheduling-tree arithmetic; see tree.h.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strutil.h"
#include "tree.h"

static struct bt_group *group_new(struct bt_group *parent, const char *path)
{
	struct bt_group *group = xcalloc(1, sizeof(*group));
	const char *slash;

	group->path = xstrdup(path);
	slash = strrchr(group->path, '/');
	group->name = slash ? slash + 1 : group->path;
	group->parent = parent;
	group->weight = parent ? BT_WEIGHT_DEFAULT : BT_WEIGHT_ROOT_DEFAULT;
	group->use_hierarchy = parent ? parent->use_hierarchy : 0;
	return group;
}

static void group_free(struct bt_group *group)
{
	for (size_t i = 0; i < group->nchildren; i++)
		group_free(group->children[i]);
	free(group->children);
	free(group->devweights);
	free(group->tasks);
	free(group->path);
	free(group);
}

struct bt_tree *bt_tree_new(void)
{
	struct bt_tree *tree = xcalloc(1, sizeof(*tree));

	tree->root = group_new(NULL, "");
	return tree;
}

void bt_tree_free(struct bt_tree *tree)
{
	if (!tree)
		return;
	group_free(tree->root);
	free(tree);
}

/*
 * The files the kernel puts in every group: a group of one of these
 * names could not be made, or would be mistaken for the file.
 */
static bool is_control_file_name(const char *name, size_t len)
{
	static const char *const prefixes[] = { "blkio.", "cgroup." };
	static const char *const names[] = {
		"tasks", "notify_on_release", "release_agent",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (len >= strlen(prefixes[i]) &&
		    !strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (len == strlen(names[i]) && !strncmp(name, names[i], len))
			return true;
	return false;
}

static bool has_control_character(const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] < 0x20 || name[i] == 0x7f)
			return true;
	return false;
}

char *bt_name_problem(const char *name, size_t len)
{
	char *shown, *problem = NULL;

	if (!len)
		return xstrdup("empty component (\"//\" in the path, or no "
			       "name at all)");
	shown = str_escape(name, len);
	if (has_control_character(name, len))
		problem = xasprintf("component \"%s\" has a control character",
				    shown);
	else if ((len == 1 && name[0] == '.') ||
		 (len == 2 && name[0] == '.' && name[1] == '.'))
		problem = xasprintf("component \"%s\": \".\" and \"..\" are "
				    "not group names", shown);
	else if (len > NAME_MAX)
		problem = xasprintf("component \"%s\" is longer than NAME_MAX "
				    "(%d bytes)", shown, NAME_MAX);
	else if (is_control_file_name(name, len))
		problem = xasprintf("component \"%s\" is the name of a cgroup "
				    "control file (blkio.*, cgroup.*, tasks, "
				    "notify_on_release, release_agent)", shown);
	free(shown);
	return problem;
}

char *bt_path_normalize(const char *name, char **why)
{
	const char *start = name;
	size_t len = strlen(name);
	char *problem, *shown;

	/* "/a" names a group from the root; "a/" is how a shell completes it */
	if (*start == '/') {
		start++;
		len--;
	}
	if (len && start[len - 1] == '/')
		len--;
	if (!strcmp(name, "/"))
		return xstrdup("");
	for (size_t at = 0;;) {
		const char *slash = memchr(start + at, '/', len - at);
		size_t n = slash ? (size_t)(slash - start) - at : len - at;

		problem = bt_name_problem(start + at, n);
		if (problem)
			break;
		at += n;
		if (at == len) {
			char *path = xcalloc(len + 1, 1);

			memcpy(path, start, len);
			return path;
		}
		at++;	/* the '/' */
	}
	shown = str_escape(name, strlen(name));
	*why = xasprintf("%s: %s", shown, problem);
	free(shown);
	free(problem);
	return NULL;
}

char *bt_path_parent(const char *path)
{
	char *parent = xstrdup(path), *slash = strrchr(parent, '/');

	*(slash ? slash : parent) = '\0';
	return parent;
}

char *bt_group_display(const struct bt_group *group)
{
	return xasprintf("/%s", group->path);
}

static struct bt_group *child_named(const struct bt_group *group,
				    const char *name, size_t len)
{
	for (size_t i = 0; i < group->nchildren; i++) {
		struct bt_group *child = group->children[i];

		if (strlen(child->name) == len &&
		    !memcmp(child->name, name, len))
			return child;
	}
	return NULL;
}

struct bt_group *bt_group_find(const struct bt_tree *tree, const char *path)
{
	struct bt_group *group = tree->root;

	while (group && *path) {
		size_t n = strcspn(path, "/");

		group = child_named(group, path, n);
		path += n;
		if (*path == '/')
			path++;
	}
	return group;
}

struct bt_group *bt_group_add(struct bt_group *parent, const char *name)
{
	struct bt_group *child;
	char *path;
	size_t pos;

	path = *parent->path ? xasprintf("%s/%s", parent->path, name)
			     : xstrdup(name);
	child = group_new(parent, path);
	free(path);

	for (pos = 0; pos < parent->nchildren; pos++)
		if (strcmp(parent->children[pos]->name, name) > 0)
			break;
	parent->children = xreallocarray(parent->children,
					 parent->nchildren + 1,
					 sizeof(*parent->children));
	memmove(parent->children + pos + 1, parent->children + pos,
		(parent->nchildren - pos) * sizeof(*parent->children));
	parent->children[pos] = child;
	parent->nchildren++;
	return child;
}

static void move_tasks_up(struct bt_group *group, struct bt_group *to)
{
	for (size_t i = 0; i < group->nchildren; i++)
		move_tasks_up(group->children[i], to);
	for (size_t i = 0; i < group->ntasks; i++)
		bt_group_add_task(to, &group->tasks[i]);
	group->ntasks = 0;
}

void bt_group_remove(struct bt_group *group)
{
	struct bt_group *parent = group->parent;
	size_t i;

	if (!parent)
		return;
	move_tasks_up(group, parent);
	for (i = 0; i < parent->nchildren; i++)
		if (parent->children[i] == group)
			break;
	memmove(parent->children + i, parent->children + i + 1,
		(parent->nchildren - i - 1) * sizeof(*parent->children));
	parent->nchildren--;
	group_free(group);
}

void bt_group_add_task(struct bt_group *group, const struct bt_task *task)
{
	size_t pos;

	for (pos = 0; pos < group->ntasks; pos++)
		if (group->tasks[pos].pid > task->pid)
			break;
	group->tasks = xreallocarray(group->tasks, group->ntasks + 1,
				     sizeof(*group->tasks));
	memmove(group->tasks + pos + 1, group->tasks + pos,
		(group->ntasks - pos) * sizeof(*group->tasks));
	group->tasks[pos] = *task;
	group->ntasks++;
}

struct bt_task *bt_group_take_task(struct bt_group *group, pid_t pid,
				   struct bt_task *out)
{
	for (size_t i = 0; i < group->ntasks; i++) {
		if (group->tasks[i].pid != pid)
			continue;
		*out = group->tasks[i];
		memmove(group->tasks + i, group->tasks + i + 1,
			(group->ntasks - i - 1) * sizeof(*group->tasks));
		group->ntasks--;
		return out;
	}
	return NULL;
}

struct bt_group *bt_group_next(const struct bt_group *group)
{
	if (group->nchildren)
		return group->children[0];
	while (group->parent) {
		const struct bt_group *parent = group->parent;

		for (size_t i = 0; i + 1 < parent->nchildren; i++)
			if (parent->children[i] == group)
				return parent->children[i + 1];
		group = parent;
	}
	return NULL;
}

void bt_tree_keep_tasks(struct bt_tree *tree, const pid_t *pids, size_t npids)
{
	for (struct bt_group *g = tree->root; g; g = bt_group_next(g)) {
		size_t kept = 0;

		for (size_t i = 0; i < g->ntasks; i++) {
			bool wanted = false;

			for (size_t j = 0; j < npids && !wanted; j++)
				wanted = pids[j] == g->tasks[i].pid;
			if (wanted)
				g->tasks[kept++] = g->tasks[i];
		}
		g->ntasks = kept;
	}
}

static pid_t task_process(const struct bt_task *task)
{
	return task->tgid ? task->tgid : task->pid;
}

void bt_tree_move_process(struct bt_tree *tree, pid_t tid,
			  struct bt_group *to)
{
	struct bt_group *from = bt_tree_find_task(tree, tid);
	struct bt_task task;
	pid_t process = tid;

	if (!from)
		return;
	for (size_t i = 0; i < from->ntasks; i++)
		if (from->tasks[i].pid == tid)
			process = task_process(&from->tasks[i]);
	for (struct bt_group *g = tree->root; g; g = bt_group_next(g)) {
		size_t i = 0;

		if (g == to)
			continue;
		while (i < g->ntasks) {
			if (task_process(&g->tasks[i]) != process) {
				i++;
				continue;
			}
			bt_group_take_task(g, g->tasks[i].pid, &task);
			bt_group_add_task(to, &task);
		}
	}
}

void bt_tree_move_thread(struct bt_tree *tree, pid_t tid, struct bt_group *to)
{
	struct bt_group *from = bt_tree_find_task(tree, tid);
	struct bt_task task;

	if (from && from != to && bt_group_take_task(from, tid, &task))
		bt_group_add_task(to, &task);
}

struct bt_group *bt_tree_find_task(const struct bt_tree *tree, pid_t pid)
{
	for (struct bt_group *g = tree->root; g; g = bt_group_next(g))
		for (size_t i = 0; i < g->ntasks; i++)
			if (g->tasks[i].pid == pid)
				return g;
	return NULL;
}

void bt_group_set_devweight(struct bt_group *group, unsigned major,
			    unsigned minor, unsigned weight)
{
	size_t i;

	for (i = 0; i < group->ndevweights; i++)
		if (group->devweights[i].major == major &&
		    group->devweights[i].minor == minor)
			break;
	if (!weight) {
		if (i < group->ndevweights) {
			group->devweights[i] =
				group->devweights[group->ndevweights - 1];
			group->ndevweights--;
		}
		return;
	}
	if (i == group->ndevweights) {
		group->devweights = xreallocarray(group->devweights, i + 1,
						  sizeof(*group->devweights));
		group->ndevweights++;
	}
	group->devweights[i] = (struct bt_devweight){ major, minor, weight };
}

unsigned bt_group_devweight(const struct bt_group *group, unsigned major,
			    unsigned minor)
{
	for (size_t i = 0; i < group->ndevweights; i++)
		if (group->devweights[i].major == major &&
		    group->devweights[i].minor == minor)
			return group->devweights[i].weight;
	return 0;
}

bool bt_group_is_ancestor(const struct bt_group *ancestor,
			  const struct bt_group *group)
{
	for (; group; group = group->parent)
		if (group == ancestor)
			return true;
	return false;
}

unsigned bt_ioprio_weight(unsigned level)
{
	/* CFQ's cfq_prio_to_weight(): 1000 for level 0, then 100 + (7 - level) * 128 */
	if (level >= BT_IOPRIO_LEVELS)
		level = BT_IOPRIO_LEVELS - 1;
	if (level == 0)
		return BT_WEIGHT_MAX;
	return 100 + (BT_IOPRIO_LEVELS - 1 - level) *
		     ((BT_WEIGHT_MAX - 100) / (BT_IOPRIO_LEVELS - 1));
}

/* An ioprio value is the class above 13 bits of level (IOPRIO_PRIO_VALUE). */
#define IOPRIO_CLASS_SHIFT	13

/* sched.h policy numbers, kept here so this file stays free of system headers */
#define POLICY_FIFO	1
#define POLICY_RR	2
#define POLICY_IDLE	5

void bt_ioprio_resolve(int raw_ioprio, int nice, int sched_policy,
		       struct bt_task *task)
{
	int ioclass = (raw_ioprio >> IOPRIO_CLASS_SHIFT) & 0x7;

	task->from_nice = false;
	switch (ioclass) {
	case BT_IOCLASS_RT:
	case BT_IOCLASS_BE:
		task->ioclass = ioclass;
		task->level = raw_ioprio & 0x7;
		return;
	case BT_IOCLASS_IDLE:
		task->ioclass = BT_IOCLASS_IDLE;
		task->level = BT_IOPRIO_LEVELS - 1;
		return;
	}
	task->from_nice = true;
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	task->level = (nice + 20) / 5;
	if (sched_policy == POLICY_FIFO || sched_policy == POLICY_RR)
		task->ioclass = BT_IOCLASS_RT;
	else if (sched_policy == POLICY_IDLE) {
		task->ioclass = BT_IOCLASS_IDLE;
		task->level = BT_IOPRIO_LEVELS - 1;
	} else
		task->ioclass = BT_IOCLASS_BE;
}

bool bt_ioprio_parse(const char *text, int *ioprio, const char **rule)
{
	/* ionice's names and numbers, as its -c takes them */
	static const struct {
		const char *name;
		enum bt_ioclass ioclass;
	} classes[] = {
		{ "none", BT_IOCLASS_NONE }, { "0", BT_IOCLASS_NONE },
		{ "rt", BT_IOCLASS_RT }, { "realtime", BT_IOCLASS_RT },
		{ "1", BT_IOCLASS_RT },
		{ "be", BT_IOCLASS_BE }, { "best-effort", BT_IOCLASS_BE },
		{ "2", BT_IOCLASS_BE },
		{ "idle", BT_IOCLASS_IDLE }, { "3", BT_IOCLASS_IDLE },
	};
	const char *colon = strchr(text, ':');
	size_t len = colon ? (size_t)(colon - text) : strlen(text), i;
	long long level = BT_IOPRIO_DEFAULT_LEVEL;
	enum bt_ioclass ioclass;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strlen(classes[i].name) == len &&
		    !strncasecmp(classes[i].name, text, len))
			break;
	if (i == sizeof(classes) / sizeof(classes[0])) {
		*rule = "CLASS is rt, be, idle or none (or 1, 2, 3, 0)";
		return false;
	}
	ioclass = classes[i].ioclass;
	/* the kernel refuses a level with none; ionice ignores one with idle */
	if (colon && (ioclass == BT_IOCLASS_NONE || ioclass == BT_IOCLASS_IDLE)) {
		*rule = "a LEVEL is only for rt and be";
		return false;
	}
	if (colon && (str_to_ll(colon + 1, &level) || level < 0 ||
		      level >= BT_IOPRIO_LEVELS)) {
		*rule = "LEVEL is 0-7";
		return false;
	}
	if (ioclass == BT_IOCLASS_NONE || ioclass == BT_IOCLASS_IDLE)
		level = 0;
	*ioprio = ((int)ioclass << IOPRIO_CLASS_SHIFT) | (int)level;
	return true;
}

const char *bt_ioclass_name(enum bt_ioclass ioclass)
{
	switch (ioclass) {
	case BT_IOCLASS_RT:
		return "rt";
	case BT_IOCLASS_BE:
		return "be";
	case BT_IOCLASS_IDLE:
		return "idle";
	case BT_IOCLASS_NONE:
		break;
	}
	return "none";
}

static struct bt_entity *entity_new(enum bt_entity_type type,
				    struct bt_entity *parent)
{
	struct bt_entity *entity = xcalloc(1, sizeof(*entity));

	entity->type = type;
	if (parent) {
		parent->children = xreallocarray(parent->children,
						 parent->nchildren + 1,
						 sizeof(*parent->children));
		parent->children[parent->nchildren++] = entity;
	}
	return entity;
}

/* A task, or an entity with a task scheduled somewhere below it. */
static bool has_task(const struct bt_entity *entity)
{
	if (entity->type == BT_ENTITY_TASK)
		return true;
	for (size_t i = 0; i < entity->nchildren; i++)
		if (has_task(entity->children[i]))
			return true;
	return false;
}

static bool is_busy(const struct bt_entity *entity, bool busy_only)
{
	return !busy_only || has_task(entity);
}

/*
 * The class an entity is served in, inside the group it sits in: a task's
 * I/O class (none is best effort, as CFQ takes it), and best effort for a
 * child group, which sits on its parent's BE service tree
 * (the series' "hierarchical group scheduling" patch).  The enum's order
 * is CFQ's order of service.
 */
static enum bt_ioclass entity_class(const struct bt_entity *entity)
{
	if (entity->type == BT_ENTITY_TASK &&
	    entity->task->ioclass != BT_IOCLASS_NONE)
		return entity->task->ioclass;
	return BT_IOCLASS_BE;
}

/* Does @entity get part of its parent's share while @served is served? */
static bool is_served(const struct bt_entity *entity, enum bt_ioclass served,
		      bool busy_only)
{
	return entity_class(entity) == served && is_busy(entity, busy_only);
}

/*
 * CFQ serves a group's busy RT entities first, its BE entities only when
 * no RT one waits, and IDLE ones only when nothing else does; within the
 * class it serves, entities share by weight.  So of an entity's share the
 * busy children of its highest busy class get all, by weight, and the
 * others nothing.  The pivot tree holds groups only, which share by weight.
 * With @busy_only, an entity with no task below it is idle and gets 0.
 */
static void assign_shares(struct bt_entity *entity, bool busy_only)
{
	enum bt_ioclass served = BT_IOCLASS_IDLE;
	unsigned long total = 0;

	for (size_t i = 0; i < entity->nchildren; i++) {
		enum bt_ioclass class = entity_class(entity->children[i]);

		if (class < served && is_busy(entity->children[i], busy_only))
			served = class;
	}
	for (size_t i = 0; i < entity->nchildren; i++)
		if (is_served(entity->children[i], served, busy_only))
			total += entity->children[i]->weight;
	for (size_t i = 0; i < entity->nchildren; i++) {
		struct bt_entity *child = entity->children[i];

		child->share = total && is_served(child, served, busy_only) ?
			entity->share * child->weight / total : 0.0;
		assign_shares(child, busy_only);
	}
}

void bt_sched_only_tasks_busy(struct bt_entity *pivot)
{
	assign_shares(pivot, true);
}

/* Which entity a group's entity hangs under: DESIGN.md section 4. */
static struct bt_entity *placement(const struct bt_group *group,
				   struct bt_entity *pivot,
				   struct bt_entity **group_entities,
				   const struct bt_group **groups, size_t ngroups)
{
	if (!group->parent || !group->parent->use_hierarchy)
		return pivot;
	for (size_t i = 0; i < ngroups; i++)
		if (groups[i] == group->parent)
			return group_entities[i];
	return pivot;
}

struct bt_entity *bt_sched_build(const struct bt_tree *tree, bool have_device,
				 unsigned major, unsigned minor)
{
	struct bt_entity *pivot = entity_new(BT_ENTITY_PIVOT, NULL);
	const struct bt_group **groups = NULL;
	struct bt_entity **entities;
	size_t ngroups = 0, head;

	/* breadth-first list of the groups */
	groups = xreallocarray(groups, 1, sizeof(*groups));
	groups[ngroups++] = tree->root;
	for (head = 0; head < ngroups; head++) {
		const struct bt_group *g = groups[head];

		groups = xreallocarray(groups, ngroups + g->nchildren,
				       sizeof(*groups));
		for (size_t i = 0; i < g->nchildren; i++)
			groups[ngroups++] = g->children[i];
	}

	entities = xcalloc(ngroups, sizeof(*entities));
	for (size_t i = 0; i < ngroups; i++) {
		const struct bt_group *g = groups[i];
		struct bt_entity *parent, *entity;
		unsigned devweight = have_device ?
			bt_group_devweight(g, major, minor) : 0;

		parent = placement(g, pivot, entities, groups, i);
		entity = entity_new(BT_ENTITY_GROUP, parent);
		entity->group = g;
		entity->weight = devweight ? devweight : g->weight;
		entities[i] = entity;
	}
	for (size_t i = 0; i < ngroups; i++) {
		const struct bt_group *g = groups[i];

		for (size_t t = 0; t < g->ntasks; t++) {
			struct bt_entity *entity;

			if (g->tasks[t].kthread)
				continue;
			entity = entity_new(BT_ENTITY_TASK, entities[i]);
			entity->group = g;
			entity->task = &g->tasks[t];
			entity->weight = bt_ioprio_weight(g->tasks[t].level);
		}
	}
	free(entities);
	free(groups);

	pivot->share = 100.0;
	assign_shares(pivot, false);
	return pivot;
}

void bt_sched_free(struct bt_entity *entity)
{
	if (!entity)
		return;
	for (size_t i = 0; i < entity->nchildren; i++)
		bt_sched_free(entity->children[i]);
	free(entity->children);
	free(entity);
}

const struct bt_entity *bt_sched_find_group(const struct bt_entity *root,
					    const struct bt_group *group)
{
	if (root->type == BT_ENTITY_GROUP && root->group == group)
		return root;
	for (size_t i = 0; i < root->nchildren; i++) {
		const struct bt_entity *found =
			bt_sched_find_group(root->children[i], group);

		if (found)
			return found;
	}
	return NULL;
}
