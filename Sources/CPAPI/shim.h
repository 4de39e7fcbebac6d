#ifndef FRUGAL_CPAPI_SHIM_H
#define FRUGAL_CPAPI_SHIM_H
#include <papi.h>

/* Swift cannot import function-like macros or macros built from other macros: these return them. */
static inline int frugal_papi_ver_current(void) { return PAPI_VER_CURRENT; }
static inline int frugal_papi_dom_all(void) { return PAPI_DOM_ALL; }
static inline int frugal_papi_dom_user(void) { return PAPI_DOM_USER; }
static inline int frugal_papi_null(void) { return PAPI_NULL; }
static inline int frugal_papi_ok(void) { return PAPI_OK; }
static inline int frugal_papi_version_major(int v) { return PAPI_VERSION_MAJOR(v); }
static inline int frugal_papi_version_minor(int v) { return PAPI_VERSION_MINOR(v); }
static inline int frugal_papi_version_revision(int v) { return PAPI_VERSION_REVISION(v); }
#endif
