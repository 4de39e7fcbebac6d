#ifndef FRUGAL_COPENSSL_SHIM_H
#define FRUGAL_COPENSSL_SHIM_H
// The system's OpenSSL (Debian's libssl-dev, 3.0 on Debian 12), for HTTPS through a run's proxy:
// the TLS engine (FrugalHarness's OpenSSLServerHandler) and, through CFrugalTLS, the run's CA.
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

/* Swift cannot import function-like macros: these return what they expand to. */

/* The bytes a memory BIO holds, without consuming them (BIO_get_mem_data). */
static inline long frugal_bio_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

/* SSL_ERROR_WANT_READ & co are plain integers Swift imports; these are not. */
static inline int frugal_err_reason(unsigned long error) { return ERR_GET_REASON(error); }
static inline int frugal_err_library(unsigned long error) { return ERR_GET_LIB(error); }

/* X509_NAME_print_ex's flags for a name as RFC 2253 orders and separates it ("CN=...,O=..."),
   without its escapes (a report's reader sees "CN=Frugal run CA (run, 42),O=Frugal"). */
static inline unsigned long frugal_xn_flag_readable(void) { return XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_2253; }
#endif
