// The TagLib shim's declarations only: signalpath does not link the shim (or TagLib) but opens
// libSignalPathTagLib.so when `replaygain` first writes a tag
// (Sources/SignalPathKit/Tagging/TagLibrary.swift). Each function gets a pointer type taken from
// its declaration, so the symbols dlsym returns are called with the exact C signatures.
#include "../SignalPathTagLib/include/SignalPathTagLib.h"

#define SP_TAG_FN(name) typedef __typeof__(name) *name##_fn;

SP_TAG_FN(sp_tag_read)
SP_TAG_FN(sp_tag_write)
