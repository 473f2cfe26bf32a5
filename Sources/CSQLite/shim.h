#ifndef SYNCD_CSQLITE_SHIM_H
#define SYNCD_CSQLITE_SHIM_H

#include <sqlite3.h>

/// sqlite3_db_config is variadic, which Swift cannot call: one fixed-signature wrapper per use.
static inline int syncd_sqlite3_db_config_defensive(sqlite3 *db, int enable) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, enable, (int *)0);
}

/// Off: a double-quoted name that matches no column is an error in DML, not the string literal SQLite's legacy
/// rule makes of it (https://sqlite.org/quirks.html#dblquote).
static inline int syncd_sqlite3_db_config_dqs_dml(sqlite3 *db, int enable) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, enable, (int *)0);
}

/// sqlite3_config is variadic too. Off: SQLite stops counting the memory it allocates, which takes a process-wide
/// mutex on every allocation (https://sqlite.org/c3ref/c_config_covering_index_scan.html#sqliteconfigmemstatus).
/// It must run before SQLite is initialised, and then fails harmlessly with SQLITE_MISUSE.
static inline int syncd_sqlite3_config_memstatus(int enable) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enable);
}

/// How large a statement journal grows in memory before SQLite moves it to a temporary file (64 KiB by default).
/// Like the memory status, it must be set before SQLite is initialised.
static inline int syncd_sqlite3_config_stmtjrnl_spill(int bytes) {
    return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}

#endif
