/* A fake blkio hierarchy in a directory; see fakecg.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fakecg.h"
#include "strutil.h"

/* The files the kernel gives every group, as blkiotree uses them. */
static const char *const files[] = {
	"blkio.weight", "blkio.use_hierarchy", "blkio.weight_device",
	"tasks", "cgroup.procs",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static char *root;
static unsigned calls, fail_first, fail_second;
static int fail_err;

/* Count a call; true when it is one to fail. */
static bool fault(void)
{
	calls++;
	return calls == fail_first || calls == fail_second;
}

void fakecg_fail(unsigned first, unsigned second, int err)
{
	calls = 0;
	fail_first = first;
	fail_second = second;
	fail_err = err;
}

unsigned fakecg_calls(void)
{
	return calls;
}

static char *dir_of(const char *path)
{
	char *dir = xstrdup(path);

	*strrchr(dir, '/') = '\0';
	return dir;
}

static char *read_text(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text;

	if (str_read_file(path, &text))
		text = xstrdup("");
	free(path);
	return text;
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(path);
		abort();
	}
	free(path);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static int only_dirs(const struct dirent *d)
{
	return d->d_type == DT_DIR && strcmp(d->d_name, ".") &&
	       strcmp(d->d_name, "..");
}

/* The child groups of @dir, sorted (caller frees each and the array). */
static int child_groups(const char *dir, struct dirent ***list)
{
	int n = scandir(dir, list, only_dirs, alphasort);

	if (n < 0) {
		perror(dir);
		abort();
	}
	return n;
}

static void free_list(struct dirent **list, int n)
{
	while (n-- > 0)
		free(list[n]);
	free(list);
}

static bool has_child_groups(const char *dir)
{
	struct dirent **list;
	int n = child_groups(dir, &list);

	free_list(list, n);
	return n > 0;
}

static void make_group(const char *dir, const char *parent)
{
	char *hierarchy = parent ? read_text(parent, "blkio.use_hierarchy")
				 : xstrdup("0\n");

	if (mkdir(dir, 0755)) {
		perror(dir);
		abort();
	}
	for (size_t i = 0; i < NFILES; i++)
		write_text(dir, files[i], "");
	write_text(dir, "blkio.weight", parent ? "500\n" : "1000\n");
	/* a child of a use_hierarchy=1 group starts hierarchical */
	write_text(dir, "blkio.use_hierarchy", hierarchy);
	free(hierarchy);
}

static int fake_mkdir(const char *dir)
{
	char *parent;
	int err = 0;

	if (fault())
		return fail_err;
	parent = dir_of(dir);
	if (!is_dir(parent))
		err = ENOENT;
	else if (!access(dir, F_OK))
		err = EEXIST;
	else
		make_group(dir, parent);
	free(parent);
	return err;
}

static int fake_rmdir(const char *dir)
{
	char *tasks;
	bool busy;

	if (fault())
		return fail_err;
	if (!is_dir(dir))
		return ENOENT;
	tasks = read_text(dir, "tasks");
	busy = *tasks || has_child_groups(dir);
	free(tasks);
	if (busy)
		return EBUSY;
	for (size_t i = 0; i < NFILES; i++) {
		char *path = xasprintf("%s/%s", dir, files[i]);

		unlink(path);
		free(path);
	}
	return rmdir(dir) ? errno : 0;
}

static int write_weight(const char *dir, const char *value)
{
	long long v;
	char *text;

	if (str_to_ll(value, &v))
		return EINVAL;
	if (v < 10 || v > 1000)
		return ERANGE;
	text = xasprintf("%lld\n", v);
	write_text(dir, "blkio.weight", text);
	free(text);
	return 0;
}

static int write_use_hierarchy(const char *dir, const char *value)
{
	char *parent = dir_of(dir), *now = read_text(dir, "blkio.use_hierarchy");
	char *above = strcmp(dir, root) ? read_text(parent, "blkio.use_hierarchy")
					: xstrdup("0\n");
	int err = 0;

	if (strcmp(value, "0") && strcmp(value, "1"))
		err = EINVAL;
	else if (*now == *value)
		err = 0;	/* the value it has: no change */
	else if (*above == '1')
		err = EINVAL;
	else if (has_child_groups(dir))
		err = EBUSY;
	else
		write_text(dir, "blkio.use_hierarchy", *value == '1' ? "1\n"
								: "0\n");
	free(above);
	free(now);
	free(parent);
	return err;
}

/* "MAJ:MIN WEIGHT" sets one device's line, WEIGHT 0 removes it. */
static int write_weight_device(const char *dir, const char *value)
{
	char *old = read_text(dir, "blkio.weight_device"), *save, *line;
	unsigned major, minor, weight, m, n, w;
	char *text = NULL, end;
	size_t len = 0;
	FILE *out;

	if (sscanf(value, "%u:%u %u%c", &major, &minor, &weight, &end) != 3) {
		free(old);
		return EINVAL;
	}
	if (weight && (weight < 10 || weight > 1000)) {
		free(old);
		return ERANGE;
	}
	out = open_memstream(&text, &len);
	/* the lines stay sorted, so that a state reads the same every time */
	for (line = strtok_r(old, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		sscanf(line, "%u:%u %u", &m, &n, &w);
		if (weight && (m > major || (m == major && n > minor))) {
			fprintf(out, "%u:%u %u\n", major, minor, weight);
			weight = 0;
		}
		if (m != major || n != minor)
			fprintf(out, "%s\n", line);
	}
	if (weight)
		fprintf(out, "%u:%u %u\n", major, minor, weight);
	fclose(out);
	write_text(dir, "blkio.weight_device", text);
	free(text);
	free(old);
	return 0;
}

static int compare_tids(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* Add or remove @tid in @dir's tasks file; whether it was there. */
static bool set_thread(const char *dir, long tid, bool present)
{
	char *old = read_text(dir, "tasks"), *save, *line, *text = NULL;
	long *tids = xcalloc(strlen(old) / 2 + 1, sizeof(*tids));
	size_t n = 0, len = 0;
	bool found = false;
	FILE *out;

	for (line = strtok_r(old, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		long t = atol(line);

		found = found || t == tid;
		if (t != tid)
			tids[n++] = t;
	}
	free(old);
	if (present)
		tids[n++] = tid;
	qsort(tids, n, sizeof(*tids), compare_tids);
	out = open_memstream(&text, &len);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%ld\n", tids[i]);
	fclose(out);
	if (found || present)
		write_text(dir, "tasks", text);
	free(text);
	free(tids);
	return found;
}

/* Take @tid out of whichever group below @dir has it. */
static bool take_thread(const char *dir, long tid)
{
	struct dirent **list;
	int n = child_groups(dir, &list);
	bool found = set_thread(dir, tid, false);

	for (int i = 0; i < n && !found; i++) {
		char *child = xasprintf("%s/%s", dir, list[i]->d_name);

		found = take_thread(child, tid);
		free(child);
	}
	free_list(list, n);
	return found;
}

/* A write to tasks or cgroup.procs: each fake process is one thread. */
static int move_thread(const char *dir, const char *value)
{
	long long tid;

	if (str_to_ll(value, &tid) || tid <= 0)
		return EINVAL;
	if (!take_thread(root, tid))
		return ESRCH;
	set_thread(dir, tid, true);
	return 0;
}

static int fake_write(const char *file, const char *value)
{
	const char *name = strrchr(file, '/') + 1;
	char *dir;
	int err;

	if (fault())
		return fail_err;
	if (access(file, F_OK))
		return ENOENT;
	dir = dir_of(file);
	if (!strcmp(name, "blkio.weight"))
		err = write_weight(dir, value);
	else if (!strcmp(name, "blkio.use_hierarchy"))
		err = write_use_hierarchy(dir, value);
	else if (!strcmp(name, "blkio.weight_device"))
		err = write_weight_device(dir, value);
	else if (!strcmp(name, "tasks") || !strcmp(name, "cgroup.procs"))
		err = move_thread(dir, value);
	else
		err = EACCES;
	free(dir);
	return err;
}

const struct bt_cgroupfs_ops fakecg_ops = {
	.mkdir = fake_mkdir,
	.rmdir = fake_rmdir,
	.write = fake_write,
};

void fakecg_init(const char *dir, const pid_t *tids, size_t ntids)
{
	free(root);
	root = xstrdup(dir);
	make_group(root, NULL);
	for (size_t i = 0; i < ntids; i++)
		set_thread(root, tids[i], true);
	fakecg_fail(0, 0, 0);
}

static void remove_group(const char *dir)
{
	struct dirent **list;
	int n = child_groups(dir, &list);

	for (int i = 0; i < n; i++) {
		char *child = xasprintf("%s/%s", dir, list[i]->d_name);

		remove_group(child);
		free(child);
	}
	free_list(list, n);
	for (size_t i = 0; i < NFILES; i++) {
		char *path = xasprintf("%s/%s", dir, files[i]);

		unlink(path);
		free(path);
	}
	rmdir(dir);
}

void fakecg_remove(void)
{
	if (root && is_dir(root))
		remove_group(root);
}

static void dump_group(FILE *out, const char *dir, const char *rel)
{
	struct dirent **list;
	int n = child_groups(dir, &list);

	fprintf(out, "/%s\n", rel);
	for (size_t i = 0; i < NFILES; i++) {
		char *text = read_text(dir, files[i]);

		for (size_t j = 0; text[j]; j++)
			if (text[j] == '\n')
				text[j] = ' ';
		fprintf(out, "  %s: %s\n", files[i], text);
		free(text);
	}
	for (int i = 0; i < n; i++) {
		char *child = xasprintf("%s/%s", dir, list[i]->d_name);
		char *child_rel = *rel ? xasprintf("%s/%s", rel, list[i]->d_name)
				       : xstrdup(list[i]->d_name);

		dump_group(out, child, child_rel);
		free(child_rel);
		free(child);
	}
	free_list(list, n);
}

char *fakecg_dump(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	dump_group(out, root, "");
	fclose(out);
	return text;
}
