// Chromaprint's declarations only: signalpath does not link libchromaprint but opens it when it
// first computes a fingerprint (Sources/SignalPathKit/Analysis/Identity/Chromaprint.swift). Each function it
// calls gets a pointer type here, taken from the header's own declaration, so the symbols dlsym
// returns are called with the exact C signatures.
#include <chromaprint.h>

#define SP_CHROMAPRINT_FN(name) typedef __typeof__(name) *sp_##name##_fn;

SP_CHROMAPRINT_FN(chromaprint_new)
SP_CHROMAPRINT_FN(chromaprint_free)
SP_CHROMAPRINT_FN(chromaprint_start)
SP_CHROMAPRINT_FN(chromaprint_feed)
SP_CHROMAPRINT_FN(chromaprint_finish)
SP_CHROMAPRINT_FN(chromaprint_get_fingerprint)
SP_CHROMAPRINT_FN(chromaprint_get_raw_fingerprint)
SP_CHROMAPRINT_FN(chromaprint_dealloc)
