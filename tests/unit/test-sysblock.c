/*
 * The scheduler line of /sys/block/DISK/queue/scheduler as the kernel
 * prints it (elv_iosched_show(): every name and a space, the active one
 * in brackets, then a newline; "none" alone without an elevator), and
 * the lines that are not one, among them what the fuzzer found.
 */
#include "config.h"

#include <stdlib.h>

#include "sysblock.h"
#include "tap.h"

static void active_is(const char *line, size_t size, const char *want,
		      const char *what)
{
	char *active = malloc(size);
	bool got = bt_scheduler_parse(line, active, size);

	if (want)
		is_str(got ? active : NULL, want, "%s", what);
	else
		ok(!got, "%s: refused", what);
	free(active);
}

int main(void)
{
	active_is("mq-deadline [bfq] none\n", 32, "bfq", "bfq active");
	active_is("[none] mq-deadline kyber \n", 32, "none",
		  "none active, with the kernel's trailing space");
	active_is("mq-deadline kyber [cfq] bfq none\n", 32, "cfq",
		  "cfq active among five");
	active_is("none\n", 32, "none", "a queue without an elevator");
	active_is("none", 32, "none", "without the newline");
	active_is("[cfq] none", 4, "cfq", "a name that just fits");
	active_is("[cfq] none", 3, NULL, "a name one byte too long");
	active_is("mq-deadline kyber bfq\n", 32, NULL, "no active scheduler");
	active_is("mq-dead[ine kyber [cfq] bfq none\n", 40, NULL,
		  "a bracket inside a name (found by fuzz-scheduler)");
	active_is("[cfq] [bfq] none\n", 32, NULL, "two active schedulers");
	active_is("[a b] none\n", 32, NULL, "a blank inside the brackets");
	active_is("[cfq\t] none\n", 32, NULL, "a tab inside the brackets");
	active_is("[] none\n", 32, NULL, "empty brackets");
	active_is("\n", 32, NULL, "an empty line");
	active_is("", 32, NULL, "nothing");
	return tap_done();
}
