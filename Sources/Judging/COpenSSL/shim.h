// The one place rcpt includes OpenSSL 3. Only ReceiptCrypto imports this module.
#ifndef RCPT_COPENSSL_SHIM_H
#define RCPT_COPENSSL_SHIM_H

#include <openssl/opensslv.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/x509_vfy.h>
#include <openssl/cms.h>
#include <openssl/pkcs7.h>
#include <openssl/crypto.h>

/// OPENSSL_free is a macro; Swift needs a function.
static inline void rcpt_openssl_free(void *pointer) { OPENSSL_free(pointer); }

/// BIO_get_mem_data is a macro; Swift needs a function.
static inline long rcpt_bio_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

// ---- ReceiptCrypto helpers: OpenSSL macros and type-safe STACK_OF(X509) wrappers Swift cannot import. ----

/// XN_FLAG_RFC2253 without ASN1_STRFLGS_ESC_MSB, so non-ASCII names print as UTF-8 instead of \XX escapes.
static inline unsigned long rcpt_xn_flag_rfc2253_utf8(void) { return XN_FLAG_RFC2253 & ~ASN1_STRFLGS_ESC_MSB; }

/// sk_X509_new_null is a macro; Swift needs a function.
static inline STACK_OF(X509) *rcpt_sk_X509_new_null(void) { return sk_X509_new_null(); }

/// sk_X509_push is a macro; Swift needs a function. Does not take a reference on `certificate`.
static inline int rcpt_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate);
}

/// sk_X509_num is a macro; Swift needs a function.
static inline int rcpt_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }

/// sk_X509_value is a macro; Swift needs a function.
static inline X509 *rcpt_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }

/// sk_X509_free is a macro; Swift needs a function. Frees the stack only, not the certificates.
static inline void rcpt_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }

/// True when `error` (from ERR_peek_last_error) is PEM's "no start line", i.e. PEM_read_bio reached the end of input.
static inline int rcpt_err_is_pem_no_start_line(unsigned long error) {
    return ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE;
}

/// X509_STORE_CTX_set_app_data is a macro; Swift needs a function.
static inline int rcpt_x509_store_ctx_set_app_data(X509_STORE_CTX *context, void *data) {
    return X509_STORE_CTX_set_ex_data(context, 0, data);
}

/// X509_STORE_CTX_get_app_data is a macro; Swift needs a function.
static inline void *rcpt_x509_store_ctx_get_app_data(X509_STORE_CTX *context) {
    return X509_STORE_CTX_get_ex_data(context, 0);
}

#endif

// ---- OpenSSLCMSOracle helpers (appended for the differential fuzz harness; own include guard). ----
#ifndef RCPT_COPENSSL_CMS_ORACLE_HELPERS
#define RCPT_COPENSSL_CMS_ORACLE_HELPERS

#include <openssl/cms.h>
#include <openssl/err.h>
#include <openssl/objects.h>

/// The eContent OCTET STRING of a decoded SignedData ContentInfo, or NULL when it is detached or not SignedData.
static inline const ASN1_OCTET_STRING *rcpt_cms_signed_econtent(CMS_ContentInfo *cms) {
    if (OBJ_obj2nid(CMS_get0_type(cms)) != NID_pkcs7_signed) return NULL;
    ASN1_OCTET_STRING **position = CMS_get0_content(cms);
    return position == NULL ? NULL : *position;
}

/// Whether ERR_get_error_all's `flags` say its `data` is a string.
static inline int rcpt_err_data_is_string(int flags) { return (flags & ERR_TXT_STRING) != 0; }

#endif
