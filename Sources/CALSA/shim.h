#include <alsa/asoundlib.h>

// alsa-lib prints its own diagnostics to stderr; signalpath reports one line per failure itself.
// (A variadic C handler cannot be written in Swift, hence this shim.)
static void signalpath_alsa_silent(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

static inline void signalpath_alsa_quiet(void) {
    snd_lib_error_set_handler(signalpath_alsa_silent);
}
