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

#endif
