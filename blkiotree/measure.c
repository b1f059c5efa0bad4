/* Measured shares of disk time and bytes; see measure.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "strutil.h"

/* A whole field of decimal digits that fits 64 bits. */
static bool parse_u64(const char *text, uint64_t *value)
{
	uint64_t v = 0;

	if (!*text)
		return false;
	for (; *text; text++) {
		unsigned digit = *text - '0';

		if (digit > 9 || v > (UINT64_MAX - digit) / 10)
			return false;
		v = v * 10 + digit;
	}
	*value = v;
	return true;
}

/* Split @line at blanks into at most @max fields; returns how many. */
static size_t split_fields(char *line, char **fields, size_t max)
{
	char *save, *field;
	size_t n = 0;

	for (field = strtok_r(line, " \t", &save); field;
	     field = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		fields[n++] = field;
	}
	return n;
}

/*
 * The value of the line "MAJ:MIN [@key] VALUE" for the device; @key NULL
 * for the files that have one value a device.  The last such line wins.
 */
static bool device_value(const char *text, unsigned major, unsigned minor,
			 const char *key, uint64_t *value)
{
	char *copy = xstrdup(text), *save, *line;
	size_t want = key ? 3 : 2;
	bool found = false;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *fields[3];
		unsigned maj, min;
		uint64_t v;

		if (split_fields(line, fields, want) != want ||
		    !str_to_devnum(fields[0], &maj, &min) ||
		    maj != major || min != minor ||
		    (key && strcmp(fields[1], key)) ||
		    !parse_u64(fields[want - 1], &v))
			continue;
		*value = v;
		found = true;
	}
	free(copy);
	return found;
}

bool bt_parse_blkio_time(const char *text, unsigned major, unsigned minor,
			 uint64_t *value)
{
	return device_value(text, major, minor, NULL, value);
}

bool bt_parse_service_bytes(const char *text, unsigned major,
			    unsigned minor, uint64_t *value)
{
	return device_value(text, major, minor, "Total", value);
}

/* The value of the line "@name: N" of /proc/.../io text. */
static bool proc_io_value(const char *text, const char *name, uint64_t *value)
{
	size_t len = strlen(name);

	for (const char *line = text; line; line = strchr(line, '\n')) {
		char number[32];
		size_t n;

		if (*line == '\n')
			line++;
		if (strncmp(line, name, len) || line[len] != ':')
			continue;
		line += len + 1;
		line += strspn(line, " ");
		n = strcspn(line, "\n");
		if (n >= sizeof(number))
			return false;
		memcpy(number, line, n);
		number[n] = '\0';
		return parse_u64(number, value);
	}
	return false;
}

bool bt_parse_proc_io(const char *text, uint64_t *bytes)
{
	uint64_t read, written;

	if (!proc_io_value(text, "read_bytes", &read) ||
	    !proc_io_value(text, "write_bytes", &written) ||
	    read > UINT64_MAX - written)
		return false;
	*bytes = read + written;
	return true;
}

#define INTERVAL_MAX_SEC	86400

bool bt_parse_interval(const char *text, unsigned long *msec)
{
	size_t whole = strspn(text, "0123456789"), decimals = 0;
	unsigned long ms = 0;

	if (!whole || whole > 5)
		return false;
	if (text[whole] == '.') {
		decimals = strspn(text + whole + 1, "0123456789");
		if (!decimals || decimals > 3)
			return false;
	}
	if (text[whole + (decimals ? decimals + 1 : 0)])
		return false;
	for (size_t i = 0; i < whole; i++)
		ms = ms * 10 + (text[i] - '0');
	ms *= 1000;
	for (size_t i = 0, scale = 100; i < decimals; i++, scale /= 10)
		ms += (text[whole + 1 + i] - '0') * scale;
	if (!ms || ms > INTERVAL_MAX_SEC * 1000UL)
		return false;
	*msec = ms;
	return true;
}

void bt_sample_add_group(struct bt_sample *sample, const char *path,
			 struct bt_reading time_ms, struct bt_reading bytes)
{
	sample->groups = xreallocarray(sample->groups, sample->ngroups + 1,
				       sizeof(*sample->groups));
	sample->groups[sample->ngroups++] = (struct bt_group_sample){
		.path = xstrdup(path), .time_ms = time_ms, .bytes = bytes,
	};
	sample->sorted = false;
}

void bt_sample_add_task(struct bt_sample *sample, pid_t pid,
			struct bt_reading bytes)
{
	sample->tasks = xreallocarray(sample->tasks, sample->ntasks + 1,
				      sizeof(*sample->tasks));
	sample->tasks[sample->ntasks++] = (struct bt_task_sample){
		.pid = pid, .bytes = bytes,
	};
	sample->sorted = false;
}

void bt_sample_free(struct bt_sample *sample)
{
	for (size_t i = 0; i < sample->ngroups; i++)
		free(sample->groups[i].path);
	free(sample->groups);
	free(sample->tasks);
	memset(sample, 0, sizeof(*sample));
}

static int compare_group_samples(const void *a, const void *b)
{
	const struct bt_group_sample *x = a, *y = b;

	return strcmp(x->path, y->path);
}

static int compare_task_samples(const void *a, const void *b)
{
	const struct bt_task_sample *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Sorted once, so that each entity finds its counters by bsearch(). */
static void sample_sort(struct bt_sample *sample)
{
	if (sample->sorted)
		return;
	if (sample->ngroups)
		qsort(sample->groups, sample->ngroups, sizeof(*sample->groups),
		      compare_group_samples);
	if (sample->ntasks)
		qsort(sample->tasks, sample->ntasks, sizeof(*sample->tasks),
		      compare_task_samples);
	sample->sorted = true;
}

static const struct bt_group_sample *find_group(const struct bt_sample *sample,
						const char *path)
{
	struct bt_group_sample key = { .path = (char *)path };

	if (!sample->ngroups)
		return NULL;
	return bsearch(&key, sample->groups, sample->ngroups,
		       sizeof(*sample->groups), compare_group_samples);
}

static const struct bt_task_sample *find_task(const struct bt_sample *sample,
					      pid_t pid)
{
	struct bt_task_sample key = { .pid = pid };

	if (!sample->ntasks)
		return NULL;
	return bsearch(&key, sample->tasks, sample->ntasks,
		       sizeof(*sample->tasks), compare_task_samples);
}

bool bt_reading_delta(const struct bt_reading *before,
		      const struct bt_reading *after, uint64_t *delta)
{
	uint64_t start = before ? before->value : 0;

	if ((before && !before->valid) || !after || !after->valid ||
	    after->value < start)
		return false;
	*delta = after->value - start;
	return true;
}

static struct bt_amount amount_of(const struct bt_reading *before,
				  const struct bt_reading *after)
{
	struct bt_amount amount = { 0 };

	amount.measured = bt_reading_delta(before, after, &amount.delta);
	if (!amount.measured)
		amount.delta = 0;
	return amount;
}

/* Each entity's own growth, in pre-order; returns the next free slot. */
static size_t measure_own(struct bt_entity *entity, struct bt_measure *slots,
			  size_t next, const struct bt_sample *before,
			  const struct bt_sample *after)
{
	struct bt_measure *m = &slots[next++];

	if (entity->type == BT_ENTITY_PIVOT) {
		m->time_ms.measured = m->bytes.measured = true;
	} else if (entity->type == BT_ENTITY_GROUP) {
		const struct bt_group_sample *b = find_group(before,
							     entity->group->path);
		const struct bt_group_sample *a = find_group(after,
							     entity->group->path);

		m->time_ms = amount_of(b ? &b->time_ms : NULL,
				       a ? &a->time_ms : NULL);
		m->bytes = amount_of(b ? &b->bytes : NULL,
				     a ? &a->bytes : NULL);
	} else {
		const struct bt_task_sample *b = find_task(before,
							   entity->task->pid);
		const struct bt_task_sample *a = find_task(after,
							   entity->task->pid);

		m->bytes = amount_of(b ? &b->bytes : NULL,
				     a ? &a->bytes : NULL);
	}
	entity->measure = m;
	for (size_t i = 0; i < entity->nchildren; i++)
		next = measure_own(entity->children[i], slots, next, before,
				   after);
	return next;
}

/*
 * Add the group entities below @entity into its amounts (their own
 * counters are already theirs); tasks' bytes are another counter and
 * stay apart.  Sums the tasks' bytes into *@task_bytes.
 */
static void add_subtree(struct bt_entity *entity, uint64_t *task_bytes)
{
	struct bt_measure *m = entity->measure;

	for (size_t i = 0; i < entity->nchildren; i++) {
		struct bt_entity *child = entity->children[i];

		add_subtree(child, task_bytes);
		if (child->type == BT_ENTITY_TASK) {
			*task_bytes += child->measure->bytes.delta;
			continue;
		}
		m->time_ms.delta += child->measure->time_ms.delta;
		m->bytes.delta += child->measure->bytes.delta;
	}
}

static void set_share(struct bt_amount *amount, uint64_t whole)
{
	amount->has_share = amount->measured && whole;
	amount->share = amount->has_share ? 100.0 * amount->delta / whole : 0;
}

static void set_shares(struct bt_entity *entity, const struct bt_measure *all,
		       uint64_t task_bytes)
{
	struct bt_measure *m = entity->measure;

	if (entity->type == BT_ENTITY_TASK) {
		set_share(&m->bytes, task_bytes);
	} else {
		set_share(&m->time_ms, all->time_ms.delta);
		set_share(&m->bytes, all->bytes.delta);
	}
	for (size_t i = 0; i < entity->nchildren; i++)
		set_shares(entity->children[i], all, task_bytes);
}

static size_t count_entities(const struct bt_entity *entity)
{
	size_t n = 1;

	for (size_t i = 0; i < entity->nchildren; i++)
		n += count_entities(entity->children[i]);
	return n;
}

struct bt_measure *bt_measure_tree(struct bt_entity *pivot,
				   struct bt_sample *before,
				   struct bt_sample *after)
{
	struct bt_measure *slots = xcalloc(count_entities(pivot),
					   sizeof(*slots));
	uint64_t task_bytes = 0;

	sample_sort(before);
	sample_sort(after);
	measure_own(pivot, slots, 0, before, after);
	add_subtree(pivot, &task_bytes);
	set_shares(pivot, pivot->measure, task_bytes);
	return slots;
}
