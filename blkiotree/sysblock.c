/* Block devices and their active scheduler; see sysblock.h. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strutil.h"
#include "sysblock.h"

/* A scheduler's name: printable, no blank, no bracket. */
static bool is_scheduler_name(const char *name, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)name[i] <= ' ' || name[i] == 0x7f ||
		    name[i] == '[' || name[i] == ']')
			return false;
	return len > 0;
}

/*
 * The kernel prints every name followed by a space, the active one in
 * brackets, and a newline ("[none] mq-deadline \n"); a queue without an
 * elevator prints "none\n" alone.  So the line is words, one of them
 * bracketed, or a single word; anything else is no scheduler line.
 */
bool bt_scheduler_parse(const char *line, char *active, size_t size)
{
	const char *name = NULL, *first = NULL, *word = line;
	size_t name_len = 0, first_len = 0, words = 0;

	while (*word) {
		size_t len = strcspn(word, " \n");
		bool bracketed = len > 2 && word[0] == '[' &&
				 word[len - 1] == ']';

		if (len && !is_scheduler_name(word + bracketed,
					      len - 2 * bracketed))
			return false;
		if (bracketed) {
			/* one active scheduler, or the line is not one */
			if (name)
				return false;
			name = word + 1;
			name_len = len - 2;
		}
		if (len && !words++) {
			first = word;
			first_len = len;
		}
		word += len + !!word[len];
	}
	if (!name && words == 1) {
		name = first;
		name_len = first_len;
	}
	if (!name || name_len >= size)
		return false;
	memcpy(active, name, name_len);
	active[name_len] = '\0';
	return true;
}

static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, size, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

static int compare_names(const void *a, const void *b)
{
	const struct bt_blockdev *x = a, *y = b;

	return strcmp(x->name, y->name);
}

int bt_blockdevs_read(const char *sysfs, struct bt_blockdev **devs,
		      size_t *ndevs)
{
	char *dirpath = xasprintf("%s/block", sysfs);
	DIR *dir = opendir(dirpath);
	struct bt_blockdev *list = NULL;
	size_t n = 0;
	struct dirent *d;

	free(dirpath);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		struct bt_blockdev dev = { 0 };
		char line[256], *path;
		bool ok;

		if (d->d_name[0] == '.' || strlen(d->d_name) >= sizeof(dev.name))
			continue;
		snprintf(dev.name, sizeof(dev.name), "%s", d->d_name);
		path = xasprintf("%s/block/%s/dev", sysfs, d->d_name);
		ok = read_line(path, line, sizeof(line)) &&
		     str_to_devnum(line, &dev.major, &dev.minor);
		free(path);
		if (!ok)
			continue;
		/* a device of size 0 (an unbound loop device) does no I/O */
		path = xasprintf("%s/block/%s/size", sysfs, d->d_name);
		ok = read_line(path, line, sizeof(line)) && strcmp(line, "0");
		free(path);
		if (!ok)
			continue;
		path = xasprintf("%s/block/%s/queue/scheduler", sysfs,
				 d->d_name);
		if (!read_line(path, line, sizeof(line)) ||
		    !bt_scheduler_parse(line, dev.scheduler,
					sizeof(dev.scheduler)))
			snprintf(dev.scheduler, sizeof(dev.scheduler), "none");
		free(path);
		list = xreallocarray(list, n + 1, sizeof(*list));
		list[n++] = dev;
	}
	closedir(dir);
	if (n)
		qsort(list, n, sizeof(*list), compare_names);
	*devs = list;
	*ndevs = n;
	return 0;
}

const struct bt_blockdev *bt_blockdev_find(const struct bt_blockdev *devs,
					   size_t ndevs, unsigned major,
					   unsigned minor)
{
	for (size_t i = 0; i < ndevs; i++)
		if (devs[i].major == major && devs[i].minor == minor)
			return &devs[i];
	return NULL;
}

char *bt_blockdev_weight_problem(const struct bt_blockdev *dev,
				 bool cfq_policy)
{
	/* bfq has weights of its own, in files that runtimes also write */
	if (!strcmp(dev->scheduler, "bfq"))
		return xstrdup("active scheduler is bfq, not cfq "
			       "(bfq reads blkio.bfq.weight)");
	if (strcmp(dev->scheduler, "cfq"))
		return xasprintf("active scheduler is %s, not cfq",
				 dev->scheduler);
	if (!cfq_policy)
		return xstrdup("the blkio hierarchy has no cfq policy files "
			       "(blkio.weight)");
	return NULL;
}
