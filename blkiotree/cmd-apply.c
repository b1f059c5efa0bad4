/* blkiotree apply: build or update a whole tree described in JSON. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "session.h"
#include "spec.h"
#include "strutil.h"

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree apply [options] FILE\n"
	      "\n"
	      "Create and set the groups described in a JSON file (- for standard\n"
	      "input) of at most " BT_SPEC_MAX_SIZE_TEXT ".  The whole description is checked\n"
	      "before anything is written; groups it does not mention are left\n"
	      "alone, unless --prune.\n"
	      "\n"
	      "Options:\n"
	      " -n, --dry-run  print the steps that would be written, write nothing\n"
	      "     --prune    also delete the groups below the described ones that\n"
	      "                the file does not name, children first\n"
	      " -v, --verbose  print each step as it is written\n"
	      " -h, --help     display this help\n"
	      "\n"
	      "For more details see blkiotree-apply(8).\n", stdout);
}

/*
 * The file, NUL-terminated; NULL with errno set on failure.  At most
 * one byte more than a description may have: enough for the parser to
 * refuse a larger one, without reading all of it into memory.
 */
static char *read_all(FILE *f, size_t *len)
{
	size_t size = 4096, n = 0;
	char *buf = xcalloc(size, 1);

	for (;;) {
		size_t room = size - n - 1;

		if (n + room > BT_SPEC_MAX_SIZE + 1)
			room = BT_SPEC_MAX_SIZE + 1 - n;
		n += fread(buf + n, 1, room, f);
		if (ferror(f)) {
			int err = errno;

			free(buf);
			errno = err ? err : EIO;
			return NULL;
		}
		if (feof(f) || n > BT_SPEC_MAX_SIZE)
			break;
		size *= 2;
		buf = xreallocarray(buf, size, 1);
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

static struct bt_spec_group *load_spec(const char *file)
{
	bool from_stdin = !strcmp(file, "-");
	FILE *f = from_stdin ? stdin : fopen(file, "re");
	struct bt_spec_group *spec;
	char *text, *why;
	size_t len;

	if (!f) {
		bt_error("apply %s: %s", file, strerror(errno));
		return NULL;
	}
	text = read_all(f, &len);
	if (!text)
		bt_error("apply %s: %s", file, strerror(errno));
	if (!from_stdin)
		fclose(f);
	if (!text)
		return NULL;
	spec = bt_spec_parse(text, len, &why);
	free(text);
	if (!spec) {
		bt_error("apply %s: %s", file, why);
		free(why);
	}
	return spec;
}

int cmd_apply(int argc, char **argv)
{
	/* --prune deletes, so it has no short form to type by accident */
	enum { OPT_PRUNE = CHAR_MAX + 1 };
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "prune", no_argument, NULL, OPT_PRUNE },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct bt_spec_group *spec;
	struct bt_session session;
	struct bt_plan plan;
	bool dry_run = false, verbose = false, prune = false;
	char *why = NULL;
	int c, status, err;

	while ((c = getopt_long(argc, argv, ":nvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			dry_run = true;
			break;
		case OPT_PRUNE:
			prune = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			usage();
			return BT_EXIT_OK;
		default:
			return bt_option_error("apply", c, argv, longopts);
		}
	}
	if (argc - optind != 1)
		return bt_usage_error("apply", "expected one FILE");

	spec = load_spec(argv[optind]);
	if (!spec)
		return BT_EXIT_USAGE;
	status = bt_session_open(&session, "apply", false);
	if (status != BT_EXIT_OK) {
		bt_spec_free(spec);
		return status;
	}
	bt_plan_init(&plan);
	err = bt_plan_spec(&plan, session.tree, &session.env, spec, prune,
			   &why);
	if (err) {
		bt_error("apply %s: %s", argv[optind], why);
		status = bt_exit_for(err);
	} else if (dry_run) {
		bt_plan_print(stdout, &plan);
	} else {
		status = bt_session_commit(&session, &plan,
					   verbose ? stdout : NULL);
	}
	free(why);
	bt_plan_free(&plan);
	bt_session_close(&session);
	bt_spec_free(spec);
	return status;
}
