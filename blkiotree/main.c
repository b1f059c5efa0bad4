/*
 * blkiotree - build blkio cgroup hierarchies and show the effective CFQ
 * scheduling tree.  Options and dispatch; one file per command.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmds.h"

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "create", cmd_create },
	{ "set", cmd_set },
	{ "show", cmd_show },
	{ "delete", cmd_delete },
	{ "attach", cmd_attach },
	{ "exec", cmd_exec },
	{ "apply", cmd_apply },
};

void bt_error(const char *fmt, ...)
{
	va_list ap;

	fputs("blkiotree: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

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

int bt_option_error(const char *cmd, char **argv)
{
	const char *arg = argv[optind - 1];

	if (optopt && optopt != '?' && optopt < 256 && arg[0] == '-' &&
	    arg[1] != '-')
		return bt_usage_error(cmd, "invalid option or missing argument "
				      "for -%c", optopt);
	return bt_usage_error(cmd, "invalid option or missing argument: %s",
			      arg);
}

bool bt_parse_help_only(const char *cmd, int argc, char **argv,
			void (*usage)(void), int *status)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};

	switch (getopt_long(argc, argv, "+h", longopts, NULL)) {
	case -1:
		return false;
	case 'h':
		usage();
		*status = BT_EXIT_OK;
		return true;
	default:
		*status = bt_option_error(cmd, argv);
		return true;
	}
}

int bt_exit_for(int err)
{
	switch (err) {
	case ENOTSUP:
		return BT_EXIT_NO_POLICY;
	case EINVAL:
	case ERANGE:
	case EBUSY:
	case ENODEV:
	case ENOENT:
	case EEXIST:
	case EPERM:
	case ESRCH:
		return BT_EXIT_REFUSED;
	}
	return BT_EXIT_FAILURE;
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
	      " show [options] [GROUP]                      show the effective scheduling tree\n"
	      " delete [-r] GROUP...                        delete groups\n"
	      " attach GROUP PID...                         move processes into a group\n"
	      " exec GROUP -- COMMAND [ARG...]              run a command in a group\n"
	      " apply [-n] [-v] FILE                        build a whole tree described in JSON\n"
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
	opterr = 0;	/* one line of our own for every error */
	/* "+": options after the command name belong to the command */
	while ((c = getopt_long(argc, argv, "+hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage();
			return BT_EXIT_OK;
		case 'V':
			bt_print_version();
			return BT_EXIT_OK;
		default:
			return bt_option_error(NULL, argv);
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
