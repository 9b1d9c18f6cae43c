#!/usr/bin/env python3
"""Tests of scripts/check-layers.py on small planted trees (run by `make lint`)."""
import pathlib, subprocess, sys, tempfile, unittest

script = pathlib.Path(__file__).resolve().parent / "check-layers.py"


def check(files):
    with tempfile.TemporaryDirectory() as directory:
        root = pathlib.Path(directory)
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        done = subprocess.run([sys.executable, script, "--root", root], capture_output=True, text=True)
        return done.returncode, done.stderr


class CheckLayersTests(unittest.TestCase):
    def test_a_tree_without_cycles_passes(self):
        code, errors = check({
            "Support/Lock.swift": "struct Lock {}\n",
            "IO/CachedFile.swift": "struct CachedFile { let lock = Lock() }\n",
            "Analysis/Levels/LevelStatistics.swift": "struct LevelStatistics { let lock: Lock }\n",
            "Analysis/Analyze/SignalAnalyzer.swift": "struct SignalAnalyzer { let levels: LevelStatistics; let file: CachedFile }\n",
        })
        self.assertEqual(code, 0, errors)

    def test_a_cycle_between_layers_fails(self):
        code, errors = check({
            "Support/Lock.swift": "struct Lock { let file: CachedFile? = nil }\n",
            "IO/CachedFile.swift": "struct CachedFile { let lock = Lock() }\n",
        })
        self.assertEqual(code, 1)
        self.assertIn("cycle between layers: IO → Support → IO", errors)
        self.assertIn("Support/Lock.swift names CachedFile", errors)

    def test_a_cycle_between_a_layers_folders_fails(self):
        code, errors = check({
            "Analysis/Levels/LevelStatistics.swift": "struct LevelStatistics { var gate = Loudness.absoluteGate }\n",
            "Analysis/Loudness/Loudness.swift": "struct Loudness { static let absoluteGate = -70.0; var levels: [LevelStatistics] }\n",
            "Analysis/Analyze/SignalAnalyzer.swift": "struct SignalAnalyzer { let loudness: Loudness }\n",
        })
        self.assertEqual(code, 1)
        self.assertIn("cycle between Analysis/ folders: Analysis/Levels → Analysis/Loudness → Analysis/Levels", errors)

    def test_a_name_in_a_comment_or_string_is_not_a_dependency(self):
        code, errors = check({
            "Support/Lock.swift": "// CachedFile locks with this\nstruct Lock { let what = \"CachedFile\" }\n",
            "IO/CachedFile.swift": "struct CachedFile { let lock = Lock() }\n",
        })
        self.assertEqual(code, 0, errors)

    def test_a_stage_naming_presentation_code_fails(self):
        code, errors = check({
            "Output/JSONValue.swift": "enum JSONValue {}\n",
            "Spectral/PowerSpectrum.swift": "struct PowerSpectrum { var json: JSONValue? }\n",
        })
        self.assertEqual(code, 1)
        self.assertIn("Spectral/PowerSpectrum.swift names JSONValue", errors)


if __name__ == "__main__":
    unittest.main()
