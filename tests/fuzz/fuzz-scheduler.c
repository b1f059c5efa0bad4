/*
 * The scheduler-line parser (sysblock.c): the text of
 * /sys/block/DISK/queue/scheduler, "mq-deadline [bfq] none", whose
 * bracketed word is the active scheduler ("none" alone when the queue
 * has no elevator).  The first byte sets the size of the buffer the
 * name goes into, byte % 40 + 1, and the buffer is exactly that big, so
 * that a write past it is caught (the seeds start with '#', 36 bytes;
 * '+' gives 4 and '*' 3).  What is accepted must be a scheduler's name:
 * a word of the line, without blanks or brackets, that fits with its
 * NUL.
 */
#include "config.h"

#include <string.h>

#include "fuzz.h"
#include "sysblock.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t room = size ? data[0] % 40 + 1 : 1;
	char *line = fuzz_string(data + !!size, size - !!size);
	char *active = malloc(room);

	if (!active)
		abort();
	if (bt_scheduler_parse(line, active, room)) {
		size_t len = strnlen(active, room);

		fuzz_assert(len > 0 && len < room);
		fuzz_assert(!active[strcspn(active, " \t\n[]")]);
		fuzz_assert(strstr(line, active));
	}
	free(active);
	free(line);
	return 0;
}
