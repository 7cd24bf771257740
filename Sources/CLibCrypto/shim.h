/* The low-level SHA-256 functions are deprecated in OpenSSL 3 in favour of EVP, but they are the
   same implementation without EVP's per-call algorithm lookup. */
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/sha.h>
#include <openssl/evp.h>

/* SHA-256 of `count` bytes into `digest` (32 bytes). OpenSSL 3's one-shot SHA256() goes through
   EVP_Q_digest, which looks the algorithm up by name and allocates a context on every call: about
   3% of a migration's CPU at two calls per record (digesting, then verifying). */
static inline void storekeep_sha256(const unsigned char *bytes, size_t count, unsigned char *digest) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, bytes, count);
    SHA256_Final(digest, &context);
}
