"""The seeded band piece that check_material.py, compare_material.py and loudness_programme.py
render: one copy of the score, so that the three cannot drift apart; each names what it varies.

A bar is a chord on channel 2 (strings, program 48) held for the bar, the root an octave down on
each beat on channel 1 (bass, program 33) and eight eighth notes of melody on channel 0 (piano,
program 0) drawn from the root's major-pentatonic degrees by the caller's numpy Generator. Per
bar the Generator is drawn from in a fixed order (per eighth: the degree, then the velocity), so
a script that shares its Generator with later draws keeps its output.
"""
import os, subprocess

import mido

SOUNDFONT = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
TICKS_PER_BEAT = 480
MELODY_DEGREES = [0, 2, 4, 7, 9, 12]


def band_score(roots, bpm, rng, chord_velocity=lambda bar: 70, melody_velocities=(70, 110)):
    """A MIDI file of one bar per root (a MIDI note number) at `bpm`. `chord_velocity(bar)` sets a
    bar's chord; melody velocities are drawn from `rng.integers(*melody_velocities)`."""
    midi = mido.MidiFile(ticks_per_beat=TICKS_PER_BEAT)
    track = mido.MidiTrack()
    midi.tracks.append(track)
    track.append(mido.MetaMessage("set_tempo", tempo=mido.bpm2tempo(bpm), time=0))
    for channel, program in ((0, 0), (1, 33), (2, 48)):
        track.append(mido.Message("program_change", channel=channel, program=program, time=0))
    beat, eighth_length = TICKS_PER_BEAT, TICKS_PER_BEAT // 2
    events = []
    for bar, root in enumerate(roots):
        start = bar * 4 * beat
        for note in (root, root + 4, root + 7):
            events.append((start, mido.Message("note_on", channel=2, note=note, velocity=chord_velocity(bar))))
            events.append((start + 4 * beat - 10, mido.Message("note_off", channel=2, note=note, velocity=0)))
        for count in range(4):
            events.append((start + count * beat, mido.Message("note_on", channel=1, note=root - 12, velocity=95)))
            events.append((start + count * beat + 400, mido.Message("note_off", channel=1, note=root - 12, velocity=0)))
        for eighth in range(8):
            note = int(root + 12 + rng.choice(MELODY_DEGREES))
            velocity = int(rng.integers(*melody_velocities))
            events.append((start + eighth * eighth_length, mido.Message("note_on", channel=0, note=note, velocity=velocity)))
            events.append((start + eighth * eighth_length + 220, mido.Message("note_off", channel=0, note=note, velocity=0)))
    # Note-offs before note-ons at the same tick, so a repeated note is released before it sounds again.
    now = 0
    for time, message in sorted(events, key=lambda event: (event[0], event[1].type == "note_on")):
        track.append(message.copy(time=time - now))
        now = time
    return midi


def render_band(folder, roots, bpm, rng, rate=48000, **variations):
    """`band_score(roots, bpm, rng, **variations)` saved as FOLDER/music.mid and rendered by
    fluidsynth (FluidR3_GM.sf2) at `rate` to FOLDER/music-raw.wav (32-bit float); returns its path."""
    score, rendered = os.path.join(folder, "music.mid"), os.path.join(folder, "music-raw.wav")
    band_score(roots, bpm, rng, **variations).save(score)
    subprocess.run(["fluidsynth", "-ni", "-q", "-F", rendered, "-r", str(rate), "-T", "wav", "-O", "float", SOUNDFONT, score],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return rendered
