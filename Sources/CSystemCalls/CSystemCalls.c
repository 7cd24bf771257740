#define _GNU_SOURCE
#include <unistd.h>
#include <errno.h>
#include "CSystemCalls.h"

int storekeep_syncfs(int descriptor) {
#if defined(__linux__)
    return syncfs(descriptor);
#else
    (void)descriptor;
    errno = ENOSYS;
    return -1;
#endif
}

long storekeep_copy_file_range(int input, int output, unsigned long count) {
#if defined(__linux__)
    return (long)copy_file_range(input, NULL, output, NULL, count, 0);
#else
    (void)input; (void)output; (void)count;
    errno = ENOSYS;
    return -1;
#endif
}

#include <fcntl.h>

int storekeep_start_writeback(int descriptor) {
#if defined(__linux__)
    return sync_file_range(descriptor, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)descriptor;
    errno = ENOSYS;
    return -1;
#endif
}

#include <sqlite3.h>

int storekeep_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
