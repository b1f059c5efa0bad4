/* Output of "show"; see output.h. */
#include "config.h"

#include <errno.h>
#include <json.h>
#include <libsmartcols.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "measure.h"
#include "output.h"
#include "strutil.h"

/* Is the entity, or anything below it, inside the subtree being shown? */
static bool shown(const struct bt_entity *entity, const struct bt_group *focus)
{
	if (!focus || (entity->type != BT_ENTITY_PIVOT &&
		       bt_group_is_ancestor(focus, entity->group)))
		return true;
	for (size_t i = 0; i < entity->nchildren; i++)
		if (shown(entity->children[i], focus))
			return true;
	return false;
}

static char *entity_name(const struct bt_entity *entity)
{
	switch (entity->type) {
	case BT_ENTITY_PIVOT:
		return xstrdup("pivot");
	case BT_ENTITY_GROUP:
		return bt_group_display(entity->group);
	case BT_ENTITY_TASK:
		break;
	}
	return xstrdup(entity->task->comm);
}

static const char *entity_type(const struct bt_entity *entity)
{
	switch (entity->type) {
	case BT_ENTITY_PIVOT:
		return "pivot";
	case BT_ENTITY_GROUP:
		return "group";
	case BT_ENTITY_TASK:
		break;
	}
	return "task";
}

static char *share_text(double share)
{
	return xasprintf("%.2f", share);
}

static struct json_object *share_json(double share)
{
	char *text = share_text(share);
	struct json_object *obj = json_object_new_double_s(share, text);

	free(text);
	return obj;
}

/* A measured share, or "-" for no data (see measure.h). */
static char *measured_text(const struct bt_amount *amount)
{
	return amount->has_share ? xasprintf("%.2f%%", amount->share)
				 : xstrdup("-");
}

/* A measured amount: null when there is no data. */
static void add_amount_json(struct json_object *obj, const char *delta_key,
			    const char *share_key,
			    const struct bt_amount *amount)
{
	json_object_object_add(obj, delta_key, amount->measured ?
			       json_object_new_int64(amount->delta) : NULL);
	json_object_object_add(obj, share_key, amount->has_share ?
			       share_json(amount->share) : NULL);
}

/* An entity as one line of the tree, and where it is scheduled. */
struct row {
	const struct bt_entity *entity;
	const struct bt_entity *parent;		/* NULL for the pivot */
};

/*
 * Each column's cell as text for the table and as keys for the JSON
 * document, for a row that has a value there (struct column's ->has).
 */

static void add_name_json(struct json_object *obj, const char *key,
			  const struct bt_entity *entity)
{
	char *name = entity_name(entity);

	json_object_object_add(obj, key, json_object_new_string(name));
	free(name);
}

static char *name_text(const struct row *row)
{
	return entity_name(row->entity);
}

static void name_json(struct json_object *obj, const struct row *row)
{
	add_name_json(obj, "name", row->entity);
}

static char *type_text(const struct row *row)
{
	return xstrdup(entity_type(row->entity));
}

static void type_json(struct json_object *obj, const struct row *row)
{
	json_object_object_add(obj, "type",
			       json_object_new_string(entity_type(row->entity)));
}

static bool is_task(const struct row *row)
{
	return row->entity->type == BT_ENTITY_TASK;
}

static char *pid_text(const struct row *row)
{
	return xasprintf("%ld", (long)row->entity->task->pid);
}

static void pid_json(struct json_object *obj, const struct row *row)
{
	json_object_object_add(obj, "pid",
			       json_object_new_int64(row->entity->task->pid));
}

/* the pivot has no weight: nothing competes with it */
static bool has_weight(const struct row *row)
{
	return row->entity->type != BT_ENTITY_PIVOT;
}

static char *weight_text(const struct row *row)
{
	return xasprintf("%u", row->entity->weight);
}

static void weight_json(struct json_object *obj, const struct row *row)
{
	json_object_object_add(obj, "weight",
			       json_object_new_int(row->entity->weight));
}

static char *share_cell_text(const struct row *row)
{
	char *text = share_text(row->entity->share);
	char *cell = xasprintf("%s%%", text);

	free(text);
	return cell;
}

static void share_cell_json(struct json_object *obj, const struct row *row)
{
	json_object_object_add(obj, "share", share_json(row->entity->share));
}

/* disk time is counted per group only, so a task has none of its own */
static bool has_time(const struct row *row)
{
	return row->entity->measure && !is_task(row);
}

static char *time_text(const struct row *row)
{
	return measured_text(&row->entity->measure->time_ms);
}

static void time_json(struct json_object *obj, const struct row *row)
{
	add_amount_json(obj, "time_ms", "time_share",
			&row->entity->measure->time_ms);
}

static bool has_bytes(const struct row *row)
{
	return row->entity->measure;
}

static char *bytes_text(const struct row *row)
{
	return measured_text(&row->entity->measure->bytes);
}

static void bytes_json(struct json_object *obj, const struct row *row)
{
	add_amount_json(obj, "bytes", "bytes_share",
			&row->entity->measure->bytes);
}

static char *ioprio_text(const struct row *row)
{
	const struct bt_task *task = row->entity->task;

	return xasprintf("%s/%u%s", bt_ioclass_name(task->ioclass),
			 task->level, task->from_nice ? " (nice)" : "");
}

static void ioprio_json(struct json_object *obj, const struct row *row)
{
	const struct bt_task *task = row->entity->task;
	struct json_object *ioprio = json_object_new_object();

	json_object_object_add(ioprio, "class", json_object_new_string(
				       bt_ioclass_name(task->ioclass)));
	json_object_object_add(ioprio, "level",
			       json_object_new_int(task->level));
	json_object_object_add(ioprio, "from_nice",
			       json_object_new_boolean(task->from_nice));
	json_object_object_add(obj, "ioprio", ioprio);
}

static bool is_group(const struct row *row)
{
	return row->entity->type == BT_ENTITY_GROUP;
}

static char *hier_text(const struct row *row)
{
	return xstrdup(row->entity->group->use_hierarchy ? "1" : "0");
}

static void hier_json(struct json_object *obj, const struct row *row)
{
	json_object_object_add(obj, "use_hierarchy",
			json_object_new_int(row->entity->group->use_hierarchy));
}

/* the tree's links in a list (-l, -P, -r) that draws none */
static bool has_parent(const struct row *row)
{
	return row->parent;
}

static char *parent_text(const struct row *row)
{
	return entity_name(row->parent);
}

static void parent_json(struct json_object *obj, const struct row *row)
{
	add_name_json(obj, "parent", row->parent);
}

/*
 * One table for the table and the JSON document, so that both give the
 * same cells for the same rows.
 */
static const struct column {
	const char *name;	/* the heading; --output takes it in any case */
	const char *help;	/* show --help's line; NULL: top's column */
	int flags;		/* libsmartcols' SCOLS_FL_* */
	bool in_default;	/* printed without --output */
	bool measured;		/* top's only: what it measured */
	/* whether a row has a value here; NULL: every row has */
	bool (*has)(const struct row *row);
	char *(*text)(const struct row *row);	/* caller frees */
	void (*add_json)(struct json_object *obj, const struct row *row);
} columns[BT_NCOLUMNS] = {
	[BT_COL_NAME] = { "NAME",
			  "pivot, a group's path or a task's command name",
			  SCOLS_FL_TREE, true, false,
			  NULL, name_text, name_json },
	[BT_COL_TYPE] = { "TYPE", "pivot, group or task", 0, true, false,
			  NULL, type_text, type_json },
	[BT_COL_PID] = { "PID", "a task's thread ID",
			 SCOLS_FL_RIGHT, true, false,
			 is_task, pid_text, pid_json },
	[BT_COL_WEIGHT] = { "WEIGHT", "the weight the entity competes with",
			    SCOLS_FL_RIGHT, true, false,
			    has_weight, weight_text, weight_json },
	[BT_COL_SHARE] = { "SHARE", "expected share of the device, in percent",
			   SCOLS_FL_RIGHT, true, false,
			   NULL, share_cell_text, share_cell_json },
	[BT_COL_TIME] = { "TIME", NULL, SCOLS_FL_RIGHT, true, true,
			  has_time, time_text, time_json },
	[BT_COL_BYTES] = { "BYTES", NULL, SCOLS_FL_RIGHT, true, true,
			   has_bytes, bytes_text, bytes_json },
	[BT_COL_IOPRIO] = { "IOPRIO", "a task's I/O class and level",
			    0, true, false,
			    is_task, ioprio_text, ioprio_json },
	[BT_COL_HIER] = { "HIER", "a group's use_hierarchy",
			  SCOLS_FL_RIGHT, true, false,
			  is_group, hier_text, hier_json },
	[BT_COL_PARENT] = { "PARENT", "the entity it is scheduled under",
			    0, false, false,
			    has_parent, parent_text, parent_json },
};

static bool row_has(const struct column *column, const struct row *row)
{
	return !column->has || column->has(row);
}

/* The default set in @set; with @measured, top's columns too. */
static size_t default_columns(bool measured, enum bt_column *set)
{
	size_t n = 0;

	for (size_t i = 0; i < BT_NCOLUMNS; i++)
		if (columns[i].in_default && (!columns[i].measured || measured))
			set[n++] = i;
	return n;
}

/* The columns to print: --output's, else the default set. */
static size_t chosen_columns(const struct bt_show *show,
			     const struct bt_show_format *format,
			     enum bt_column *chosen)
{
	if (!format->ncolumns)
		return default_columns(show->interval_ms, chosen);
	memcpy(chosen, format->columns, format->ncolumns * sizeof(*chosen));
	return format->ncolumns;
}

/* The column of show named by @len bytes of @name, in any case; or -1. */
static int show_column_id(const char *name, size_t len)
{
	for (size_t i = 0; i < BT_NCOLUMNS; i++)
		if (!columns[i].measured && strlen(columns[i].name) == len &&
		    !strncasecmp(columns[i].name, name, len))
			return i;
	return -1;
}

static bool column_in(enum bt_column id, const enum bt_column *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (set[i] == id)
			return true;
	return false;
}

/*
 * Add the column named by @len bytes of @name to the *@n columns of @set,
 * whose first @ndefault are the default set that a '+' keeps.  Returns
 * NULL, or why not (caller frees).
 */
static char *add_column(const char *name, size_t len, enum bt_column *set,
			size_t *n, size_t ndefault)
{
	int id = show_column_id(name, len);
	char *shown, *why;

	if (id >= 0 && !column_in(id, set, *n)) {
		set[(*n)++] = id;
		return NULL;
	}
	/* a column twice would be one JSON key twice */
	if (id >= 0)
		return xasprintf("duplicate column: %s%s", columns[id].name,
				 column_in(id, set, ndefault) ?
				 " (the default set has it)" : "");
	shown = str_escape(name, len);
	why = xasprintf("unknown column: %s", shown);
	free(shown);
	return why;
}

char *bt_output_parse_columns(const char *list, struct bt_show_format *format)
{
	bool append = *list == '+';
	const char *name = list + append;
	enum bt_column set[BT_NCOLUMNS];
	size_t ndefault = append ? default_columns(false, set) : 0;
	size_t n = ndefault;

	if (!*name)
		return xstrdup("--output: no column given");
	for (;;) {
		size_t len = strcspn(name, ",");
		char *why, *shown;

		if (!len) {
			shown = str_escape(list, strlen(list));
			why = xasprintf("--output %s: empty column name", shown);
			free(shown);
			return why;
		}
		why = add_column(name, len, set, &n, ndefault);
		if (why)
			return why;
		if (!name[len])
			break;
		name += len + 1;
	}
	memcpy(format->columns, set, n * sizeof(*set));
	format->ncolumns = n;
	return NULL;
}

void bt_output_columns_help(FILE *out)
{
	fputs("\nAvailable output columns:\n", out);
	for (size_t i = 0; i < BT_NCOLUMNS; i++)
		if (!columns[i].measured)
			fprintf(out, " %8s  %s\n", columns[i].name,
				columns[i].help);
}

static int add_lines(struct libscols_table *table, struct libscols_line *parent,
		     const struct row *row, const struct bt_show *show,
		     const enum bt_column *chosen, size_t nchosen)
{
	const struct bt_entity *entity = row->entity;
	struct libscols_line *line;
	int rc = 0;

	if (!shown(entity, show->focus))
		return 0;
	line = scols_table_new_line(table, parent);
	if (!line)
		return -ENOMEM;
	for (size_t i = 0; !rc && i < nchosen; i++) {
		const struct column *column = &columns[chosen[i]];

		if (row_has(column, row))
			rc = scols_line_refer_data(line, i, column->text(row));
	}
	for (size_t i = 0; !rc && i < entity->nchildren; i++) {
		struct row child = { entity->children[i], entity };

		rc = add_lines(table, line, &child, show, chosen, nchosen);
	}
	return rc;
}

static struct libscols_table *new_table(FILE *out,
					const struct bt_show_format *format)
{
	struct libscols_table *table = scols_new_table();

	if (!table)
		return NULL;
	scols_table_set_stream(table, out);
	scols_table_enable_raw(table, format->raw);
	scols_table_enable_export(table, format->pairs);
	scols_table_enable_noheadings(table, format->noheadings);
	scols_table_enable_ascii(table, format->ascii);
	return table;
}

static int print_tree(FILE *out, const struct bt_show *show,
		      const struct bt_show_format *format)
{
	struct libscols_table *table = new_table(out, format);
	struct row pivot = { show->sched, NULL };
	enum bt_column chosen[BT_NCOLUMNS];
	size_t nchosen = chosen_columns(show, format, chosen);
	/* raw and pairs are for scripts: a list, as lsblk's */
	bool drawn = !format->list && !format->raw && !format->pairs;
	int rc = 0;

	if (!table)
		return -ENOMEM;
	for (size_t i = 0; !rc && i < nchosen; i++) {
		const struct column *column = &columns[chosen[i]];
		int flags = column->flags;

		if (!drawn)
			flags &= ~SCOLS_FL_TREE;

		if (!scols_table_new_column(table, column->name, 0, flags))
			rc = -ENOMEM;
	}
	if (!rc)
		rc = add_lines(table, NULL, &pivot, show, chosen, nchosen);
	if (!rc)
		rc = scols_print_table(table);
	scols_unref_table(table);
	return rc;
}

static int print_devices(FILE *out, const struct bt_show *show,
			 const struct bt_show_format *format)
{
	struct libscols_table *table = new_table(out, format);
	int rc = 0;

	if (!table)
		return -ENOMEM;
	if (!scols_table_new_column(table, "DEVICE", 0, 0) ||
	    !scols_table_new_column(table, "MAJ:MIN", 0, 0) ||
	    !scols_table_new_column(table, "SCHEDULER", 0, 0) ||
	    !scols_table_new_column(table, "WEIGHTS", 0, 0))
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < show->ndevices; i++) {
		const struct bt_blockdev *dev = &show->devices[i];
		struct libscols_line *line = scols_table_new_line(table, NULL);
		char *problem = bt_blockdev_weight_problem(dev,
							   show->cfq_policy);

		if (!line) {
			free(problem);
			rc = -ENOMEM;
			break;
		}
		rc |= scols_line_set_data(line, 0, dev->name);
		rc |= scols_line_refer_data(line, 1, xasprintf("%u:%u",
							dev->major, dev->minor));
		rc |= scols_line_set_data(line, 2, dev->scheduler);
		rc |= scols_line_refer_data(line, 3, problem ?
			xasprintf("no effect: %s", problem) : xstrdup("effective"));
		free(problem);
	}
	if (!rc && show->ndevices) {
		fputc('\n', out);
		rc = scols_print_table(table);
	}
	scols_unref_table(table);
	return rc;
}

static struct json_object *entity_json(const struct row *row,
				       const struct bt_show *show,
				       const enum bt_column *chosen,
				       size_t nchosen)
{
	const struct bt_entity *entity = row->entity;
	struct json_object *obj = json_object_new_object();
	struct json_object *children;

	for (size_t i = 0; i < nchosen; i++) {
		const struct column *column = &columns[chosen[i]];

		if (row_has(column, row))
			column->add_json(obj, row);
	}
	children = json_object_new_array();
	for (size_t i = 0; i < entity->nchildren; i++) {
		struct row child = { entity->children[i], entity };

		if (shown(child.entity, show->focus))
			json_object_array_add(children, entity_json(&child,
					show, chosen, nchosen));
	}
	if (json_object_array_length(children))
		json_object_object_add(obj, "children", children);
	else
		json_object_put(children);
	return obj;
}

/* null: no debugfs tree; else whether it agrees and where it does not. */
static struct json_object *kernel_json(const struct bt_kernel_check *check)
{
	struct json_object *obj, *diffs;

	if (!check || (!check->read && !check->error))
		return NULL;
	obj = json_object_new_object();
	json_object_object_add(obj, "error", check->error ?
			       json_object_new_string(check->error) : NULL);
	json_object_object_add(obj, "agrees", json_object_new_boolean(
				       check->read && !check->ndiffs));
	diffs = json_object_new_array();
	for (size_t i = 0; i < check->ndiffs; i++)
		json_object_array_add(diffs,
				      json_object_new_string(check->diffs[i]));
	json_object_object_add(obj, "disagreements", diffs);
	return obj;
}

static int print_json(FILE *out, const struct bt_show *show,
		      const struct bt_show_format *format)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *devices = json_object_new_array();
	struct row pivot = { show->sched, NULL };
	enum bt_column chosen[BT_NCOLUMNS];
	size_t nchosen = chosen_columns(show, format, chosen);
	int rc = 0;

	json_object_object_add(doc, "hierarchy",
			       json_object_new_string(show->mount));
	json_object_object_add(doc, "cfq_policy",
			       json_object_new_boolean(show->cfq_policy));
	json_object_object_add(doc, "hierarchical_mode",
			       json_object_new_boolean(show->hierarchy));
	if (show->have_device) {
		char *devnum = xasprintf("%u:%u", show->major, show->minor);

		json_object_object_add(doc, "device",
				       json_object_new_string(devnum));
		free(devnum);
	} else {
		json_object_object_add(doc, "device", NULL);
	}
	for (size_t i = 0; i < show->ndevices; i++) {
		const struct bt_blockdev *dev = &show->devices[i];
		struct json_object *obj = json_object_new_object();
		char *problem = bt_blockdev_weight_problem(dev,
							   show->cfq_policy);
		char *devnum = xasprintf("%u:%u", dev->major, dev->minor);

		json_object_object_add(obj, "name",
				       json_object_new_string(dev->name));
		json_object_object_add(obj, "dev",
				       json_object_new_string(devnum));
		json_object_object_add(obj, "scheduler",
				       json_object_new_string(dev->scheduler));
		json_object_object_add(obj, "weights_effective",
				       json_object_new_boolean(!problem));
		json_object_object_add(obj, "problem", problem ?
				       json_object_new_string(problem) : NULL);
		json_object_object_add(obj, "kernel_tree",
				       kernel_json(show->kernel ?
						   &show->kernel[i] : NULL));
		json_object_array_add(devices, obj);
		free(problem);
		free(devnum);
	}
	json_object_object_add(doc, "devices", devices);
	if (show->interval_ms)
		json_object_object_add(doc, "interval_ms",
				       json_object_new_int64(show->interval_ms));
	json_object_object_add(doc, "tree", entity_json(&pivot, show, chosen,
							nchosen));
	if (fprintf(out, "%s\n", json_object_to_json_string_ext(doc,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		rc = -errno;
	json_object_put(doc);
	return rc;
}

int bt_output_show(FILE *out, const struct bt_show *show,
		   const struct bt_show_format *format)
{
	int rc;

	if (format->json)
		return print_json(out, show, format);
	rc = print_tree(out, show, format);
	if (!rc)
		rc = print_devices(out, show, format);
	return rc;
}

void bt_output_warnings(FILE *err, const struct bt_show *show)
{
	for (size_t i = 0; i < show->ndevices; i++) {
		char *problem = bt_blockdev_weight_problem(&show->devices[i],
							   show->cfq_policy);
		const struct bt_kernel_check *check =
			show->kernel ? &show->kernel[i] : NULL;

		if (problem)
			fprintf(err, "blkiotree: warning: %s: weights have no "
				"effect: %s\n", show->devices[i].name, problem);
		free(problem);
		if (check && check->error)
			fprintf(err, "blkiotree: warning: %s: cannot read the "
				"kernel's scheduling tree: %s\n",
				show->devices[i].name, check->error);
		for (size_t j = 0; check && j < check->ndiffs; j++)
			fprintf(err, "blkiotree: warning: %s: %s\n",
				show->devices[i].name, check->diffs[j]);
	}
}

int bt_output_key(FILE *out, const struct bt_group *group, enum bt_key key)
{
	int rc = 0;

	switch (key) {
	case BT_KEY_WEIGHT:
		rc = fprintf(out, "%u\n", group->weight);
		break;
	case BT_KEY_USE_HIERARCHY:
		rc = fprintf(out, "%d\n", group->use_hierarchy);
		break;
	case BT_KEY_WEIGHT_DEVICE:
		for (size_t i = 0; i < group->ndevweights && rc >= 0; i++)
			rc = fprintf(out, "%u:%u:%u\n",
				     group->devweights[i].major,
				     group->devweights[i].minor,
				     group->devweights[i].weight);
		break;
	}
	return rc < 0 ? -errno : 0;
}
