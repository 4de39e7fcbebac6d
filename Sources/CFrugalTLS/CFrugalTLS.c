#include "CFrugalTLS.h"

#include <string.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

EVP_PKEY *frugal_tls_new_key(void) {
    return EVP_EC_gen("P-256");
}

/* A random positive serial of at most 159 bits (RFC 5280 allows 20 octets), set on `cert`. */
static int set_random_serial(X509 *cert) {
    BIGNUM *number = BN_new();
    if (number == NULL) return 0;
    int ok = BN_rand(number, 159, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) == 1
        && BN_to_ASN1_INTEGER(number, X509_get_serialNumber(cert)) != NULL;
    BN_free(number);
    return ok;
}

/* One extension from its configuration text (`value` is ours, never a host's: no injection). */
static int add_extension(X509 *cert, X509 *issuer, int nid, const char *value) {
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, cert, NULL, NULL, 0);
    X509_EXTENSION *extension = X509V3_EXT_conf_nid(NULL, &context, nid, value);
    if (extension == NULL) return 0;
    int ok = X509_add_ext(cert, extension, -1);
    X509_EXTENSION_free(extension);
    return ok;
}

/* A v3 certificate for `key` with a random serial, the validity and subject CN (and O when given). */
static X509 *new_certificate(EVP_PKEY *key, const char *organization, const char *common_name,
                             int64_t not_before, int64_t not_after) {
    X509 *cert = X509_new();
    if (cert == NULL) return NULL;
    X509_NAME *subject = X509_get_subject_name(cert);
    int ok = X509_set_version(cert, X509_VERSION_3)
        && set_random_serial(cert)
        && ASN1_TIME_set(X509_getm_notBefore(cert), (time_t)not_before) != NULL
        && ASN1_TIME_set(X509_getm_notAfter(cert), (time_t)not_after) != NULL
        && X509_set_pubkey(cert, key)
        && (organization == NULL
            || X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8, (const unsigned char *)organization, -1, -1, 0))
        && X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0);
    if (!ok) {
        X509_free(cert);
        return NULL;
    }
    return cert;
}

X509 *frugal_tls_make_ca(EVP_PKEY *key, const char *organization, const char *common_name,
                         int64_t not_before, int64_t not_after) {
    X509 *cert = new_certificate(key, organization, common_name, not_before, not_after);
    if (cert == NULL) return NULL;
    int ok = X509_set_issuer_name(cert, X509_get_subject_name(cert))
        && add_extension(cert, cert, NID_basic_constraints, "critical,CA:TRUE,pathlen:0")
        && add_extension(cert, cert, NID_key_usage, "critical,keyCertSign,cRLSign")
        && add_extension(cert, cert, NID_subject_key_identifier, "hash")
        && X509_sign(cert, key, EVP_sha256()) > 0;
    if (!ok) {
        X509_free(cert);
        return NULL;
    }
    return cert;
}

/* The subjectAltName: an IP address (its bytes) or a DNS name (checked to be printable ASCII,
   as an IA5String must be, built directly so no host text is parsed as configuration). */
static int add_subject_alt_name(X509 *cert, const char *dns_name, const unsigned char *address, size_t address_length) {
    GENERAL_NAME *name = GENERAL_NAME_new();
    if (name == NULL) return 0;
    ASN1_STRING *value = NULL;
    if (address != NULL) {
        value = ASN1_OCTET_STRING_new();
        if (value == NULL || !ASN1_OCTET_STRING_set(value, address, (int)address_length)) goto fail;
        GENERAL_NAME_set0_value(name, GEN_IPADD, value);
    } else {
        if (dns_name == NULL || *dns_name == 0) goto fail;
        for (const char *c = dns_name; *c; c++) {
            if ((unsigned char)*c <= 0x20 || (unsigned char)*c >= 0x7f) {
                ERR_raise_data(ERR_LIB_X509V3, X509V3_R_BAD_OBJECT, "host is not printable ASCII");
                goto fail;
            }
        }
        value = ASN1_IA5STRING_new();
        if (value == NULL || !ASN1_STRING_set(value, dns_name, (int)strlen(dns_name))) goto fail;
        GENERAL_NAME_set0_value(name, GEN_DNS, value);
    }
    value = NULL;  /* owned by `name` now */
    GENERAL_NAMES *names = sk_GENERAL_NAME_new_null();
    if (names == NULL || !sk_GENERAL_NAME_push(names, name)) {
        sk_GENERAL_NAME_free(names);
        goto fail;
    }
    int ok = X509_add1_ext_i2d(cert, NID_subject_alt_name, names, 0, X509V3_ADD_DEFAULT) == 1;
    GENERAL_NAMES_free(names);
    return ok;
fail:
    ASN1_STRING_free(value);
    GENERAL_NAME_free(name);
    return 0;
}

X509 *frugal_tls_make_leaf(X509 *ca, EVP_PKEY *ca_key, EVP_PKEY *leaf_key, const char *common_name, const char *dns_name,
                           const unsigned char *address, size_t address_length, int64_t not_before, int64_t not_after) {
    X509 *cert = new_certificate(leaf_key, NULL, common_name, not_before, not_after);
    if (cert == NULL) return NULL;
    int ok = X509_set_issuer_name(cert, X509_get_subject_name(ca))
        && add_extension(cert, ca, NID_basic_constraints, "critical,CA:FALSE")
        && add_extension(cert, ca, NID_key_usage, "critical,digitalSignature")
        && add_extension(cert, ca, NID_ext_key_usage, "serverAuth")
        && add_subject_alt_name(cert, dns_name, address, address_length)
        && add_extension(cert, ca, NID_subject_key_identifier, "hash")
        && add_extension(cert, ca, NID_authority_key_identifier, "keyid:always")
        && X509_sign(cert, ca_key, EVP_sha256()) > 0;
    if (!ok) {
        X509_free(cert);
        return NULL;
    }
    return cert;
}

static const unsigned char http11[] = "\x08http/1.1";

/* ALPN: http/1.1 if the client offers it; otherwise no ALPN in the answer (not a failure). */
static int select_http11(SSL *ssl, const unsigned char **out, unsigned char *out_length,
                         const unsigned char *offered, unsigned int offered_length, void *argument) {
    (void)ssl;
    (void)argument;
    unsigned char *selected = NULL;
    if (SSL_select_next_proto(&selected, out_length, http11, sizeof(http11) - 1, offered, offered_length) != OPENSSL_NPN_NEGOTIATED) {
        return SSL_TLSEXT_ERR_NOACK;
    }
    *out = selected;
    return SSL_TLSEXT_ERR_OK;
}

SSL_CTX *frugal_tls_server_context(X509 *leaf, EVP_PKEY *key) {
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (context == NULL) return NULL;
    int ok = SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION)
        && SSL_CTX_use_certificate(context, leaf) == 1
        && SSL_CTX_use_PrivateKey(context, key) == 1
        && SSL_CTX_check_private_key(context) == 1;
    if (!ok) {
        SSL_CTX_free(context);
        return NULL;
    }
    SSL_CTX_set_alpn_select_cb(context, select_http11, NULL);
    return context;
}

SSL *frugal_tls_new_server(SSL_CTX *context, BIO **read_bio, BIO **write_bio) {
    SSL *ssl = SSL_new(context);
    if (ssl == NULL) return NULL;
    BIO *in = BIO_new(BIO_s_mem()), *out = BIO_new(BIO_s_mem());
    if (in == NULL || out == NULL) {
        BIO_free(in);
        BIO_free(out);
        SSL_free(ssl);
        return NULL;
    }
    BIO_set_mem_eof_return(in, -1);
    BIO_set_mem_eof_return(out, -1);
    SSL_set_bio(ssl, in, out);
    SSL_set_accept_state(ssl);
    *read_bio = in;
    *write_bio = out;
    return ssl;
}

unsigned long frugal_tls_drain_errors(char *buffer, size_t size) {
    unsigned long first = 0, error;
    size_t used = 0;
    if (size > 0) buffer[0] = 0;
    while ((error = ERR_get_error()) != 0) {
        if (first == 0) first = error;
        if (size == 0 || used + 1 >= size) continue;
        if (used > 0 && used + 3 < size) {
            memcpy(buffer + used, "; ", 3);
            used += 2;
        }
        ERR_error_string_n(error, buffer + used, size - used);
        used += strlen(buffer + used);
    }
    return first;
}
