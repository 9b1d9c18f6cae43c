#!/usr/bin/env python3
"""Tests of scripts/check-budgets.py on planted sources (run by `make lint`)."""
import pathlib, subprocess, sys, tempfile, unittest

script = pathlib.Path(__file__).resolve().parent / "check-budgets.py"


def function(name, body_lines):
    return f"func {name}() {{\n" + "".join(f"    let x{i} = {i}\n" for i in range(body_lines)) + "}\n"


def check(files, strict=False):
    with tempfile.TemporaryDirectory() as directory:
        root = pathlib.Path(directory)
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text)
        done = subprocess.run([sys.executable, script, "--root", root] + (["--strict"] if strict else []), capture_output=True, text=True)
        return done.returncode, done.stderr + done.stdout


class CheckBudgetsTests(unittest.TestCase):
    def test_within_budgets_passes(self):
        code, output = check({"A.swift": function("short", 78)}, strict=True)  # 80 lines with its braces
        self.assertEqual(code, 0, output)
        self.assertIn("no function over 80 lines", output)

    def test_a_function_over_80_lines_is_reported_and_fails_when_strict(self):
        files = {"A.swift": "struct A {\n" + function("long", 79) + "}\n"}
        code, output = check(files)
        self.assertEqual(code, 0, output)
        self.assertIn("A.swift:2: long is 81 lines", output)
        code, output = check(files, strict=True)
        self.assertEqual(code, 1, output)

    def test_make_lint_runs_the_check_strictly(self):
        makefile = (script.parent.parent / "Makefile").read_text()
        recipe = makefile.split("\ncheck-budgets:\n", 1)[1].split("\n\n", 1)[0]
        self.assertIn("scripts/check-budgets.py --strict", recipe)
        self.assertIn("check-budgets", makefile.split("\nlint:", 1)[1].split("\n", 1)[0])

    def test_braces_in_strings_and_comments_do_not_end_a_function(self):
        text = 'func tricky() {\n    let s = "}}}"  // }\n    /* } */\n' + "".join(f"    let x{i} = {i}\n" for i in range(80)) + "}\n"
        code, output = check({"A.swift": text})
        self.assertIn("tricky is 84 lines", output)

    def test_a_file_over_450_lines_fails_unless_it_is_a_c_door(self):
        long_file = "".join(function(f"f{i}", 8) for i in range(46))  # 460 lines
        code, output = check({"A.swift": long_file})
        self.assertEqual(code, 1, output)
        self.assertIn("A.swift: 460 lines", output)
        code, output = check({"Door.swift": "import CSndFile\n" + long_file})
        self.assertEqual(code, 0, output)


if __name__ == "__main__":
    unittest.main()
