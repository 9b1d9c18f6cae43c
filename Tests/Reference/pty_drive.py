#!/usr/bin/env python3
"""Runs a command in a real pseudo-terminal, types keys on a schedule, and reports what a person
would have seen: the screen (a small emulator of the sequences signalpath writes: cursor moves,
clears, text; attributes are ignored) at chosen moments, and the terminal's modes afterwards.

    pty_drive.py COLUMNS ROWS PLAN_JSON -- COMMAND...

PLAN_JSON: [[seconds, "keys" (or "SIGTERM"/"SIGINT" to signal the command) or null, "snapshot
label" or null], ...] in time order. Prints JSON:
{"status", "snapshots": {label: [rows]}, "raw_tail", "echo_restored", "canonical_restored",
"entered_alternate", "left_alternate", "cursor_shown"}.
"""
import fcntl, json, os, re, select, signal, struct, sys, termios, time

columns, rows = int(sys.argv[1]), int(sys.argv[2])
plan = json.loads(sys.argv[3])
command = sys.argv[sys.argv.index("--") + 1:]

pid, master = os.forkpty()
if pid == 0:
    os.execvp(command[0], command)
fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))

screen = [[" "] * columns for _ in range(rows)]
cursor = [0, 0]
raw = bytearray()
pending = ""

def feed(text):
    global pending
    text = pending + text
    pending = ""
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            m = re.match(r"\x1b\[([0-9;?]*)([A-Za-z])", text[i:])
            if not m:
                if len(text) - i < 16:
                    pending = text[i:]
                    return
                i += 1
                continue
            params, final = m.group(1), m.group(2)
            if final == "H":
                parts = [int(p) if p else 1 for p in params.split(";")] if params else [1, 1]
                cursor[0], cursor[1] = parts[0] - 1, (parts[1] if len(parts) > 1 else 1) - 1
            elif final == "J" and params == "2":
                for r in screen:
                    r[:] = [" "] * columns
            i += m.end()
            continue
        if ch == "\r":
            cursor[1] = 0
        elif ch == "\n":
            cursor[0] = min(rows - 1, cursor[0] + 1)
        elif 0 <= cursor[0] < rows and 0 <= cursor[1] < columns:
            screen[cursor[0]][cursor[1]] = ch
            cursor[1] += 1
        i += 1

def take(data):
    """Keeps the child's output and draws it; a character split between two reads waits for its rest."""
    global decoder_buffer
    raw.extend(data)
    decoder_buffer += data
    try:
        text = decoder_buffer.decode()
    except UnicodeDecodeError:
        return
    decoder_buffer = b""
    feed(text)

snapshots = {}
start = time.monotonic()
status = None
decoder_buffer = b""
steps = list(plan)
deadline = start + (plan[-1][0] if plan else 0) + 10
while time.monotonic() < deadline:
    now = time.monotonic() - start
    while steps and steps[0][0] <= now:
        _, keys, label = steps.pop(0)
        if label:
            snapshots[label] = ["".join(r).rstrip() for r in screen]
        if keys in ("SIGTERM", "SIGINT"):
            os.kill(pid, getattr(signal, keys))
        elif keys:
            os.write(master, keys.encode())
    readable, _, _ = select.select([master], [], [], 0.02)
    if readable:
        try:
            data = os.read(master, 65536)
        except OSError:
            data = b""
        if not data:
            _, code = os.waitpid(pid, 0)  # the child has closed the terminal: it is exiting
            status = os.waitstatus_to_exitcode(code)
            break
        take(data)
    finished, code = os.waitpid(pid, os.WNOHANG)
    if finished:
        status = os.waitstatus_to_exitcode(code)
        break
# A child that wrote its last lines and exited between a select and the waitpid above has left
# them in the terminal's buffer: read them too (a scan's "stopped by signal" line was lost so,
# once in a clean-clone run).
while status is not None:
    readable, _, _ = select.select([master], [], [], 0.05)
    if not readable:
        break
    try:
        data = os.read(master, 65536)
    except OSError:
        break
    if not data:
        break
    take(data)
if status is None:
    os.kill(pid, signal.SIGKILL)
    status = "killed after timeout"
attributes = termios.tcgetattr(master)
print(json.dumps({
    "status": status,
    "snapshots": snapshots,
    "raw_tail": raw[-200:].decode(errors="replace"),
    "entered_alternate": b"\x1b[?1049h" in raw,
    "left_alternate": b"\x1b[?1049l" in raw,
    "cursor_shown": raw.rfind(b"\x1b[?25h") > raw.rfind(b"\x1b[?25l"),
    "echo_restored": bool(attributes[3] & termios.ECHO),
    "canonical_restored": bool(attributes[3] & termios.ICANON),
}))
