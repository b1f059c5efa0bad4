/*
 * apply's description parser (spec.c) on any bytes.  What it accepts is
 * then planned onto an empty hierarchy as apply would, and the tree that
 * makes exported: export's document must parse, plan and export again
 * to the same text, as "export | apply" promises the same tree back
 * (when it fits in what apply reads: export spells out every value, so
 * a terse description of some 13 000 groups exports to more).
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "plan.h"
#include "spec.h"

/* Two disks under cfq, so that device weights for them are allowed. */
static const struct bt_blockdev disks[] = {
	{ .name = "sda", .major = 8, .minor = 0, .scheduler = "cfq" },
	{ .name = "sdb", .major = 8, .minor = 16, .scheduler = "cfq" },
};
static const struct bt_env env = {
	.mount = "/sys/fs/cgroup/blkio", .cfq_policy = true, .hierarchy = true,
	.devices = disks, .ndevices = 2,
};

/* The export of what @spec builds on an empty tree; NULL if refused. */
static char *build_and_export(const struct bt_spec_group *spec)
{
	struct bt_tree *tree = bt_tree_new();
	struct bt_plan plan;
	char *why = NULL, *text = NULL;

	bt_plan_init(&plan);
	if (!bt_plan_spec(&plan, tree, &env, spec, false, &why))
		text = bt_spec_export(tree->root, true, true);
	free(why);
	bt_plan_free(&plan);
	bt_tree_free(tree);
	return text;
}

static void round_trip(const struct bt_spec_group *spec)
{
	char *first = build_and_export(spec), *second, *why = NULL;
	struct bt_spec_group *again;

	if (!first || strlen(first) > BT_SPEC_MAX_SIZE) {
		free(first);
		return;
	}
	again = bt_spec_parse(first, strlen(first), &why);
	if (!again)
		fprintf(stderr, "export wrote:\n%s\nwhich parses as: %s\n",
			first, why);
	fuzz_assert(again);
	second = build_and_export(again);
	fuzz_assert(second && !strcmp(first, second));
	free(second);
	bt_spec_free(again);
	free(first);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* exactly @size bytes, unterminated: a read past them is caught */
	char *text = malloc(size ? size : 1), *why = NULL;
	struct bt_spec_group *spec;

	if (!text)
		abort();
	memcpy(text, data, size);
	spec = bt_spec_parse(text, size, &why);
	fuzz_assert(!spec == !!why);
	if (spec)
		round_trip(spec);
	bt_spec_free(spec);
	free(why);
	free(text);
	return 0;
}
