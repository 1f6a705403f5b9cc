/* The one-shot SHA256_* functions are deprecated in OpenSSL 3 but are the fastest path (SHA-NI)
   and avoid EVP's per-call provider fetch, which dominates for 32-byte inputs. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
