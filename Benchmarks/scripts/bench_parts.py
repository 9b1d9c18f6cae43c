"""What the benchmark parts run_bench.py imports share (scan_bench, replaygain_bench,
duplicates_bench): one hyperfine run of several commands, and the report of a part run alone.
"""
import json, subprocess, tempfile


def hyperfine(commands, runs, prepare=None):
    """Median, min and max wall seconds of each (name, command), in one hyperfine run."""
    with tempfile.NamedTemporaryFile(suffix=".json") as export:
        arguments = ["hyperfine", "--style", "none", "--runs", str(runs), "--export-json", export.name]
        for name, command in commands:
            if prepare:
                arguments += ["--prepare", prepare]
            arguments += ["-n", name, command]
        subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL)
        results = json.load(open(export.name))["results"]
    return {result["command"]: {"median": result["median"], "min": result["min"], "max": result["max"]} for result in results}


def print_part(groups, targets):
    """A part run alone (`X_bench.py SIGNALPATH DATA_DIR`): the load, each row, each target."""
    print("load average (1, 5, 15 min):", " ".join(open("/proc/loadavg").read().split()[:3]))
    for title, commands, results, _ in groups:
        print(title)
        for name, _ in commands:
            r = results[name]
            cpu = f", CPU {r['cpu']:.3f} s" if "cpu" in r else ""
            print(f"  {name}: {r['median']:.3f} s ({r['min']:.3f}–{r['max']:.3f}){cpu}")
    for name, value, limit, relation in targets:
        print(f"{name}: {value:.2f} (target {relation} {limit})")
