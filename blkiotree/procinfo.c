/* Task information from /proc and ioprio_get(2); ioprio_set(2). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "procinfo.h"
#include "strutil.h"

#define IOPRIO_WHO_PROCESS	1
#define PF_KTHREAD		0x00200000

/*
 * /proc/TID/stat fields after "(comm)", counted from 0: state is 0,
 * flags 6, nice 16, policy 38 (proc(5) numbers them 3, 9, 19, 41).
 */
#define STAT_FLAGS	6
#define STAT_NICE	16
#define STAT_POLICY	38

/* The process (thread group) of thread @tid, or 0 when unknown. */
static pid_t read_tgid(pid_t tid)
{
	char path[64], line[128];
	long tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", (long)tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %ld", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

bool bt_procinfo_read(pid_t tid, struct bt_task *task)
{
	char path[64], buf[1024], *open, *close, *field, *save;
	long long values[STAT_POLICY + 1] = { 0 };
	int nfields = 0, ioprio;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)tid);
	f = fopen(path, "re");
	if (!f)
		return false;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';

	/* the name may itself hold spaces and parentheses */
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return false;
	memset(task, 0, sizeof(*task));
	task->pid = tid;
	len = close - open - 1;
	if (len >= sizeof(task->comm))
		len = sizeof(task->comm) - 1;
	memcpy(task->comm, open + 1, len);
	task->comm[len] = '\0';

	for (field = strtok_r(close + 1, " \n", &save);
	     field && nfields <= STAT_POLICY;
	     field = strtok_r(NULL, " \n", &save))
		values[nfields++] = strtoll(field, NULL, 10);
	if (nfields <= STAT_POLICY)
		return false;
	task->kthread = values[STAT_FLAGS] & PF_KTHREAD;
	task->tgid = read_tgid(tid);

	ioprio = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, (int)tid);
	if (ioprio < 0) {
		if (errno == ESRCH)
			return false;
		ioprio = 0;
	}
	bt_ioprio_resolve(ioprio, values[STAT_NICE], values[STAT_POLICY], task);
	return true;
}

int bt_procinfo_io_text(pid_t tid, char **text)
{
	/* /proc/TID/io sums the whole process; task/TID/io is the thread's */
	char *path = xasprintf("/proc/%ld/task/%ld/io", (long)tid, (long)tid);
	int err = str_read_file(path, text);

	free(path);
	return err;
}

int bt_procinfo_set_ioprio(int ioprio)
{
	/* who 0: the calling thread, as ionice(1) sets it for its command */
	if (syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, ioprio) < 0)
		return errno;
	return 0;
}
