#!/usr/bin/env python3
"""Real material for `duplicates`: a piece, its copies and transcodes, and unrelated files.

    python3 Tests/Reference/duplicate_material.py OUTDIR            # the test tree (DuplicatesCLITests)
    python3 Tests/Reference/duplicate_material.py OUTDIR --measure  # the threshold figures (docs/DUPLICATES.md)

The test tree: `piece.wav` (24 s of seeded synthesized music, 44.1 kHz 16-bit mono: a melody
and chords of plucked harmonic notes over noise-burst drums; fluidsynth would take 10 s of wall
time here, polling its player), `piece.flac` (flac), `piece.mp3` (lame, 128 kb/s),
`piece-cut.wav` (sox trim 3: the first 3 s gone) and `other.wav` (espeak-ng speech, 20 s).
Prints JSON: {"files": {name: path}}.

--measure makes 6 pieces, 2 espeak-ng voices and 2 sox-made signals (60 s each), and of each
piece an MP3 (lame 128 kb/s), an AAC (ffmpeg's aac, 128 kb/s), an Opus (opusenc 64 kb/s) and
copies cut 3 s and 7.5 s at the start; fpcalc -raw fingerprints them all, and every pair is
compared as `FingerprintMatcher` compares them: the bit error rate over the overlap at the best
offset (searched over all offsets), similarity = 1 - 2 * BER, and the items shared after the
low 4 bits are masked. Prints the figures for copies of one piece and for unrelated pairs.
"""
import itertools, json, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np
from authenticity_corpus import finish, write_midi

SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
RATE = 44100


def run(arguments):
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def piece(path, seed, seconds):
    import soundfile as sf
    rng = np.random.default_rng(seed)
    mid, raw = path + ".mid", path + ".raw.wav"
    write_midi(mid, seconds, rng)
    run(["fluidsynth", "-ni", "-q", "-F", raw, "-r", str(RATE), "-T", "wav", "-O", "float", "-g", "0.6", SOUNDFONT, mid])
    x, _ = sf.read(raw)
    finish(x[: int(seconds * RATE)], RATE, path, 16, rng)
    os.remove(mid)
    os.remove(raw)


def synthesized(path, seed, seconds, channels):
    """Plucked harmonic notes (a melody in eighths, a chord per bar) over kick and snare bursts."""
    import soundfile as sf
    rng = np.random.default_rng(seed)
    x = np.zeros((int((seconds + 4) * RATE), 2))
    beat = 60 / 112

    def pluck(start, midi, length, level, pan):
        n = int(length * RATE)
        t = np.arange(n) / RATE
        f = 440 * 2 ** ((midi - 69) / 12)
        tone = sum(np.sin(2 * np.pi * f * k * t) / k for k in range(1, 6)) * np.exp(-t * 3)
        i = int(start * RATE)
        x[i : i + n, 0] += level * (1 - pan) * tone
        x[i : i + n, 1] += level * pan * tone

    scale = [0, 2, 4, 5, 7, 9, 11]
    roots = [57, 53, 48, 55]
    for bar in range(int(seconds / (4 * beat)) + 1):
        root = roots[bar % 4]
        for note in (root, root + 4, root + 7):
            pluck(bar * 4 * beat, note - 12, 4 * beat, 0.12, 0.4)
        for eighth in range(8):
            pluck((bar * 8 + eighth) * beat / 2, root + 12 + scale[rng.integers(7)], beat, 0.2, 0.6)
        for beat_index in range(4):
            n = int(0.08 * RATE)
            i = int((bar * 4 + beat_index) * beat * RATE)
            burst = rng.normal(0, 0.15 if beat_index % 2 else 0.3, n) * np.exp(-np.arange(n) / (0.02 * RATE))
            x[i : i + n] += burst[:, None]
    finish(x[: int(seconds * RATE), :channels], RATE, path, 16, rng)


def test_tree(out):
    files = {name: os.path.join(out, name) for name in ("piece.wav", "piece.flac", "piece.mp3", "piece-cut.wav", "other.wav")}
    synthesized(files["piece.wav"], 4201, 24, 1)
    speech = files["other.wav"] + ".raw.wav"
    run(["espeak-ng", "-w", speech, "An unrelated recording: a voice reading a long sentence about archives, checksums and copies. " * 4])
    run(["sox", speech, "-r", str(RATE), "-c", "1", "-b", "16", files["other.wav"], "trim", "0", "20"])
    os.remove(speech)
    run(["flac", "-s", "-f", files["piece.wav"], "-o", files["piece.flac"]])
    run(["lame", "--silent", "-b", "128", files["piece.wav"], files["piece.mp3"]])
    run(["sox", files["piece.wav"], files["piece-cut.wav"], "trim", "3"])
    return {"files": files}


def raw_fingerprint(path):
    # fpcalc exits 3 after FFmpeg's "End of file" at the end of some WAVs, with its fingerprint printed.
    result = subprocess.run(["fpcalc", "-raw", "-json", path], capture_output=True, text=True)
    return np.array(json.loads(result.stdout)["fingerprint"], dtype=np.uint32)


def compare(a, b, minimum_overlap=80):
    """Best offset (b's item j against a's item j + offset) by bit error rate over the overlap."""
    best = (1.0, 0, 0)
    for offset in range(-(len(b) - minimum_overlap), len(a) - minimum_overlap + 1):
        start_b = max(0, -offset)
        start_a = start_b + offset
        count = min(len(a) - start_a, len(b) - start_b)
        x = a[start_a : start_a + count] ^ b[start_b : start_b + count]
        errors = int(np.unpackbits(x.view(np.uint8)).sum())
        ber = errors / (32 * count)
        if ber < best[0]:
            best = (ber, offset, count)
    return best


def shared_items(a, b, mask_bits=4):
    return len(set((a >> mask_bits).tolist()) & set((b >> mask_bits).tolist()))


def measure(out):
    sources = {}
    for index in range(6):
        sources[f"piece{index}"] = os.path.join(out, f"piece{index}.wav")
        if not os.path.exists(sources[f"piece{index}"]):  # fluidsynth takes ~10 s a piece: made once
            piece(sources[f"piece{index}"], 5100 + index, 60)
    for index, (voice, text) in enumerate([("en", "The quick brown fox jumps over the lazy dog. " * 12), ("de", "Zwei Boxkaempfer jagen Eva quer durch Sylt. " * 12)]):
        path = os.path.join(out, f"speech{index}.wav")
        run(["espeak-ng", "-v", voice, "-w", path + ".raw.wav", text])
        run(["sox", path + ".raw.wav", "-r", str(RATE), "-c", "2", "-b", "16", path, "trim", "0", "60"])
        sources[f"speech{index}"] = path
    for index, effect in enumerate([["synth", "60", "sine", "200-2000", "sine", "300-500", "pinknoise", "vol", "0.4"], ["synth", "60", "square", "110-880", "pinknoise", "tremolo", "0.7", "80", "vol", "0.4"]]):
        path = os.path.join(out, f"sox{index}.wav")
        run(["sox", "-R", "-n", "-r", str(RATE), "-c", "2", "-b", "16", path, *effect])
        sources[f"sox{index}"] = path
    copies = {}
    for name in [n for n in sources if n.startswith("piece")]:
        wav = sources[name]
        stem = wav[:-4]
        run(["lame", "--silent", "-b", "128", wav, stem + ".mp3"])
        run(["ffmpeg", "-v", "error", "-y", "-i", wav, "-c:a", "aac", "-b:a", "128k", stem + ".m4a"])
        run(["opusenc", "--quiet", "--bitrate", "64", wav, stem + ".opus"])
        run(["sox", wav, stem + "-cut3.wav", "trim", "3"])
        run(["sox", wav, stem + "-cut7.5.wav", "trim", "7.5"])
        copies[name] = {kind: stem + suffix for kind, suffix in [("mp3 128k", ".mp3"), ("aac 128k", ".m4a"), ("opus 64k", ".opus"), ("cut 3 s", "-cut3.wav"), ("cut 7.5 s", "-cut7.5.wav")]}
    prints = {path: raw_fingerprint(path) for path in list(sources.values()) + [p for c in copies.values() for p in c.values()]}
    same = []
    for name, kinds in copies.items():
        for kind, path in kinds.items():
            ber, offset, count = compare(prints[sources[name]], prints[path])
            same.append({"source": name, "copy": kind, "ber": round(ber, 4), "similarity": round(1 - 2 * ber, 4),
                         "offset_s": round(-offset * 4096 / 3 / 11025, 3), "overlap_items": count,
                         "shared_items": shared_items(prints[sources[name]], prints[path])})
    unrelated = []
    everything = list(sources.values()) + [copies[n]["mp3 128k"] for n in copies]
    for a, b in itertools.combinations(everything, 2):
        stem_a, stem_b = os.path.basename(a).split(".")[0], os.path.basename(b).split(".")[0]
        if stem_a == stem_b:
            continue
        ber, offset, count = compare(prints[a], prints[b])
        unrelated.append({"a": os.path.basename(a), "b": os.path.basename(b), "ber": round(ber, 4), "similarity": round(1 - 2 * ber, 4),
                          "overlap_items": count, "shared_items": shared_items(prints[a], prints[b])})
    return {"same": same, "unrelated": unrelated,
            "same_similarity_min": min(s["similarity"] for s in same), "same_shared_min": min(s["shared_items"] for s in same),
            "unrelated_similarity_max": max(u["similarity"] for u in unrelated), "unrelated_shared_max": max(u["shared_items"] for u in unrelated)}


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    print(json.dumps(measure(out) if "--measure" in sys.argv[2:] else test_tree(out), indent=1))
