/* The runner: a child that closes its pipes and runs on is still stopped at
 * its deadline; what the child's own children leave in its process group is
 * killed when it ends; a program that cannot start or be pinned says why
 * (from the parent: the child only calls async-signal-safe functions). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../tuner/base/runner.h"
#include "../check.h"

/* Whether pid is gone (or a zombie waiting for init). */
static int gone(long pid)
{
	char path[64], line[256];
	FILE *f;
	char *close_p;

	for (int i = 0; i < 100; i++) {
		struct timespec nap = { 0, 10000000 };

		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		if (!(f = fopen(path, "r")))
			return 1;
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		if ((close_p = strrchr(line, ')')) && close_p[1] == ' ' && close_p[2] == 'Z')
			return 1;
		nanosleep(&nap, NULL);
	}
	return 0;
}

int main(void)
{
	struct run_result res;
	struct tune_error err;

	{
		char *argv[] = { "sh", "-c", "exec >&- 2>&-; sleep 30", NULL };

		CHECK(runner_exec(argv, -1, 1.0, NULL, &res, &err) == 0, "%s", err.msg);
		CHECK(res.timed_out, "a child that closed its pipes is still stopped at its deadline");
		run_result_free(&res);
	}
	{
		char *argv[] = { "sh", "-c", "sleep 300 > /dev/null 2>&1 & echo $!", NULL };
		long stray;

		CHECK(runner_exec(argv, -1, 30.0, NULL, &res, &err) == 0, "%s", err.msg);
		stray = strtol(res.out, NULL, 10);
		CHECK(stray > 0 && gone(stray), "the child's own child (pid %ld) is killed with its group", stray);
		if (stray > 0)
			kill((pid_t)stray, SIGKILL);
		run_result_free(&res);
	}
	{
		char *argv[] = { "sh", "-c", "grep '^Cpus_allowed_list:' /proc/self/status", NULL };

		CHECK(runner_exec(argv, 0, 5.0, NULL, &res, &err) == 0, "%s", err.msg);
		CHECK(res.cpu == 0 && strstr(res.out, ":\t0\n"), "pinned to CPU 0 and says so: cpu %d, %s", res.cpu, res.out);
		run_result_free(&res);
		CHECK(runner_exec(argv, -1, 5.0, NULL, &res, &err) == 0 && res.cpu == -1, "unpinned: cpu %d", res.cpu);
		run_result_free(&res);
	}
	{
		char *argv[] = { "/nonexistent/program", NULL };

		CHECK(runner_exec(argv, -1, 5.0, NULL, &res, &err) == 0, "%s", err.msg);
		CHECK(res.exited && res.status == 127, "exit status %d", res.status);
		CHECK_CONTAINS(res.errout, "cannot run '/nonexistent/program': No such file or directory");
		run_result_free(&res);
	}
	{
		char *argv[] = { "true", NULL };

		CHECK(runner_exec(argv, 4095, 5.0, NULL, &res, &err) == 0, "%s", err.msg);
		CHECK(res.exited && res.status == 126, "exit status %d", res.status);
		CHECK_CONTAINS(res.errout, "cannot pin to CPU 4095: Invalid argument");
		run_result_free(&res);
	}
	{
		char *argv[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };

		CHECK(runner_exec(argv, -1, 5.0, NULL, &res, &err) == 0, "%s", err.msg);
		CHECK(res.exited && res.status == 3 && !strcmp(res.out, "out\n") && !strcmp(res.errout, "err\n"),
		      "status %d out '%s' err '%s'", res.status, res.out, res.errout);
		run_result_free(&res);
	}
	return check_done("test_runner");
}
