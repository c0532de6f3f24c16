/* signals: SIGINT and SIGTERM set a flag that the sweep loop and the runner
 * poll, so an interrupted sweep stops between database transactions. */
#ifndef TUNER_SIGNALS_H
#define TUNER_SIGNALS_H

#include <signal.h>

/* Installs the handlers; returns the flag they set. */
volatile sig_atomic_t *signals_install(void);

#endif
