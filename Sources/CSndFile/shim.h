// libsndfile's declarations only: signalpath does not link libsndfile (nor the eight codec
// libraries it brings) but opens it when a file first needs it (Sources/SignalPathKit/Decoding/
// SndFile.swift). Each function it calls gets a pointer type here, taken from the header's own
// declaration, so the symbols dlsym returns are called with the exact C signatures.
#include <sndfile.h>

#define SP_SNDFILE_FN(name) typedef __typeof__(name) *sp_##name##_fn;

SP_SNDFILE_FN(sf_open)
SP_SNDFILE_FN(sf_open_virtual)
SP_SNDFILE_FN(sf_close)
SP_SNDFILE_FN(sf_seek)
SP_SNDFILE_FN(sf_readf_float)
SP_SNDFILE_FN(sf_writef_short)
SP_SNDFILE_FN(sf_writef_int)
SP_SNDFILE_FN(sf_writef_float)
SP_SNDFILE_FN(sf_error)
SP_SNDFILE_FN(sf_error_number)
SP_SNDFILE_FN(sf_strerror)
SP_SNDFILE_FN(sf_command)
SP_SNDFILE_FN(sf_get_string)
SP_SNDFILE_FN(sf_format_check)
