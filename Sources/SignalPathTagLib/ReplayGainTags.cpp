// signalpath's TagLib shim: sets and removes named fields in the one tag each container's players
// read, and reads them back. Opened with dlopen by `replaygain` only (TagLibrary.swift says why);
// which fields and in which spelling is decided on the Swift side (ReplayGainTagSet.swift).
#include "SignalPathTagLib.h"

#include <taglib/apetag.h>
#include <taglib/flacfile.h>
#include <taglib/id3v2header.h>
#include <taglib/id3v2tag.h>
#include <taglib/mp4file.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/tdebuglistener.h>
#include <taglib/tfilestream.h>
#include <taglib/textidentificationframe.h>
#include <taglib/vorbisfile.h>
#include <taglib/xiphcomment.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

// TagLib reports problems through one process-wide listener (by default onto standard error,
// which is the command's diagnostics channel): its messages are kept per thread instead, and the
// last one becomes the error's reason.
thread_local std::string lastMessage;

class MessageKeeper : public TagLib::DebugListener {
public:
    void printMessage(const TagLib::String &message) override {
        lastMessage = message.to8Bit(true);
        while (!lastMessage.empty() && (lastMessage.back() == '\n' || lastMessage.back() == ' ')) lastMessage.pop_back();
    }
};

MessageKeeper keeper;
std::once_flag listening;

int fail(int status, const char *fallback, char *message, size_t size) {
    if (message && size > 0) {
        const std::string &text = lastMessage.empty() ? std::string(fallback) : lastMessage;
        std::strncpy(message, text.c_str(), size - 1);
        message[size - 1] = 0;
    }
    return status;
}

bool sameKey(const TagLib::String &a, const TagLib::String &b) { return a.upper() == b.upper(); }

bool isRemoved(const TagLib::String &key, const std::vector<TagLib::String> &removed) {
    for (const auto &name : removed)
        if (sameKey(key, name)) return true;
    return false;
}

std::vector<TagLib::String> strings(const char *const *values, int count) {
    std::vector<TagLib::String> result;
    for (int index = 0; index < count; index++) result.emplace_back(values[index], TagLib::String::UTF8);
    return result;
}

void visitXiph(const TagLib::Ogg::XiphComment *comment, sp_tag_visitor visit, void *context) {
    if (!comment) return;
    for (const auto &field : comment->fieldListMap())
        if (!field.second.isEmpty()) visit(context, field.first.toCString(true), field.second.front().toCString(true));
}

void changeXiph(
    TagLib::Ogg::XiphComment *comment, const std::vector<TagLib::String> &removed, const std::vector<TagLib::String> &keys,
    const std::vector<TagLib::String> &values) {
    // Field names are case-insensitive (TagLib keeps them upper-cased): removing by name removes every spelling.
    for (const auto &name : removed) comment->removeFields(name.upper());
    for (size_t index = 0; index < keys.size(); index++) comment->addField(keys[index], values[index], true);
}

void changeID3v2(
    TagLib::ID3v2::Tag *tag, const std::vector<TagLib::String> &removed, const std::vector<TagLib::String> &keys,
    const std::vector<TagLib::String> &values) {
    const TagLib::ID3v2::FrameList frames = tag->frameList("TXXX");
    for (auto *frame : frames) {
        auto *text = dynamic_cast<TagLib::ID3v2::UserTextIdentificationFrame *>(frame);
        if (text && isRemoved(text->description(), removed)) tag->removeFrame(frame, true);
    }
    for (size_t index = 0; index < keys.size(); index++)
        tag->addFrame(new TagLib::ID3v2::UserTextIdentificationFrame(keys[index], TagLib::StringList(values[index]), TagLib::String::Latin1));
}

void changeAPE(
    TagLib::APE::Tag *tag, const std::vector<TagLib::String> &removed, const std::vector<TagLib::String> &keys,
    const std::vector<TagLib::String> &values) {
    std::vector<TagLib::String> present;
    for (const auto &item : tag->itemListMap())
        if (isRemoved(item.first, removed)) present.push_back(item.first);
    for (const auto &key : present) tag->removeItem(key);
    for (size_t index = 0; index < keys.size(); index++) tag->addValue(keys[index], values[index], true);
}

void changeMP4(
    TagLib::MP4::Tag *tag, const std::vector<TagLib::String> &removed, const std::vector<TagLib::String> &keys,
    const std::vector<TagLib::String> &values) {
    std::vector<TagLib::String> present;
    for (const auto &item : tag->itemMap())
        if (isRemoved(item.first, removed)) present.push_back(item.first);
    for (const auto &key : present) tag->removeItem(key);
    for (size_t index = 0; index < keys.size(); index++) tag->setItem(keys[index], TagLib::MP4::Item(TagLib::StringList(values[index])));
}

// TagLib's FileStream moves the rest of the file in steps of 1 KiB, each a seek, a read, a seek and a
// write, when a tag grows or shrinks (a FLAC file without padding, an MP3 given its first ID3v2
// tag): megabytes of audio in thousands of system calls. The same moves in steps of 1 MiB.
class WideStream : public TagLib::FileStream {
public:
    explicit WideStream(const char *path) : TagLib::FileStream(path) {}

    void insert(const TagLib::ByteVector &data, unsigned long start, unsigned long replace) override {
        if (data.size() <= replace) {
            seek(static_cast<long>(start));
            writeBlock(data);
            if (data.size() < replace) removeBlock(start + data.size(), replace - data.size());
            return;
        }
        // Leapfrog forward as TagLib does: each step holds the bytes the previous write covered.
        unsigned long step = std::max<unsigned long>(moveStep, data.size() - replace);
        long readAt = static_cast<long>(start + replace), writeAt = static_cast<long>(start);
        TagLib::ByteVector pending = data;
        while (true) {
            seek(readAt);
            TagLib::ByteVector covered = readBlock(step);
            readAt += static_cast<long>(step);
            if (covered.size() < step) clear();
            seek(writeAt);
            writeBlock(pending);
            if (covered.isEmpty()) break;
            writeAt += static_cast<long>(pending.size());
            pending = covered;
        }
    }

    void removeBlock(unsigned long start, unsigned long length) override {
        if (length == 0) return;
        long readAt = static_cast<long>(start + length), writeAt = static_cast<long>(start);
        while (true) {
            seek(readAt);
            const TagLib::ByteVector moved = readBlock(moveStep);
            if (moved.isEmpty()) break;
            readAt += static_cast<long>(moved.size());
            seek(writeAt);
            writeBlock(moved);
            writeAt += static_cast<long>(moved.size());
            if (moved.size() < moveStep) break;
        }
        clear();
        truncate(writeAt);
    }

private:
    static constexpr unsigned long moveStep = 1 << 20;
};

// A TagLib file over the stream it reads and writes through; the file does not own a stream it is
// given, so the stream is declared first and outlives it.
struct OpenFile {
    WideStream stream;
    std::unique_ptr<TagLib::File> file;

    OpenFile(const char *path, int container) : stream(path) {
        auto *frames = TagLib::ID3v2::FrameFactory::instance();
        switch (container) {
        case SP_TAG_FLAC: file = std::make_unique<TagLib::FLAC::File>(&stream, frames); break;
        case SP_TAG_OGG_VORBIS: file = std::make_unique<TagLib::Ogg::Vorbis::File>(&stream); break;
        case SP_TAG_OGG_OPUS: file = std::make_unique<TagLib::Ogg::Opus::File>(&stream); break;
        case SP_TAG_MPEG: file = std::make_unique<TagLib::MPEG::File>(&stream, frames); break;
        case SP_TAG_MP4: file = std::make_unique<TagLib::MP4::File>(&stream); break;
        default: break;
        }
    }
};

}  // namespace

extern "C" int sp_tag_read(const char *path, int container, sp_tag_visitor visit, void *context, char *message, size_t message_size) {
    std::call_once(listening, [] { TagLib::setDebugListener(&keeper); });
    lastMessage.clear();
    OpenFile opened(path, container);
    auto &file = opened.file;
    if (!opened.stream.isOpen() || !file || !file->isValid()) return fail(SP_TAG_UNREADABLE, "TagLib cannot read the file", message, message_size);
    switch (container) {
    case SP_TAG_FLAC: visitXiph(static_cast<TagLib::FLAC::File *>(file.get())->xiphComment(false), visit, context); break;
    case SP_TAG_OGG_VORBIS:
    case SP_TAG_OGG_OPUS: visitXiph(static_cast<TagLib::Ogg::XiphComment *>(file->tag()), visit, context); break;
    case SP_TAG_MPEG: {
        auto *mpeg = static_cast<TagLib::MPEG::File *>(file.get());
        if (auto *tag = mpeg->ID3v2Tag(false)) {
            for (auto *frame : tag->frameList("TXXX")) {
                auto *text = dynamic_cast<TagLib::ID3v2::UserTextIdentificationFrame *>(frame);
                if (!text) continue;
                const TagLib::StringList fields = text->fieldList();
                // The first field is the description, the rest the values.
                visit(context, text->description().toCString(true), fields.size() > 1 ? fields[1].toCString(true) : "");
            }
        }
        if (auto *tag = mpeg->APETag(false))
            for (const auto &item : tag->itemListMap()) visit(context, item.first.toCString(true), item.second.toString().toCString(true));
        break;
    }
    case SP_TAG_MP4:
        if (auto *tag = static_cast<TagLib::MP4::File *>(file.get())->tag())
            for (const auto &item : tag->itemMap()) {
                if (!item.first.startsWith("----:")) continue;
                const TagLib::StringList texts = item.second.toStringList();
                visit(context, item.first.toCString(true), texts.isEmpty() ? "" : texts.front().toCString(true));
            }
        break;
    }
    return SP_TAG_OK;
}

extern "C" int sp_tag_write(
    const char *path, int container, const char *const *removed_names, int removed_count, const char *const *key_names,
    const char *const *value_texts, int count, char *message, size_t message_size) {
    std::call_once(listening, [] { TagLib::setDebugListener(&keeper); });
    lastMessage.clear();
    const auto removed = strings(removed_names, removed_count);
    const auto keys = strings(key_names, count), values = strings(value_texts, count);
    OpenFile opened(path, container);
    auto &file = opened.file;
    if (!opened.stream.isOpen() || !file || !file->isValid()) return fail(SP_TAG_UNREADABLE, "TagLib cannot read the file", message, message_size);
    if (file->readOnly()) return fail(SP_TAG_READ_ONLY, "the file cannot be opened for writing", message, message_size);
    bool saved = false;
    switch (container) {
    case SP_TAG_FLAC: {
        auto *flac = static_cast<TagLib::FLAC::File *>(file.get());
        changeXiph(flac->xiphComment(true), removed, keys, values);
        saved = flac->save();
        break;
    }
    case SP_TAG_OGG_VORBIS:
    case SP_TAG_OGG_OPUS:
        changeXiph(static_cast<TagLib::Ogg::XiphComment *>(file->tag()), removed, keys, values);
        saved = file->save();
        break;
    case SP_TAG_MPEG: {
        auto *mpeg = static_cast<TagLib::MPEG::File *>(file.get());
        // A file's ID3v2 version is kept: rewriting a v2.3 tag as v2.4 would convert its other frames.
        const bool hadID3v2 = mpeg->hasID3v2Tag();
        auto *tag = mpeg->ID3v2Tag(true);
        const auto version = hadID3v2 && tag->header()->majorVersion() == 3 ? TagLib::ID3v2::v3 : TagLib::ID3v2::v4;
        changeID3v2(tag, removed, keys, values);
        int tags = TagLib::MPEG::File::ID3v2;
        // An APEv2 tag (mp3gain's place for these fields) gets the same fields, so that no player reads stale ones.
        if (mpeg->hasAPETag()) {
            changeAPE(mpeg->APETag(false), removed, keys, values);
            tags |= TagLib::MPEG::File::APE;
        }
        if (mpeg->hasID3v1Tag()) tags |= TagLib::MPEG::File::ID3v1;
        saved = mpeg->save(tags, TagLib::File::StripNone, version, TagLib::File::DoNotDuplicate);
        break;
    }
    case SP_TAG_MP4:
        changeMP4(static_cast<TagLib::MP4::File *>(file.get())->tag(), removed, keys, values);
        saved = file->save();
        break;
    }
    if (!saved) return fail(SP_TAG_SAVE_FAILED, "TagLib could not save the tags", message, message_size);
    return SP_TAG_OK;
}
