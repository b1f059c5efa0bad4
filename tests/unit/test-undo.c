/*
 * Undo: a plan stopped at any step by a failed call leaves the hierarchy
 * as it was, with deleted groups created again with their values and
 * threads; and when an undo fails as well, the message lists exactly the
 * steps that stay written.  The plans run on the fake hierarchy of
 * fakecg.c, which fails the call we choose, each in turn.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fakecg.h"
#include "plan.h"
#include "session.h"
#include "strutil.h"
#include "tap.h"

/* Where the fake hierarchy lives (a fresh one for every run), and in what. */
static char *mount, *top;

/* Also after a bail-out: leave nothing behind. */
static void clean_up(void)
{
	fakecg_remove();
	if (top)
		rmdir(top);
}

static void must(int err, const char *what)
{
	if (err) {
		printf("Bail out! %s: %s\n", what, strerror(err));
		exit(1);
	}
}

/*
 * /a (use_hierarchy=1, weight 300) with /a/b (weight 200, 8:0 at 700,
 * threads 101 and 102), /a/b/c (weight 100, thread 103) and /a/d
 * (weight 800, 8:16 at 600); /e (weight 50, 8:16 at 400, thread 104);
 * thread 100 in the root.  Each line a group made or a file written.
 */
static const struct {
	const char *path, *file, *value;	/* no file: mkdir */
} tree_steps[] = {
	{ "a", NULL, NULL },
	{ "a", "blkio.use_hierarchy", "1" },
	{ "a", "blkio.weight", "300" },
	{ "a/b", NULL, NULL },
	{ "a/b", "blkio.weight", "200" },
	{ "a/b", "blkio.weight_device", "8:0 700" },
	{ "a/b", "tasks", "101" },
	{ "a/b", "tasks", "102" },
	{ "a/b/c", NULL, NULL },
	{ "a/b/c", "blkio.weight", "100" },
	{ "a/b/c", "cgroup.procs", "103" },
	{ "a/d", NULL, NULL },
	{ "a/d", "blkio.weight", "800" },
	{ "a/d", "blkio.weight_device", "8:16 600" },
	{ "e", NULL, NULL },
	{ "e", "blkio.weight", "50" },
	{ "e", "blkio.weight_device", "8:16 400" },
	{ "e", "tasks", "104" },
};

static void build(void)
{
	static const pid_t tids[] = { 100, 101, 102, 103, 104 };

	fakecg_init(mount, tids, sizeof(tids) / sizeof(tids[0]));
	for (size_t i = 0; i < sizeof(tree_steps) / sizeof(tree_steps[0]); i++) {
		const char *file = tree_steps[i].file;
		char *path = file ? xasprintf("%s/%s/%s", mount,
					      tree_steps[i].path, file)
				  : xasprintf("%s/%s", mount,
					      tree_steps[i].path);

		must(file ? fakecg_ops.write(path, tree_steps[i].value)
			  : fakecg_ops.mkdir(path), path);
		free(path);
	}
}

typedef int (*plan_fn)(struct bt_plan *plan, struct bt_session *s,
		       char **why);

/* blkiotree delete -r a e */
static int plan_delete(struct bt_plan *plan, struct bt_session *s, char **why)
{
	int err = bt_plan_delete(plan, s->tree, &s->env, "a", true, why);

	return err ? err : bt_plan_delete(plan, s->tree, &s->env, "e", true,
					  why);
}

/*
 * blkiotree apply --prune: a value, a new group and its value, then
 * the deletes of /a/b/c and /a/d, which the file does not name.
 */
static int plan_prune(struct bt_plan *plan, struct bt_session *s, char **why)
{
	static const char text[] =
		"{ \"groups\": [ { \"name\": \"a\", \"weight\": 600, \"groups\": ["
		" { \"name\": \"b\" }, { \"name\": \"n\", \"weight\": 20 } ] } ] }";
	struct bt_spec_group *spec = bt_spec_parse(text, sizeof(text) - 1, why);
	int err = spec ? bt_plan_spec(plan, s->tree, &s->env, spec, true, why)
		       : EINVAL;

	bt_spec_free(spec);
	return err;
}

/* What a run printed on stderr: the commit's one line. */
static char *captured(FILE *tmp, int saved)
{
	char *text;
	long len;

	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	len = ftell(tmp);
	text = xcalloc(len + 1, 1);
	rewind(tmp);
	if (fread(text, 1, len, tmp) != (size_t)len)
		must(EIO, "reading stderr back");
	fclose(tmp);
	return text;
}

struct outcome {
	int status;
	char *message;		/* stderr */
	char *dump;		/* the hierarchy afterwards */
	unsigned calls;		/* made to the fake, undo included */
	bool claim_holds;	/* the hierarchy is as the message says */
	char *why_not;		/* when it is not */
};

static void outcome_free(struct outcome *o)
{
	free(o->message);
	free(o->dump);
	free(o->why_not);
}

/* The steps the message says stay written, "" when it says none. */
static char *claimed_steps(const char *message, bool *partly)
{
	static const char intro[] = "so these steps stay written: ";
	const char *list = strstr(message, intro);
	char *steps = xstrdup(list ? list + strlen(intro) : "");
	char *end = steps + strcspn(steps, "\n");

	*end = '\0';
	*partly = end - steps > 10 && !strcmp(end - 10, " (in part)");
	if (*partly)
		end[-10] = '\0';
	return steps;
}

/* Same groups with the same values and threads; names the first difference. */
static char *tree_difference(const struct bt_tree *want,
			     const struct bt_tree *got, const char *loose)
{
	const struct bt_group *a = want->root, *b = got->root;

	for (; a && b; a = bt_group_next(a), b = bt_group_next(b)) {
		bool tasks_loose = loose && !strcmp(a->path, loose);

		if (strcmp(a->path, b->path))
			return xasprintf("/%s where /%s was expected", b->path,
					 a->path);
		if (a->weight != b->weight || a->use_hierarchy != b->use_hierarchy ||
		    a->ndevweights != b->ndevweights ||
		    (a->ndevweights && memcmp(a->devweights, b->devweights,
					      a->ndevweights *
					      sizeof(*a->devweights))))
			return xasprintf("/%s has other values", a->path);
		if (tasks_loose)
			continue;
		if (a->ntasks != b->ntasks)
			return xasprintf("/%s has %zu threads, not %zu", a->path,
					 b->ntasks, a->ntasks);
		for (size_t i = 0; i < a->ntasks; i++)
			if (a->tasks[i].pid != b->tasks[i].pid)
				return xasprintf("/%s has thread %d, not %d",
						 a->path, (int)b->tasks[i].pid,
						 (int)a->tasks[i].pid);
	}
	if (a || b)
		return xasprintf("/%s is %s", a ? a->path : b->path,
				 a ? "missing" : "there");
	return NULL;
}

/*
 * Check the message of a run whose undo failed: it lists the plan's
 * first written steps, in order; the hierarchy is the one before with
 * those steps written, but for a step written in part, whose group (a
 * delete's) may be there or not and whose threads may be on either side.
 */
static void check_claim(struct outcome *o, const struct bt_plan *plan,
			struct bt_tree *before, struct bt_tree *after,
			const struct bt_env *env)
{
	bool partly;
	char *steps = claimed_steps(o->message, &partly), *left = steps;
	char *loose = NULL;
	struct bt_plan replay;
	char *why = NULL;

	bt_plan_init(&replay);
	for (size_t i = 0; i < plan->nops && *left && !o->why_not; i++) {
		char *text;
		size_t len;

		if (plan->ops[i].noop)
			continue;
		text = bt_op_describe(&plan->ops[i]);
		len = strlen(text);
		if (strncmp(left, text, len) || (left[len] && left[len] != ','))
			o->why_not = xasprintf("\"%s\" is not the plan's next "
					       "step, %s", left, text);
		left += len + (left[len] ? 2 : 0);
		if (!*left && partly)
			loose = xstrdup(plan->ops[i].path);
		else if (!o->why_not &&
			 bt_plan_add(&replay, before, env, &plan->ops[i], &why))
			o->why_not = why;
		free(text);
	}
	if (!o->why_not && *left)
		o->why_not = xasprintf("\"%s\" is more than the plan", left);
	if (!o->why_not && loose) {
		/* the half-undone group's threads may be on either side */
		struct bt_group *gone = bt_group_find(before, loose);
		struct bt_group *there = bt_group_find(after, loose);
		char *parent = bt_path_parent(loose);

		if (gone)
			bt_group_remove(gone);
		if (there)
			bt_group_remove(there);
		o->why_not = tree_difference(before, after, parent);
		free(parent);
	} else if (!o->why_not) {
		o->why_not = tree_difference(before, after, NULL);
	}
	o->claim_holds = !o->why_not;
	free(loose);
	bt_plan_free(&replay);
	free(steps);
}

/*
 * Build the hierarchy, plan with @make, fail calls @first and @second
 * (0: none) with @err and commit.
 */
static void run(plan_fn make, unsigned first, unsigned second, int err,
		struct outcome *o)
{
	struct bt_tree *before, *after;
	struct bt_session s;
	struct bt_plan plan;
	char *why = NULL;
	FILE *tmp = tmpfile();
	int saved;

	memset(o, 0, sizeof(*o));
	build();
	must(bt_session_open_at(&s, "test", mount, &fakecg_ops, false) ?
	     EIO : 0, "opening the fake hierarchy");
	must(bt_cgroupfs_load(&s.fs, false, &before), "reading it");
	bt_plan_init(&plan);
	if (make(&plan, &s, &why)) {
		printf("Bail out! the plan is refused: %s\n", why);
		exit(1);
	}
	fakecg_fail(first, second, err);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	dup2(fileno(tmp), STDERR_FILENO);
	o->status = bt_session_commit(&s, &plan, NULL);
	o->message = captured(tmp, saved);
	o->calls = fakecg_calls();
	o->dump = fakecg_dump();
	must(bt_cgroupfs_load(&s.fs, false, &after), "reading it again");
	if (o->status == 1)
		check_claim(o, &plan, before, after, &s.env);
	bt_tree_free(after);
	bt_tree_free(before);
	bt_plan_free(&plan);
	bt_session_close(&s);
	fakecg_remove();
}

static char *state_before(void)
{
	char *dump;

	build();
	dump = fakecg_dump();
	fakecg_remove();
	return dump;
}

static size_t lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/*
 * Every call of the plan failed in turn: each leaves the hierarchy as it
 * was and says one line with no step left over.  Returns how many calls
 * the plan makes.
 */
static unsigned fail_each_call(const char *name, plan_fn make)
{
	char *before = state_before();
	struct outcome o;
	unsigned writes;

	run(make, 0, 0, EBUSY, &o);
	writes = o.calls;
	ok(o.status == 0 && !*o.message && strcmp(o.dump, before),
	   "%s: written whole in %u calls", name, writes);
	outcome_free(&o);
	for (unsigned n = 1; n <= writes; n++) {
		run(make, n, 0, EBUSY, &o);
		if (!ok(o.status == 3 && lines(o.message) == 1 &&
			!strncmp(o.message, "blkiotree: ", 11) &&
			strstr(o.message, "(EBUSY)") &&
			!strstr(o.message, "stay written") &&
			!strcmp(o.dump, before),
			"%s: call %u of %u fails: one line, exit 3, the "
			"hierarchy as it was", name, n, writes))
			printf("#   status %d, stderr: %s#   hierarchy:\n%s",
			       o.status, o.message, o.dump);
		outcome_free(&o);
	}
	free(before);
	return writes;
}

/*
 * Every call of the plan failed, and then every call of its undo: the
 * message lists exactly the steps that stay written.
 */
static void fail_each_undo(const char *name, plan_fn make, unsigned writes)
{
	for (unsigned n = 1; n <= writes; n++) {
		struct outcome first, o;
		unsigned pairs = 0;
		bool all = true;

		run(make, n, 0, EBUSY, &first);
		for (unsigned m = n + 1; m <= first.calls && all; m++) {
			run(make, n, m, EBUSY, &o);
			all = o.status == 1 && lines(o.message) == 1 &&
			      o.claim_holds;
			if (!all)
				printf("#   call %u of the undo fails: status %d, "
				       "%s#   %s\n", m - n, o.status, o.message,
				       o.why_not ? o.why_not : "");
			pairs++;
			outcome_free(&o);
		}
		ok(all, "%s: call %u fails, then any of the %u calls of its "
		   "undo: exit 1 and the steps that stay written", name, n,
		   pairs);
		outcome_free(&first);
	}
}

/*
 * A user without the right to change a group is refused like any other
 * refusal: exit 3, one line naming the file and the rule, nothing changed.
 */
static void test_permission(void)
{
	char *before = state_before(), *want;
	struct outcome o;

	/* call 3 moves /a/b's first thread to /a, as /a/b is deleted */
	run(plan_delete, 3, 0, EACCES, &o);
	want = xasprintf("blkiotree: delete /a/b: cannot remove %s/a/b: "
			 "permission denied; only root, or a user the parent "
			 "group is delegated to, may move its tasks there and "
			 "remove it (EACCES)\n", mount);
	is_str(o.message, want, "EACCES: the file and the rule in one line");
	ok(o.status == 3 && !strcmp(o.dump, before),
	   "EACCES: exit 3, the deleted child group back");
	outcome_free(&o);
	free(want);
	free(before);
}

int main(void)
{
	unsigned writes;

	/*
	 * Some 1500 runs make and remove a hierarchy each: in memory, as
	 * /tmp on a disk busy with kernel builds took a minute for them.
	 */
	top = xstrdup(access("/dev/shm", W_OK) ? "/tmp/test-undo.XXXXXX"
					       : "/dev/shm/test-undo.XXXXXX");
	if (!mkdtemp(top))
		must(errno, "mkdtemp");
	atexit(clean_up);
	mount = xasprintf("%s/blkio", top);
	writes = fail_each_call("delete -r a e", plan_delete);
	fail_each_undo("delete -r a e", plan_delete, writes);
	writes = fail_each_call("apply --prune", plan_prune);
	fail_each_undo("apply --prune", plan_prune, writes);
	test_permission();
	return tap_done();
}
