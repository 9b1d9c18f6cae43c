#!/usr/bin/env python3
"""Feeds named pipes slowly, so a test knows which file a scan has in flight and for how long:
`slow_fifo.py FIFO SECONDS [FIFO SECONDS ...]`. For each pipe in turn: wait (at most 60 s) for the
reader, write a WAV header (16-bit mono, 8 kHz, the size left open as a pipe writer does) and 0.1 s
of a 440 Hz tone, wait SECONDS, write 0.1 s more and close. Prints `connected FIFO` when the reader
has opened a pipe (the scan has it in flight from then on). A pipe nobody opens ends the script
(exit 1) rather than hanging the test."""
import errno, math, os, struct, sys, time

def tone(start):
    return b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * (start + i) / 8000))) for i in range(800))

pairs = sys.argv[1:]
for fifo, seconds in zip(pairs[0::2], pairs[1::2]):
    deadline = time.monotonic() + 60
    while True:
        try:
            descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as error:
            if error.errno != errno.ENXIO or time.monotonic() > deadline:
                sys.exit(1)
            time.sleep(0.01)
    os.set_blocking(descriptor, True)
    print(f"connected {fifo}", flush=True)
    with os.fdopen(descriptor, "wb", buffering=0) as pipe:
        header = b"RIFF" + struct.pack("<I", 0xFFFFFFFF) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 16000, 2, 16)
        pipe.write(header + b"data" + struct.pack("<I", 0xFFFFFFFF) + tone(0))
        time.sleep(float(seconds))
        pipe.write(tone(800))
