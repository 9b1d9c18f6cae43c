// The C face of signalpath's TagLib shim (ReplayGainTags.cpp), a shared object of its own that
// `replaygain` opens with dlopen (Sources/SignalPathKit/Tagging/TagLibrary.swift): TagLib 1.13's C
// binding cannot name a TXXX frame or an MP4 freeform atom, so a few C++ lines do it.
#ifndef SIGNALPATH_TAGLIB_H
#define SIGNALPATH_TAGLIB_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Which tag a file's fields live in: FLAC's Vorbis comment, an Ogg Vorbis or Opus comment header,
/// an MP3's ID3v2 TXXX frames (and its APEv2 items when it has an APEv2 tag), an MP4's freeform atoms.
enum sp_tag_container {
    SP_TAG_FLAC = 1,
    SP_TAG_OGG_VORBIS = 2,
    SP_TAG_OGG_OPUS = 3,
    SP_TAG_MPEG = 4,
    SP_TAG_MP4 = 5,
};

/// What went wrong (0: nothing).
enum sp_tag_status {
    SP_TAG_OK = 0,
    /// TagLib could not parse the file as the container named.
    SP_TAG_UNREADABLE = 1,
    /// The file could not be opened for writing.
    SP_TAG_READ_ONLY = 2,
    /// TagLib failed to write the file.
    SP_TAG_SAVE_FAILED = 3,
};

typedef void (*sp_tag_visitor)(void *context, const char *key, const char *value);

/// Calls `visit` with every field of the container's tag (for an MP4 every freeform `----` atom, by
/// its full name; for an MP3 every TXXX frame by its description, then every APEv2 item), the first
/// value of each. `message` (of `message_size` bytes) receives TagLib's complaint on failure.
int sp_tag_read(const char *path, int container, sp_tag_visitor visit, void *context, char *message, size_t message_size);

/// Removes every field whose key equals one of `removed` regardless of case, then adds `keys[i]` =
/// `values[i]`, and saves. An MP3 keeps its ID3v2 version (v2.4 when it has none) and its other
/// tags; an APEv2 tag it has gets the same changes.
int sp_tag_write(
    const char *path, int container, const char *const *removed, int removed_count, const char *const *keys,
    const char *const *values, int count, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif

#endif
