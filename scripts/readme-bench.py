#!/usr/bin/env python3
"""Times every README and guide (docs/guide.md) example as a whole process.

    scripts/readme-bench.py [--bin target/release/nimlab] [--rounds 3] [--json FILE]

Reads the `nimlab ...` lines of README.md's ```sh blocks exactly as crates/cli/tests/readme.rs does
(play and serve are skipped: they wait for a person), and runs them in order, each round in a fresh
folder with a fresh store (NIMLAB_DB), as the README test does, so examples that build on an earlier
one (a table, then its export) see the same state. Prints each example's minimum and median wall
time over the rounds, marks those over 1 s, and fails (exit 1) when an example's README comment does
not mention a time although its median is over 1 s, or when an example exits other than as its
comment says.
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def examples():
    out, in_sh = [], False
    text = ""
    for name in ("README.md", os.path.join("docs", "guide.md")):
        with open(os.path.join(ROOT, name), encoding="utf-8") as g:
            text += g.read() + "\n"
    import io
    with io.StringIO(text) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("```"):
                in_sh = (not in_sh) and line.strip() == "```sh"
                continue
            if not in_sh or not line.startswith("nimlab "):
                continue
            lexer = shlex.shlex(line, posix=True)
            lexer.whitespace_split = True
            lexer.commenters = "#"
            words = list(lexer)
            comment = line.split(" #", 1)[1].strip() if " #" in line else ""
            if words[1] in ("play", "serve"):
                continue
            out.append((line, words[1:], comment))
    return out


# A comment that names a time: "(about 3 s)", "(a few seconds)", "(~2 s)", "minutes".
TIME_WORDS = re.compile(r"\b(\d+(\.\d+)?\s*(s|ms|seconds?|minutes?|min)\b|a few seconds|seconds)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/nimlab"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", help="also write the figures as JSON to this file")
    a = ap.parse_args()
    exe = os.path.abspath(a.bin)
    if not os.access(exe, os.X_OK):
        sys.exit(f"readme-bench: {exe} is not an executable (cargo build --release first)")
    exs = examples()
    times = [[] for _ in exs]
    bad = []
    for r in range(a.rounds):
        with tempfile.TemporaryDirectory(prefix="nimlab-readme-bench-") as d:
            os.symlink(os.path.join(ROOT, "examples"), os.path.join(d, "examples"))
            env = dict(os.environ, NIMLAB_DB=os.path.join(d, "store.sqlite3"))
            for i, (line, args, comment) in enumerate(exs):
                t0 = time.perf_counter()
                p = subprocess.run([exe] + args, cwd=d, env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
                times[i].append(time.perf_counter() - t0)
                want = 1 if "exit 1" in comment else 0
                if p.returncode != want and r == 0:
                    bad.append(f"{line}\n  exit {p.returncode}, expected {want}: {p.stderr.strip()}")
        print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
    rows, slow_unsaid = [], []
    print(f"{'min s':>8} {'median s':>9}  example")
    for (line, args, comment), ts in zip(exs, times):
        lo, med = min(ts), statistics.median(ts)
        flag = " > 1 s" if med > 1.0 else ""
        cmd = "nimlab " + " ".join(shlex.quote(w) for w in args)
        print(f"{lo:8.3f} {med:9.3f}  {cmd}{flag}")
        rows.append({"example": cmd, "min_s": round(lo, 4), "median_s": round(med, 4)})
        if med > 1.0 and not TIME_WORDS.search(comment):
            slow_unsaid.append(cmd)
    n_fast = sum(1 for r in rows if r["median_s"] < 0.05)
    print(f"{len(rows)} examples, {a.rounds} rounds; {n_fast} under 50 ms (median); "
          f"{sum(1 for r in rows if r['median_s'] > 1)} over 1 s")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"bin": exe, "rounds": a.rounds, "examples": rows}, f, indent=1)
    for b in bad:
        print("readme-bench: " + b, file=sys.stderr)
    for s in slow_unsaid:
        print(f"readme-bench: over 1 s but its README comment names no time: {s}", file=sys.stderr)
    sys.exit(1 if bad or slow_unsaid else 0)


if __name__ == "__main__":
    main()
