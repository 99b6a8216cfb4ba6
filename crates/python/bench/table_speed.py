"""g.table(max=15) for CN(7,4) against `nimlab table 'CN(7,4)' --max 15 --count-only` in one run.

    python crates/python/bench/table_speed.py [path/to/nimlab] [runs]

Both with the store off (the table is computed every time), alternating, each run timed from the
caller's side (the CLI including its process start). Prints every time, the medians and the ratio.
"""

import statistics
import subprocess
import sys
import time
from pathlib import Path

import nimlab

repo = Path(__file__).resolve().parents[3]
cli = sys.argv[1] if len(sys.argv) > 1 else str(repo / "target" / "release" / "nimlab")
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
g = nimlab.game("CN(7,4)", store=False)
py_times, cli_times = [], []
for _ in range(runs):
    t = time.perf_counter()
    table = g.table(max=15, progress=False)
    py_times.append(time.perf_counter() - t)
    t = time.perf_counter()
    subprocess.run([cli, "table", "CN(7,4)", "--max", "15", "--count-only", "--no-store"], check=True, capture_output=True)
    cli_times.append(time.perf_counter() - t)
assert table.info["count"] == 42856 and table.shape == (3707, 7)
print("python g.table(max=15):", " ".join(f"{x:.3f}" for x in py_times))
print("cli table --count-only:", " ".join(f"{x:.3f}" for x in cli_times))
mp, mc = statistics.median(py_times), statistics.median(cli_times)
print(f"median python {mp:.3f} s, cli {mc:.3f} s, ratio {mp / mc:.2f}")
