// alsa-lib's declarations only: signalpath does not link libasound but opens it when `replay` or
// `record` first opens a device (Sources/SignalPathKit/Live/ALSADevice.swift). Each function it
// calls gets a pointer type here, taken from the header's own declaration, so the symbols dlsym
// returns are called with the exact C signatures.
#include <alsa/asoundlib.h>

#define SP_ALSA_FN(name) typedef __typeof__(name) *sp_##name##_fn;

SP_ALSA_FN(snd_pcm_open)
SP_ALSA_FN(snd_pcm_set_params)
SP_ALSA_FN(snd_pcm_close)
SP_ALSA_FN(snd_pcm_writei)
SP_ALSA_FN(snd_pcm_readi)
SP_ALSA_FN(snd_pcm_recover)
SP_ALSA_FN(snd_pcm_delay)
SP_ALSA_FN(snd_pcm_drop)
SP_ALSA_FN(snd_pcm_prepare)
SP_ALSA_FN(snd_strerror)
SP_ALSA_FN(snd_lib_error_set_handler)

// alsa-lib prints its own diagnostics to stderr; signalpath reports one line per failure itself.
// (A variadic C handler cannot be written in Swift, hence this shim.)
static void signalpath_alsa_silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void signalpath_alsa_quiet(sp_snd_lib_error_set_handler_fn set_handler) {
    set_handler(signalpath_alsa_silent);
}
