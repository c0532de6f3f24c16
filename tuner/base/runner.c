#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../kernels/sdk/tune_protocol.h"
#include "runner.h"

#define RUNNER_MAX_ERR (64u << 10)

struct buf {
	char *p;
	size_t len, cap, max;
};

static int buf_read(struct buf *b, int fd)
{
	char tmp[65536];
	ssize_t n = read(fd, tmp, sizeof(tmp));

	if (n <= 0)
		return n == 0 || (errno != EINTR && errno != EAGAIN) ? 0 : 1;
	if (b->len + (size_t)n + 1 > b->cap && b->len < b->max) {
		size_t ncap = b->cap ? b->cap * 2 : 65536;
		char *np;

		while (ncap < b->len + (size_t)n + 1)
			ncap *= 2;
		if (ncap > b->max + 1)
			ncap = b->max + 1;
		np = realloc(b->p, ncap);
		if (!np)
			return 1;
		b->p = np;
		b->cap = ncap;
	}
	if (b->len < b->max) {
		size_t take = (size_t)n;

		if (b->len + take > b->max)
			take = b->max - b->len;
		memcpy(b->p + b->len, tmp, take);
		b->len += take;
		b->p[b->len] = '\0';
	}
	return 1;
}

/* What failed in the child before its program ran: a step and errno, sent
 * through a close-on-exec pipe, since a child of a threaded program may call
 * only async-signal-safe functions between fork and exec (no stdio). */
struct child_failure {
	int step; /* 1: pinning, 2: exec */
	int err;
};

/* Tells the parent what failed; nothing else is left to do if that fails. */
static void report_failure(int status, int step, int err)
{
	struct child_failure f = { step, err };

	if (write(status, &f, sizeof(f)) != (ssize_t)sizeof(f))
		_exit(124);
}

static void child(char *const argv[], int cpu, int out, int errfd, int status)
{
	dup2(out, STDOUT_FILENO);
	dup2(errfd, STDERR_FILENO);
	/* Its own process group: Ctrl-C reaches tune, which stops the whole
	 * group (a compiler's own children too); and it dies with tune. */
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(125);
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0) {
			report_failure(status, 1, errno);
			_exit(126);
		}
	}
	execvp(argv[0], argv);
	report_failure(status, 2, errno);
	_exit(127);
}

/* Containment: tune is its descendants' subreaper, so that a kernel's
 * child that left its process group (setsid) comes back to tune when the
 * kernel ends, and is ended with it. The children runner_exec is waiting
 * for are listed; any other child of tune is such an orphan. */
#define RUNNER_MAX_LIVE 64
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t live[RUNNER_MAX_LIVE];
static size_t nlive;
static int subreaper;

static int is_live(pid_t pid)
{
	for (size_t i = 0; i < nlive; i++)
		if (live[i] == pid)
			return 1;
	return 0;
}

/* The parent's pid in /proc/PID/stat (after the command's closing paren). */
static pid_t parent_of(const char *pid)
{
	char path[64], text[512], *paren;
	FILE *f;
	size_t n;
	int ppid = 0;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	if (!(f = fopen(path, "r")))
		return 0;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	if (!(paren = strrchr(text, ')')) || sscanf(paren + 1, " %*c %d", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

/* Kills and reaps every child of tune's that no runner_exec waits for,
 * until none is left (a killed orphan's own children come back too).
 * Under live_lock. */
static void end_orphans(void)
{
	for (int round = 0; round < 100; round++) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		int found = 0;

		if (!d)
			return;
		while ((e = readdir(d)) != NULL) {
			pid_t pid = (pid_t)strtol(e->d_name, NULL, 10);

			if (pid <= 0 || is_live(pid) || parent_of(e->d_name) != getpid())
				continue;
			kill(pid, SIGKILL);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
			found = 1;
		}
		closedir(d);
		if (!found)
			return;
	}
}

/* Reaps pid with a deadline, since a child may close its pipes and go on
 * running: past it (or on stop) its group is killed. Whatever remains of
 * the group once the child has ended (a compiler's cc1) is killed before
 * the child is reaped, while its pid cannot name another group yet. */
static void reap(pid_t pid, double deadline, volatile sig_atomic_t *stop, struct run_result *res, int *wstatus)
{
	for (;;) {
		siginfo_t info;
		struct timespec nap = { 0, 10000000 };

		memset(&info, 0, sizeof(info));
		if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) < 0 && errno != EINTR)
			break;
		if (info.si_pid == pid)
			break;
		if ((stop && *stop) || tk_now_s() > deadline) {
			if (stop && *stop)
				res->interrupted = 1;
			else
				res->timed_out = 1;
			kill(pid, SIGKILL);
			break;
		}
		nanosleep(&nap, NULL);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
		;
}

int runner_exec(char *const argv[], int cpu, double timeout_s, volatile sig_atomic_t *stop,
		struct run_result *res, struct tune_error *err)
{
	int outp[2] = { -1, -1 }, errp[2] = { -1, -1 }, statp[2] = { -1, -1 };
	struct buf out = { .max = RUNNER_MAX_OUT }, eb = { .max = RUNNER_MAX_ERR };
	double deadline = tk_now_s() + timeout_s;
	struct child_failure failure = { 0, 0 };
	int open_fds = 2, wstatus = 0;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	res->cpu = cpu < 0 ? -1 : cpu;
	res->loadavg1 = -1;
	if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0 || pipe2(statp, O_CLOEXEC) != 0) {
		int e = errno;

		for (int i = 0; i < 2; i++) {
			if (outp[i] >= 0)
				close(outp[i]);
			if (errp[i] >= 0)
				close(errp[i]);
		}
		return tune_fail(err, TUNE_ERR_SYSTEM, "cannot create a pipe: %s", strerror(e));
	}
	pthread_mutex_lock(&live_lock);
	if (!subreaper)
		subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
	pid = nlive < RUNNER_MAX_LIVE ? fork() : (errno = EAGAIN, -1);
	if (pid > 0)
		live[nlive++] = pid;
	pthread_mutex_unlock(&live_lock);
	if (pid < 0) {
		int e = errno;

		close(outp[0]); close(outp[1]); close(errp[0]); close(errp[1]); close(statp[0]); close(statp[1]);
		return tune_fail(err, TUNE_ERR_SYSTEM, "cannot start '%s': %s", argv[0], strerror(e));
	}
	if (pid == 0)
		child(argv, cpu, outp[1], errp[1], statp[1]);
	close(outp[1]);
	close(errp[1]);
	close(statp[1]);
	/* Closed by a successful exec: nothing to read. */
	while (read(statp[0], &failure, sizeof(failure)) < 0 && errno == EINTR)
		;
	close(statp[0]);
	{
		struct pollfd fds[2] = { { outp[0], POLLIN, 0 }, { errp[0], POLLIN, 0 } };
		double exited_at = -1;

		while (open_fds > 0) {
			double left = deadline - tk_now_s();
			siginfo_t info;
			int n;

			/* When it ended, while something it started may hold its output. */
			memset(&info, 0, sizeof(info));
			if (exited_at < 0 && waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
			    info.si_pid == pid)
				exited_at = tk_now_s();

			if (stop && *stop) {
				res->interrupted = 1;
				break;
			}
			if (left <= 0) {
				res->timed_out = 1;
				break;
			}
			n = poll(fds, 2, left > 0.2 ? 200 : (int)(left * 1000) + 1);
			if (n < 0 && errno != EINTR)
				break;
			for (int i = 0; n > 0 && i < 2; i++) {
				if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				if (!buf_read(i == 0 ? &out : &eb, fds[i].fd)) {
					close(fds[i].fd);
					fds[i].fd = -1;
					open_fds--;
				}
			}
		}
		if (exited_at >= 0)
			res->lingered_s = tk_now_s() - exited_at;
		if (res->timed_out || res->interrupted)
			kill(-pid, SIGKILL), kill(pid, SIGKILL);
		for (int i = 0; i < 2; i++)
			if (fds[i].fd >= 0)
				close(fds[i].fd);
	}
	reap(pid, deadline, stop, res, &wstatus);
	pthread_mutex_lock(&live_lock);
	for (size_t i = 0; i < nlive; i++)
		if (live[i] == pid) {
			live[i] = live[--nlive];
			break;
		}
	end_orphans();
	pthread_mutex_unlock(&live_lock);
	res->exited = WIFEXITED(wstatus);
	res->status = res->exited ? WEXITSTATUS(wstatus) : 0;
	res->signo = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
	res->loadavg1 = getloadavg(&res->loadavg1, 1) == 1 ? res->loadavg1 : -1;
	res->out = out.p ? out.p : strdup("");
	res->out_len = out.len;
	if (failure.step) {
		char msg[300];

		if (failure.step == 1)
			snprintf(msg, sizeof(msg), "cannot pin to CPU %d: %s\n", cpu, strerror(failure.err));
		else
			snprintf(msg, sizeof(msg), "cannot run '%.200s': %s\n", argv[0], strerror(failure.err));
		free(eb.p);
		res->errout = strdup(msg);
	} else {
		res->errout = eb.p ? eb.p : strdup("");
	}
	return 0;
}

int runner_succeeded(const struct run_result *res)
{
	return res->exited && res->status == 0 && !res->timed_out && !res->interrupted && !res->unreadable;
}

void run_result_free(struct run_result *res)
{
	free(res->out);
	free(res->errout);
	res->out = res->errout = NULL;
}

void runner_describe(const struct run_result *res, double timeout_s, char *out, size_t len)
{
	if (res->timed_out)
		snprintf(out, len, "timed out after %.0f s (raise timeout_s in the sweep, or make a run shorter)", timeout_s);
	else if (res->interrupted)
		snprintf(out, len, "interrupted");
	else if (res->signo)
		snprintf(out, len, "killed by signal %d (%s)", res->signo, strsignal(res->signo));
	else if (res->unreadable)
		snprintf(out, len, "exited 0, but its output could not be read");
	else
		snprintf(out, len, "exit status %d", res->status);
}
