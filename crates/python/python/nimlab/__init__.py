"""nimlab: exact solutions of impartial combinatorial games, from Python.

Nim, Moore's Nim, Circular Nim CN(n,k), Shrinking Circular Nim SCN(n,k) and Ferguson's chip games,
in normal and misère play: who wins, the Grundy value, every winning move, remoteness and suspense,
why (the proven result or the search that decided), and every P-position of a box as a NumPy array.
The answers come from the same analysis library and tables engine as the `nimlab` command line.

    >>> import nimlab
    >>> g = nimlab.game("CN(7,4)")
    >>> g.outcome((1, 7, 5, 6, 2, 3, 6))
    'N'
    >>> g.moves((1, 7, 5, 6, 2, 3, 6))
    Moves([(1, 7, 1, 6, 2, 2, 6), (1, 7, 1, 6, 2, 3, 5)], complete=True, method='cn-7-4')
    >>> g.table(max=5).shape
    (107, 7)

Positions are tuples, lists or NumPy arrays of integers, or strings in the game's notation (chip
positions also in Ferguson's notation, ``"1^3 2 5"``). Bad input raises ``ValueError`` (``TooLarge``,
a subclass, when a question would exceed the work budget ``limit``); Ctrl-C raises
``KeyboardInterrupt`` and leaves nothing half-stored.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from . import _nimlab
from ._nimlab import TooLarge

__version__: str = _nimlab.__version__

__all__ = [
    "__version__",
    "Game",
    "Moves",
    "Option",
    "Position",
    "PTable",
    "GrundyValues",
    "GrundyTable",
    "GrundySequence",
    "Sum",
    "TooLarge",
    "game",
    "games",
    "sum",
    "prove",
    "discover",
    "sequence",
    "theory",
    "verify",
]

PositionLike = Union[str, Sequence[int], np.ndarray]


def _tuples(x: Any) -> Any:
    """Lists of integers (positions) as tuples, recursively."""
    if isinstance(x, list):
        if all(isinstance(v, int) for v in x):
            return tuple(x)
        return [_tuples(v) for v in x]
    if isinstance(x, dict):
        return {k: _tuples(v) for k, v in x.items()}
    return x


def _progress_callback(progress: Any) -> Optional[Callable[[int, int], None]]:
    """``True``: a bar (tqdm's, in a terminal or a notebook, when installed; else a line on stderr
    when it is a terminal); ``False``/``None``: none; a callable: called with (done, total)."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    try:
        from tqdm.auto import tqdm  # type: ignore

        bar: Dict[str, Any] = {}

        def update(done: int, total: int) -> None:
            if "bar" not in bar:
                bar["bar"] = tqdm(total=total, unit="pos", unit_scale=True, leave=False)
            b = bar["bar"]
            b.total = total
            b.n = done
            b.refresh()

        return update
    except ImportError:
        if not sys.stderr.isatty():
            return None

        def line(done: int, total: int) -> None:
            width = 40
            filled = int(width * done / max(total, 1))
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} positions")
            sys.stderr.flush()

        return line


class Moves(list):
    """The winning moves of a position (the positions moved to, as tuples).

    ``complete`` is True when every option was decided, so the list is every winning move; False when
    the options were too many to list and the moves are a proven result's construction (the list may
    be partial). ``method`` says what valued them.
    """

    complete: bool
    method: Optional[str]

    def __init__(self, moves: Iterable[Tuple[int, ...]], complete: bool, method: Optional[str]):
        super().__init__(moves)
        self.complete = complete
        self.method = method

    def __repr__(self) -> str:
        return f"Moves({list.__repr__(self)}, complete={self.complete}, method={self.method!r})"


class Option(tuple):
    """One option of a position: ``(position, outcome, grundy)``; moving there wins when its
    outcome is ``"P"``."""

    __slots__ = ()

    def __new__(cls, position: Tuple[int, ...], outcome: str, grundy: Optional[int]):
        return super().__new__(cls, (position, outcome, grundy))

    @property
    def position(self) -> Tuple[int, ...]:
        return self[0]

    @property
    def outcome(self) -> str:
        return self[1]

    @property
    def grundy(self) -> Optional[int]:
        return self[2]

    @property
    def winning(self) -> bool:
        return self[1] == "P"


class PTable(np.ndarray):
    """The listed P-positions of a table, one row each (the least tuple of each symmetry class;
    chip games: one row per multiset). SCN's shorter circles are padded with 0 (piles are at least 1).
    ``info`` holds the counts and how the table was obtained, as ``nimlab table --json`` gives them."""

    info: Dict[str, Any]

    def __array_finalize__(self, obj: Any) -> None:
        self.info = getattr(obj, "info", {})

    def _repr_html_(self) -> str:
        i = self.info
        head = (
            f"<b>{i.get('game')}</b>, {i.get('play')} play: {i.get('count')} P-positions as ordered "
            f"tuples, {i.get('canonical_count')} listed (method {i.get('method')}, {i.get('seconds', 0):.3f} s)"
        )
        rows = np.asarray(self)[:20]
        body = "".join(
            "<tr>" + "".join(f"<td>{int(v)}</td>" for v in r) + "</tr>" for r in rows.tolist()
        )
        more = f"<p>... {len(self) - 20} more rows</p>" if len(self) > 20 else ""
        return f"<p>{head}</p><table>{body}</table>{more}"


class GrundyValues(np.ndarray):
    """The Grundy value of every position of a box with one length: ``values[p]`` for the tuple ``p``
    of entries (minus the box's lowest entry). ``info`` holds the histogram and the method."""

    info: Dict[str, Any]

    def __array_finalize__(self, obj: Any) -> None:
        self.info = getattr(obj, "info", {})

    def _repr_html_(self) -> str:
        i = self.info
        hist = i.get("histogram", [])
        cells = "".join(f"<tr><td>{v}</td><td>{c}</td></tr>" for v, c in enumerate(hist))
        return (
            f"<p><b>{i.get('game')}</b> Grundy values over a box of shape {self.shape} "
            f"(method {i.get('method')})</p><table><tr><th>value</th><th>positions</th></tr>{cells}</table>"
        )


class GrundyTable(dict):
    """Grundy values of a table with several kinds of positions: for SCN, one array per circle
    length (key: the length); for chip games, ``positions`` (one row each) and ``values``."""

    info: Dict[str, Any]

    def _repr_html_(self) -> str:
        i = self.info
        hist = i.get("histogram", [])
        cells = "".join(f"<tr><td>{v}</td><td>{c}</td></tr>" for v, c in enumerate(hist))
        return (
            f"<p><b>{i.get('game')}</b> Grundy values (method {i.get('method')})</p>"
            f"<table><tr><th>value</th><th>positions</th></tr>{cells}</table>"
        )


class GrundySequence(np.ndarray):
    """The Grundy values g(0..=N) of single heaps of a one-heap game (``values[n]`` = g(n)), as
    ``nimlab sequence --json`` computes them. ``info`` holds the period: ``period``,
    ``preperiod`` and ``last_exceptional`` (``None`` when no period is seen up to N), ``saltus``
    (0 unless arithmetic-periodic), ``status`` ("proved", "evidence" or "none"), ``proof``, and
    ``largest`` and ``method``; ``period``, ``preperiod`` and ``status`` are also attributes."""

    info: Dict[str, Any]

    def __array_finalize__(self, obj: Any) -> None:
        self.info = getattr(obj, "info", {})

    @property
    def period(self) -> Optional[int]:
        return self.info.get("period")

    @property
    def preperiod(self) -> Optional[int]:
        return self.info.get("preperiod")

    @property
    def status(self) -> str:
        return self.info.get("status", "none")

    def _repr_html_(self) -> str:
        i = self.info
        if i.get("period") is None:
            per = f"no period up to n = {i.get('max')}"
        else:
            per = f"period {i['period']} from n = {i['preperiod']} ({i['status']})"
        return f"<p><b>{i.get('game')}</b> g(0..={i.get('max')}): {per}</p>"


class Game:
    """A game, e.g. ``nimlab.game("CN(7,4)")``; see ``nimlab.games()`` for the names.

    ``db``: the store of solved tables (default: ``$NIMLAB_DB``, else nimlab/tables.sqlite3 in the
    user's data directory); ``store=False`` neither reads nor writes it. ``limit``: the largest search,
    in estimated option visits, before a question is refused with ``TooLarge``.
    """

    def __init__(self, spec: str, db: Optional[str] = None, store: bool = True, limit: float = 2e9):
        self._g = _nimlab.Game(spec, db, store, float(limit))
        self.limit = float(limit)

    @property
    def id(self) -> str:
        """The game's name with its parameters, e.g. ``CN(7,4)``."""
        return self._g.id

    @property
    def rules(self) -> str:
        """The rules in one paragraph."""
        return self._g.rules

    @property
    def layout(self) -> str:
        """``circle`` or ``row``."""
        return self._g.layout

    @property
    def bound(self) -> str:
        """How a table is bounded: ``box`` (``max``), ``heaps`` (``max`` and ``heaps``), ``chips``
        (``max_sum``) or ``spread`` (``max``)."""
        return self._g.bound

    def __repr__(self) -> str:
        return f"nimlab.game({self.id!r})"

    def _repr_html_(self) -> str:
        return f"<p><b>{self.id}</b>: {self.rules}</p>"

    def parse(self, p: PositionLike) -> Tuple[int, ...]:
        """The position ``p``, validated, as a tuple."""
        return tuple(self._g.parse(_arg(p)))

    def format(self, p: PositionLike, power: bool = True) -> str:
        """``p`` in the game's one notation: chip games in Ferguson's ``1^3 2 5`` (as on the web page
        and in the command line's answers to that notation), the others as a tuple. ``power=False``:
        chip games as a tuple too."""
        return self._g.format(_arg(p), power)

    def position(self, p: PositionLike) -> "Position":
        """The position ``p`` of this game, to ask questions of, draw, or add to a sum."""
        return Position(self, self.parse(p))

    __getitem__ = position

    def analyse(
        self,
        p: PositionLike,
        misere: bool = False,
        *,
        grundy: bool = False,
        moves: bool = False,
        options: bool = False,
        remoteness: bool = False,
        explain: bool = False,
    ) -> Dict[str, Any]:
        """Everything asked about ``p`` at once, as a dict: the object ``nimlab outcome|grundy|moves|
        explain --json`` prints and the web API's ``/api/answer`` answers (each part with the method
        that decided it). Without ``grundy=True`` the Grundy value is given only when it comes cheaply
        (a theorem, the store, or a computation estimated well under a second); otherwise
        ``grundy`` is None and ``grundy_note`` says what it would cost: ask ``g.grundy(p)``."""
        text = self._g.analyse(_arg(p), misere, grundy, moves, options, remoteness, explain)
        return _tuples(json.loads(text))

    def outcome(self, p: PositionLike, misere: bool = False) -> str:
        """``"P"`` (the previous player wins) or ``"N"`` (the player to move wins), in the time of
        the method that decides it (``analyse(p)`` adds a cheap Grundy value and remoteness)."""
        text = self._g.analyse(_arg(p), misere, False, False, False, False, False, True)
        return json.loads(text)["outcome"]

    def grundy(self, p: PositionLike) -> int:
        """The Sprague-Grundy value (normal play), by the cheapest exact method (a theorem, the
        store, a Grundy table of the smallest box that holds ``p``, or the search). A value computed
        once is remembered by this game: asking again does not repeat the work."""
        return self.analyse(p, grundy=True)["grundy"]

    def moves(self, p: PositionLike, misere: bool = False) -> Moves:
        """The winning moves (see :class:`Moves` for ``complete``)."""
        a = self.analyse(p, misere, moves=True)
        return Moves(a.get("winning_moves") or [], bool(a.get("winning_moves_complete")), a.get("moves_method"))

    def options(self, p: PositionLike, misere: bool = False) -> List[Option]:
        """Every option of ``p`` with its outcome (and Grundy value in normal play)."""
        a = self.analyse(p, misere, options=True)
        return [Option(o["position"], o["outcome"], o.get("grundy")) for o in a.get("options") or []]

    def remoteness(self, p: PositionLike, misere: bool = False) -> int:
        """Steinhaus's remoteness: the winner hurries, the loser delays."""
        return self.analyse(p, misere, remoteness=True)["remoteness"]

    def suspense(self, p: PositionLike, misere: bool = False) -> int:
        """The suspense number: the winner delays, the loser hurries."""
        return self.analyse(p, misere, remoteness=True)["suspense"]

    def explain(self, p: PositionLike, misere: bool = False) -> str:
        """Why ``p`` is P or N, in the words of the result that decides it (or of the search)."""
        a = self.analyse(p, misere, explain=True)
        e = a.get("explanation") or {}
        lines = [f"{self.id} {self.format(p)}: {a['outcome']} ({a['play']} play)", e.get("reason", "")]
        if e.get("family"):
            lines.append(f"family: {e['family']}")
        if e.get("winning_move"):
            lines.append(f"winning move: -> {self.format(e['winning_move'])}")
        if e.get("statement"):
            lines.append(f"result: {e['statement']}")
        lines.append(f"method: {e.get('method', a['method'])}" + (f" ({e['source']})" if e.get("source") else ""))
        return "\n".join(x for x in lines if x)

    def table(
        self,
        max: Optional[int] = None,
        *,
        max_sum: Optional[int] = None,
        heaps: Optional[int] = None,
        misere: bool = False,
        grundy: bool = False,
        method: str = "auto",
        progress: Any = True,
        ordered: bool = False,
    ) -> Union[PTable, GrundyValues, GrundyTable]:
        """Every P-position of a bounded set, as ``nimlab table`` computes it (the engine where it
        applies, the store before and after).

        P-sets: a :class:`PTable` of shape (listed positions, n). ``grundy=True``: the value of every
        position; for a box with one length a :class:`GrundyValues` array of shape (max+1,)*n (SCN
        and chip games: a :class:`GrundyTable`). ``progress``: a bar (True), none (False), or a
        callable ``f(done, total)``. ``ordered=True``: every ordered P-position of the box (every
        rotation and reflection of a circle, every order of heaps; ``info["count"]`` rows) instead of
        the least tuple of each symmetry class. A negative bound is a ``ValueError``.

        Ctrl-C raises ``KeyboardInterrupt``: nothing unfinished is stored and, with a store, the
        table's checkpoint stays next to it; the next call for the same table continues from it
        (``info["resumed"]``: how far, in percent, the interrupted call had come; ``None`` when
        computed from the start).
        """
        head_text, data = self._g.table(
            max, max_sum, heaps, misere, grundy, method, self.limit, _progress_callback(progress), ordered
        )
        head = json.loads(head_text)
        width = head["width"]
        if not grundy:
            rows = np.frombuffer(data, dtype="<u8").reshape(-1, width) if width else np.zeros((len(data) // 8, 0), dtype="<u8")
            t = rows.astype(np.int64).view(PTable)
            t.info = head
            return t
        if head.get("chips"):
            off = head["positions_offset"]
            values = np.frombuffer(data[:off], dtype="<u2").astype(np.int64)
            positions = np.frombuffer(data[off:], dtype="<u8").reshape(-1, width).astype(np.int64)
            t = GrundyTable(positions=positions, values=values)
            t.info = head
            return t
        values = np.frombuffer(data, dtype="<u2").astype(np.int64)
        r = head["hi"] - head["lo"] + 1
        lengths = head["lengths"]
        if len(lengths) == 1:
            v = values.reshape((r,) * lengths[0]).view(GrundyValues)
            v.info = head
            return v
        t = GrundyTable()
        at = 0
        for m in lengths:
            size = r**m
            t[m] = values[at : at + size].reshape((r,) * m) if m else values[at : at + size]
            at += size
        t.info = head
        return t


def _arg(p: PositionLike) -> Any:
    if isinstance(p, np.ndarray):
        return [int(x) for x in p.tolist()]
    if isinstance(p, Position):
        return list(p.p)
    return p


class Position:
    """A position of a game: ``g[(1, 2, 3)]``. Asks the same questions as :class:`Game` without
    repeating the position; ``+`` makes a :class:`Sum`; draws itself in a notebook."""

    def __init__(self, game: Game, p: Tuple[int, ...]):
        self.game = game
        self.p = p

    def __repr__(self) -> str:
        shown = self.game.format(self.p)
        # Tuples print as CN(7,4)(1,2,...); Ferguson's notation in brackets: ER(7)[1^5 2 10].
        return f"{self.game.id}{shown}" if shown.startswith("(") else f"{self.game.id}[{shown}]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and other.game.id == self.game.id and other.p == self.p

    def __hash__(self) -> int:
        return hash((self.game.id, self.p))

    def outcome(self, misere: bool = False) -> str:
        return self.game.outcome(self.p, misere)

    def grundy(self) -> int:
        return self.game.grundy(self.p)

    def moves(self, misere: bool = False) -> Moves:
        return self.game.moves(self.p, misere)

    def options(self, misere: bool = False) -> List[Option]:
        return self.game.options(self.p, misere)

    def remoteness(self, misere: bool = False) -> int:
        return self.game.remoteness(self.p, misere)

    def explain(self, misere: bool = False) -> str:
        return self.game.explain(self.p, misere)

    def spec(self) -> str:
        return f"{self.game.id}[{','.join(str(x) for x in self.p)}]"

    def __add__(self, other: Union["Position", "Sum"]) -> "Sum":
        return Sum([self]) + other

    def _repr_svg_(self) -> str:
        return _svg(self.game, self.p)


class Sum:
    """A disjunctive sum of positions (``g[p] + h[q]``): normal play XORs the components' Grundy
    values, misère play searches the sum as a whole (or uses Bouton's rule for Nim heaps)."""

    def __init__(self, parts: Sequence[Position]):
        self.parts = list(parts)

    def __add__(self, other: Union[Position, "Sum"]) -> "Sum":
        more = other.parts if isinstance(other, Sum) else [other]
        return Sum(self.parts + list(more))

    def spec(self) -> str:
        return " + ".join(p.spec() for p in self.parts)

    def __repr__(self) -> str:
        return " + ".join(repr(p) for p in self.parts)

    def _first(self) -> Game:
        return self.parts[0].game

    def analyse(self, misere: bool = False, moves: bool = False) -> Dict[str, Any]:
        """The answer as a dict with the keys of ``nimlab outcome|moves --json`` for sums."""
        g = self._first()
        text = _nimlab.sum(self.spec(), misere, moves, g._g.db, g._g.db is not None, g.limit)
        return _tuples(json.loads(text))

    def outcome(self, misere: bool = False) -> str:
        return self.analyse(misere)["outcome"]

    def grundy(self) -> int:
        return self.analyse()["grundy"]

    def moves(self, misere: bool = False) -> Moves:
        """Winning moves, each as the list of the components' positions after it."""
        a = self.analyse(misere, moves=True)
        return Moves(a.get("winning_moves") or [], bool(a.get("winning_moves_complete")), a.get("method"))


def game(spec: str, *, db: Optional[str] = None, store: bool = True, limit: float = 2e9) -> Game:
    """The game named ``spec`` (``nimlab.games()`` lists them), e.g. ``nimlab.game("SCN(6,3)")``."""
    return Game(spec, db=db, store=store, limit=limit)


def sum(*positions: Position) -> Sum:  # noqa: A001 - the name users expect
    """The disjunctive sum of the given positions."""
    return Sum(positions)


def sequence(game: str, max: int, method: str = "auto", limit: float = 2e9) -> GrundySequence:
    """The Grundy values g(0..=max) of single heaps of a one-heap game: ``octal(0.77)`` (or the bare
    code ``0.77``), ``subtraction(1,3,4)``, ``grundy``; a NumPy array of unsigned integers with the
    period in ``.info`` (see ``GrundySequence``). ``method``: "auto" (the sparse-space method for
    games that split a heap in two), "plain" or "sparse"; ``limit``: most option visits."""
    if re.fullmatch(r"[0-9A-Fa-f]?\.[0-9A-Fa-f]+", game.strip()):
        game = f"octal({game.strip()})"
    head, data = _nimlab.sequence(game, int(max), method, float(limit))
    v = np.frombuffer(data, dtype="<u4").astype(np.uint32).view(GrundySequence)
    v.info = json.loads(head)
    return v


def games() -> List[Dict[str, Any]]:
    """The built-in game families: name, parameters, position syntax, rules, source."""
    return json.loads(_nimlab.games())


def theory(game: Optional[str] = None) -> List[Dict[str, Any]]:
    """The proven results nimlab uses (id, games, statement, source, whether it decides every
    position), or those covering ``game``."""
    return json.loads(_nimlab.theory(game))


def verify(
    game: str,
    *,
    theorem: Optional[str] = None,
    conjecture: Optional[str] = None,
    max: Optional[int] = None,
    max_sum: Optional[int] = None,
    heaps: Optional[int] = None,
    misere: bool = False,
    examples: int = 5,
) -> Dict[str, Any]:
    """Checks a proven result (``theorem="cn-7-4"``) or a Rhai conjecture file against the partition
    theorem's conditions (I)-(III) over a bounded set; a dict with the keys of ``nimlab verify
    --json`` (``holds``, ``violations``, ``counterexamples``)."""
    text = _nimlab.verify(game, theorem, conjecture, max, max_sum, heaps, misere, examples)
    return _tuples(json.loads(text))


def prove(
    game: str,
    *,
    theorem: Optional[str] = None,
    families: Optional[str] = None,
    timeout: int = 120,
    solver: str = "z3",
    bits: Optional[int] = None,
    automata: bool = False,
    misere: bool = False,
    subset: bool = False,
    cross_check: bool = False,
    heaps: Optional[int] = None,
    automaton: Optional[str] = None,
    emit: Optional[str] = None,
    grundy_value: Optional[int] = None,
    grundy_bits: int = 8,
) -> Dict[str, Any]:
    """Proves a characterization of the P-positions for every stack size: the partition theorem's
    conditions (I)-(III) for a union of linear families (a built-in result ``theorem="cn-7-4"`` or a
    families file ``families="cn74.toml"``), decided by an SMT solver (z3). A dict with the keys of
    ``nimlab prove --json``: ``verdict`` (``proved``, ``refuted`` or ``unknown``), ``range`` and each
    condition's status, time and counterexample (re-checked by exact search before it is reported).
    Families with ``xor`` (CN(6,4), Nim) are proved for entries below ``2**bits`` only (bit-vector
    arithmetic; ``range`` says so), e.g. ``prove("CN(6,4)", theorem="cn-6-4", bits=3)``, or for every
    size with ``automata=True`` (finite automata on the binary digits, no solver; CN, Nim and the
    complexes), e.g. ``prove("CN(6,4)", theorem="cn-6-4", automata=True)``.
    ``misere=True`` proves the misère characterization (condition (III): no terminal position in the
    set), e.g. ``prove("nim", theorem="bouton-misere", misere=True, automata=True)``.
    ``subset=True`` proves only that every member of the set is a P-position (condition (C): every
    move from a member reaches a position with a move back into the set; ``claim`` is ``subset``), as
    for a partial result, e.g. ``prove("CN(7,4)", theorem="cn-lemma5-s1")`` (Lemma 5 of the CN(7,4)
    paper). ``solver`` is z3, cvc5 or any SMT-LIB 2 solver reading its standard input;
    ``cross_check=True`` puts every query to a second solver too (cvc5 with z3, z3 with cvc5) and
    says proved only when both answer unsat (``solvers`` names them with their versions, each
    condition's ``queries`` gives every answer). Before a "proved", the set is checked by exact
    search on a small box (``box_check``). Without a solver (and without ``automata=True``):
    ``ValueError`` saying how to install one. ``nim`` and ``moore(k)`` take ``heaps`` (read as
    CN(N,1) and the complex of all k-sets, as ``discover`` writes them). Ferguson's chip games take
    a registry result (``prove("EABO(4)", theorem="ferguson-eabo")``; ``automata=True`` for the
    results that read binary digits, e.g. ``prove("ET(3)", theorem="ferguson-et-k3",
    automata=True)``, with ``states`` in the dict) or a chip families file of P-totals (``families=``, as ``discover`` writes it for
    EABO, ER, SER and EJR); a result whose members are N-positions says ``claim: "N-positions"``.
    It is the same request as ``nimlab prove``: ``automaton="set.txt"`` proves the set an automaton
    in Walnut's format accepts (by automata), ``emit="DIR"`` writes a certificate there (``files``
    lists it), ``grundy_value=V`` (with ``automata=True``) proves the sets of the positions of Grundy
    value 0..V of ET(3) or ENTROPY(3) learned from an exact table of ``2**grundy_bits`` per box."""
    return _tuples(
        json.loads(
            _nimlab.prove(
                game,
                theorem,
                families,
                timeout,
                solver,
                bits,
                automata,
                misere,
                subset,
                cross_check,
                heaps,
                automaton,
                emit,
                grundy_value,
                grundy_bits,
            )
        )
    )


def discover(
    game: str,
    *,
    max: Optional[int] = None,
    heaps: Optional[int] = None,
    timeout: int = 600,
    out: Optional[str] = None,
    solver: str = "z3",
    db: Optional[str] = None,
    store: bool = True,
    misere: bool = False,
    max_sum: Optional[int] = None,
) -> Dict[str, Any]:
    """Finds a characterization of the P-positions from tables alone (no theorem given) and proves it
    for every stack size, as ``nimlab discover --json``: linear families conjectured on growing boxes
    (``max``: the largest box entry), checked on a larger box, proved by the SMT solver (z3). A dict
    with ``game``, ``play``, ``verdict`` (``proved``, ``conjecture`` or ``none``), ``format``
    (``families``, or ``automaton`` when no linear description exists and an automaton learned from
    the tables is proved instead, written in Walnut's format), ``file`` (where it was written: ``out``),
    ``states`` (the automaton's), ``prover``, ``box``, ``seconds``,
    ``families``, ``counterexample``, ``reason``, ``tables`` and ``proof`` (the prover's report).
    ``nim`` and ``moore(k)`` take ``heaps``; ``misere=True`` discovers the misère P-set. The
    redistribution chip games (``EABO(k)``, ``ER(k)``, ``SER(k)``, ``EJR(k,j)``) are discovered
    through the totals of their P-positions (``max_sum``: the largest total, instead of ``max``;
    the dict then has ``totals`` and ``totals_check``, how far T was computed and compared, and
    ``box`` is of totals; ``out`` writes a chip families file). E.g.
    ``discover("CN(5,2)")["verdict"] == "proved"``."""
    return _tuples(
        json.loads(
            _nimlab.discover(game, max, heaps, timeout, out, solver, db, store, misere, max_sum)
        )
    )


def _svg(g: Game, p: Tuple[int, ...]) -> str:
    """A drawing of a position: stacks around a circle (CN, SCN), heaps in a row, or boxes of chips."""
    n = len(p)
    if g.layout == "circle" and n > 0:
        import math

        size, r = 220, 80
        parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}">']
        parts.append(f'<circle cx="110" cy="110" r="{r}" fill="none" stroke="#bbb"/>')
        for i, v in enumerate(p):
            a = 2 * math.pi * i / n - math.pi / 2
            x, y = 110 + r * math.cos(a), 110 + r * math.sin(a)
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="17" fill="#fff3d6" stroke="#a66"/>')
            parts.append(f'<text x="{x:.1f}" y="{y + 5:.1f}" text-anchor="middle" font-size="14">{v}</text>')
        parts.append("</svg>")
        return "".join(parts)
    top = max(list(p) + [1])
    w, h = 40 * max(n, 1) + 20, 150
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}">']
    for i, v in enumerate(p):
        bar = 100 * v / top
        x = 20 + 40 * i
        parts.append(f'<rect x="{x}" y="{120 - bar:.1f}" width="28" height="{bar:.1f}" fill="#8bb8e8" stroke="#446"/>')
        parts.append(f'<text x="{x + 14}" y="140" text-anchor="middle" font-size="13">{v}</text>')
    parts.append("</svg>")
    return "".join(parts)
