#include <string.h>

#include "signals.h"

static volatile sig_atomic_t stop_requested;

static void on_signal(int signo)
{
	stop_requested = signo;
}

volatile sig_atomic_t *signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return &stop_requested;
}
