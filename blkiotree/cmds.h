/*
 * The commands, their shared exit codes and error output.  Each command
 * gets argv starting at its own name and returns the exit status.
 */
#ifndef BLKIOTREE_CMDS_H
#define BLKIOTREE_CMDS_H

#include <stdbool.h>
#include <stdio.h>

struct option;

enum {
	BT_EXIT_OK = 0,
	BT_EXIT_FAILURE = 1,	/* a system error; see the message */
	BT_EXIT_USAGE = 2,	/* bad command line or unreadable spec */
	BT_EXIT_REFUSED = 3,	/* refused by the rules or kernel; nothing changed */
	BT_EXIT_NO_POLICY = 4,	/* no blkio hierarchy, or no cfq policy files */
};

/* Exit status for a refusal with errno @err. */
int bt_exit_for(int err);
/* "blkiotree: ..." and a newline on stderr. */
void bt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* For a bad command line: the error, then a pointer to --help. */
int bt_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * For getopt_long() returning ':' or '?' as @c (every optstring starts
 * with ':', which also keeps getopt quiet): one line that names the bad
 * option in getopt's own words and points to --help.  @longopts are the
 * ones getopt_long() was given; each one's value is its short option.
 */
int bt_option_error(const char *cmd, int c, char **argv,
		    const struct option *longopts);
/*
 * The option parsing of a command whose only option is -h/--help, kept in
 * one place so that all such commands answer --help and a bad option
 * alike.  Options may come anywhere among the operands.  Returns true
 * when the command is done, with *status its exit status (@usage
 * printed, or the option error); false when its operands start at
 * argv[optind].
 */
bool bt_parse_help_only(const char *cmd, int argc, char **argv,
			void (*usage)(void), int *status);
/*
 * The GROUP operand @arg of @cmd, normalized (caller frees); or NULL
 * after the usage error naming the rule it breaks, with *@status the
 * exit status.
 */
char *bt_group_operand(const char *cmd, const char *arg, int *status);
void bt_print_version(void);

int cmd_create(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_get(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_delete(int argc, char **argv);
int cmd_attach(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_apply(int argc, char **argv);
int cmd_export(int argc, char **argv);

#endif
