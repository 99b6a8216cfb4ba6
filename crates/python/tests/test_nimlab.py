"""The Python package against the command line, whose answers are checked elsewhere against
independent brute force: every built-in game on boxes of 1,000+ positions (Grundy values and
outcomes of every position, both conventions), the CLI's JSON on samples, bad input, Ctrl-C.

The CLI binary is $NIMLAB_BIN, else target/release/nimlab or target/debug/nimlab of this repository.
"""

import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import nimlab

from _common import REPO, cli_path as _cli_path


def cli(*args):
    out = subprocess.run([_cli_path(), *args, "--no-store"], capture_output=True, text=True)
    assert out.returncode == 0, (args, out.stderr)
    return json.loads(out.stdout)


# (game, bound options of `table`) with at least 1,000 positions each.
GAMES = [
    ("nim", {"max": 10, "heaps": 3}),
    ("moore(2)", {"max": 5, "heaps": 4}),
    ("CN(5,2)", {"max": 4}),
    ("CN(7,4)", {"max": 2}),
    ("SCN(4,2)", {"max": 6}),
    ("ET(3)", {"max_sum": 40}),
    ("EABO(3)", {"max_sum": 40}),
    ("ER(3)", {"max_sum": 40}),
    ("SER(3)", {"max_sum": 40}),
    ("EJR(4,2)", {"max_sum": 36}),
    ("ENTROPY(3)", {"max": 44}),
]


def table_args(bound):
    args = []
    for k, v in bound.items():
        args += ["--" + k.replace("_", "-"), str(v)]
    return args


@pytest.mark.parametrize("name,bound", GAMES)
def test_every_position_of_a_box_equals_the_cli(name, bound):
    g = nimlab.game(name, store=False)
    want = cli("table", name, *table_args(bound), "--grundy", "--json")
    values = want["values"]
    assert len(values) >= 1000, (name, len(values))
    for e in values:
        p = tuple(e["position"])
        got = g.analyse(p, grundy=True)
        assert got["grundy"] == e["grundy"], (name, p)
        assert got["outcome"] == ("P" if e["grundy"] == 0 else "N"), (name, p)
    # The table itself, through the same planner as the CLI.
    t = g.table(**bound, grundy=True, progress=False)
    if isinstance(t, np.ndarray):
        flat = np.asarray(t).reshape(-1).tolist()
    elif "values" in t:
        flat = t["values"].tolist()
    else:
        flat = [v for m in sorted(t) for v in np.asarray(t[m]).reshape(-1).tolist()]
    assert flat == [e["grundy"] for e in values]


@pytest.mark.parametrize("name,bound", GAMES)
def test_misere_p_sets_equal_the_cli(name, bound):
    g = nimlab.game(name, store=False)
    want = cli("table", name, *table_args(bound), "--misere", "--json")
    listed = [tuple(p) for p in want["positions"]]
    t = g.table(**bound, misere=True, progress=False)
    assert t.info["count"] == want["count"] and t.info["canonical_count"] == want["canonical_count"]
    assert [tuple(int(x) for x in row if not (name.startswith("SCN") and x == 0)) for row in t.tolist()] == listed
    for p in listed:
        assert g.outcome(p, misere=True) == "P", (name, p)
    # Every position of the bounded set: P exactly for the listed ones (up to symmetry).
    every = [tuple(e["position"]) for e in cli("table", name, *table_args(bound), "--grundy", "--json")["values"]]
    found = [p for p in every if g.outcome(p, misere=True) == "P"]
    if want.get("max_sum") is not None or name.startswith("ENTROPY"):
        assert found == [p for p in every if p in set(listed)]
    else:
        assert len(found) == want["count"]


@pytest.mark.parametrize("name,bound", GAMES)
def test_the_cli_json_on_samples(name, bound):
    g = nimlab.game(name, store=False)
    values = cli("table", name, *table_args(bound), "--grundy", "--json")["values"]
    for e in values[:: max(1, len(values) // 12)]:
        text = ",".join(str(x) for x in e["position"])
        # Whole objects: every key and value (Python's tuples are JSON's lists).
        for ask, flags in (("moves", {"moves": True}), ("grundy", {"grundy": True}), ("outcome", {})):
            want = cli(ask, name, text, "--json")
            got = json.loads(json.dumps(g.analyse(e["position"], **flags)))
            assert got == want, (name, text, ask)
        want = cli("moves", name, text, "--all", "--json")
        got = json.loads(json.dumps(g.analyse(e["position"], options=True)))
        assert got == want, (name, text, "options")


def test_positions_in_every_form():
    g = nimlab.game("CN(7,4)", store=False)
    forms = [(1, 7, 5, 6, 2, 3, 6), [1, 7, 5, 6, 2, 3, 6], np.array([1, 7, 5, 6, 2, 3, 6]), "1,7,5,6,2,3,6", "(1 7 5 6 2 3 6)"]
    assert {g.outcome(p) for p in forms} == {"N"}
    m = g.moves(forms[0])
    assert m.complete and m.method == "cn-7-4"
    # Every option, checked by hand-readable rule: the winning moves are the P-options.
    assert sorted(m) == sorted(o.position for o in g.options(forms[0]) if o.winning)
    er = nimlab.game("ER(7)", store=False)
    assert er.parse("1^5 2 10") == (1, 1, 1, 1, 1, 2, 10)
    # One notation per game: chip games in Ferguson's, as on the web page.
    assert er.format((1, 1, 1, 1, 1, 2, 10)) == "1^5 2 10"
    assert er.format((1, 1, 1, 1, 1, 2, 10), power=False) == "(1,1,1,1,1,2,10)"
    assert "-> 1^7" in er.explain("1^5 2 10")
    big = er.moves("1^5 2 1000000000000")
    assert big and not big.complete


def test_python_speaks_python():
    """Errors name keyword arguments, not command-line flags; bounds are checked as Python values."""
    assert isinstance(nimlab.__version__, str) and nimlab.__version__.count(".") == 2
    g = nimlab.game("CN(4,2)", store=False)
    for bad in ({"max": -1}, {"max": 3, "heaps": -2}):
        with pytest.raises(ValueError, match="non-negative"):
            g.table(**bad)
    with pytest.raises(ValueError, match="non-negative"):
        nimlab.game("ET(3)", store=False).table(max_sum=-5)
    with pytest.raises(ValueError) as e:
        nimlab.game("nim", store=False).table(max=3)
    assert "heaps=" in str(e.value) and "--" not in str(e.value), e.value
    with pytest.raises(nimlab.TooLarge) as e:
        nimlab.game("CN(4,2)", store=False, limit=1e3).table(max=64)
    assert "limit=" in str(e.value) and "--" not in str(e.value), e.value
    with pytest.raises(nimlab.TooLarge) as e:
        nimlab.game("CN(9,5)", store=False, limit=1e3).outcome((900,) * 9)
    assert "limit=" in str(e.value) and "--" not in str(e.value), e.value


def test_a_script_that_does_not_end_is_refused(tmp_path):
    """A scripted game whose options hold the position itself is refused in one line naming the
    move, by every call (no call runs forever)."""
    bad = tmp_path / "bad.rhai"
    bad.write_text("fn options(p) { [p] }\n")
    g = nimlab.game(str(bad), store=False)
    calls = [
        lambda: g.outcome((5,)),
        lambda: g.grundy((5,)),
        lambda: g.moves((5,)),
        lambda: g.table(max=5, heaps=1),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"the move \(\d\) -> \(\d\) does not descend") as e:
            call()
        assert "\n" not in str(e.value), e.value


def test_table_ordered_lists_every_ordered_p_position():
    """``ordered=True``: every tuple of the box whose symmetry class is a P-class, checked against the
    outcome of every tuple of the box."""
    for name, bound in (("CN(5,2)", {"max": 4}), ("nim", {"max": 5, "heaps": 3}), ("SCN(4,2)", {"max": 4})):
        g = nimlab.game(name, store=False)
        t = g.table(**bound, ordered=True, progress=False)
        assert t.info["listed"] == "ordered" and len(t) == t.info["count"], name
        rows = {tuple(int(x) for x in r if not (name.startswith("SCN") and x == 0)) for r in t.tolist()}
        every = [tuple(e["position"]) for e in cli("table", name, *table_args(bound), "--grundy", "--json")["values"]]
        assert rows == {p for p in every if g.outcome(p) == "P"}, name
        assert g.table(**bound, progress=False).info["listed"] == "canonical"


def test_tables_past_63():
    """Entries past 63 (the engine's lines longer than one word): Nim's P-positions are the XOR-zero
    triples (Bouton), its Grundy values their XOR, CN(4,2)'s P-positions the (a,b,a,b) (Dufour and
    Heubach)."""
    g = nimlab.game("nim", store=False)
    t = g.table(max=100, heaps=3, ordered=True, progress=False)
    assert t.info["method"] == "engine", t.info
    want = {(a, b, a ^ b) for a in range(101) for b in range(101) if a ^ b <= 100}
    assert {tuple(int(x) for x in r) for r in t.tolist()} == want
    v = g.table(max=70, heaps=2, grundy=True, progress=False)
    assert v.info["method"] == "engine", v.info
    assert [int(x) for x in v.flatten().tolist()] == [a ^ b for a in range(71) for b in range(71)]
    c = nimlab.game("CN(4,2)", store=False).table(max=90, ordered=True, progress=False)
    assert {tuple(int(x) for x in r) for r in c.tolist()} == {(a, b, a, b) for a in range(91) for b in range(91)}


def test_grundy_is_remembered():
    """Asking again gives the same answer (from the game's memory: the analysis crate's test
    grundy_routes checks that nothing is searched again)."""
    g = nimlab.game("CN(7,4)", store=False)
    p = (2, 3, 2, 3, 2, 3, 1)
    first = g.analyse(p, grundy=True)
    assert first["grundy"] == g.grundy(p) == g.grundy(p)
    assert g.analyse(p, grundy=True) == first


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError):
        nimlab.game("CN(3,5)")
    with pytest.raises(ValueError):
        nimlab.game("no-such-game")
    g = nimlab.game("CN(4,2)", store=False)
    for bad in [(1, 2, 3), (1, -2, 3, 4), "a,b,c,d", [1.5, 2, 3, 4], None]:
        with pytest.raises(ValueError):
            g.outcome(bad)
    with pytest.raises(ValueError):
        g.table(max=3, heaps=5)
    with pytest.raises(ValueError):
        g.table(max=3, max_sum=5)
    with pytest.raises(ValueError):
        nimlab.game("ET(3)", store=False).table(max_sum=10, method="engine")
    with pytest.raises(nimlab.TooLarge):
        nimlab.game("CN(4,2)", store=False, limit=1e3).table(max=64)
    assert issubclass(nimlab.TooLarge, ValueError)
    with pytest.raises(ValueError):
        nimlab.verify("CN(7,4)", theorem="no-such-result", max=2)


def test_sums_and_verify():
    nim, et = nimlab.game("nim", store=False), nimlab.game("ET(2)", store=False)
    s = nim[(5,)] + et[(31, 54)]
    # Bouton: nim(5) has value 5; Ferguson's Proposition 3 gives ET(2)(31,54) the value 6.
    assert s.grundy() == 5 ^ 6
    want = cli("moves", "nim[5] + ET(2)[31,54]", "--json")
    got = json.loads(json.dumps(s.analyse(moves=True)))
    assert got == want
    r = nimlab.verify("CN(7,4)", theorem="cn-7-4", max=3)
    assert r["holds"] and r["positions"] == 4**7
    bad = nimlab.verify("CN(4,2)", conjecture=str(REPO / "examples" / "cn42-wrong.rhai"), max=4)
    assert not bad["holds"] and bad["counterexamples"]


def test_tables_store_and_draw(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    g = nimlab.game("CN(4,2)", db=db)
    t = g.table(max=6, progress=False)
    # CN(4,2): the P-positions are (a,b,a,b) (Dufour and Heubach), 49 ordered tuples in [0..6]^4.
    assert t.info["count"] == 49 and t.info["method"] == "engine"
    assert all(r[0] == r[2] and r[1] == r[3] for r in t.tolist())
    again = g.table(max=6, progress=False)
    assert again.info["method"] == "store" and np.array_equal(t, again)
    assert g.analyse((1, 2, 1, 2))["method"].startswith(("cn-4-2", "store"))
    assert "<table>" in t._repr_html_()
    assert g[(1, 2, 1, 2)]._repr_svg_().startswith("<svg")
    values = nimlab.game("nim", store=False).table(max=7, heaps=2, grundy=True, progress=False)
    assert values.shape == (8, 8)
    assert all(values[a, b] == a ^ b for a in range(8) for b in range(8))


def test_theory_and_games():
    ids = {t["id"] for t in nimlab.theory()}
    assert {"bouton", "cn-7-4"} <= ids
    assert {t["id"] for t in nimlab.theory("CN(7,4)")} >= {"cn-7-4"}
    names = [e["name"] for e in nimlab.games()]
    assert "CN(n,k)" in names


def _interrupted_at(phase, call, tmp_path, env=None):
    """Runs `call` (Python source, with `nimlab`, `REPO` and `DB` defined) in a child that holds at
    `phase` (NIMLAB_HOLD_AT: the run writes "nimlab: holding at PHASE" and waits there until it is
    cancelled), sends SIGINT once it holds, and returns what the child printed: "interrupted" when
    the call raised KeyboardInterrupt. No timing is involved: the signal arrives inside the phase
    on a fast or a slow machine alike."""
    script = textwrap.dedent(
        f"""
        import nimlab, pathlib
        REPO = pathlib.Path({str(REPO)!r})
        DB = {str(tmp_path / "t.sqlite3")!r}
        try:
            {call}
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, NIMLAB_HOLD_AT=phase, **(env or {})),
        # A child of a shell's background job inherits SIGINT ignored, and Python then leaves it
        # ignored (no KeyboardInterrupt): what failed in CI. The child starts as a terminal's does.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    seen = []
    for line in child.stderr:
        seen.append(line)
        if line.strip() == f"nimlab: holding at {phase}":
            break
    else:
        out, _ = child.communicate(timeout=120)
        pytest.fail(f"the call never reached the phase {phase}: {out!r} {''.join(seen)!r}")
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    return out.strip()


def _stored(db):
    listed = subprocess.run([_cli_path(), "store", "list", "--json", "--db", str(db)], capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    # `store list` also shows checkpoints (unfinished tables, "complete": false): not stored tables.
    return [e for e in json.loads(listed.stdout) if e.get("complete", True)]


def _checkpoints(db):
    folder = pathlib.Path(str(db) + ".checkpoints")
    return sorted(folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize("phase", ["table-lookup", "table-compute"])
def test_ctrl_c_stops_a_table_stores_nothing_and_keeps_its_checkpoint(tmp_path, phase):
    db = tmp_path / "t.sqlite3"
    call = 'nimlab.game("CN(7,4)", db=DB).table(max=11, progress=False)'
    assert _interrupted_at(phase, call, tmp_path) == "interrupted"
    assert _stored(db) == []
    if phase == "table-lookup":
        assert _checkpoints(db) == []
        return
    # The engine had finished a diagonal: its checkpoint stays, and the next call continues from it.
    assert len(_checkpoints(db)) == 1
    t = nimlab.game("CN(7,4)", db=str(db)).table(max=11, progress=False)
    assert t.info["resumed"] is not None and t.info["method"] == "engine"
    fresh = nimlab.game("CN(7,4)", store=False).table(max=11, progress=False)
    assert fresh.info["resumed"] is None
    assert np.array_equal(t, fresh) and t.info["count"] == fresh.info["count"]
    assert _checkpoints(db) == [] and len(_stored(db)) == 1


def test_ctrl_c_while_a_finished_table_is_saved_loses_nothing(tmp_path):
    db = tmp_path / "t.sqlite3"
    call = 'nimlab.game("CN(4,2)", db=DB).table(max=6, progress=False)'
    assert _interrupted_at("table-save", call, tmp_path) == "interrupted"
    # The table was complete: it is stored whole. CN(4,2): (a,b,a,b), 49 ordered tuples in [0..6]^4.
    assert len(_stored(db)) == 1
    again = nimlab.game("CN(4,2)", db=str(db)).table(max=6, progress=False)
    assert again.info["method"] == "store" and again.info["count"] == 49


def test_ctrl_c_stops_a_grundy_table(tmp_path):
    db = tmp_path / "t.sqlite3"
    call = 'nimlab.game("CN(5,3)", db=DB).table(max=14, grundy=True, progress=False)'
    assert _interrupted_at("table-compute", call, tmp_path) == "interrupted"
    assert _stored(db) == []


def test_ctrl_c_stops_the_search_and_verify(tmp_path):
    game = 'nimlab.game(str(REPO / "examples" / "subtraction.rhai"), store=False, limit=1e12)'
    assert _interrupted_at("search", f"{game}.analyse((20000,))", tmp_path) == "interrupted"
    call = 'nimlab.verify("CN(4,2)", conjecture=str(REPO / "examples" / "cn42-wrong.rhai"), max=6)'
    assert _interrupted_at("verify", call, tmp_path) == "interrupted"


def test_ctrl_c_stops_prove_and_discover(tmp_path):
    call = 'nimlab.prove("CN(6,4)", theorem="cn-6-4", automata=True)'
    assert _interrupted_at("automata", call, tmp_path) == "interrupted"
    _need("z3", shutil.which("z3") is not None, "z3 is not installed")
    # The solver's process is stopped with the call, not left to its own time limit.
    call = 'nimlab.prove("CN(7,4)", theorem="cn-7-4")'
    assert _interrupted_at("solver", call, tmp_path) == "interrupted"
    call = 'nimlab.discover("CN(5,4)", store=False)'
    assert _interrupted_at("solver", call, tmp_path) == "interrupted"


def test_ctrl_c_inside_the_progress_callback_cancels_the_table(tmp_path):
    # The signal arrives while the callback runs (here it sends it itself), so KeyboardInterrupt is
    # raised from the callback: the table must still be cancelled, not left to finish and be stored.
    db = tmp_path / "t.sqlite3"
    script = textwrap.dedent(
        f"""
        import os, signal, nimlab
        signal.signal(signal.SIGINT, signal.default_int_handler)
        def progress(done, total):
            os.kill(os.getpid(), signal.SIGINT)
        try:
            nimlab.game("CN(7,4)", db={str(db)!r}).table(max=16, progress=progress)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        """
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "interrupted", run.stderr
    assert _stored(db) == []
    # Cancelled (not abandoned to run on): it stopped at its next diagonal and wrote its checkpoint.
    assert len(_checkpoints(db)) == 1


def test_prove_cross_checks_with_two_solvers_and_checks_a_box():
    _need("z3", shutil.which("z3") is not None, "z3 is not installed")
    _need("cvc5", shutil.which("cvc5") is not None, "cvc5 is not installed")
    r = nimlab.prove("CN(4,2)", theorem="cn-4-2", cross_check=True)
    assert r["verdict"] == "proved"
    assert [s["name"] for s in r["solvers"]] == ["z3", "cvc5"]
    for c in r["conditions"]:
        for q in c["queries"]:
            assert [a["answer"] for a in q["answers"]] == ["unsat", "unsat"]
    # The exact check on a box before "proved": [0..10]^4 (11^4 = 14641; 12^4 = 20736 > 20000).
    assert r["box_check"] == {"lo": 0, "hi": 10, "max_sum": None, "positions": 14641}


def test_json_numbers_past_2_64_are_exact():
    # Nim on the complex {1,2},{3}: the facet totals 2^64 and 0, so the Grundy value is 2^64.
    a = nimlab.game("simplicial({1,2},{3})", store=False).analyse((2**64 - 1, 1, 0))
    assert a["grundy"] == 2**64 and a["outcome"] == "N"


def _need(tool, found, why):
    """A test that needs an outside tool, by the rule of nimlab_testkit::tools: with
    NIMLAB_REQUIRE_<TOOL>=1 it fails without the tool; unset, empty or 0, it is skipped; any other
    value is a mistake and fails."""
    var = "NIMLAB_REQUIRE_" + tool.upper()
    value = os.environ.get(var, "")
    if value not in ("", "0", "1"):
        pytest.fail(f"{var}={value}: use 1 (the tool is required) or 0 (skip without it)")
    if found:
        return
    if value == "1":
        pytest.fail(f"{var}=1 but {why}")
    pytest.skip(why)


def _cn74_results(scope):
    assert scope["report"]["holds"]
    assert scope["ordered"][0] == 1  # [0..0]^7: only the terminal position, a P-position


def _nim3_results(scope):
    # Bouton: one P-position (a, b, a ^ b) for each pair of heaps a, b <= 31 of the box.
    assert scope["t"].shape == (32 * 32, 3)
    assert scope["found"]["verdict"] == "proved" and scope["found"]["format"] == "automaton"
    assert scope["proof"]["verdict"] == "proved" and scope["proof"]["range"] == "all"
    # In misère play the empty position is not a P-position: refuted there.
    assert scope["misere"]["verdict"] == "refuted"


@pytest.mark.parametrize(
    "name, results", [("cn74.ipynb", _cn74_results), ("nim3.ipynb", _nim3_results)]
)
def test_the_notebook_runs(name, results):
    """The code cells of each notebook of examples/notebooks, run in order (needs matplotlib;
    skipped without it unless NIMLAB_REQUIRE_NOTEBOOK=1, as in CI), and what it finds."""
    import importlib.util

    _need("notebook", importlib.util.find_spec("matplotlib") is not None, "matplotlib is not installed")
    import matplotlib

    matplotlib.use("Agg")
    nb = json.loads((REPO / "examples" / "notebooks" / name).read_text())
    scope = {}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), name, "exec"), scope)
    results(scope)


def test_every_notebook_is_run():
    """A notebook added to examples/notebooks is run by test_the_notebook_runs."""
    names = sorted(p.name for p in (REPO / "examples" / "notebooks").glob("*.ipynb"))
    assert names == ["cn74.ipynb", "nim3.ipynb"]


def test_the_readme_python_section_runs(tmp_path, monkeypatch):
    """The Python examples of the README and of the guide (docs/guide.md), pasted as written (with
    their own store file)."""
    monkeypatch.setenv("NIMLAB_DB", str(tmp_path / "readme.sqlite3"))
    readme = (REPO / "README.md").read_text()
    block = readme.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(block, "README.md", "exec"), {})
    text = (REPO / "docs" / "guide.md").read_text()
    block = text.split("## Python", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    scope = {}
    exec(compile(block, "docs/guide.md", "exec"), scope)
    assert scope["m"].complete and scope["m"].method == "cn-7-4" and len(scope["m"]) == 2
    assert scope["t"].shape == (3707, 7) and scope["t"].info["count"] == 42856
    assert scope["s"].grundy() == 3
    assert (scope["k"].period, scope["k"].preperiod, scope["k"].status) == (12, 71, "proved")


def test_prove(tmp_path):
    """Theorem 2 of the CN(7,4) paper for every stack size, and a wrong variant refuted (needs z3;
    skipped without it unless NIMLAB_REQUIRE_Z3=1)."""
    import shutil

    _need("z3", shutil.which("z3") is not None, "z3 is not installed")
    r = nimlab.prove("CN(7,4)", theorem="cn-7-4")
    assert r["verdict"] == "proved" and r["range"] == "all"
    # xor families: only below 2^bits, and refused without bits.
    r = nimlab.prove("CN(6,4)", theorem="cn-6-4", bits=3)
    assert r["verdict"] == "proved" and r["range"] == "entries < 2^3" and r["bits"] == 3
    r = nimlab.prove("CN(6,4)", theorem="cn-6-4", automata=True)
    assert r["verdict"] == "proved" and r["range"] == "all" and r["method"] == "automata"
    # A partial result (Lemma 5 of the CN(7,4) paper): its members are P-positions, condition (C).
    r = nimlab.prove("CN(7,4)", theorem="cn-lemma5-s1")
    assert r["verdict"] == "proved" and r["claim"] == "subset", r
    assert [c["condition"] for c in r["conditions"]] == ["C"]
    r = nimlab.prove("CN(7,4)", theorem="cn-7-4", subset=True, automata=True)
    assert r["verdict"] == "proved" and r["claim"] == "subset", r
    with pytest.raises(ValueError, match="bits"):
        nimlab.prove("CN(6,4)", theorem="cn-6-4", automata=True, bits=3)
    # Misère play: Bouton's misère rule proved for every heap size, the normal rule refuted under
    # misère play at the terminal position; a built-in result keeps its convention.
    r = nimlab.prove("CN(3,1)", theorem="bouton-misere", misere=True, automata=True)
    assert r["verdict"] == "proved" and r["play"] == "misere", r
    r = nimlab.prove("CN(3,1)", theorem="bouton", misere=False, automata=True)
    assert r["verdict"] == "proved", r
    with pytest.raises(ValueError, match="misere=True"):
        nimlab.prove("CN(3,1)", theorem="bouton-misere", automata=True)
    with pytest.raises(ValueError, match="drop misere=True"):
        nimlab.prove("CN(3,1)", theorem="bouton", misere=True, automata=True)
    path = str(REPO / "examples" / "nim-misere-3.toml")
    assert nimlab.prove("CN(3,1)", families=path, misere=True, automata=True)["verdict"] == "proved"
    assert nimlab.prove("CN(3,1)", families=path, automata=True)["verdict"] == "refuted"
    with pytest.raises(ValueError, match="bits="):
        nimlab.prove("CN(6,4)", theorem="cn-6-4")
    assert [c["condition"] for c in r["conditions"]] == ["I", "II", "III"]
    text = (REPO / "examples" / "cn74.toml").read_text()
    lines = [l for l in text.splitlines()]
    # Drop the family S4: condition (II) must fail (S4's members have no move into S1-S3).
    out, skip = [], False
    for l in lines:
        if l.strip() == "[[family]]":
            skip = False
        if l.strip() == 'name = "S4"':
            skip = True
            out = out[: len(out) - 1]
            continue
        if not skip:
            out.append(l)
    wrong = tmp_path / "cn74-without-s4.toml"
    wrong.write_text("\n".join(out) + "\n")
    r = nimlab.prove("CN(7,4)", families=str(wrong))
    assert r["verdict"] == "refuted"
    ii = [c for c in r["conditions"] if c["condition"] == "II"][0]
    p = ii["counterexample"]["position"]
    g = nimlab.game("CN(7,4)", store=False)
    # Without S4, a counterexample to (II) is outside S1-S3 with no option in S1-S3: by Theorem 2
    # (whose answers name the family), it is in S4 itself, or every P-option it has is in S4.
    family = lambda q: g.analyse(q, explain=True)["explanation"]["family"]
    if g.outcome(p) == "P":
        assert family(p) == "S4", p
    else:
        winning = g.moves(p)
        assert winning and all(family(q) == "S4" for q in winning), (p, winning)
    with pytest.raises(ValueError):
        nimlab.prove("CN(7,4)", theorem="cn-7-4", solver="/nonexistent/z3")


def _ejr42_p_totals(top):
    """The totals n >= 4 of EJR(4,2)'s P-positions by the recurrence (a total is a P-total when some
    split into four positive boxes has no two boxes whose total is a P-total), written for the test."""
    t = [False] * (top + 1)
    for n in range(4, top + 1):
        for a in range(1, n):
            for b in range(a, n):
                for c in range(b, n):
                    d = n - a - b - c
                    if d < c:
                        continue
                    x = (a, b, c, d)
                    if all(not t[x[i] + x[j]] for i in range(4) for j in range(i + 1, 4)):
                        t[n] = True
    return t


def test_discover_on_a_chip_game_by_its_totals(tmp_path):
    _need("z3", shutil.which("z3") is not None, "z3 is not installed")
    out = tmp_path / "ejr42.txt"
    r = nimlab.discover("EJR(4,2)", max_sum=40, store=False, out=str(out))
    assert r["verdict"] == "proved", r
    t = r["totals"]
    brute = _ejr42_p_totals(40)
    for n in range(4, 41):
        said = n in t["exceptions"] if n < t["threshold"] else n % t["period"] in t["residues"]
        assert said == brute[n], (n, t)
    # The chip families file it wrote is proved again by prove.
    assert nimlab.prove("EJR(4,2)", families=str(out))["verdict"] == "proved"
    with pytest.raises(ValueError, match="max-sum|max_sum|total"):
        nimlab.discover("EJR(4,2)", max=40, store=False)


def test_prove_takes_chip_games_and_heaps():
    _need("z3", shutil.which("z3") is not None, "z3 is not installed")
    r = nimlab.prove("EABO(3)", theorem="ferguson-eabo")
    assert r["verdict"] == "proved", r
    r = nimlab.prove("ET(3)", theorem="ferguson-et-two-even")
    assert r["verdict"] == "proved" and r["claim"] == "N-positions", r
    with pytest.raises(ValueError, match="misere=True"):
        nimlab.prove("EABO(3)", theorem="ferguson-eabo-misere")
    with pytest.raises(ValueError, match="heaps="):
        nimlab.prove("EABO(3)", theorem="ferguson-eabo", heaps=3)
    # ET(3)'s rule on 2-adic valuations for every box size, by automata.
    r = nimlab.prove("ET(3)", theorem="ferguson-et-k3", automata=True)
    assert r["verdict"] == "proved" and r["states"], r
    # nim with heaps is CN(N,1): Bouton's rule on three heaps.
    r = nimlab.prove("nim", theorem="bouton", heaps=3, automata=True)
    assert r["verdict"] == "proved", r


def test_prove_is_the_command_lines_request(tmp_path):
    """Python's prove takes every source the command line takes: an automaton file, a certificate
    (emit=), the Grundy value sets; refusals name the keywords."""
    _need("z3", shutil.which("z3") is not None, "z3 is not installed")
    nim3 = str(REPO / "examples" / "automata" / "nim-3.txt")
    r = nimlab.prove("CN(3,1)", automaton=nim3)
    assert r["verdict"] == "proved" and r["method"] == "automata", r
    # Bouton's rule for three heaps is the set of even parity in every column: the normal rule, so
    # misère play refutes it at the terminal position (0, 0, 0).
    r = nimlab.prove("CN(3,1)", automaton=nim3, misere=True)
    assert r["verdict"] == "refuted", r
    with pytest.raises(ValueError, match="subset=True"):
        nimlab.prove("CN(3,1)", automaton=nim3, subset=True)
    with pytest.raises(ValueError, match="exactly one"):
        nimlab.prove("CN(3,1)", automaton=nim3, theorem="bouton")
    cert = tmp_path / "cert"
    r = nimlab.prove("CN(4,2)", theorem="cn-4-2", emit=str(cert))
    assert r["verdict"] == "proved", r
    assert r["files"] and all((cert / pathlib.Path(f).name).exists() for f in r["files"]), r
    r = nimlab.prove("ENTROPY(3)", grundy_value=1, automata=True)
    assert r["verdict"] == "proved" and r["proved"] == 2, r
    with pytest.raises(ValueError, match="automata=True"):
        nimlab.prove("ET(3)", grundy_value=1)
    with pytest.raises(ValueError, match="subset=True"):
        nimlab.prove("EABO(3)", theorem="ferguson-eabo", subset=True)


def _kayles_brute(n_max):
    """Kayles by the mex over its options, from the rules: knock down one pin or two adjacent pins
    of a row, leaving zero, one or two rows."""
    g = []
    for n in range(n_max + 1):
        opts = set()
        for j in (1, 2):
            if j > n:
                continue
            r = n - j
            for a in range(r // 2 + 1):
                opts.add(g[a] ^ g[r - a])
        v = 0
        while v in opts:
            v += 1
        g.append(v)
    return g


def test_sequence_of_kayles_with_its_period():
    for method in ("auto", "plain", "sparse"):
        s = nimlab.sequence("octal(0.77)", max=200, method=method)
        assert isinstance(s, np.ndarray) and s.dtype.kind == "u"
        assert s.shape == (201,)
        assert s.tolist() == _kayles_brute(200)
    # Kayles: period 12 from n = 71 (last exceptional value g(70) = 6), proved within 200 heaps.
    assert (s.period, s.preperiod, s.status) == (12, 71, "proved")
    assert s.info["last_exceptional"] == 70 and s.info["saltus"] == 0
    assert s.info["proof"] == "guy-smith"
    assert s.info["largest"]["value"] == max(_kayles_brute(200))
    # The bare code reads as octal(...); a slice keeps the info.
    t = nimlab.sequence("0.77", max=100)
    assert t.info["game"] == "octal(0.77)" and t[:10].info["game"] == "octal(0.77)"
    # 100 heaps hold fewer than three periods after 71: no period reported.
    assert t.period is None and t.status == "none"
    with pytest.raises(ValueError):
        nimlab.sequence("nim", max=10)
    with pytest.raises(ValueError):
        nimlab.sequence("octal(0.77)", max=-1)
