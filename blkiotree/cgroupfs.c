/*
 * The blkio hierarchy: libcgroup finds its mount, the rest is done in
 * it; see cgroupfs.h.  Group paths in the model are relative ("a/b").
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libcgroup.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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

/*
 * The kernel's side of the seam: one system call each, its errno the
 * kernel's own.
 */
static int kernel_mkdir(const char *dir)
{
	return mkdir(dir, 0755) ? errno : 0;
}

static int kernel_rmdir(const char *dir)
{
	return rmdir(dir) ? errno : 0;
}

static int kernel_write(const char *file, const char *value)
{
	int fd = open(file, O_WRONLY | O_CLOEXEC), err = 0;
	size_t len = strlen(value);
	ssize_t done;

	if (fd < 0)
		return errno;
	/* the kernel takes a policy value in one write or not at all */
	done = write(fd, value, len);
	if (done < 0)
		err = errno;
	else if ((size_t)done != len)
		err = EIO;
	if (close(fd) && !err)
		err = errno;
	return err;
}

static const struct bt_cgroupfs_ops kernel_ops = {
	.mkdir = kernel_mkdir,
	.rmdir = kernel_rmdir,
	.write = kernel_write,
};

static bool policy_file_exists(const char *mount, const char *file)
{
	char *path = xasprintf("%s/%s", mount, file);
	bool exists = access(path, F_OK) == 0;

	free(path);
	return exists;
}

void bt_cgroupfs_open_at(struct bt_cgroupfs *fs, const char *mount,
			 const struct bt_cgroupfs_ops *ops)
{
	fs->mount = xstrdup(mount);
	fs->ops = ops;
	/* a cfq with flat groups only has weights but no use_hierarchy */
	fs->cfq_policy = policy_file_exists(fs->mount, "blkio.weight");
	fs->hierarchy = fs->cfq_policy &&
			policy_file_exists(fs->mount, "blkio.use_hierarchy");
}

int bt_cgroupfs_open(struct bt_cgroupfs *fs)
{
	char *mount;
	int rc;

	memset(fs, 0, sizeof(*fs));
	rc = cgroup_init();
	if (rc == ECGROUPNOTMOUNTED)
		return ENOENT;
	if (rc)
		return errno_of(rc);
	if (cgroup_get_subsys_mount_point(CONTROLLER, &mount))
		return ENOENT;
	bt_cgroupfs_open_at(fs, mount, &kernel_ops);
	free(mount);
	return 0;
}

void bt_cgroupfs_close(struct bt_cgroupfs *fs)
{
	free(fs->mount);
	fs->mount = NULL;
}

/*
 * The path of @file ("blkio.weight", ...) of the group at @path, or of
 * the group's directory when @file is NULL.  Every path below the mount
 * is made here: libcgroup 2.0 re-reads /proc/self/mounts before every
 * mkdir and every value it writes (cg_test_mounted_fs()) and makes every
 * component of the path (mkdir -p), so a 100-group apply parsed the mount
 * table 200 times.  Here a group is one mkdir(2), a value one write(2)
 * and a read one read of the whole file.
 */
static char *group_file(const struct bt_cgroupfs *fs, const char *path,
			const char *file)
{
	return xasprintf("%s%s%s%s%s", fs->mount, *path ? "/" : "", path,
			 file ? "/" : "", file ? file : "");
}

/* The number on the first line of a policy file; false if there is none. */
static bool read_number(const struct bt_cgroupfs *fs, const char *path,
			const char *file, long long *value)
{
	char *text;
	bool ok;

	if (bt_cgroupfs_read(fs, path, file, &text))
		return false;
	text[strcspn(text, "\n")] = '\0';
	ok = !str_to_ll(text, value);
	free(text);
	return ok;
}

static void read_devweights(const struct bt_cgroupfs *fs,
			    struct bt_group *group)
{
	char *text, *line, *save;

	if (bt_cgroupfs_read(fs, group->path, "blkio.weight_device", &text))
		return;
	/* one "MAJ:MIN WEIGHT" per line */
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned major, minor, weight;

		if (sscanf(line, "%u:%u %u", &major, &minor, &weight) == 3)
			bt_group_set_devweight(group, major, minor, weight);
	}
	free(text);
}

/* The policy values; files this kernel does not have are not tried. */
static void read_group(const struct bt_cgroupfs *fs, struct bt_group *group)
{
	long long v;

	if (!fs->cfq_policy)
		return;
	if (read_number(fs, group->path, "blkio.weight", &v))
		group->weight = v;
	if (fs->hierarchy &&
	    read_number(fs, group->path, "blkio.use_hierarchy", &v))
		group->use_hierarchy = v != 0;
	read_devweights(fs, group);
}

int bt_cgroupfs_threads(const struct bt_cgroupfs *fs, const char *path,
			pid_t **tids, size_t *ntids)
{
	char *text, *line, *save;
	int err = bt_cgroupfs_read(fs, path, "tasks", &text);

	*tids = NULL;
	*ntids = 0;
	if (err)
		return err;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		long long v;

		if (str_to_ll(line, &v) || v <= 0 || v > INT_MAX)
			continue;
		*tids = xreallocarray(*tids, *ntids + 1, sizeof(**tids));
		(*tids)[(*ntids)++] = v;
	}
	free(text);
	return 0;
}

static void read_tasks(const struct bt_cgroupfs *fs, struct bt_group *group,
		       bool details)
{
	pid_t *tids;
	size_t ntids;

	if (bt_cgroupfs_threads(fs, group->path, &tids, &ntids))
		return;
	for (size_t i = 0; i < ntids; i++) {
		struct bt_task task = { .pid = tids[i] };

		/* a task that exits meanwhile is simply not listed */
		if (!details || bt_procinfo_read(tids[i], &task))
			bt_group_add_task(group, &task);
	}
	free(tids);
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Append the relative paths of the groups below @rel ("" for the root),
 * recursively.  A walk of directories only: libcgroup's tree walk (fts)
 * stats every file of every group, some thirty a group, which made
 * reading a 100-group hierarchy cost more than writing it.
 */
static int walk_groups(const char *mount, const char *rel, char ***list,
		       size_t *n)
{
	char *dirpath = *rel ? xasprintf("%s/%s", mount, rel) : xstrdup(mount);
	DIR *dir = opendir(dirpath);
	struct dirent *d;
	int err = 0;

	free(dirpath);
	if (!dir)
		/* a group removed while we walk is simply not listed */
		return errno == ENOENT && *rel ? 0 : errno;
	while (!err && (d = readdir(dir))) {
		char *path;

		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, ".."))
			continue;
		path = *rel ? xasprintf("%s/%s", rel, d->d_name)
			    : xstrdup(d->d_name);
		*list = xreallocarray(*list, *n + 1, sizeof(**list));
		(*list)[(*n)++] = path;
		err = walk_groups(mount, path, list, n);
	}
	closedir(dir);
	return err;
}

/* Relative paths of all groups below the root, sorted so parents come first. */
static int list_groups(const struct bt_cgroupfs *fs, char ***paths,
		       size_t *npaths)
{
	char **list = NULL;
	size_t n = 0;
	int err = walk_groups(fs->mount, "", &list, &n);

	if (err) {
		for (size_t i = 0; i < n; i++)
			free(list[i]);
		free(list);
		return err;
	}
	if (n)
		qsort(list, n, sizeof(*list), compare_strings);
	*paths = list;
	*npaths = n;
	return 0;
}

int bt_cgroupfs_load(const struct bt_cgroupfs *fs, bool task_details,
		     struct bt_tree **out)
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
		read_group(fs, g);
		read_tasks(fs, g, task_details);
	}
	*out = tree;
	return 0;
}

int bt_cgroupfs_create(const struct bt_cgroupfs *fs, const char *path)
{
	char *dir = group_file(fs, path, NULL);
	int err = fs->ops->mkdir(dir);

	free(dir);
	return err;
}

int bt_cgroupfs_write(const struct bt_cgroupfs *fs, const char *path,
		      const char *file, const char *value)
{
	char *name = group_file(fs, path, file);
	int err = fs->ops->write(name, value);

	free(name);
	return err;
}

int bt_cgroupfs_read(const struct bt_cgroupfs *fs, const char *path,
		     const char *file, char **text)
{
	char *name = group_file(fs, path, file);
	int err = str_read_file(name, text);

	free(name);
	return err;
}

int bt_cgroupfs_move_threads(const struct bt_cgroupfs *fs, const char *path,
			     const pid_t *tids, size_t ntids, size_t *moved)
{
	for (*moved = 0; *moved < ntids; (*moved)++) {
		int err = bt_cgroupfs_attach(fs, path, tids[*moved], true);

		if (err && err != ESRCH)
			return err;
	}
	return 0;
}

int bt_cgroupfs_delete(const struct bt_cgroupfs *fs, const char *path)
{
	char *parent = bt_path_parent(path), *dir;
	size_t ntids, moved;
	pid_t *tids;
	int err;

	err = bt_cgroupfs_threads(fs, path, &tids, &ntids);
	if (!err)
		err = bt_cgroupfs_move_threads(fs, parent, tids, ntids, &moved);
	if (!err) {
		dir = group_file(fs, path, NULL);
		err = fs->ops->rmdir(dir);
		free(dir);
	}
	free(tids);
	free(parent);
	return err;
}

int bt_cgroupfs_attach(const struct bt_cgroupfs *fs, const char *path,
		       pid_t pid, bool thread)
{
	/*
	 * libcgroup 2.0 only writes the tasks file, thread by thread; the
	 * kernel moves a whole thread group in one write to cgroup.procs.
	 */
	char *text = xasprintf("%ld", (long)pid);
	int err = bt_cgroupfs_write(fs, path,
				    thread ? "tasks" : "cgroup.procs", text);

	free(text);
	return err;
}
