// SQLite's declarations only: signalpath does not link libsqlite3 but opens it when a command
// first opens a database (Sources/SignalPathKit/Archive/SQLite.swift). Each function it calls gets
// a pointer type here, taken from the header's own declaration, so the symbols dlsym returns are
// called with the exact C signatures.
#include <sqlite3.h>

#define SP_SQLITE_FN(name) typedef __typeof__(name) *sp_##name##_fn;

SP_SQLITE_FN(sqlite3_open_v2)
SP_SQLITE_FN(sqlite3_close_v2)
SP_SQLITE_FN(sqlite3_errmsg)
SP_SQLITE_FN(sqlite3_errstr)
SP_SQLITE_FN(sqlite3_extended_errcode)
SP_SQLITE_FN(sqlite3_busy_timeout)
SP_SQLITE_FN(sqlite3_exec)
SP_SQLITE_FN(sqlite3_prepare_v2)
SP_SQLITE_FN(sqlite3_finalize)
SP_SQLITE_FN(sqlite3_reset)
SP_SQLITE_FN(sqlite3_clear_bindings)
SP_SQLITE_FN(sqlite3_step)
SP_SQLITE_FN(sqlite3_bind_null)
SP_SQLITE_FN(sqlite3_bind_int64)
SP_SQLITE_FN(sqlite3_bind_double)
SP_SQLITE_FN(sqlite3_bind_text)
SP_SQLITE_FN(sqlite3_bind_blob)
SP_SQLITE_FN(sqlite3_column_count)
SP_SQLITE_FN(sqlite3_column_type)
SP_SQLITE_FN(sqlite3_column_int64)
SP_SQLITE_FN(sqlite3_column_double)
SP_SQLITE_FN(sqlite3_column_text)
SP_SQLITE_FN(sqlite3_column_blob)
SP_SQLITE_FN(sqlite3_column_bytes)
SP_SQLITE_FN(sqlite3_column_name)
SP_SQLITE_FN(sqlite3_changes)
SP_SQLITE_FN(sqlite3_libversion)

// SQLITE_TRANSIENT is a macro Swift cannot import: a cast of -1 to the destructor type.
static inline sqlite3_destructor_type sp_sqlite_transient(void) { return SQLITE_TRANSIENT; }
