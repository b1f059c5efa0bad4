/*
 * How every command reports a failure: one line on stderr and an exit
 * status for the errno (cmds.h).  Apart from main.c, as session.c, which
 * the unit tests link, reports a refusal the same way.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "cmds.h"

void bt_error(const char *fmt, ...)
{
	va_list ap;

	fputs("blkiotree: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
	case EACCES:
	case ESRCH:
		return BT_EXIT_REFUSED;
	}
	return BT_EXIT_FAILURE;
}
