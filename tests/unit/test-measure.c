/*
 * top's measurements: the parsers of blkio.time, blkio.io_service_bytes
 * and /proc/.../io text as the kernel prints them, --interval, and the
 * shares measured between two samples along the scheduling tree.
 */
#include "config.h"

#include <stdlib.h>

#include "measure.h"
#include "tap.h"
#include "tasks.h"

static void test_parse_time(void)
{
	const char *text = "8:0 1200\n8:16 35\n252:0 7\n";
	uint64_t v = 0;

	ok(bt_parse_blkio_time(text, 8, 16, &v) && v == 35,
	   "blkio.time: the device's line");
	ok(bt_parse_blkio_time(text, 252, 0, &v) && v == 7,
	   "blkio.time: the last line");
	ok(!bt_parse_blkio_time(text, 8, 1, &v),
	   "blkio.time: no line for the device");
	ok(!bt_parse_blkio_time("", 8, 0, &v), "blkio.time: empty file");
	ok(!bt_parse_blkio_time("8:0 12x\n8:0\n8:0 1 2\n", 8, 0, &v),
	   "blkio.time: malformed lines are no value");
	ok(bt_parse_blkio_time("8:0 18446744073709551615\n", 8, 0, &v) &&
	   v == UINT64_MAX, "blkio.time: a 64-bit value");
	ok(!bt_parse_blkio_time("8:0 18446744073709551616\n", 8, 0, &v),
	   "blkio.time: past 64 bits is no value");
}

static void test_parse_bytes(void)
{
	const char *text =
		"8:0 Read 4096\n8:0 Write 8192\n8:0 Sync 12288\n"
		"8:0 Async 0\n8:0 Discard 0\n8:0 Total 12288\n"
		"8:16 Read 1\n8:16 Write 0\n8:16 Sync 1\n8:16 Async 0\n"
		"8:16 Discard 0\n8:16 Total 1\n"
		"Total 12289\n";
	uint64_t v = 0;

	ok(bt_parse_service_bytes(text, 8, 0, &v) && v == 12288,
	   "io_service_bytes: the device's Total line");
	ok(bt_parse_service_bytes(text, 8, 16, &v) && v == 1,
	   "io_service_bytes: another device's");
	ok(!bt_parse_service_bytes(text, 9, 0, &v),
	   "io_service_bytes: no lines for the device");
	ok(!bt_parse_service_bytes("Total 0\n", 8, 0, &v),
	   "io_service_bytes: a group with no I/O has the last line only");
}

static void test_parse_proc_io(void)
{
	const char *text = "rchar: 6976\nwchar: 10\nsyscr: 10\nsyscw: 1\n"
			   "read_bytes: 4096\nwrite_bytes: 8192\n"
			   "cancelled_write_bytes: 4096\n";
	uint64_t v = 0;

	ok(bt_parse_proc_io(text, &v) && v == 12288,
	   "/proc io: read_bytes + write_bytes");
	ok(!bt_parse_proc_io("rchar: 1\nread_bytes: 5\n", &v),
	   "/proc io: no write_bytes is no value");
	ok(!bt_parse_proc_io("read_bytes: x\nwrite_bytes: 1\n", &v),
	   "/proc io: a value that is no number");
}

static void test_interval(void)
{
	static const struct {
		const char *text;
		unsigned long msec;	/* 0: refused */
	} cases[] = {
		{ "1", 1000 }, { "0.5", 500 }, { "2.25", 2250 },
		{ "0.001", 1 }, { "86400", 86400000 }, { "007", 7000 },
		{ "0", 0 }, { "0.000", 0 }, { "abc", 0 }, { "-1", 0 },
		{ "", 0 }, { "1.", 0 }, { ".5", 0 }, { "1.2345", 0 },
		{ "86400.001", 0 }, { "100000", 0 }, { "1e3", 0 },
		{ " 1", 0 }, { "1s", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long msec = 0;
		bool parsed = bt_parse_interval(cases[i].text, &msec);

		if (cases[i].msec)
			ok(parsed && msec == cases[i].msec,
			   "--interval \"%s\" is %lu ms", cases[i].text,
			   cases[i].msec);
		else
			ok(!parsed, "--interval \"%s\" refused", cases[i].text);
	}
}

static struct bt_reading reading(uint64_t value)
{
	return (struct bt_reading){ .valid = true, .value = value };
}

static void test_delta(void)
{
	struct bt_reading before = reading(10), after = reading(25);
	struct bt_reading unread = { 0 }, back = reading(5);
	uint64_t d = 0;

	ok(bt_reading_delta(&before, &after, &d) && d == 15, "delta: growth");
	ok(bt_reading_delta(NULL, &after, &d) && d == 25,
	   "delta: a group or task new in the interval started at 0");
	ok(!bt_reading_delta(&before, &back, &d),
	   "delta: a counter that went backwards is no data");
	ok(!bt_reading_delta(&unread, &after, &d) &&
	   !bt_reading_delta(&before, &unread, &d) &&
	   !bt_reading_delta(&before, NULL, &d),
	   "delta: an end not read is no data");
}

/*
 * The root flat, grp1 hierarchical: grp1/grp3 is scheduled inside grp1,
 * grp2 and grp1 beside the root group on the pivot.  tsk1 in the root,
 * tsk2 in grp1.
 */
static struct bt_tree *mixed_tree(void)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_group *grp1 = bt_group_add(tree->root, "grp1");
	struct bt_task tsk1 = task_ioprio(200, "tsk1", BT_IOCLASS_BE, 4);
	struct bt_task tsk2 = task_ioprio(201, "tsk2", BT_IOCLASS_BE, 4);

	grp1->use_hierarchy = 1;
	bt_group_add(tree->root, "grp2");
	bt_group_add(grp1, "grp3");
	bt_group_add_task(tree->root, &tsk1);
	bt_group_add_task(grp1, &tsk2);
	return tree;
}

/* Groups' counters: time and bytes the same, to keep the figures few. */
static void add_groups(struct bt_sample *s, uint64_t root, uint64_t grp1,
		       uint64_t grp2, uint64_t grp3)
{
	bt_sample_add_group(s, "grp1/grp3", reading(grp3), reading(grp3));
	bt_sample_add_group(s, "", reading(root), reading(root));
	bt_sample_add_group(s, "grp2", reading(grp2), reading(grp2));
	bt_sample_add_group(s, "grp1", reading(grp1), reading(grp1));
}

static const struct bt_measure *group_measure(const struct bt_entity *pivot,
					      const struct bt_tree *tree,
					      const char *path)
{
	const struct bt_entity *e =
		bt_sched_find_group(pivot, bt_group_find(tree, path));

	return e ? e->measure : NULL;
}

static const struct bt_measure *task_measure(const struct bt_entity *entity,
					     pid_t pid)
{
	if (entity->type == BT_ENTITY_TASK && entity->task->pid == pid)
		return entity->measure;
	for (size_t i = 0; i < entity->nchildren; i++) {
		const struct bt_measure *m =
			task_measure(entity->children[i], pid);

		if (m)
			return m;
	}
	return NULL;
}

static void is_measured(const struct bt_measure *m, double share,
			const char *what)
{
	ok(m && m->time_ms.has_share && m->bytes.has_share,
	   "%s: measured", what);
	is_share(m ? m->time_ms.share : -1, share, "%s: time share", what);
	is_share(m ? m->bytes.share : -1, share, "%s: bytes share", what);
}

static void test_measure_tree(void)
{
	struct bt_tree *tree = mixed_tree();
	struct bt_entity *pivot = bt_sched_build(tree, false, 0, 0);
	struct bt_sample before = { 0 }, after = { 0 };
	struct bt_measure *measures;
	const struct bt_measure *m;

	add_groups(&before, 100, 50, 10, 0);
	add_groups(&after, 200, 150, 210, 100);
	bt_sample_add_task(&before, 200, reading(1000));
	bt_sample_add_task(&after, 200, reading(4000));
	/* tsk2 appeared during the interval: its counters started at 0 */
	bt_sample_add_task(&after, 201, reading(1000));
	measures = bt_measure_tree(pivot, &before, &after);

	m = pivot->measure;
	ok(m && m->time_ms.delta == 500 && m->bytes.delta == 500,
	   "pivot: the growth of all groups");
	is_measured(m, 100, "pivot");
	is_measured(group_measure(pivot, tree, ""), 20,
		    "root group: its own, not grp1's (flat)");
	is_measured(group_measure(pivot, tree, "grp1"), 40,
		    "grp1: its own and grp3's, scheduled inside it");
	is_measured(group_measure(pivot, tree, "grp1/grp3"), 20, "grp3");
	is_measured(group_measure(pivot, tree, "grp2"), 40, "grp2");
	m = task_measure(pivot, 200);
	ok(m && m->bytes.has_share && !m->time_ms.measured,
	   "tsk1: bytes measured, no disk time of its own");
	is_share(m ? m->bytes.share : -1, 75, "tsk1: share of the tasks' bytes");
	m = task_measure(pivot, 201);
	is_share(m && m->bytes.has_share ? m->bytes.share : -1, 25,
		 "tsk2, new: share of the tasks' bytes");
	free(measures);
	bt_sample_free(&before);
	bt_sample_free(&after);
	bt_sched_free(pivot);
	bt_tree_free(tree);
}

static void test_no_data(void)
{
	struct bt_tree *tree = mixed_tree();
	struct bt_entity *pivot = bt_sched_build(tree, false, 0, 0);
	struct bt_sample before = { 0 }, after = { 0 };
	struct bt_measure *measures;
	const struct bt_measure *m;

	add_groups(&before, 100, 50, 10, 0);
	/* grp2 removed and made again: its counters started over */
	add_groups(&after, 200, 150, 5, 100);
	bt_sample_add_task(&before, 200, reading(1000));
	bt_sample_add_task(&after, 200, (struct bt_reading){ 0 });
	measures = bt_measure_tree(pivot, &before, &after);

	m = group_measure(pivot, tree, "grp2");
	ok(m && !m->time_ms.measured && !m->time_ms.has_share &&
	   !m->bytes.has_share, "a counter that went backwards: no data");
	ok(pivot->measure->time_ms.delta == 300,
	   "... and it counts 0 in the whole");
	is_measured(group_measure(pivot, tree, "grp1"), 200.0 / 3,
		    "grp1 of the groups with data");
	m = task_measure(pivot, 200);
	ok(m && !m->bytes.measured, "a task whose counters were not read");
	m = task_measure(pivot, 201);
	ok(m && !m->bytes.measured, "a task in no sample");
	free(measures);
	bt_sample_free(&before);
	bt_sample_free(&after);

	/* nothing happened: 0 of 0 is no share */
	add_groups(&before, 100, 50, 10, 0);
	add_groups(&after, 100, 50, 10, 0);
	measures = bt_measure_tree(pivot, &before, &after);
	m = group_measure(pivot, tree, "grp1");
	ok(m && m->time_ms.measured && !m->time_ms.delta &&
	   !m->time_ms.has_share, "an idle device: measured, no share");
	free(measures);
	bt_sample_free(&before);
	bt_sample_free(&after);
	bt_sched_free(pivot);
	bt_tree_free(tree);
}

int main(void)
{
	test_parse_time();
	test_parse_bytes();
	test_parse_proc_io();
	test_interval();
	test_delta();
	test_measure_tree();
	test_no_data();
	return tap_done();
}
