#ifndef STOREKEEP_CSYSTEMCALLS_H
#define STOREKEEP_CSYSTEMCALLS_H

/// Flushes the file system that holds `descriptor` (Linux syncfs); returns 0, or -1 with errno set.
int storekeep_syncfs(int descriptor);

#endif
