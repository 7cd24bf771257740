#define _GNU_SOURCE
#include <unistd.h>
#include <errno.h>
#include "CSystemCalls.h"

#include <fcntl.h>
#include <stdio.h>
#if defined(__linux__)
#include <sys/vfs.h>
#endif

long long storekeep_filesystem_type(const char *path) {
#if defined(__linux__)
    struct statfs facts;
    if (statfs(path, &facts) != 0) return -1;
    return (long long)facts.f_type;
#else
    (void)path;
    errno = ENOSYS;
    return -1;
#endif
}

int storekeep_syncfs(int descriptor) {
#if defined(__linux__)
    return syncfs(descriptor);
#else
    (void)descriptor;
    errno = ENOSYS;
    return -1;
#endif
}

int storekeep_open_unnamed(const char *folder) {
#if defined(__linux__) && defined(O_TMPFILE)
    return open(folder, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
#else
    (void)folder;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int storekeep_link_unnamed(int descriptor, const char *path) {
#if defined(__linux__)
    char name[64];
    snprintf(name, sizeof name, "/proc/self/fd/%d", descriptor);
    return linkat(AT_FDCWD, name, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
#else
    (void)descriptor; (void)path;
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

int storekeep_start_writeback(int descriptor) {
#if defined(__linux__)
    return sync_file_range(descriptor, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)descriptor;
    errno = ENOSYS;
    return -1;
#endif
}

int storekeep_start_writeback_range(int descriptor, long long offset, long long count) {
#if defined(__linux__)
    return sync_file_range(descriptor, offset, count, SYNC_FILE_RANGE_WRITE);
#else
    (void)descriptor;
    (void)offset;
    (void)count;
    errno = ENOSYS;
    return -1;
#endif
}

#include <sqlite3.h>

int storekeep_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
