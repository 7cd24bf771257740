/*
 * The practical limit for storekeep's batch insert: a bare prepared-statement insert of the same
 * rows into the same table through the SQLite C API (DESIGN.md §8, "raw C API").
 *
 *   sqlite-insert-baseline [--bare] SOURCE.store TABLE TARGET.db [ROWS_PER_TRANSACTION]
 *
 * Reads TABLE's rows from SOURCE (a store storekeep wrote) into memory, creates TARGET with the
 * same CREATE TABLE and CREATE INDEX statements (with --bare: the same columns and declared types,
 * the integer primary key kept, no other constraint or index) and SOURCE's page size, in WAL mode with SQLite's default synchronous
 * setting (storekeep's), then inserts every row with one prepared statement, reset and reused,
 * ROWS_PER_TRANSACTION (default 10000) rows per transaction. Only the insert is timed (monotonic
 * clock, from the first BEGIN to the last COMMIT). Prints one JSON object: rows, seconds,
 * rows_per_second.
 */
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void fail(sqlite3 *db, const char *what) {
    fprintf(stderr, "sqlite-insert-baseline: %s: %s\n", what, db ? sqlite3_errmsg(db) : "out of memory");
    exit(1);
}

static void must(sqlite3 *db, int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) fail(db, what);
}

/* Every value of every row, back to back: a type byte, then 8 bytes (integer, real) or a 4-byte
 * length and the bytes (text, blob). Built before the clock starts. */
typedef struct {
    unsigned char *bytes;
    size_t used, capacity;
} Buffer;

static void append(Buffer *buffer, const void *data, size_t length) {
    if (buffer->used + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 1 << 20;
        while (capacity < buffer->used + length) capacity *= 2;
        buffer->bytes = realloc(buffer->bytes, capacity);
        if (!buffer->bytes) fail(NULL, "reading rows");
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->used, data, length);
    buffer->used += length;
}

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

static void exec(sqlite3 *db, const char *sql) {
    char *message = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &message) != SQLITE_OK) {
        fprintf(stderr, "sqlite-insert-baseline: %s: %s\n", sql, message ? message : "?");
        exit(1);
    }
}

int main(int argc, char **argv) {
    int bare = argc > 1 && strcmp(argv[1], "--bare") == 0;
    if (bare) {
        argv++;
        argc--;
    }
    if (argc < 4 || argc > 5) {
        fprintf(stderr, "usage: sqlite-insert-baseline [--bare] SOURCE.store TABLE TARGET.db [ROWS_PER_TRANSACTION]\n");
        return 64;
    }
    const char *source_path = argv[1], *table = argv[2], *target_path = argv[3];
    long per_transaction = argc == 5 ? atol(argv[4]) : 10000;
    if (per_transaction <= 0) {
        fprintf(stderr, "sqlite-insert-baseline: ROWS_PER_TRANSACTION must be positive\n");
        return 64;
    }

    sqlite3 *source = NULL;
    must(source, sqlite3_open_v2(source_path, &source, SQLITE_OPEN_READONLY, NULL), source_path);

    /* The source store's page size, given to the target too: the same table, on the same pages. */
    sqlite3_stmt *page = NULL;
    must(source, sqlite3_prepare_v2(source, "PRAGMA page_size", -1, &page, NULL), "reading the page size");
    int page_size = sqlite3_step(page) == SQLITE_ROW ? sqlite3_column_int(page, 0) : 4096;
    sqlite3_finalize(page);

    /* The table's and its indexes' definitions (automatic UNIQUE indexes have no SQL); with --bare,
     * a table of the same columns and declared types built from table_info. */
    sqlite3_stmt *schema = NULL;
    must(source, sqlite3_prepare_v2(source, bare
        ? "SELECT name, type, pk FROM pragma_table_info(?1) ORDER BY cid"
        : "SELECT sql FROM sqlite_master WHERE tbl_name = ?1 AND sql IS NOT NULL ORDER BY type = 'index', name",
        -1, &schema, NULL), "reading the schema");
    sqlite3_bind_text(schema, 1, table, -1, SQLITE_STATIC);
    Buffer ddl = {0};
    int statements = 0;
    if (bare) {
        char head[512];
        snprintf(head, sizeof head, "CREATE TABLE \"%s\" (", table);
        append(&ddl, head, strlen(head));
    }
    while (sqlite3_step(schema) == SQLITE_ROW) {
        const char *text = (const char *)sqlite3_column_text(schema, 0);
        if (bare) {
            const char *type = (const char *)sqlite3_column_text(schema, 1);
            if (statements) append(&ddl, ", ", 2);
            append(&ddl, "\"", 1);
            append(&ddl, text, strlen(text));
            append(&ddl, "\" ", 2);
            append(&ddl, type ? type : "", type ? strlen(type) : 0);
            if (sqlite3_column_int(schema, 2) == 1 && type && strcmp(type, "INTEGER") == 0)
                append(&ddl, " PRIMARY KEY", 12);
        } else {
            append(&ddl, text, strlen(text));
            append(&ddl, ";\n", 2);
        }
        statements++;
    }
    if (bare) append(&ddl, ")", 1);
    append(&ddl, "", 1);
    sqlite3_finalize(schema);
    if (statements == 0) {
        fprintf(stderr, "sqlite-insert-baseline: %s has no table %s\n", source_path, table);
        return 66;
    }

    char select[512];
    snprintf(select, sizeof select, "SELECT * FROM \"%s\" ORDER BY rowid", table);
    sqlite3_stmt *read = NULL;
    must(source, sqlite3_prepare_v2(source, select, -1, &read, NULL), select);
    int columns = sqlite3_column_count(read);
    Buffer values = {0};
    long rows = 0;
    int rc;
    while ((rc = sqlite3_step(read)) == SQLITE_ROW) {
        for (int column = 0; column < columns; column++) {
            unsigned char type = (unsigned char)sqlite3_column_type(read, column);
            append(&values, &type, 1);
            if (type == SQLITE_INTEGER) {
                int64_t integer = sqlite3_column_int64(read, column);
                append(&values, &integer, 8);
            } else if (type == SQLITE_FLOAT) {
                double real = sqlite3_column_double(read, column);
                append(&values, &real, 8);
            } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
                const void *data = type == SQLITE_TEXT ? (const void *)sqlite3_column_text(read, column)
                                                       : sqlite3_column_blob(read, column);
                uint32_t length = (uint32_t)sqlite3_column_bytes(read, column);
                append(&values, &length, 4);
                append(&values, data, length);
            }
        }
        rows++;
    }
    must(source, rc, "reading rows");
    sqlite3_finalize(read);
    sqlite3_close(source);

    const char *suffixes[] = {"", "-wal", "-shm", "-journal"};
    for (int index = 0; index < 4; index++) {
        char path[4096];
        snprintf(path, sizeof path, "%s%s", target_path, suffixes[index]);
        unlink(path);
    }
    sqlite3 *db = NULL;
    must(db, sqlite3_open(target_path, &db), target_path);
    char page_pragma[64];
    snprintf(page_pragma, sizeof page_pragma, "PRAGMA page_size = %d", page_size);
    exec(db, page_pragma);
    exec(db, "PRAGMA journal_mode = WAL");
    exec(db, (const char *)ddl.bytes);

    Buffer insert = {0};
    char head[512];
    snprintf(head, sizeof head, "INSERT INTO \"%s\" VALUES (", table);
    append(&insert, head, strlen(head));
    for (int column = 0; column < columns; column++) append(&insert, column ? ",?" : "?", column ? 2 : 1);
    append(&insert, ")", 2);
    sqlite3_stmt *statement = NULL;
    must(db, sqlite3_prepare_v2(db, (const char *)insert.bytes, -1, &statement, NULL), "preparing the insert");

    double start = now();
    const unsigned char *cursor = values.bytes;
    exec(db, "BEGIN");
    for (long row = 0; row < rows; row++) {
        for (int column = 0; column < columns; column++) {
            unsigned char type = *cursor++;
            if (type == SQLITE_INTEGER) {
                int64_t integer;
                memcpy(&integer, cursor, 8);
                cursor += 8;
                sqlite3_bind_int64(statement, column + 1, integer);
            } else if (type == SQLITE_FLOAT) {
                double real;
                memcpy(&real, cursor, 8);
                cursor += 8;
                sqlite3_bind_double(statement, column + 1, real);
            } else if (type == SQLITE_TEXT || type == SQLITE_BLOB) {
                uint32_t length;
                memcpy(&length, cursor, 4);
                cursor += 4;
                if (type == SQLITE_TEXT) sqlite3_bind_text(statement, column + 1, (const char *)cursor, (int)length, SQLITE_STATIC);
                else sqlite3_bind_blob(statement, column + 1, cursor, (int)length, SQLITE_STATIC);
                cursor += length;
            } else {
                sqlite3_bind_null(statement, column + 1);
            }
        }
        must(db, sqlite3_step(statement), "inserting");
        sqlite3_reset(statement);
        if ((row + 1) % per_transaction == 0) {
            exec(db, "COMMIT");
            exec(db, "BEGIN");
        }
    }
    exec(db, "COMMIT");
    double seconds = now() - start;
    sqlite3_finalize(statement);
    must(db, sqlite3_close(db), "closing");
    printf("{\"rows\": %ld, \"seconds\": %.6f, \"rows_per_second\": %.1f}\n", rows, seconds,
           seconds > 0 ? (double)rows / seconds : 0.0);
    free(values.bytes);
    free(ddl.bytes);
    free(insert.bytes);
    return 0;
}
