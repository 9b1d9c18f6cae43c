// zlib's declarations only: signalpath does not link libz but opens it when it first writes a PNG
// (Sources/SignalPathKit/Support/Deflate.swift). Each function it calls gets a pointer type here,
// taken from the header's own declaration, so the symbols dlsym returns are called with the exact
// C signatures.
#include <zlib.h>

#define SP_ZLIB_FN(name) typedef __typeof__(name) *sp_##name##_fn;

SP_ZLIB_FN(deflateInit2_)
SP_ZLIB_FN(deflate)
SP_ZLIB_FN(deflateEnd)
SP_ZLIB_FN(deflateBound)
SP_ZLIB_FN(crc32)
SP_ZLIB_FN(zlibVersion)
