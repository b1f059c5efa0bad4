/*
 * The blkio hierarchy through libcgroup; see cgroupfs.h.  Group paths in
 * the model are relative ("a/b"); libcgroup gets them as "/a/b".
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

/* The policy values; files this kernel does not have are not tried. */
static void read_group(const struct bt_cgroupfs *fs, struct bt_group *group)
{
	char buf[64];
	long long v;

	if (!fs->cfq_policy)
		return;
	if (read_value(group->path, "blkio.weight", buf, sizeof(buf)) &&
	    !str_to_ll(buf, &v))
		group->weight = v;
	if (fs->hierarchy &&
	    read_value(group->path, "blkio.use_hierarchy", buf, sizeof(buf)) &&
	    !str_to_ll(buf, &v))
		group->use_hierarchy = v != 0;
	read_devweights(group);
}

static void read_tasks(struct bt_group *group, bool details)
{
	char *name = cg_name(group->path);
	void *handle = NULL;
	pid_t pid;
	int rc;

	rc = cgroup_get_task_begin(name, CONTROLLER, &handle, &pid);
	while (!rc) {
		struct bt_task task = { .pid = pid };

		/* a task that exits meanwhile is simply not listed */
		if (!details || bt_procinfo_read(pid, &task))
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
		read_tasks(g, task_details);
	}
	*out = tree;
	return 0;
}

/* A libcgroup group naming only the blkio controller. */
static struct cgroup *new_cgroup(const char *path)
{
	char *name = cg_name(path);
	struct cgroup *cg = cgroup_new_cgroup(name);

	free(name);
	if (cg && !cgroup_add_controller(cg, CONTROLLER))
		cgroup_free(&cg);
	return cg;
}

/*
 * Creating and writing go straight to the mount cgroup_init() found:
 * libcgroup 2.0 re-reads /proc/self/mounts before every mkdir and every
 * value it writes (cg_test_mounted_fs()) and makes every component of the
 * path (mkdir -p), so a 100-group apply parsed the mount table 200 times.
 * Here a group is one mkdir(2) and a value one write(2), and the errno is
 * the kernel's own.
 */
static char *group_file(const struct bt_cgroupfs *fs, const char *path,
			const char *file)
{
	return xasprintf("%s%s%s%s%s", fs->mount, *path ? "/" : "", path,
			 file ? "/" : "", file ? file : "");
}

int bt_cgroupfs_create(const struct bt_cgroupfs *fs, const char *path)
{
	char *dir = group_file(fs, path, NULL);
	int err = mkdir(dir, 0755) ? errno : 0;

	free(dir);
	return err;
}

int bt_cgroupfs_write(const struct bt_cgroupfs *fs, const char *path,
		      const char *file, const char *value)
{
	char *name = group_file(fs, path, file);
	int fd = open(name, O_WRONLY | O_CLOEXEC), err = 0;
	size_t len = strlen(value);
	ssize_t done;

	free(name);
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

/* Straight from the mount too: libcgroup reads a value line by line. */
int bt_cgroupfs_read(const struct bt_cgroupfs *fs, const char *path,
		     const char *file, char **text)
{
	char *name = group_file(fs, path, file);
	int err = str_read_file(name, text);

	free(name);
	return err;
}

int bt_cgroupfs_delete(const char *path,
		       bool recursive)
{
	struct cgroup *cg = new_cgroup(path);
	int rc;

	if (!cg)
		return ENOMEM;
	rc = cgroup_delete_cgroup_ext(cg, recursive ? CGFLAG_DELETE_RECURSIVE
						    : 0);
	cgroup_free(&cg);
	return errno_of(rc);
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
