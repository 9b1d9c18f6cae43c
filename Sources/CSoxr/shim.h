// libsoxr's declarations only: signalpath does not link libsoxr but opens it when compare first
// resamples (Sources/SignalPathKit/Analysis/Compare/Resampler.swift). Each function it calls gets a pointer
// type here, taken from the header's own declaration, so the symbols dlsym returns are called with
// the exact C signatures.
#include <soxr.h>

#define SP_SOXR_FN(name) typedef __typeof__(name) *sp_##name##_fn;

SP_SOXR_FN(soxr_create)
SP_SOXR_FN(soxr_process)
SP_SOXR_FN(soxr_delete)
