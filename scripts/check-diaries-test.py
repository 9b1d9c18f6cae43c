#!/usr/bin/env python3
"""Tests of scripts/check-diaries.py: it finds diaries planted in Swift files and passes clean code
(the comments of a real rule, with units and arrows in code, must not be taken for diaries)."""
import importlib.util, pathlib, subprocess, sys, tempfile, unittest

script = pathlib.Path(__file__).resolve().parent / "check-diaries.py"
spec = importlib.util.spec_from_file_location("check_diaries", script)
checker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checker)

CLEAN = '''/// Momentary (400 ms) and short-term (3 s) loudness, every 100 ms, gated at -70 LUFS.
/// Sizes that programs writing to a pipe leave as placeholders (0, 0xFFFFFFFF) are not promises.
/// Channels 1 to 1024; a sample x becomes x · 2^-15, exact (docs/DECISIONS.md#pcm16-in-place).
struct Meter {
    // Steps: (Int) -> Int closures; the state moves 0 -> 1 when the gate opens.
    let map: (Int) -> Int = { $0 + 1 }  // a trailing comment, 10 ms of audio
    let url = "https://example.org//path"
}
'''

DIARIES = {
    "arrow": "/// Blocks of 128: analyze of 60 minutes 0.700 → 0.686 s.\nlet a = 1\n",
    "ascii arrow": "    // The table: 15.4 M -> 7.7 M once per process.\n    let b = 2\n",
    "tool": "/// This loop was 17 % of events' time (perf).\nlet c = 3\n",
    "callgrind": "// Two compares took 5.7 k instructions a transform (callgrind).\nlet d = 4\n",
    "hyperfine across lines": "/// Summing in Double made it slower\n/// (hyperfine: 1.32 s).\nlet e = 5\n",
    "phrase": "/// 60-minute WAV, 11 paired rounds: the same JSON.\nlet f = 6\n",
    "instructions": "// Hashing cost 0.6 M instructions per lookup.\nlet g = 7\n",
    "against": "/// One worker in turn took 5.5 s against 2.3 s for the file.\nlet h = 8\n",
    "from to": "/// A copy per chunk took the file from 30 to 41.5 MB.\nlet i = 9\n",
    "block comment": "/* The PNG writer: 1.82 → 1.09 s of CPU. */\nlet j = 10\n",
}

def run(directory):
    return subprocess.run([sys.executable, str(script), str(directory)], capture_output=True, text=True)

class CheckDiariesTests(unittest.TestCase):
    def test_clean_code_passes(self):
        with tempfile.TemporaryDirectory() as directory:
            (pathlib.Path(directory) / "Clean.swift").write_text(CLEAN)
            result = run(directory)
            self.assertEqual(result.returncode, 0, result.stderr)

    def test_each_planted_diary_is_found_with_its_line(self):
        for name, text in DIARIES.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as directory:
                path = pathlib.Path(directory) / "Sub" / "Planted.swift"
                path.parent.mkdir()
                path.write_text(CLEAN + text)
                result = run(directory)
                self.assertEqual(result.returncode, 1, name)
                first_line = CLEAN.count("\n") + 1
                self.assertIn(f"Planted.swift:{first_line}:", result.stderr, name)
                self.assertNotIn("Clean", result.stderr)

    def test_blocks_are_joined_across_lines(self):
        blocks = checker.comment_blocks("let a = 1\n/// one\n/// two\nlet b = 2\n// three\n")
        self.assertEqual(blocks, [(2, "one two"), (5, "three")])

if __name__ == "__main__":
    unittest.main()
