#ifndef FRUGAL_CTLS_H
#define FRUGAL_CTLS_H
/* The run CA's certificates and the TLS server side of HTTPS through a run's proxy, over the
   system's OpenSSL (COpenSSL). OpenSSL's types are only named here (Swift sees OpaquePointer,
   the same as through COpenSSL); the C file includes OpenSSL's headers. Every function that can
   fail returns NULL or 0 and leaves the reason on OpenSSL's error queue
   (frugal_tls_drain_errors reads it). */
#include <stddef.h>
#include <stdint.h>

struct evp_pkey_st;
struct x509_st;
struct ssl_ctx_st;
struct ssl_st;
struct bio_st;

/* A new EC P-256 key pair. */
struct evp_pkey_st *frugal_tls_new_key(void);

/* A self-signed CA certificate for `key`: subject and issuer O=organization, CN=common_name;
   basicConstraints CA:TRUE, pathlen 0 and keyUsage keyCertSign, cRLSign (both critical), a subject
   key identifier; a random 159-bit serial; valid from `not_before` to `not_after` (seconds since
   the epoch); signed ECDSA with SHA-256. */
struct x509_st *frugal_tls_make_ca(struct evp_pkey_st *key, const char *organization, const char *common_name,
                                   int64_t not_before, int64_t not_after);

/* A server certificate for `leaf_key`, signed by `ca` (whose key is `ca_key`): subject
   CN=common_name; one subjectAltName, the IP address `address` (4 or 16 bytes) when it is not
   NULL, else the DNS name `dns_name` (ASCII only, or NULL is returned); basicConstraints CA:FALSE
   and keyUsage digitalSignature (critical), extendedKeyUsage serverAuth, subject and authority key
   identifiers; a random serial; valid from `not_before` to `not_after`. */
struct x509_st *frugal_tls_make_leaf(struct x509_st *ca, struct evp_pkey_st *ca_key, struct evp_pkey_st *leaf_key,
                                     const char *common_name, const char *dns_name,
                                     const unsigned char *address, size_t address_length,
                                     int64_t not_before, int64_t not_after);

/* A TLS server context presenting `leaf` (with `key`): TLS 1.2 and 1.3, and ALPN `http/1.1`
   chosen when the client offers it (the origin speaks HTTP/1.1 only; a client offering only
   others gets no ALPN answer rather than a failure). */
struct ssl_ctx_st *frugal_tls_server_context(struct x509_st *leaf, struct evp_pkey_st *key);

/* A server connection of `context` over two memory BIOs: the caller writes the bytes received
   into *read_bio and sends what it reads from *write_bio. Both are owned by the connection (freed
   by SSL_free) and answer "retry" when empty, never EOF. NULL on failure. */
struct ssl_st *frugal_tls_new_server(struct ssl_ctx_st *context, struct bio_st **read_bio, struct bio_st **write_bio);

/* Drains OpenSSL's error queue (of this thread) into `buffer` as one line, the errors joined by
   "; " (NUL-terminated, truncated to `size`); returns the first error's packed code, 0 if none. */
unsigned long frugal_tls_drain_errors(char *buffer, size_t size);

#endif
