"""One answer, written once: the same questions asked through the command line's ``--json``, the web
API (``nimlab serve``: ``/api/answer``, ``/api/sum``, ``/api/theory``, ``/api/games``) and Python must
give identical objects, compared whole (every key, every value).

Positions are small enough that every front end's limits answer them the same way (the web server's
limits are the smallest), and no store is used (``NIMLAB_DB=off``). The CLI binary is $NIMLAB_BIN,
else target/release/nimlab or target/debug/nimlab of this repository.
"""

import json
import os
import subprocess
import urllib.error
import urllib.parse
import urllib.request

import pytest

import nimlab

from _common import cli_path as _cli_path

ENV = dict(os.environ, NIMLAB_DB="off")


@pytest.fixture(scope="module")
def server():
    """`nimlab serve` on a free port; its base URL."""
    child = subprocess.Popen(
        [_cli_path(), "serve", "--port", "0"], stdout=subprocess.PIPE, text=True, env=ENV
    )
    try:
        line = child.stdout.readline()
        assert "http://" in line, line
        url = line.split("http://", 1)[1].split("/", 1)[0]
        yield f"http://{url}"
    finally:
        child.kill()
        child.wait(timeout=30)


def cli(*args):
    out = subprocess.run([_cli_path(), *args, "--json"], capture_output=True, text=True, env=ENV)
    assert out.returncode == 0, (args, out.stderr)
    return json.loads(out.stdout)


def web(base, path, **params):
    q = urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})
    try:
        with urllib.request.urlopen(f"{base}{path}?{q}", timeout=60) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        pytest.fail(f"{path}?{q}: HTTP {e.code}: {e.read()!r}")


def plain(x):
    """Python's answer in JSON's terms (tuples become lists), for comparing with the others."""
    return json.loads(json.dumps(x))


# (question, game, position, misère)
POSITION_QUESTIONS = [
    ("outcome", "nim", "3,5,7", False),
    ("outcome", "nim", "1000000000000000000,3,5", False),
    ("outcome", "nim", "3,5,7", True),
    ("grundy", "nim", "3,5,6", False),
    ("moves", "nim", "3,5,7", False),
    ("moves", "nim", "3,5,7", True),
    ("moves", "nim", "1000000000000000000,3,5", False),
    ("options", "nim", "2,3", False),
    ("explain", "nim", "3,5,7", False),
    ("outcome", "moore(2)", "5,6,3", False),
    ("grundy", "moore(2)", "1,2,3", False),
    ("moves", "moore(2)", "2,3,4", False),
    ("outcome", "CN(7,4)", "1,7,5,6,2,3,6", False),
    ("outcome", "CN(7,4)", "3,9,5,6,2,3,6", False),
    ("moves", "CN(7,4)", "1,7,5,6,2,3,6", False),
    ("explain", "CN(7,4)", "1,7,5,6,2,3,6", False),
    ("moves", "CN(7,4)", "1000000000000000000,3,999999999999999999,5,7,11,13", False),
    ("grundy", "CN(7,4)", "1,2,0,1,2,0,1", False),
    ("options", "CN(4,2)", "2,1,2,1", False),
    ("outcome", "CN(3,2)", "1,1,0", True),
    ("grundy", "CN(6,3)", "3,1,2,1,3,2", False),
    ("explain", "CN(5,2)", "1,2,3,0,1", False),
    ("outcome", "CN(9,5)", "2,2,2,2,2,2,2,2,2", False),
    ("outcome", "SCN(6,3)", "1,6,2,3,3,6", False),
    ("moves", "SCN(4,2)", "1,2,3", False),
    ("grundy", "SCN(4,2)", "2,1,3", False),
    ("outcome", "SCN(4,2)", "2,2", True),
    ("outcome", "ET(3)", "2,5,9", False),
    ("moves", "ET(3)", "2,5,9", False),
    ("options", "ET(3)", "2,5,9", False),
    ("grundy", "ET(2)", "31,54", False),
    ("outcome", "ET(4)", "1000000000000000000,3,5,7", False),
    ("moves", "ER(7)", "1^5 2 10", False),
    ("options", "ER(7)", "1^5 2 10", False),
    ("explain", "ER(7)", "1^5 2 10", False),
    ("moves", "ER(7)", "1^5 2 1000000000000", False),
    ("outcome", "EABO(3)", "2,3,4", False),
    ("outcome", "SER(3)", "1,2,4", False),
    ("outcome", "EJR(4,2)", "1,2,3,4", False),
    ("outcome", "ENTROPY(3)", "-3,5,1", False),
    ("moves", "ET(3)", "2,5,9", True),
    ("grundy", "simplicial({1,2},{3,4})", "1,2,3,4", False),
    ("outcome", "simplicial({1,2},{2,3},{3,1})", "1000000000000,5,5", False),
    ("moves", "ECN(5,{2},2)", "1,2,3,4,5", False),
    ("outcome", "ECN(8,{4},3)", "3,0,2,1,0,0,0,0", False),
    ("explain", "ECN(6,{2},2)", "1,2,1,2,1,3", False),
    ("moves", "ECN(8,{1,3},4)", "5,1,2,3,4,1,9,3", False),
    ("options", "simplicial({1,2},{2,3})", "1,1,1", False),
    ("explain", "moore(2)", "1,1,1", True),
]

SUM_QUESTIONS = [
    ("outcome", "nim[5] + ET(2)[31,54]", False),
    ("moves", "nim[5] + ET(2)[31,54]", False),
    ("moves", "ET(2)[31,54] + nim[5] + CN(4,2)[1,1,1,1]", False),
    ("outcome", "CN(3,2)[1,1,0] + SCN(4,2)[1,2]", True),
    ("moves", "nim[1,2] + nim[3]", True),
    ("outcome", "simplicial({1,2},{3,4})[1,2,3,4] + nim[5]", False),
]

THEORY_QUESTIONS = [None, "CN(7,4)", "ER(7)", "nim", "ET(3)"]


def cli_position(ask, game, position, misere):
    cmd = {"options": ["moves"], "explain": ["explain"]}.get(ask, [ask])
    extra = ["--all"] if ask == "options" else []
    store = [] if ask == "explain" else ["--no-store"]
    return cli(*cmd, game, position, *extra, *(["--misere"] if misere else []), *store)


def python_position(ask, game, position, misere):
    g = nimlab.game(game, store=False)
    flags = {
        "outcome": {},
        "grundy": {"grundy": True},
        "moves": {"moves": True},
        "options": {"options": True},
        "explain": {"explain": True},
    }[ask]
    return plain(g.analyse(position, misere, **flags))


def test_there_are_fifty_questions_or_more():
    n = len(POSITION_QUESTIONS) + len(SUM_QUESTIONS) + len(THEORY_QUESTIONS) + 1
    assert n >= 50, n


@pytest.mark.parametrize("ask,game,position,misere", POSITION_QUESTIONS)
def test_a_position_gets_one_answer(server, ask, game, position, misere):
    by_cli = cli_position(ask, game, position, misere)
    by_web = web(server, "/api/answer", ask=ask, game=game, position=position, misere="true" if misere else None)
    by_python = python_position(ask, game, position, misere)
    assert by_cli == by_web, (ask, game, position)
    assert by_cli == by_python, (ask, game, position)
    # The shape: every key present, whatever the answer.
    for key in ("game", "position", "play", "outcome", "method", "terminal", "grundy", "grundy_method", "grundy_note", "remoteness", "suspense"):
        assert key in by_cli, (key, by_cli)


@pytest.mark.parametrize("ask,spec,misere", SUM_QUESTIONS)
def test_a_sum_gets_one_answer(server, ask, spec, misere):
    by_cli = cli(ask, spec, "--no-store", *(["--misere"] if misere else []))
    by_web = web(server, "/api/sum", sum=spec, moves="true" if ask == "moves" else None, misere="true" if misere else None)
    parts = []
    for term in spec.split(" + "):
        name, pos = term.rsplit("[", 1)
        parts.append(nimlab.game(name, store=False)[pos.rstrip("]")])
    s = nimlab.sum(*parts)
    by_python = plain(s.analyse(misere, moves=ask == "moves"))
    assert by_cli == by_web == by_python, spec


@pytest.mark.parametrize("game", THEORY_QUESTIONS)
def test_the_theory_list_is_one_list(server, game):
    by_cli = cli("theory", *([game] if game else []))
    by_web = web(server, "/api/theory", game=game)
    by_python = plain(nimlab.theory(game))
    assert by_cli == by_web == by_python
    assert all({"id", "games", "play", "statement", "source", "complete", "checked", "proved_on"} <= set(t) for t in by_cli)


def test_the_catalogue_is_one_catalogue(server):
    by_cli = cli("games")
    by_web = web(server, "/api/games")["games"]
    by_python = plain(nimlab.games())
    assert by_cli == by_web == by_python
    assert {"name", "title", "parameters", "position", "example", "rules", "source", "presets"} == set(by_cli[0])


def _without_times(x):
    """The object with every ``seconds`` key removed (run times differ between runs)."""
    if isinstance(x, dict):
        return {k: _without_times(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return [_without_times(v) for v in x]
    return x


@pytest.mark.parametrize(
    "game,heaps,misere,fmt",
    [
        ("CN(4,2)", None, False, "families"),
        ("SCN(4,2)", None, False, "families"),
        ("nim", 3, False, "automaton"),
        ("CN(4,2)", None, True, "families"),
        ("nim", 3, True, "automaton"),
    ],
)
def test_discover_gets_one_answer(game, heaps, misere, fmt, tmp_path):
    """`nimlab discover --json` and `nimlab.discover` give the same object (times aside), each with the
    file it wrote (the same text): families for the linear games, an automaton (Walnut's format) for
    Nim, whose xor no families file describes; normal and misère play."""
    import shutil

    if shutil.which("z3") is None and os.environ.get("NIMLAB_REQUIRE_Z3") != "1":
        pytest.skip("z3 is not on the PATH")
    # Nim's automaton settles from the boxes [0..3] and [0..7] (misère: [0..15] and [0..31]).
    top = (32 if misere else 8) if heaps else None
    extra = ["--heaps", str(heaps), "--max", str(top)] if heaps else []
    if misere:
        extra.append("--misere")
    f_cli, f_py = tmp_path / "cli.txt", tmp_path / "py.txt"
    out = subprocess.run(
        [_cli_path(), "discover", game, *extra, "--out", str(f_cli), "--json"],
        capture_output=True, text=True, env=ENV,
    )
    by_cli = json.loads(out.stdout)
    by_python = plain(
        nimlab.discover(
            game, heaps=heaps, max=top, out=str(f_py), store=False, misere=misere
        )
    )
    assert out.returncode == (0 if by_cli["verdict"] == "proved" else 1), out.stderr
    assert by_cli.pop("file") == str(f_cli) and by_python.pop("file") == str(f_py)
    assert _without_times(by_cli) == _without_times(by_python)
    assert f_cli.read_text() == f_py.read_text()
    assert by_cli["verdict"] == "proved", by_cli
    assert by_cli["format"] == fmt and by_cli["play"] == ("misere" if misere else "normal")
