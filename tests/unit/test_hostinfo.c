/* Whether a pinned CPU is busy: a running process on it counts, a kernel
 * thread (kworker/1:0, which runs on every CPU) does not; and a real process
 * spinning on a CPU is found there by name. */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../tuner/base/strbuf.h"
#include "../../tuner/config/config.h"
#include "../check.h"

/* A /proc/PID/stat line: pid (comm) state, then fields 2..52, the flags
 * (field 7) and the CPU last run on (field 37) as given. */
static void stat_line(char *out, size_t len, const char *comm, char state, unsigned long flags, int cpu)
{
	size_t used = 0;

	out[0] = '\0';
	str_appendf(out, len, &used, "77 (%s) %c", comm, state);
	for (int field = 2; field <= 52; field++)
		str_appendf(out, len, &used, " %ld", field == 7 ? (long)flags : field == 37 ? cpu : 0L);
}

int main(void)
{
	char line[1024], who[128];
	pid_t child;
	cpu_set_t set;

	stat_line(line, sizeof(line), "kworker/1:0-events", 'R', 69238880ul, 1);
	CHECK(hostinfo_stat_busy(line, 1, who, sizeof(who)) == 0, "a kernel thread is not a workload");
	stat_line(line, sizeof(line), "my ) proc", 'R', 4194304ul, 1);
	CHECK(hostinfo_stat_busy(line, 1, who, sizeof(who)) == 1, "a running process is");
	CHECK(!strcmp(who, "my ) proc (pid 77)"), "named with its pid, a ')' in its name kept: '%s'", who);
	stat_line(line, sizeof(line), "my proc", 'R', 4194304ul, 0);
	CHECK(hostinfo_stat_busy(line, 1, who, sizeof(who)) == 0, "on another CPU, it is not");
	stat_line(line, sizeof(line), "my proc", 'S', 4194304ul, 1);
	CHECK(hostinfo_stat_busy(line, 1, who, sizeof(who)) == 0, "sleeping, it is not");
	snprintf(line, sizeof(line), "77 (cut");
	CHECK(hostinfo_stat_busy(line, 1, who, sizeof(who)) == 0, "a cut line is not");

	/* A real process spinning on CPU 0. */
	child = fork();
	if (child == 0) {
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		sched_setaffinity(0, sizeof(set), &set);
		for (;;)
			;
	}
	CHECK(child > 0, "fork");
	if (child > 0) {
		int found = 0;

		/* Running, it is seen within five seconds (it may be preempted now
		 * and then, and on a busy machine another process is seen first). */
		for (int i = 0; i < 500 && !found; i++) {
			struct timespec nap = { 0, 10000000 };

			found = hostinfo_busy_cpu(0, who, sizeof(who)) > 0 && strstr(who, "test_hostinfo");
			nanosleep(&nap, NULL);
		}
		CHECK(found, "the spinning child is found on CPU 0 (last seen: '%s')", who);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	return check_done("hostinfo");
}
