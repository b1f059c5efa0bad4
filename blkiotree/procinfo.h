/* What CFQ sees of a task: name, kernel-thread flag and I/O priority. */
#ifndef BLKIOTREE_PROCINFO_H
#define BLKIOTREE_PROCINFO_H

#include <stdbool.h>
#include <sys/types.h>

#include "tree.h"

/* Fill @task for thread @tid from /proc and ioprio_get(); false if gone. */
bool bt_procinfo_read(pid_t tid, struct bt_task *task);
/*
 * The text of thread @tid's own I/O counters (proc(5)'s /proc/PID/io, of
 * the thread alone), in *@text (caller frees).  Returns 0 or an errno.
 */
int bt_procinfo_io_text(pid_t tid, char **text);
/*
 * Set the calling thread's I/O priority (a bt_ioprio_parse() value), which
 * an exec keeps.  Returns 0 or the errno of ioprio_set(2).
 */
int bt_procinfo_set_ioprio(int ioprio);

#endif
