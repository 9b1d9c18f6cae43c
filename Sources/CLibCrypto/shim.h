// OpenSSL libcrypto's declarations only: signalpath does not link libcrypto but opens it when it
// first computes a digest (Sources/SignalPathKit/Support/MessageDigest.swift). Each function it
// calls gets a pointer type here, taken from the header's own declaration, so the symbols dlsym
// returns are called with the exact C signatures.
#include <openssl/evp.h>

#define SP_CRYPTO_FN(name) typedef __typeof__(name) *sp_##name##_fn;

SP_CRYPTO_FN(EVP_MD_fetch)
SP_CRYPTO_FN(EVP_MD_CTX_new)
SP_CRYPTO_FN(EVP_MD_CTX_free)
SP_CRYPTO_FN(EVP_DigestInit_ex)
SP_CRYPTO_FN(EVP_DigestUpdate)
SP_CRYPTO_FN(EVP_DigestFinal_ex)
