#ifndef TUNER_VERSION_H
#define TUNER_VERSION_H

#define TUNE_VERSION "0.1.0"

#endif
