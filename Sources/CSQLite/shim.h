#ifndef FRUGAL_CSQLITE_SHIM_H
#define FRUGAL_CSQLITE_SHIM_H
// The system's SQLite (Debian's libsqlite3-dev, 3.40 on Debian 12; it ships sqlite3.pc), for the
// run history (FrugalHistory): linked, not compiled.
#include <sqlite3.h>

/* Swift cannot import SQLITE_TRANSIENT (a cast of -1 to a function pointer): a bound value is
   copied by SQLite before the call returns, so the Swift string may go away at once. */
static inline sqlite3_destructor_type frugal_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
