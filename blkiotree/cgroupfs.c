/*
 * The blkio hierarchy through libcgroup; see cgroupfs.h.  Group paths in
 * the model are relative ("a/b"); libcgroup gets them as "/a/b".
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libcgroup.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroupfs.h"
#include "procinfo.h"
#include "strutil.h"

#define CONTROLLER "blkio"

/* A libcgroup error as an errno; ECGOTHER carries the kernel's. */
static int errno_of(int ecg)
{
	int err;

	switch (ecg) {
	case 0:
		return 0;
	case ECGOTHER:
		err = cgroup_get_last_errno();
		return err ? err : EIO;
	case ECGROUPNOTEXIST:
	case ECGROUPVALUENOTEXIST:
	case ECGROUPNOTMOUNTED:
	case ECGROUPSUBSYSNOTMOUNTED:
		return ENOENT;
	case ECGROUPNOTOWNER:
		return EPERM;
	case ECGROUPNOTALLOWED:
		return EACCES;
	}
	return EIO;
}

static bool policy_file_exists(const char *mount, const char *file)
{
	char *path = xasprintf("%s/%s", mount, file);
	bool exists = access(path, F_OK) == 0;

	free(path);
	return exists;
}

int bt_cgroupfs_open(struct bt_cgroupfs *fs)
{
	int rc;

	memset(fs, 0, sizeof(*fs));
	rc = cgroup_init();
	if (rc == ECGROUPNOTMOUNTED)
		return ENOENT;
	if (rc)
		return errno_of(rc);
	if (cgroup_get_subsys_mount_point(CONTROLLER, &fs->mount))
		return ENOENT;
	/* a cfq with flat groups only has weights but no use_hierarchy */
	fs->cfq_policy = policy_file_exists(fs->mount, "blkio.weight");
	fs->hierarchy = fs->cfq_policy &&
			policy_file_exists(fs->mount, "blkio.use_hierarchy");
	return 0;
}

void bt_cgroupfs_close(struct bt_cgroupfs *fs)
{
	free(fs->mount);
	fs->mount = NULL;
}

static char *cg_name(const char *path)
{
	return xasprintf("/%s", path);
}

/* The first line of a policy file, or false when it cannot be read. */
static bool read_value(const char *path, const char *file, char *buf,
		       int size)
{
	char *name = cg_name(path), *file_copy = xstrdup(file);
	void *handle = NULL;
	int rc;

	rc = cgroup_read_value_begin(CONTROLLER, name, file_copy, &handle, buf,
				     size);
	if (handle)
		cgroup_read_value_end(&handle);
	free(name);
	free(file_copy);
	if (rc)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

static void read_devweights(struct bt_group *group)
{
	char *name = cg_name(group->path), file[] = "blkio.weight_device";
	char line[128];
	void *handle = NULL;
	int rc;

	/* one "MAJ:MIN WEIGHT" per line */
	rc = cgroup_read_value_begin(CONTROLLER, name, file, &handle, line,
				     sizeof(line));
	while (!rc) {
		unsigned major, minor, weight;

		if (sscanf(line, "%u:%u %u", &major, &minor, &weight) == 3)
			bt_group_set_devweight(group, major, minor, weight);
		rc = cgroup_read_value_next(&handle, line, sizeof(line));
	}
	if (handle)
		cgroup_read_value_end(&handle);
	free(name);
}

static void read_group(struct bt_group *group)
{
	char buf[64];
	long long v;

	if (read_value(group->path, "blkio.weight", buf, sizeof(buf)) &&
	    !str_to_ll(buf, &v))
		group->weight = v;
	if (read_value(group->path, "blkio.use_hierarchy", buf, sizeof(buf)) &&
	    !str_to_ll(buf, &v))
		group->use_hierarchy = v != 0;
	read_devweights(group);
}

static void read_tasks(struct bt_group *group)
{
	char *name = cg_name(group->path);
	void *handle = NULL;
	pid_t pid;
	int rc;

	rc = cgroup_get_task_begin(name, CONTROLLER, &handle, &pid);
	while (!rc) {
		struct bt_task task;

		/* a task that exits meanwhile is simply not listed */
		if (bt_procinfo_read(pid, &task))
			bt_group_add_task(group, &task);
		rc = cgroup_get_task_next(&handle, &pid);
	}
	if (handle)
		cgroup_get_task_end(&handle);
	free(name);
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Relative paths of all groups below the root, sorted so parents come first. */
static int list_groups(const struct bt_cgroupfs *fs, char ***paths,
		       size_t *npaths)
{
	struct cgroup_file_info info;
	size_t mount_len = strlen(fs->mount), n = 0;
	char **list = NULL;
	void *handle = NULL;
	int base_level, rc;

	rc = cgroup_walk_tree_begin(CONTROLLER, "/", 0, &handle, &info,
				    &base_level);
	while (!rc) {
		if (info.type == CGROUP_FILE_TYPE_DIR &&
		    !strncmp(info.full_path, fs->mount, mount_len)) {
			const char *why;
			char *path = bt_path_normalize(info.full_path +
						       mount_len, &why);

			if (path && *path) {
				list = xreallocarray(list, n + 1,
						     sizeof(*list));
				list[n++] = path;
			} else {
				free(path);
			}
		}
		rc = cgroup_walk_tree_next(0, &handle, &info, base_level);
	}
	if (handle)
		cgroup_walk_tree_end(&handle);
	if (rc != ECGEOF) {
		for (size_t i = 0; i < n; i++)
			free(list[i]);
		free(list);
		return errno_of(rc);
	}
	if (n)
		qsort(list, n, sizeof(*list), compare_strings);
	*paths = list;
	*npaths = n;
	return 0;
}

int bt_cgroupfs_load(const struct bt_cgroupfs *fs, struct bt_tree **out)
{
	struct bt_tree *tree;
	char **paths = NULL;
	size_t npaths = 0;
	int err;

	err = list_groups(fs, &paths, &npaths);
	if (err)
		return err;
	tree = bt_tree_new();
	for (size_t i = 0; i < npaths; i++) {
		char *slash = strrchr(paths[i], '/');
		struct bt_group *parent;

		if (slash)
			*slash = '\0';
		parent = slash ? bt_group_find(tree, paths[i]) : tree->root;
		if (parent)
			bt_group_add(parent, slash ? slash + 1 : paths[i]);
		free(paths[i]);
	}
	free(paths);
	for (struct bt_group *g = tree->root; g; g = bt_group_next(g)) {
		read_group(g);
		read_tasks(g);
	}
	*out = tree;
	return 0;
}

/* A libcgroup group naming only the blkio controller. */
static struct cgroup *new_cgroup(const char *path,
				 struct cgroup_controller **controller)
{
	char *name = cg_name(path);
	struct cgroup *cg = cgroup_new_cgroup(name);
	struct cgroup_controller *ctl;

	free(name);
	if (!cg)
		return NULL;
	ctl = cgroup_add_controller(cg, CONTROLLER);
	if (!ctl) {
		cgroup_free(&cg);
		return NULL;
	}
	if (controller)
		*controller = ctl;
	return cg;
}

int bt_cgroupfs_create(const char *path)
{
	struct cgroup *cg = new_cgroup(path, NULL);
	int rc;

	if (!cg)
		return ENOMEM;
	rc = cgroup_create_cgroup(cg, 1);
	cgroup_free(&cg);
	return errno_of(rc);
}

int bt_cgroupfs_write(const char *path,
		      const char *file, const char *value)
{
	struct cgroup_controller *ctl;
	struct cgroup *cg = new_cgroup(path, &ctl);
	int rc;

	if (!cg)
		return ENOMEM;
	rc = cgroup_add_value_string(ctl, file, value);
	if (!rc)
		rc = cgroup_modify_cgroup(cg);
	cgroup_free(&cg);
	return errno_of(rc);
}

int bt_cgroupfs_delete(const char *path,
		       bool recursive)
{
	struct cgroup *cg = new_cgroup(path, NULL);
	int rc;

	if (!cg)
		return ENOMEM;
	rc = cgroup_delete_cgroup_ext(cg, recursive ? CGFLAG_DELETE_RECURSIVE
						    : 0);
	cgroup_free(&cg);
	return errno_of(rc);
}

int bt_cgroupfs_attach(const struct bt_cgroupfs *fs, const char *path,
		       pid_t pid)
{
	/*
	 * libcgroup 2.0 only writes the tasks file, thread by thread; the
	 * kernel moves a whole thread group in one write to cgroup.procs.
	 */
	char *file = xasprintf("%s/%s%scgroup.procs", fs->mount, path,
			       *path ? "/" : "");
	char *text = xasprintf("%ld\n", (long)pid);
	int fd = open(file, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0 || write(fd, text, strlen(text)) < 0)
		err = errno;
	if (fd >= 0 && close(fd) && !err)
		err = errno;
	free(file);
	free(text);
	return err;
}
