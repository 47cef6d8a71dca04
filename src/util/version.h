/* version.h - the engine version every verdict names. */
#ifndef UTIL_VERSION_H
#define UTIL_VERSION_H

#define FLIERD_VERSION "0.2.0"
#define FLIERD_ENGINE "flierd " FLIERD_VERSION

#endif
