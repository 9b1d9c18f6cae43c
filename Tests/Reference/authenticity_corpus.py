#!/usr/bin/env python3
"""A generated corpus for the authenticity detector (lossless origin / lossy transcode / upsample /
genuinely band-limited), made with real tools, plus a manifest of the ground truth.

    python3 Tests/Reference/authenticity_corpus.py --out DIR --size small|large [--jobs N]

writes audio into DIR/{lossless,band_limited,lossy,upsampled}/ and DIR/manifest.json, a list of
{"file", "truth", "source", "codec", "setting", "hard", "source_rate", "sample_rate",
"bit_depth_padded", "mono_as_stereo"}. "setting" names the encoder setting for lossy files, and the
resampler or filter for upsampled and dull files. Besides 44.1, 48 and 96 kHz material, the corpus
holds material made at 22.05 and 32 kHz (fluidsynth music, noise, espeak-ng speech and the ALSA
speech prompts of alsa-utils brought down from 48 kHz by sox) and its transcodes decoded back to
its own rate, where coders keep the whole band at ordinary bit rates. DIR/corpus.json stamps the size and script version:
re-running with the same ones exits at once.

small: about 100 files of 6 s (under a minute on 2 cores); large: about 500 files of 20 s.
Everything random comes from numpy default_rng with fixed seeds, so a re-run gives the same manifest.

Needs python3 with numpy, scipy, mido, soundfile; fluidsynth with FluidR3_GM.sf2, espeak-ng, the ALSA
prompts (alsa-utils), sox and ffmpeg (libmp3lame, aac, libvorbis, libopus, flac).
"""
import argparse, json, os, shutil, subprocess, sys, tempfile
from concurrent.futures import ProcessPoolExecutor

VERSION = 2
SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
# alsa-utils' spoken channel names (48 kHz mono recordings of one voice); Noise.wav is left out.
ALSA_PROMPTS = "/usr/share/sounds/alsa"
ALSA_NAMES = ["Front_Center", "Front_Left", "Front_Right", "Rear_Center", "Rear_Left", "Rear_Right",
              "Side_Left", "Side_Right"]
SEED = 20240611
SUBDIRS = ["lossless", "band_limited", "lossy", "upsampled"]

# Encoder settings: (codec, setting, ffmpeg encoder arguments, container extension, hard).
# "Hard" settings are the ones whose cut-off sits near or above 19-20 kHz, so that only subtle cues
# (a shelf, a hole pattern, a missing 16 kHz-20 kHz band in loud passages) give them away.
ENCODERS = [
    ("mp3", "cbr96", ["-c:a", "libmp3lame", "-b:a", "96k"], "mp3", False),
    ("mp3", "cbr128", ["-c:a", "libmp3lame", "-b:a", "128k"], "mp3", False),
    ("mp3", "cbr192", ["-c:a", "libmp3lame", "-b:a", "192k"], "mp3", False),
    ("mp3", "cbr256", ["-c:a", "libmp3lame", "-b:a", "256k"], "mp3", False),
    ("mp3", "cbr320", ["-c:a", "libmp3lame", "-b:a", "320k"], "mp3", True),
    ("mp3", "v0", ["-c:a", "libmp3lame", "-q:a", "0"], "mp3", True),
    ("mp3", "v2", ["-c:a", "libmp3lame", "-q:a", "2"], "mp3", False),
    ("aac", "96k", ["-c:a", "aac", "-b:a", "96k"], "m4a", False),
    ("aac", "128k", ["-c:a", "aac", "-b:a", "128k"], "m4a", False),
    ("aac", "192k", ["-c:a", "aac", "-b:a", "192k"], "m4a", True),
    ("aac", "256k", ["-c:a", "aac", "-b:a", "256k"], "m4a", True),
    ("vorbis", "q2", ["-c:a", "libvorbis", "-q:a", "2"], "ogg", False),
    ("vorbis", "q4", ["-c:a", "libvorbis", "-q:a", "4"], "ogg", False),
    ("vorbis", "q6", ["-c:a", "libvorbis", "-q:a", "6"], "ogg", True),
    ("vorbis", "q8", ["-c:a", "libvorbis", "-q:a", "8"], "ogg", True),
    ("opus", "64k", ["-c:a", "libopus", "-b:a", "64k"], "opus", False),
    ("opus", "96k", ["-c:a", "libopus", "-b:a", "96k"], "opus", False),
    ("opus", "128k", ["-c:a", "libopus", "-b:a", "128k"], "opus", True),
    ("opus", "192k", ["-c:a", "libopus", "-b:a", "192k"], "opus", True),
]

# Settings for material at 22.05 and 32 kHz, decoded back to its own rate (Opus decodes at 48 kHz).
# At these rates FFmpeg's AAC from 64 kbps, Vorbis and Opus keep the whole band; LAME low-passes.
LOW_RATE_ENCODERS = [
    ("aac", "64k", ["-c:a", "aac", "-b:a", "64k"], "m4a", False),
    ("aac", "128k", ["-c:a", "aac", "-b:a", "128k"], "m4a", False),
    ("aac", "256k", ["-c:a", "aac", "-b:a", "256k"], "m4a", False),
    ("opus", "32k", ["-c:a", "libopus", "-b:a", "32k"], "opus", False),
    ("opus", "64k", ["-c:a", "libopus", "-b:a", "64k"], "opus", False),
    ("opus", "128k", ["-c:a", "libopus", "-b:a", "128k"], "opus", False),
    ("vorbis", "q2", ["-c:a", "libvorbis", "-q:a", "2"], "ogg", False),
    ("vorbis", "q4", ["-c:a", "libvorbis", "-q:a", "4"], "ogg", False),
    ("vorbis", "q6", ["-c:a", "libvorbis", "-q:a", "6"], "ogg", False),
    ("mp3", "cbr64", ["-c:a", "libmp3lame", "-b:a", "64k"], "mp3", False),
    ("mp3", "cbr128", ["-c:a", "libmp3lame", "-b:a", "128k"], "mp3", False),
    ("mp3", "v0", ["-c:a", "libmp3lame", "-q:a", "0"], "mp3", False),
]
TABLES = {"full": ENCODERS, "low": LOW_RATE_ENCODERS}

# Resamplers for the upsampled class: both sox and ffmpeg, at two qualities each.
RESAMPLERS = ["sox", "sox-v", "ffmpeg-swr", "ffmpeg-soxr"]

# Per size: clip length, how many of each source, how many sources per encoder setting, and how many
# times each (source rate, target rate, resampler) combination occurs. The low-rate part: music
# rendered at 22.05 and 32 kHz, noise there (large only), ALSA prompts per rate, and how many sources
# each low-rate setting meets.
PLANS = {
    "small": dict(seconds=6.0, midi={44100: 3, 48000: 3, 96000: 2}, white=1, pink=1, chirp=1,
                  dense={44100: 2, 48000: 2, 96000: 1}, mono_stereo=2, padded=3, speech=6,
                  speech_stereo=2, dull=4, per_setting=2, per_upsample=1,
                  low_midi={22050: 1, 32000: 1}, low_noise=0, alsa=1, per_low_setting=1),
    "large": dict(seconds=20.0, midi={44100: 12, 48000: 10, 96000: 8}, white=3, pink=3, chirp=2,
                  dense={44100: 6, 48000: 6, 96000: 4}, mono_stereo=8, padded=12, speech=30,
                  speech_stereo=8, dull=20, per_setting=14, per_upsample=4,
                  low_midi={22050: 4, 32000: 4}, low_noise=1, alsa=3, per_low_setting=6),
}
LOW_RATES = (22050, 32000)

SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Please call Stella and ask her to bring these things with her from the store.",
    "A rainbow is a division of white light into many beautiful colours.",
    "The birch canoe slid on the smooth planks.",
    "Glue the sheet to the dark blue background.",
    "It is easy to tell the depth of a well.",
    "These days a chicken leg is a rare dish.",
    "Rice is often served in round bowls.",
    "The juice of lemons makes fine punch.",
    "The box was thrown beside the parked truck.",
    "Four hours of steady work faced us.",
    "Large size in stockings is hard to sell.",
    "The boy was there when the sun rose.",
    "A rod is used to catch pink salmon.",
    "The source of the huge river is the clear spring.",
    "Kick the ball straight and follow through.",
    "Help the woman get back to her feet.",
    "A pot of tea helps to pass the evening.",
    "Smoky fires lack flame and heat.",
    "The soft cushion broke the man's fall.",
]
VOICES = ["en", "en-us", "en-gb-scotland", "en-029", "en-gb-x-rp", "en+f3", "en-us+m3", "en+f2",
          "en-gb-x-gbclan+klatt", "de", "fr", "es"]


# ---------------------------------------------------------------------------------------------
# Small helpers


def run(cmd):
    """Runs a tool; on failure raises with its command line and error output."""
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")


def sox(*args):
    # -R: repeatable mode, so sox's dither noise is the same on every run.
    run(["sox", "-R", *args])


def ffmpeg(*args):
    # One thread per process: the pool already keeps every core busy. -bitexact keeps version
    # strings out of the files, so re-runs write the same bytes.
    run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-threads", "1", *args])


# numpy, scipy, mido and soundfile are imported inside the functions that use them, so that a missing
# one is reported by check_tools() in one clear message rather than by a traceback at import time.


def rng_for(*key):
    import numpy as np
    return np.random.default_rng([SEED, *key])


def subtype(depth):
    return {16: "PCM_16", 24: "PCM_24"}[depth]


def finish(x, rate, path, depth, rng, peak_db=(-6.0, -1.5)):
    """Fades the ends and scales to a random peak below -1 dBFS, then writes PCM at `depth` bits."""
    import numpy as np
    import soundfile as sf
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 1:
        x = x[:, None]
    fade = min(int(0.02 * rate), len(x) // 4)
    ramp = np.linspace(0.0, 1.0, fade)[:, None]
    x[:fade] *= ramp
    x[len(x) - fade:] *= ramp[::-1]
    peak = np.max(np.abs(x))
    if peak > 0:
        x *= 10 ** (rng.uniform(*peak_db) / 20) / peak
    sf.write(path, x, rate, subtype=subtype(depth))


def entry(out, path, truth, source, rate, codec=None, setting=None, hard=False, source_rate=None,
          padded=False, mono_as_stereo=False):
    return {"file": os.path.relpath(path, out), "truth": truth, "source": source, "codec": codec,
            "setting": setting, "hard": hard, "source_rate": source_rate, "sample_rate": rate,
            "bit_depth_padded": padded, "mono_as_stereo": mono_as_stereo}


# ---------------------------------------------------------------------------------------------
# Sources


def write_midi(path, seconds, rng):
    """A short seeded piece: piano chords and runs (program 0), strings (48), bass (32) and drums on
    channel 10. The drums always play ride, crash and hi-hats: in FluidR3 the cymbals are what
    reaches the top octave, so without them a "full-band" render would not be full-band."""
    import mido
    tpb = 480
    tempo = int(rng.integers(84, 140))
    beat = 60.0 / tempo
    bars = int(seconds / (4 * beat)) + 2  # a little longer than needed; trimmed after rendering
    key = int(rng.integers(0, 12))
    major = [0, 2, 4, 5, 7, 9, 11]
    progressions = [[0, 4, 5, 3], [0, 5, 3, 4], [5, 3, 0, 4], [0, 3, 4, 4], [1, 4, 0, 0]]
    progression = progressions[rng.integers(len(progressions))]
    events = []  # (tick, order, message); order puts note-offs before note-ons at the same tick

    def note(channel, pitch, start, length, velocity):
        events.append((start, 1, mido.Message("note_on", channel=channel, note=int(pitch),
                                               velocity=int(velocity))))
        events.append((start + length, 0, mido.Message("note_off", channel=channel, note=int(pitch),
                                                        velocity=0)))

    bar = 4 * tpb
    for b in range(bars):
        degree = progression[b % len(progression)]
        triad = [key + 48 + major[(degree + i) % 7] + 12 * ((degree + i) // 7) for i in (0, 2, 4)]
        start = b * bar
        # Piano: a chord on beats 1 and 3, and a run of eighths or sixteenths in the upper register.
        for half in (0, 2 * tpb):
            for pitch in triad + [triad[0] + 12]:
                note(0, pitch + 12, start + half, 2 * tpb - 20, rng.integers(60, 95))
        step = tpb // int(rng.choice([2, 4]))
        pitch_index = int(rng.integers(0, 7))
        for t in range(start, start + bar, step):
            pitch_index += int(rng.choice([-2, -1, 1, 1, 2]))
            octave, degree_in = divmod(pitch_index, 7)
            pitch = key + 72 + 12 * max(-1, min(1, octave)) + major[degree_in]
            note(0, pitch, t, step - 10, rng.integers(50, 90))
        # Strings: the triad held over the bar; bass: root on each beat.
        for pitch in triad:
            note(1, pitch, start, bar - 10, rng.integers(45, 75))
        for beat_index in range(4):
            note(2, triad[0] - 12, start + beat_index * tpb, tpb - 30, rng.integers(70, 100))
        # Drums: kick, snare, hi-hats or ride in eighths, a crash or splash on bar starts.
        ride = int(rng.choice([42, 46, 51, 59]))
        for eighth in range(8):
            t = start + eighth * tpb // 2
            note(9, ride, t, tpb // 4, rng.integers(60, 110))
            if eighth in (0, 4) or rng.random() < 0.15:
                note(9, 36, t, tpb // 4, rng.integers(90, 120))
            if eighth in (2, 6):
                note(9, 38, t, tpb // 4, rng.integers(85, 120))
            if rng.random() < 0.1:
                note(9, int(rng.choice([46, 53, 55])), t, tpb // 4, rng.integers(60, 100))
        if b % 2 == 0 or rng.random() < 0.4:
            note(9, int(rng.choice([49, 57, 52, 55])), start, tpb, rng.integers(80, 120))

    midi = mido.MidiFile(ticks_per_beat=tpb)
    track = mido.MidiTrack()
    midi.tracks.append(track)
    track.append(mido.MetaMessage("set_tempo", tempo=mido.bpm2tempo(tempo), time=0))
    for channel, program in ((0, 0), (1, 48), (2, 32)):
        track.append(mido.Message("program_change", channel=channel, program=program, time=0))
    for channel, pan in ((0, int(rng.integers(40, 88))), (1, int(rng.integers(30, 98))), (2, 64)):
        track.append(mido.Message("control_change", channel=channel, control=10, value=pan, time=0))
    now = 0
    for tick, _, message in sorted(events, key=lambda e: (e[0], e[1])):
        track.append(message.copy(time=tick - now))
        now = tick
    midi.save(path)


def render_midi(path, rate, depth, seconds, rng, scratch):
    """Renders a fresh piece with fluidsynth (float WAV, so levels can be set afterwards without
    clipping), cuts it to `seconds` (dropping the reverb tail) and writes it at `depth` bits."""
    import soundfile as sf
    mid = os.path.join(scratch, "piece.mid")
    raw = os.path.join(scratch, "render.wav")
    write_midi(mid, seconds, rng)
    run(["fluidsynth", "-ni", "-q", "-F", raw, "-r", str(rate), "-T", "wav", "-O", "float",
         "-g", "0.6", SOUNDFONT, mid])
    x, _ = sf.read(raw)
    finish(x[: int(seconds * rate)], rate, path, depth, rng)


def white_noise(rate, seconds, rng, channels=2):
    import numpy as np
    x = rng.normal(0, 1, (int(rate * seconds), channels))
    if channels == 2:  # partly correlated channels, as a stereo recording would be
        x[:, 1] = 0.6 * x[:, 0] + 0.8 * x[:, 1]
    return x


def pink_noise(rate, seconds, rng, channels=2):
    """1/f noise shaped in the frequency domain all the way to Nyquist (no band limit)."""
    import numpy as np
    n = int(rate * seconds)
    spectrum = np.fft.rfft(rng.normal(0, 1, (n, channels)), axis=0)
    f = np.fft.rfftfreq(n, 1 / rate)
    shape = 1 / np.sqrt(np.maximum(f, 10.0))
    return np.fft.irfft(spectrum * shape[:, None], n=n, axis=0)


def chirp(rate, seconds, rng, channels=2):
    """A logarithmic sweep from 20 Hz to 0.98 x Nyquist; the right channel is phase-shifted."""
    import numpy as np
    from scipy.signal import chirp as sweep
    t = np.arange(int(rate * seconds)) / rate
    phase = rng.uniform(0, 360)
    sides = [sweep(t, 20, t[-1], 0.98 * rate / 2, method="logarithmic", phi=phase + 90 * c)
             for c in range(channels)]
    return np.stack(sides, axis=1)


def dense_mix(rate, seconds, rng, channels=2):
    """Many sine partials (40 Hz to 0.97 x Nyquist, log-spread, gently falling level) with slow
    random envelopes and per-channel phase and pan, plus short full-band noise bursts."""
    import numpy as np
    n = int(rate * seconds)
    t = np.arange(n) / rate
    x = np.zeros((n, channels))
    coarse = np.linspace(0, seconds, int(seconds * 8) + 2)
    for _ in range(int(rng.integers(60, 120))):
        f = np.exp(rng.uniform(np.log(40), np.log(0.97 * rate / 2)))
        level = (f / 1000) ** -0.3 * rng.uniform(0.2, 1.0)
        envelope = np.interp(t, coarse, np.maximum(rng.normal(0, 1, coarse.size), 0) ** 2)
        pan = rng.uniform(0.2, 0.8)
        for c in range(channels):
            gain = (pan if c == 0 else 1 - pan) if channels == 2 else 1.0
            x[:, c] += level * gain * envelope * np.sin(2 * np.pi * f * t + rng.uniform(0, 6.3))
    for _ in range(int(seconds * rng.uniform(1, 3))):
        start = int(rng.integers(0, n - rate // 10))
        length = int(rng.uniform(0.02, 0.1) * rate)
        decay = np.exp(-np.arange(length) / (length / 5))[:, None]
        x[start:start + length] += 0.3 * np.abs(x).max() * decay * rng.normal(0, 1, (length, channels))
    return x


SYNTHS = {"white": white_noise, "pink": pink_noise, "chirp": chirp, "dense": dense_mix}


def speak(path, seconds, rng, scratch):
    """espeak-ng speech. It is left at espeak's native 22050 Hz: that is its real bandwidth, and
    resampling it to 44.1 kHz would turn a genuinely band-limited file into an upsample."""
    import soundfile as sf
    raw = os.path.join(scratch, "speech.wav")
    order = rng.permutation(len(SENTENCES))
    text = " ".join(SENTENCES[i] for i in order[: max(3, int(seconds / 2))])
    voice = VOICES[rng.integers(len(VOICES))]
    run(["espeak-ng", "-v", voice, "-s", str(int(rng.integers(130, 200))),
         "-p", str(int(rng.integers(30, 70))), "-w", raw, text])
    x, rate = sf.read(raw)
    finish(x[: int(seconds * rate)], rate, path, 16, rng, peak_db=(-4.0, -1.5))
    return voice


def alsa_speech(path, rate, seconds, rng, scratch):
    """alsa-utils' spoken prompts in a seeded order with short pauses, cycled to `seconds`, brought
    from their 48 kHz down to `rate` by sox's default (high quality) resampler: genuine speech with
    content to the new band edge."""
    import numpy as np
    import soundfile as sf
    prompts = [sf.read(os.path.join(ALSA_PROMPTS, name + ".wav"))[0] for name in ALSA_NAMES]
    parts, length = [], 0
    while length < seconds * 48000:
        for i in rng.permutation(len(prompts)):
            pause = np.zeros(int(rng.uniform(0.1, 0.4) * 48000))
            parts += [prompts[i], pause]
            length += len(prompts[i]) + len(pause)
    raw = os.path.join(scratch, "prompts.wav")
    low = os.path.join(scratch, "prompts-low.wav")
    sf.write(raw, np.concatenate(parts)[: int(seconds * 48000)], 48000, subtype="FLOAT")
    sox(raw, "-e", "floating-point", "-b", "32", low, "rate", str(rate))
    x, _ = sf.read(low)
    finish(x, rate, path, 16, rng, peak_db=(-4.0, -1.5))


def make_source(job):
    """Phase 1: one source, either a corpus file (lossless or band-limited) or a scratch file that
    phase 2 transforms (low-rate sources for upsampling, mono sources for mono-as-stereo)."""
    out, kind, rate, depth, channels, seconds, path, key, keep = (
        job["out"], job["kind"], job["rate"], job["depth"], job["channels"], job["seconds"],
        job["path"], job["key"], job["keep"])
    rng = rng_for(*key)
    with tempfile.TemporaryDirectory(dir=job["scratch"]) as scratch:
        if kind == "midi":
            render_midi(path, rate, depth, seconds, rng, scratch)
        elif kind == "speech":
            speak(path, seconds, rng, scratch)
        elif kind == "alsa":
            alsa_speech(path, rate, seconds, rng, scratch)
        else:
            finish(SYNTHS[kind](rate, seconds, rng, channels), rate, path, depth, rng,
                   peak_db=(-12.0, -1.5))
    if not keep:
        return None
    truth = "band_limited" if kind in ("speech", "alsa") else "lossless_origin"
    return entry(out, path, truth, kind, rate)


# ---------------------------------------------------------------------------------------------
# Transformations (phase 2)


def transcode(job):
    """Encodes with ffmpeg and decodes back to 16-bit PCM, WAV or FLAC, at the decoder's own rate
    (Opus always decodes at 48 kHz) or, with "decode_rate", resampled by ffmpeg to that rate."""
    import soundfile as sf
    codec, setting, args, ext, hard = TABLES[job.get("table", "full")][job["encoder"]]
    rate = ["-ar", str(job["decode_rate"])] if job.get("decode_rate") else []
    with tempfile.TemporaryDirectory(dir=job["scratch"]) as scratch:
        coded = os.path.join(scratch, "coded." + ext)
        ffmpeg("-i", job["input"], "-map_metadata", "-1", *args, "-fflags", "+bitexact", coded)
        if job["path"].endswith(".flac"):
            ffmpeg("-i", coded, "-map_metadata", "-1", *rate, "-c:a", "flac", "-sample_fmt", "s16",
                   "-fflags", "+bitexact", "-flags:a", "+bitexact", job["path"])
        else:
            ffmpeg("-i", coded, "-map_metadata", "-1", *rate, "-c:a", "pcm_s16le",
                   "-fflags", "+bitexact", "-flags:a", "+bitexact", job["path"])
    rate = sf.info(job["path"]).samplerate
    return entry(job["out"], job["path"], "lossy_origin", job["source"], rate, codec=codec,
                 setting=setting, hard=hard)


def upsample(job):
    """Resamples a full-band low-rate source up with sox or ffmpeg. sox adds TPDF dither when it
    writes 16 bits, as it would for anyone using it this way. soxr inside ffmpeg would dither 16-bit
    output with a time-seeded generator, so it gets doubles in and ffmpeg rounds to 16 bits after."""
    target, depth, tool, src, path = job["target"], job["depth"], job["tool"], job["input"], job["path"]
    if tool == "sox":
        sox(src, "-b", str(depth), path, "rate", str(target))
    elif tool == "sox-v":
        sox(src, "-b", str(depth), path, "rate", "-v", str(target))
    else:
        spec = (f"aresample={target}" if tool == "ffmpeg-swr" else
                f"aformat=sample_fmts=dbl,aresample={target}:resampler=soxr")
        pcm = "pcm_s16le" if depth == 16 else "pcm_s24le"
        ffmpeg("-i", src, "-map_metadata", "-1", "-af", spec, "-c:a", pcm,
               "-fflags", "+bitexact", "-flags:a", "+bitexact", path)
    return entry(job["out"], path, "upsampled", job["source"], target, setting=tool,
                 source_rate=job["source_rate"])


def dull_master(job):
    """A gentle low-pass at the file's own rate, as a mastering engineer might leave a dark mix."""
    sox(job["input"], job["path"], *job["effect"].split())
    return entry(job["out"], job["path"], "band_limited", job["source"], job["rate"],
                 setting=job["effect"].replace(" ", ""))


def pad_to_24(job):
    """16-bit audio written as 24-bit: the low byte is all zeros."""
    sox(job["input"], "-b", "24", job["path"])
    return entry(job["out"], job["path"], "lossless_origin", job["source"], job["rate"], padded=True)


def mono_to_stereo(job):
    """A mono source copied to both channels."""
    sox(job["input"], job["path"], "remix", "1", "1")
    return entry(job["out"], job["path"], job["truth"], job["source"], job["rate"],
                 mono_as_stereo=True)


TRANSFORMS = {"transcode": transcode, "upsample": upsample, "dull": dull_master, "pad": pad_to_24,
              "mono": mono_to_stereo}


def make_derived(job):
    return TRANSFORMS[job["fn"]](job)


# ---------------------------------------------------------------------------------------------
# Planning: every job and every random choice is fixed here, before anything runs.


def plan(out, size, scratch):
    p = PLANS[size]
    seconds = p["seconds"]
    rng = rng_for(0)
    sources, derived = [], []

    def source(kind, rate, depth=None, channels=2, keep=True, folder="lossless"):
        depth = depth or (24 if rate > 48000 else 16)
        index = len(sources)
        name = f"{kind}_{index:03d}_{rate // 1000 if rate % 1000 == 0 else rate / 1000:g}k.wav"
        path = os.path.join(out if keep else scratch, folder if keep else "", name)
        job = dict(out=out, scratch=scratch, kind=kind, rate=rate, depth=depth, channels=channels,
                   seconds=seconds, path=path, key=(1, index), keep=keep)
        sources.append(job)
        return job

    # Full-band lossless sources (MIDI renders and synthesized signals).
    midi = [source("midi", rate) for rate, count in p["midi"].items() for _ in range(count)]
    noise = [source(kind, rate) for kind in ("white", "pink") for _ in range(p[kind])
             for rate in (44100, 48000, 96000)]
    for _ in range(p["chirp"]):
        for rate in (44100, 48000, 96000):
            source("chirp", rate)
    dense = [source("dense", rate) for rate, count in p["dense"].items() for _ in range(count)]
    # Genuinely band-limited: speech (mono, 22050 Hz).
    speech = [source("speech", 22050, folder="band_limited") for _ in range(p["speech"])]

    def derive(fn, name, folder="lossless", **fields):
        path = os.path.join(out, folder, f"{name}_{len(derived):03d}.{fields.pop('ext', 'wav')}")
        derived.append(dict(fn=fn, out=out, scratch=scratch, path=path, **fields))

    # Mono sources copied to both channels: synthesized mono (lossless) and speech (band-limited).
    for i in range(p["mono_stereo"]):
        kind = ["dense", "pink", "white"][i % 3]
        rate = [44100, 48000][i % 2]
        mono = source(kind, rate, channels=1, keep=False)
        derive("mono", f"{kind}_mono_as_stereo", input=mono["path"], source=kind, rate=rate,
               truth="lossless_origin")
    for s in speech[: p["speech_stereo"]]:
        derive("mono", "speech_mono_as_stereo", folder="band_limited", input=s["path"],
               source="speech", rate=22050, truth="band_limited")

    # 16-bit lossless files padded to 24 bits.
    plain = [s for s in midi + noise + dense if s["depth"] == 16]
    for i in rng.choice(len(plain), p["padded"], replace=False):
        s = plain[i]
        derive("pad", f"{s['kind']}_padded24", input=s["path"], source=s["kind"], rate=s["rate"])

    # Dull masters: MIDI renders through a gentle low-pass or a treble cut, at their own rate.
    effects = ["lowpass 7000", "treble -18 5k", "lowpass 9000", "lowpass 6000 lowpass 6000",
               "treble -24 4k", "lowpass 11000"]
    picks = rng.choice(len(midi), p["dull"], replace=len(midi) < p["dull"])
    for i, s in enumerate(midi[j] for j in picks):
        derive("dull", "midi_dull", folder="band_limited", input=s["path"], source="midi",
               rate=s["rate"], effect=effects[i % len(effects)])

    # Lossy transcodes of 44.1/48 kHz full-band material: mostly music and dense mixes, a few noise
    # clips. Sources rotate so that every setting meets several different ones.
    pool = [s for s in midi + dense if s["rate"] in (44100, 48000)]
    white, pink = ([s for s in noise if s["kind"] == k and s["rate"] in (44100, 48000)]
                   for k in ("white", "pink"))
    pool += [s for pair in zip(white, pink) for s in pair][: max(2, len(pool) // 6)]
    order = list(rng.permutation(len(pool)))
    turn = 0
    for e, (codec, setting, *_rest) in enumerate(ENCODERS):
        for _ in range(p["per_setting"]):
            s = pool[order[turn % len(pool)]]
            turn += 1
            ext = "flac" if rng.random() < 0.25 else "wav"
            derive("transcode", f"{s['kind']}_{codec}_{setting}", folder="lossy", ext=ext,
                   input=s["path"], source=s["kind"], encoder=e)

    # Upsamples: full-band material made at 22050, 44100 or 48000 Hz (scratch), raised by each tool.
    kinds = ["midi", "dense", "pink", "white", "chirp"]
    turn = int(rng.integers(len(kinds)))
    for source_rate, targets in ((22050, (48000, 88200, 96000)), (44100, (48000, 88200, 96000)),
                                 (48000, (96000,))):
        for target in targets:
            for tool in RESAMPLERS:
                for _ in range(p["per_upsample"]):
                    kind = kinds[turn % len(kinds)]
                    turn += 1
                    low = source(kind, source_rate, depth=16, keep=False)
                    derive("upsample", f"{kind}_{source_rate}_to_{target}_{tool}",
                           folder="upsampled", input=low["path"], source=kind, tool=tool,
                           target=target, depth=16 if target == 48000 else 24,
                           source_rate=source_rate)

    # Low rates, planned last with their own random choices so that the files above stay as they
    # were: music rendered at 22.05 and 32 kHz, noise there, and the ALSA prompts brought down from
    # 48 kHz (speech, like espeak-ng's).
    low_rng = rng_for(2)
    low_midi = [source("midi", rate) for rate, count in p["low_midi"].items() for _ in range(count)]
    low_noise = [source(kind, rate) for kind in ("white", "pink") for _ in range(p["low_noise"])
                 for rate in LOW_RATES]
    alsa = [source("alsa", rate, folder="band_limited") for _ in range(p["alsa"]) for rate in LOW_RATES]
    # Transcodes of the low-rate material (music, speech, noise), decoded back to its own rate.
    low_pool = low_midi + alsa + speech[: max(2, len(low_midi))] + low_noise
    order = list(low_rng.permutation(len(low_pool)))
    turn = 0
    for e, (codec, setting, *_rest) in enumerate(LOW_RATE_ENCODERS):
        for _ in range(p["per_low_setting"]):
            s = low_pool[order[turn % len(low_pool)]]
            turn += 1
            derive("transcode", f"{s['kind']}_{s['rate']}_{codec}_{setting}", folder="lossy",
                   input=s["path"], source=s["kind"], encoder=e, table="low", decode_rate=s["rate"])
    return sources, derived


# ---------------------------------------------------------------------------------------------


def check_tools():
    missing = []
    for module in ("numpy", "scipy", "mido", "soundfile"):
        try:
            __import__(module)
        except ImportError:
            missing.append(f"python module {module} (pip install {module})")
    for tool in ("fluidsynth", "espeak-ng", "sox", "ffmpeg"):
        if shutil.which(tool) is None:
            missing.append(f"command {tool}")
    for name in ALSA_NAMES:
        if not os.path.exists(os.path.join(ALSA_PROMPTS, name + ".wav")):
            missing.append(f"{ALSA_PROMPTS}/{name}.wav (package alsa-utils)")
            break
    if not os.path.exists(SOUNDFONT):
        missing.append(f"soundfont {SOUNDFONT} (package fluid-soundfont-gm)")
    if shutil.which("ffmpeg"):
        listing = subprocess.run(["ffmpeg", "-hide_banner", "-encoders"], capture_output=True,
                                 text=True).stdout
        for encoder in ("libmp3lame", "aac", "libvorbis", "libopus", "flac"):
            if f" {encoder} " not in listing:
                missing.append(f"ffmpeg encoder {encoder}")
        filters = subprocess.run(["ffmpeg", "-hide_banner", "-h", "filter=aresample"],
                                 capture_output=True, text=True).stdout
        if "soxr" not in filters:
            missing.append("ffmpeg built with libsoxr (aresample=resampler=soxr)")
    if missing:
        sys.exit("authenticity_corpus.py: missing " + "; ".join(missing))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--size", choices=sorted(PLANS), required=True)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    stamp_path = os.path.join(out, "corpus.json")
    stamp = {"version": VERSION, "size": args.size}
    try:
        with open(stamp_path) as f:
            if json.load(f) == stamp and os.path.exists(os.path.join(out, "manifest.json")):
                return
    except (OSError, ValueError):
        pass
    check_tools()

    # Start clean: only the folders and files this script owns.
    for name in SUBDIRS + [".scratch"]:
        shutil.rmtree(os.path.join(out, name), ignore_errors=True)
    for name in ("corpus.json", "manifest.json"):
        if os.path.exists(os.path.join(out, name)):
            os.remove(os.path.join(out, name))
    for name in SUBDIRS + [".scratch"]:
        os.makedirs(os.path.join(out, name))
    scratch = os.path.join(out, ".scratch")

    sources, derived = plan(out, args.size, scratch)
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        manifest = [e for e in pool.map(make_source, sources) if e]
        manifest += list(pool.map(make_derived, derived))
    shutil.rmtree(scratch)
    manifest.sort(key=lambda e: e["file"])

    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    with open(stamp_path, "w") as f:  # last, so an interrupted run is redone
        json.dump(stamp, f)
        f.write("\n")
    counts = {}
    for e in manifest:
        counts[e["truth"]] = counts.get(e["truth"], 0) + 1
    print(f"{len(manifest)} files in {out}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


if __name__ == "__main__":
    main()
