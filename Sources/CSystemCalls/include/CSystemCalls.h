#ifndef STOREKEEP_CSYSTEMCALLS_H
#define STOREKEEP_CSYSTEMCALLS_H

/// Flushes the file system that holds `descriptor` (Linux syncfs); returns 0, or -1 with errno set.
int storekeep_syncfs(int descriptor);

/// Opens a new file without a name in the folder `folder`, for writing (Linux O_TMPFILE): it
/// vanishes if the process dies before ``storekeep_link_unnamed`` names it. Returns the descriptor,
/// or -1 with errno set (EOPNOTSUPP, EISDIR or EINVAL where the file system or kernel cannot).
int storekeep_open_unnamed(const char *folder);

/// Gives the unnamed file open as `descriptor` the name `path` (linkat through /proc/self/fd):
/// fails with EEXIST, leaving what is there, when the name is taken. Returns 0, or -1 with errno set.
int storekeep_link_unnamed(int descriptor, const char *path);

/// Copies up to `count` bytes from `input` to `output` at their current offsets, in the kernel
/// (Linux copy_file_range); returns the bytes copied (0 at the end of `input`), or -1 with errno set
/// (ENOSYS, EXDEV, EINVAL where the file systems cannot: the caller copies through a buffer).
long storekeep_copy_file_range(int input, int output, unsigned long count);

/// Starts writing the file's dirty pages to disk without waiting (Linux sync_file_range with
/// SYNC_FILE_RANGE_WRITE): an fsync later finds less to do. Returns 0, or -1 with errno set.
int storekeep_start_writeback(int descriptor);

/// Starts writing the dirty pages of `count` bytes from `offset` of the file to disk without
/// waiting (Linux sync_file_range with SYNC_FILE_RANGE_WRITE): a file written in parts keeps the
/// disk busy while the next part is produced. Returns 0, or -1 with errno set.
int storekeep_start_writeback_range(int descriptor, long long offset, long long count);

/// The file system type (the `f_type` magic number of Linux statfs) of the file system holding
/// `path`; -1 with errno set when it cannot be found.
long long storekeep_filesystem_type(const char *path);

/// Turns SQLite's memory statistics off for the process (sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0)):
/// with them on, every allocation SQLite makes takes a process-wide mutex to count itself. Works only
/// before SQLite is first used (otherwise SQLITE_MISUSE and nothing changes); returns the result code.
int storekeep_sqlite_disable_memory_statistics(void);

#endif
