#include <secp256k1.h>
#include <secp256k1_ecdh.h>
#include <secp256k1_extrakeys.h>
#include <secp256k1_schnorrsig.h>
#include <secp256k1_recovery.h>
#include <string.h>

/* ECDH hash callback that returns the x coordinate unhashed (NIP-44 needs it raw). */
static inline int invitekit_ecdh_copy_x(unsigned char *output, const unsigned char *x32,
                                        const unsigned char *y32, void *data) {
    (void)y32; (void)data;
    memcpy(output, x32, 32);
    return 1;
}
static inline secp256k1_ecdh_hash_function invitekit_ecdh_copy_x_fn(void) { return invitekit_ecdh_copy_x; }
