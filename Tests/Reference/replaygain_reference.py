#!/usr/bin/env python3
"""Material and independent readings for `signalpath replaygain`'s tests (ReplayGainCLITests).

    python3 Tests/Reference/replaygain_reference.py make OUTDIR
        Encodes two short tracks of different loudness with each real encoder (flac, lame, oggenc,
        ffmpeg's AAC in M4A, opusenc), with a title and, where the format holds one, a cover
        picture, into OUTDIR/FORMAT/; prints JSON per file: the decoded audio's loudness
        (ffmpeg's decode, BS.1770 in numpy), its sample peak and MD5 (ffmpeg -f md5), and per format
        the album's loudness: both tracks' 400 ms gating blocks gated together (numpy and scipy:
        BS.1770's filter re-derived as libebur128 does, the gating by the Recommendation), checked
        against pyloudnorm for each track alone.
    python3 Tests/Reference/replaygain_reference.py read FILE...
        Prints JSON per file: its tags as mutagen reads them (keys upper-cased, MP4 freeform atoms
        without the ----:com.apple.iTunes: prefix), its pictures, and the decoded audio's MD5.
    python3 Tests/Reference/replaygain_reference.py opus-gain SOURCE TARGET DB
        Copies an Ogg Opus file with its header's output gain set to DB (RFC 7845 §5.1, Q7.8) and
        the first page's CRC made again; prints the decoded copy's loudness (ffmpeg applies the gain).
"""
import json, os, subprocess, sys
import numpy as np
import scipy.signal
import pyloudnorm
import mutagen
from mutagen.flac import FLAC

RATE = 44100


def decode(path):
    """ffmpeg's decode, float32 interleaved (header output gain applied, as players do)."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", path, "-f", "f32le", "-"], capture_output=True, check=True).stdout
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "a:0", "-show_entries", "stream=channels,sample_rate",
                            "-of", "json", path], capture_output=True, check=True, text=True).stdout
    stream = json.loads(probe)["streams"][0]
    return np.frombuffer(raw, dtype=np.float32).reshape(-1, int(stream["channels"])).astype(np.float64), int(stream["sample_rate"])


def md5(path):
    out = subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", path, "-map", "0:a", "-f", "md5", "-"], capture_output=True, check=True, text=True)
    return out.stdout.strip()


def k_weighting(rate):
    """BS.1770's pre-filter re-derived for `rate` from its analogue prototype (the shelf's and the
    high-pass's f0, gain and Q fitted to the Recommendation's 48 kHz coefficients, as libebur128
    derives them): one (b, a) of fourth order."""
    f0, gain, q = 1681.974450955533, 3.999843853973347, 0.7071752369554196
    k = np.tan(np.pi * f0 / rate)
    vh = 10 ** (gain / 20)
    vb = vh ** 0.4996667741545416
    a0 = 1 + k / q + k * k
    shelf_b = [(vh + vb * k / q + k * k) / a0, 2 * (k * k - vh) / a0, (vh - vb * k / q + k * k) / a0]
    shelf_a = [1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0]
    f0, q = 38.13547087602444, 0.5003270373238773
    k = np.tan(np.pi * f0 / rate)
    a0 = 1 + k / q + k * k
    pass_b = [1, -2, 1]
    pass_a = [1, 2 * (k * k - 1) / a0, (1 - k / q + k * k) / a0]
    return np.convolve(shelf_b, pass_b), np.convolve(shelf_a, pass_a)


def gating_blocks(samples, rate):
    """Mean squares (channel-summed, weights 1) of 400 ms blocks stepping 100 ms, K-weighted."""
    b, a = k_weighting(rate)
    weighted = scipy.signal.lfilter(b, a, samples, axis=0)
    block, step = int(round(0.4 * rate)), int(round(0.1 * rate))
    count = (len(weighted) - block) // step + 1
    return np.array([np.sum(np.mean(weighted[i * step:i * step + block] ** 2, axis=0)) for i in range(count)])


def gated(blocks):
    loud = -0.691 + 10 * np.log10(blocks)
    above = blocks[loud > -70]
    gate = -0.691 + 10 * np.log10(np.mean(above)) - 10
    kept = above[(-0.691 + 10 * np.log10(above)) > gate]
    return -0.691 + 10 * np.log10(np.mean(kept))


def make(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(43)
    seconds = 5
    n = seconds * RATE
    t = np.arange(n) / RATE
    tracks = []
    for index, level in enumerate([0.5, 0.12]):
        # Chords with a tremolo and noise, a quiet passage in the middle (gating matters).
        tone = sum(np.sin(2 * np.pi * f * t + p) for f, p in [(220, 0), (277.18, 1), (329.63, 2), (55 * (index + 2), 0.5)])
        envelope = np.where((t > 2) & (t < 3), 0.05, 1.0) * (0.75 + 0.25 * np.sin(2 * np.pi * 3 * t))
        left = level * (0.2 * tone * envelope + 0.1 * rng.standard_normal(n) * envelope)
        right = level * (0.2 * np.roll(tone, 50) * envelope + 0.1 * rng.standard_normal(n) * envelope)
        stereo = np.clip(np.stack([left, right], axis=1), -1, 1)
        path = os.path.join(out, f"source{index + 1}.wav")
        import soundfile
        soundfile.write(path, stereo, RATE, subtype="PCM_16")
        tracks.append(path)
    cover = os.path.join(out, "cover.png")
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "color=c=red:s=32x32", "-frames:v", "1", cover], check=True)
    encoders = {
        "flac": lambda src, dst, title: [["flac", "-s", "-f", "--picture", cover, "-T", f"TITLE={title}", src, "-o", dst]],
        "mp3": lambda src, dst, title: [["lame", "--quiet", "--tt", title, "--ti", cover, src, dst]],
        "ogg": lambda src, dst, title: [["oggenc", "-Q", "-t", title, src, "-o", dst]],
        "m4a": lambda src, dst, title: [["ffmpeg", "-v", "error", "-nostdin", "-y", "-i", src, "-c:a", "aac", "-b:a", "128k", "-metadata", f"title={title}", dst]],
        "opus": lambda src, dst, title: [["opusenc", "--quiet", "--title", title, "--picture", cover, src, dst]],
    }
    facts = {"files": {}, "albums": {}}
    for kind, commands in encoders.items():
        os.makedirs(os.path.join(out, kind), exist_ok=True)
        blocks = []
        for index, source in enumerate(tracks):
            path = os.path.join(out, kind, f"track{index + 1}.{kind}")
            for command in commands(source, path, f"Track {index + 1}"):
                subprocess.run(command, check=True)
            samples, rate = decode(path)
            own = gating_blocks(samples, rate)
            reference = pyloudnorm.Meter(rate).integrated_loudness(samples)
            # pyloudnorm's filter is BS.1770's only approximately (its shelf at 1.5 kHz): a sanity check.
            assert abs(gated(own) - reference) < 0.15, (path, gated(own), reference)
            blocks.append(own)
            facts["files"][path] = {"lufs": gated(own), "pyloudnorm_lufs": reference, "sample_peak": float(np.max(np.abs(samples))), "md5": md5(path)}
        facts["albums"][kind] = {"lufs": gated(np.concatenate(blocks)), "peak": max(facts["files"][os.path.join(out, kind, f"track{i + 1}.{kind}")]["sample_peak"] for i in range(2))}
    print(json.dumps(facts))


def read(paths):
    result = {}
    for path in paths:
        audio = mutagen.File(path)
        tags = {}
        for key, value in (audio.tags.items() if audio.tags is not None else []):
            if key.startswith("APIC") or key == "covr" or key.lower() == "metadata_block_picture":
                continue
            name = str(key)
            if name.startswith("TXXX:"):
                name = name[5:]
            if name.startswith("----:com.apple.iTunes:"):
                name = name[len("----:com.apple.iTunes:"):]
            text = value.text[0] if hasattr(value, "text") else value[0]
            if isinstance(text, bytes):
                text = text.decode()
            tags.setdefault(name.upper(), []).append(str(text))
        pictures = 0
        if isinstance(audio, FLAC):
            pictures = len(audio.pictures)
        elif audio.tags is not None:
            pictures = len([k for k in audio.tags.keys() if str(k).startswith("APIC")]) + len(audio.tags.get("covr", [])) \
                + len(audio.tags.get("metadata_block_picture", []) if hasattr(audio.tags, "get") else [])
        raw_keys = [str(k) for k in audio.tags.keys()] if audio.tags is not None else []
        result[path] = {"tags": tags, "raw_keys": raw_keys, "pictures": pictures, "md5": md5(path),
                        "id3_version": list(audio.tags.version) if hasattr(audio.tags, "version") else None}
    print(json.dumps(result))


def opus_gain(source, target, decibels):
    import struct
    data = bytearray(open(source, "rb").read())
    segments = data[26]
    payload = 27 + segments
    assert data[:4] == b"OggS" and data[payload:payload + 8] == b"OpusHead"
    struct.pack_into("<h", data, payload + 16, int(round(decibels * 256)))
    # Ogg's CRC-32: polynomial 0x04c11db7, not reflected, over the page with its CRC field zeroed.
    table = []
    for index in range(256):
        register = index << 24
        for _ in range(8):
            register = ((register << 1) ^ 0x04C11DB7) if register & 0x80000000 else (register << 1)
        table.append(register & 0xFFFFFFFF)
    size = payload + sum(data[27:27 + segments])
    data[22:26] = b"\0\0\0\0"
    crc = 0
    for byte in data[:size]:
        crc = ((crc << 8) ^ table[((crc >> 24) & 0xFF) ^ byte]) & 0xFFFFFFFF
    struct.pack_into("<I", data, 22, crc)
    open(target, "wb").write(data)
    samples, rate = decode(target)
    print(json.dumps({"lufs": gated(gating_blocks(samples, rate))}))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    elif sys.argv[1] == "opus-gain":
        opus_gain(sys.argv[2], sys.argv[3], float(sys.argv[4]))
    else:
        read(sys.argv[2:])
