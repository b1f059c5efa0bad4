/*
 * blkiotree - build blkio cgroup hierarchies and show the effective CFQ
 * scheduling tree.  Options and dispatch; one file per command.
 */
#include "config.h"

#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"
#include "strutil.h"
#include "tree.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "create", cmd_create },
	{ "set", cmd_set },
	{ "get", cmd_get },
	{ "show", cmd_show },
	{ "top", cmd_top },
	{ "delete", cmd_delete },
	{ "attach", cmd_attach },
	{ "exec", cmd_exec },
	{ "apply", cmd_apply },
	{ "export", cmd_export },
};

int bt_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "blkiotree: %s%s", cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (try 'blkiotree %s%s--help')\n", cmd ? cmd : "",
		cmd ? " " : "");
	return BT_EXIT_USAGE;
}

/*
 * The long option of @longopts whose short form is @val, for the errors
 * that getopt_long() reports by the option's value alone.
 */
static const struct option *long_option_of(const struct option *longopts,
					   int val)
{
	for (; longopts && longopts->name; longopts++)
		if (longopts->val == val)
			return longopts;
	return NULL;
}

/* The long options that "--@typed" (up to any '=') abbreviates. */
static size_t long_option_matches(const struct option *longopts,
				  const char *typed, char **names)
{
	size_t len = strcspn(typed, "="), n = 0;

	*names = xstrdup("");
	for (; longopts && longopts->name; longopts++) {
		char *more;

		if (strncmp(longopts->name, typed, len))
			continue;
		more = xasprintf("%s '--%s'", *names, longopts->name);
		free(*names);
		*names = more;
		n++;
	}
	return n;
}

int bt_option_error(const char *cmd, int c, char **argv,
		    const struct option *longopts)
{
	/*
	 * A short option is named by optopt.  Every other error has
	 * consumed the word that holds the option (only a short one can
	 * sit inside a word, "-xH"), so argv[optind - 1] is that word.
	 */
	const char *word = argv[optind - 1];
	const struct option *known = long_option_of(longopts, optopt);
	char *names;
	int status;

	if (c == ':' && !strncmp(word, "--", 2))
		return bt_usage_error(cmd, "option '--%s' requires an argument",
				      known->name);
	if (c == ':')
		return bt_usage_error(cmd, "option requires an argument -- "
				      "'%c'", optopt);
	/*
	 * '?' with optopt set: a short option getopt does not know, or a
	 * long option given a value it does not take; only the latter is
	 * one getopt knows.
	 */
	if (optopt && known)
		return bt_usage_error(cmd, "option '--%s' doesn't allow an "
				      "argument", known->name);
	if (optopt)
		return bt_usage_error(cmd, "invalid option -- '%c'", optopt);
	if (long_option_matches(longopts, word + 2, &names) > 1)
		status = bt_usage_error(cmd, "option '%.*s' is ambiguous; "
					"possibilities:%s",
					(int)strcspn(word, "="), word, names);
	else
		status = bt_usage_error(cmd, "unrecognized option '%s'", word);
	free(names);
	return status;
}

bool bt_parse_help_only(const char *cmd, int argc, char **argv,
			void (*usage)(void), int *status)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	/* -h is the only option, so the first option found settles it */
	c = getopt_long(argc, argv, ":h", longopts, NULL);
	switch (c) {
	case -1:
		return false;
	case 'h':
		usage();
		*status = BT_EXIT_OK;
		return true;
	default:
		*status = bt_option_error(cmd, c, argv, longopts);
		return true;
	}
}

char *bt_group_operand(const char *cmd, const char *arg, int *status)
{
	char *why, *path = bt_path_normalize(arg, &why);

	if (!path) {
		*status = bt_usage_error(cmd, "%s", why);
		free(why);
	}
	return path;
}

void bt_print_version(void)
{
	printf("blkiotree from %s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
}

static void usage(void)
{
	fputs("Usage:\n"
	      " blkiotree [options] <command> [<args>]\n"
	      "\n"
	      "Build blkio cgroup hierarchies, set weight and use_hierarchy\n"
	      "within the rules, and show the effective CFQ scheduling tree.\n"
	      "\n"
	      "Commands:\n"
	      " create [--weight W] [--hierarchy] GROUP...  create groups and missing parents\n"
	      " set GROUP KEY=VALUE...                      set weight, use_hierarchy, weight_device\n"
	      " get GROUP KEY...                            print values alone, for scripts\n"
	      " show [options] [GROUP]                      show the effective scheduling tree\n"
	      " top [options] [GROUP]                       show the tree with the shares measured live\n"
	      " delete [-r] GROUP...                        delete groups\n"
	      " attach [--thread] GROUP PID...              move processes (or threads) into a group\n"
	      " exec [options] GROUP [--] COMMAND [ARG...]  run a command in a group\n"
	      " apply [-n] [-v] [--prune] FILE              build a whole tree described in JSON\n"
	      " export [GROUP]                              print the tree as a file for apply\n"
	      "\n"
	      "Options:\n"
	      " -h, --help     display this help\n"
	      " -V, --version  display version\n"
	      "\n"
	      "Run 'blkiotree <command> --help' for the options of a command.\n"
	      "For more details see blkiotree(8).\n", stdout);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	setlocale(LC_ALL, "");
	/* "+": options after the command name belong to the command */
	while ((c = getopt_long(argc, argv, "+:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage();
			return BT_EXIT_OK;
		case 'V':
			bt_print_version();
			return BT_EXIT_OK;
		default:
			return bt_option_error(NULL, c, argv, longopts);
		}
	}
	if (optind >= argc)
		return bt_usage_error(NULL, "no command given");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[optind], commands[i].name))
			continue;
		argc -= optind;
		argv += optind;
		optind = 0;	/* reinitialize getopt for the command */
		return commands[i].run(argc, argv);
	}
	return bt_usage_error(NULL, "unknown command '%s'", argv[optind]);
}
