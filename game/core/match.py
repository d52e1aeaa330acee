"""Playing whole games: the match runner, bots' contract, and replay files.

A **replay** is everything needed to play a game again: game id, rules version, player count,
options, seed, who sat where, and the list of ``(seat, action)`` in the order they were applied.
Because all randomness lives in the state, re-running the actions gives the same game; the final
state hash stored with a finished replay proves it.  A **saved game** is the same file before
the game has ended (no final hash yet), so "continue", "show" and "replay" read one format.

File format (msgpack)::

    {"format": "lantern-table/replay", "version": 1,
     "body": {"game", "rules_version", "players", "options", "seed", "seats",
              "actions": [[seat, [kind, ...]], ...], "final_hash": str | None},
     "digest": blake2b-128 of the canonical body}

The digest catches a damaged or edited file before anything is replayed.

A file comes from outside, so loading it checks everything before anything is replayed, with
the limits live input has (``docs/protocol.md``, "Limits"): at most :data:`MAX_REPLAY_BYTES`
bytes, :data:`MAX_FILE_CONTAINERS` maps and arrays nested at most :data:`MAX_FILE_DEPTH` deep,
:data:`MAX_REPLAY_ACTIONS` actions, 1 to :data:`MAX_SEATS` players, one seat record per
player whose name passes the same check as a name typed at a table (:func:`clean_name`: control
characters removed, at most :data:`MAX_NAME` characters).  Anything else is refused with
:class:`~game.core.types.BadState` and a sentence saying what is wrong.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgpack

from game.core.api import GameState
from game.core.registry import UnknownGame, get_game
from game.core.rng import derive_seed
from game.core.types import Action, BadState, GameError, IllegalAction, Seat
from game.core.wire import WireError, as_action, digest, packb, to_plain

REPLAY_FORMAT = "lantern-table/replay"
REPLAY_VERSION = 1
#: Replays larger than this are refused before parsing (a game has a few thousand actions).
MAX_REPLAY_BYTES = 64 * 1024 * 1024
#: Most actions a replay may hold (a Kingdom Builder game has about 100 to 250).
MAX_REPLAY_ACTIONS = 100_000
#: Most maps and arrays in one file (two per action, plus the rest), counted while decoding.
MAX_FILE_CONTAINERS = 2 * MAX_REPLAY_ACTIONS + 10_000
#: Deepest nesting of maps and arrays in a file (the same bound as a network message).
MAX_FILE_DEPTH = 32
#: Most seats of any table (live input and saves alike; ``net.protocol.MAX_SEATS``).
MAX_SEATS = 16
#: Longest player or table name in characters (live input and saves alike).
MAX_NAME = 32
#: Most game options (live input and saves alike).
MAX_OPTIONS = 64
#: The seat kinds of a seat record.
SEAT_KINDS = ("open", "human", "bot")

#: Terminal escape sequences (CSI ``ESC [ ... final``, OSC ``ESC ] ... BEL|ST``, DCS, APC, PM,
#: SOS and the 8-bit CSI): removed whole, so no ``[31m`` remnant is left behind.
_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[P^_X][^\x1b]*(?:\x1b\\)?"
)
_RUNS = re.compile(r"  +")
_SPACES = frozenset("\t\n\r\v\f\x1c\x1d\x1e\x1f\x85\u2028\u2029")


def clean_text(value: str) -> str:
    """``value`` safe to show anywhere: terminal escape sequences removed whole, line breaks
    and tabs turned into spaces, every other control, format or unassigned character removed,
    and (in a text that had any of these) runs of spaces made one; outer spaces stripped.
    Used for every name and text that comes from outside."""
    if value.isprintable():
        return value.strip()
    value = _ESCAPE.sub("", value)
    kept = "".join(
        ch if ch.isprintable() else " " for ch in value if ch.isprintable() or ch in _SPACES
    )
    return _RUNS.sub(" ", kept).strip()


def clean_name(value: Any, what: str = "a name", allow_empty: bool = False) -> str:
    """A player or table name as a table accepts it: a string, cleaned with
    :func:`clean_text`, of 1 (0 with ``allow_empty``) to :data:`MAX_NAME` characters.
    Raises ``ValueError`` saying what is wrong."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string")
    if len(value) > 8 * MAX_NAME:
        raise ValueError(f"{what} has {len(value)} characters; names have at most {MAX_NAME}")
    cleaned = clean_text(value)
    if len(cleaned) > MAX_NAME:
        raise ValueError(f"{what} has {len(cleaned)} characters; names have at most {MAX_NAME}")
    if not cleaned and not allow_empty:
        raise ValueError(f"{what} is empty")
    return cleaned


class Bot(Protocol):
    """A computer player.  It sees only a determinized copy of the state (no secrets)."""

    name: str

    def choose(self, state: GameState, seat: Seat) -> Action:
        """A legal action for ``seat`` in ``state``."""
        ...


#: Anything that picks an action for a seat: a bot's ``choose``, a human prompt, a remote seat.
Agent = Callable[[GameState, Seat], Action]


@dataclass
class Replay:
    """The inputs of one game (see the module docstring)."""

    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    rules_version: int = 0
    seats: list[dict[str, Any]] = field(default_factory=list)
    actions: list[tuple[Seat, Action]] = field(default_factory=list)
    final_hash: str | None = None

    # ---- building and running ---------------------------------------------------------
    def new_state(self) -> GameState:
        """The game's first position.  :class:`BadState` for a game this program does not have,
        a file recorded with other rules (``rules_version``), or a player count or options the
        game refuses."""
        try:
            game = get_game(self.game)
        except UnknownGame as exc:
            raise BadState(str(exc)) from None
        if self.rules_version and self.rules_version != game.rules_version:
            raise BadState(
                f"replay was recorded with {self.game} rules version {self.rules_version}, "
                f"this program has version {game.rules_version}"
            )
        try:
            return game.new(self.players, dict(self.options), self.seed)
        except GameError as exc:
            raise BadState(f"the file's setup is refused by {game.title}: {exc}") from None

    def states(self) -> Iterator[GameState]:
        """The state before the first action, then after each action (the same object)."""
        state = self.new_state()
        yield state
        for i, (seat, action) in enumerate(self.actions):
            if not 0 <= seat < self.players:
                raise BadState(
                    f"replay action {i + 1} is by seat {seat}, but the game has seats "
                    f"0 to {self.players - 1}"
                )
            try:
                state.apply(seat, action)
            except IllegalAction as exc:
                raise BadState(
                    f"replay action {i + 1} ({action!r} by seat {seat}) is illegal: {exc}"
                ) from None
            yield state

    def state_at(self, step: int | None = None) -> GameState:
        """The state after ``step`` actions (all of them if ``None``).

        At the end of a finished game the state must match the recorded final hash
        (:class:`BadState` otherwise: the file's actions do not give its result).
        """
        n = len(self.actions) if step is None else step
        if not 0 <= n <= len(self.actions):
            raise BadState(f"step {n} is outside 0..{len(self.actions)}")
        for i, state in enumerate(self.states()):
            if i == n:
                if n == len(self.actions) and self.final_hash is not None:
                    found = state.state_hash()
                    if found != self.final_hash:
                        raise BadState(
                            f"final state hash {found} differs from the recorded {self.final_hash}"
                        )
                return state
        raise AssertionError("unreachable")

    def verify(self) -> GameState:
        """Re-run every action and check the final hash; return the final state.

        Raises :class:`BadState` if the game is unknown, the rules version differs, an action is
        illegal, or the final state does not match the recorded hash.
        """
        return self.state_at(None)

    # ---- files --------------------------------------------------------------------------
    def body(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules_version": self.rules_version,
            "players": self.players,
            "options": to_plain(self.options),
            "seed": self.seed,
            "seats": to_plain(self.seats),
            "actions": [[seat, to_plain(action)] for seat, action in self.actions],
            "final_hash": self.final_hash,
        }

    def to_bytes(self) -> bytes:
        body = self.body()
        return packb(
            {
                "format": REPLAY_FORMAT,
                "version": REPLAY_VERSION,
                "body": body,
                "digest": digest(body),
            }
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> Replay:
        """Read a replay or save, checking it whole first (see the module docstring)."""
        if len(data) > MAX_REPLAY_BYTES:
            raise BadState("file is too large to be a replay or saved game")
        top = _decode_file(data)
        if not isinstance(top, dict) or top.get("format") != REPLAY_FORMAT:
            raise BadState("not a Lantern Table replay or saved game")
        if top.get("version") != REPLAY_VERSION:
            raise BadState(f"unsupported replay version {_short(top.get('version'))}")
        body = top.get("body")
        if not isinstance(body, dict) or top.get("digest") != digest(body):
            raise BadState("replay file was modified or damaged (digest mismatch)")
        return cls.from_body(body)

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> Replay:
        """A replay from the ``body`` of a file, with every field checked (:class:`BadState`
        naming the field otherwise).  ``body`` must be a plain value (as decoded)."""
        if not isinstance(body, dict):
            raise BadState("replay body is malformed: it is not a map")
        problem = _depth_problem(body, MAX_FILE_DEPTH)
        if problem:
            raise BadState(f"replay body is malformed: {problem}")
        missing = [k for k in _BODY_FIELDS if k not in body]
        if missing:
            raise BadState(f"replay body is malformed: no field {missing[0]!r}")
        game = body["game"]
        if not (isinstance(game, str) and _GAME_ID.fullmatch(game)):
            raise BadState(f"replay field 'game' is not a game id: {_short(game)}")
        players = _integer(body["players"], "players", 1, MAX_SEATS)
        seed = _integer(body["seed"], "seed", -(2**63), 2**64 - 1)
        rules_version = _integer(body["rules_version"], "rules_version", 0, 2**31)
        options = body["options"]
        if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
            raise BadState(f"replay field 'options' should be a map of at most {MAX_OPTIONS}")
        seats = _seat_records(body["seats"], players)
        raw_actions = body["actions"]
        if not isinstance(raw_actions, list):
            raise BadState("replay field 'actions' should be a list")
        if len(raw_actions) > MAX_REPLAY_ACTIONS:
            raise BadState(
                f"replay has {len(raw_actions)} actions; at most {MAX_REPLAY_ACTIONS} are accepted"
            )
        actions: list[tuple[Seat, Action]] = []
        for i, item in enumerate(raw_actions):
            if not isinstance(item, list) or len(item) != 2:
                raise BadState(f"replay action {i + 1} is not a [seat, action] pair")
            seat = _integer(item[0], f"actions[{i}] seat", 0, players - 1)
            try:
                actions.append((seat, as_action(item[1])))
            except WireError as exc:
                raise BadState(f"replay action {i + 1} is malformed: {exc}") from None
        final_hash = body.get("final_hash")
        if final_hash is not None and not (
            isinstance(final_hash, str) and _HASH.fullmatch(final_hash)
        ):
            raise BadState("replay final_hash is not a state hash")
        return cls(
            game=game,
            players=players,
            seed=seed,
            options=options,
            rules_version=rules_version,
            seats=seats,
            actions=actions,
            final_hash=final_hash,
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write atomically (temporary file, then rename), so a crash never leaves half a file."""
        write_atomic(Path(path), self.to_bytes())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Replay:
        """Read a replay or save file — and, for a save, its journal (:func:`journal_entry`):
        the host appends every change there before anyone sees it, so the two together hold
        every position a player has seen."""
        try:
            with open(path, "rb") as fh:
                data = fh.read(MAX_REPLAY_BYTES + 1)
        except OSError as exc:
            raise BadState(f"cannot read {path}: {exc.strerror or exc}") from None
        replay = cls.from_bytes(data)
        journal = journal_path(Path(path))
        if replay.final_hash is None and journal.is_file():
            try:
                with open(journal, "rb") as fh:
                    actions = apply_journal(replay.actions, fh.read(MAX_REPLAY_BYTES + 1))
            except OSError as exc:
                raise BadState(f"cannot read {journal}: {exc.strerror or exc}") from None
            if len(actions) > MAX_REPLAY_ACTIONS:
                raise BadState(
                    f"the save and its journal hold {len(actions)} actions; at most "
                    f"{MAX_REPLAY_ACTIONS} are accepted"
                )
            for i, (seat, _action) in enumerate(actions):
                if not 0 <= seat < replay.players:
                    raise BadState(f"journal action {i + 1} is by seat {seat}, who is not seated")
            replay.actions = actions
        return replay


def journal_path(save: Path) -> Path:
    """The journal next to a save file: ``<save>.journal``."""
    return save.with_name(save.name + ".journal")


def journal_entry(start: int, actions: list[tuple[Seat, Action]]) -> bytes:
    """One journal entry: "from index ``start`` on, the actions are ``actions``" (msgpack)."""
    return packb([start, [[seat, to_plain(list(action))] for seat, action in actions]])


def apply_journal(actions: list[tuple[Seat, Action]], data: bytes) -> list[tuple[Seat, Action]]:
    """``actions`` with the journal's entries applied in order.

    Entries are idempotent (each says what the list holds from an index on), so a save written
    after some of them gives the same result.  A damaged entry — the last one cut short by a
    crash, say — ends the journal there: what came before it stands.
    """
    result = list(actions)
    count = 0

    def counted(value: Any) -> Any:
        nonlocal count
        count += 1
        if count > MAX_FILE_CONTAINERS:
            raise ValueError("the journal holds too many maps and lists")
        return value

    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        ext_hook=_reject_ext,
        object_hook=counted,
        list_hook=counted,
        max_buffer_size=max(len(data), 1),
        max_array_len=65536,
    )
    unpacker.feed(data)
    try:
        for entry in unpacker:
            start, tail = entry
            if isinstance(start, bool) or not isinstance(start, int):
                break
            if not 0 <= start <= len(result) or not isinstance(tail, list):
                break
            new = []
            for item in tail:
                seat, action = item
                if isinstance(seat, bool) or not isinstance(seat, int):
                    raise ValueError("a journal seat is not an integer")
                new.append((seat, as_action(action)))
            result[start:] = new
    except (ValueError, TypeError, WireError, msgpack.ExtraData, msgpack.FormatError):
        pass  # a damaged entry: the journal ends before it
    return result


_BODY_FIELDS = ("game", "rules_version", "players", "options", "seed", "seats", "actions")
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_HASH = re.compile(r"[0-9a-f]{8,128}")
_IDENT = re.compile(r"[A-Za-z0-9_#-]{1,32}")


def _short(value: Any) -> str:
    """A value for an error message, never longer than a line."""
    text = clean_text(repr(value)) if not isinstance(value, dict | list) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def _integer(value: Any, name: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise BadState(f"replay field {name!r} should be an integer from {lo} to {hi}")
    return value


def _seat_records(value: Any, players: int) -> list[dict[str, Any]]:
    """The ``seats`` of a file: one map per player (``null`` counts as an empty map) whose
    ``name`` is a name a table accepts (:func:`clean_name`, may be empty), ``kind`` one of
    :data:`SEAT_KINDS`, ``bot`` and ``colour`` short identifiers.  Other fields are kept."""
    if not isinstance(value, list) or len(value) != players:
        raise BadState(f"replay field 'seats' should be a list of {players} seat records")
    records = []
    for i, raw in enumerate(value):
        info: dict[str, Any] = {} if raw is None else raw
        if not isinstance(info, dict):
            raise BadState(f"seat record {i + 1} is not a map")
        record = dict(info)
        if info.get("name") is not None:
            try:
                record["name"] = clean_name(info["name"], f"seat {i + 1}'s name", True)
            except ValueError as exc:
                raise BadState(str(exc)) from None
        kind = info.get("kind")
        if kind is not None and kind not in SEAT_KINDS:
            raise BadState(f"seat {i + 1}'s kind should be one of {', '.join(SEAT_KINDS)}")
        for key in ("bot", "colour"):
            item = info.get(key)
            if item is not None and not (isinstance(item, str) and _IDENT.fullmatch(item)):
                raise BadState(f"seat {i + 1}'s {key} is not a short identifier")
        records.append(record)
    return records


def _depth_problem(value: Any, limit: int) -> str:
    """Why ``value`` nests deeper than ``limit`` maps and arrays ("" if it does not)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= limit:
                return f"values nested more than {limit} deep are not accepted"
            children = item.values() if isinstance(item, dict) else item
            stack.extend((x, depth + 1) for x in children if isinstance(x, dict | list))
    return ""


class _TooManyContainers(Exception):
    pass


def _decode_file(data: bytes) -> Any:
    """Decode a file's msgpack with the limits of the module docstring (:class:`BadState`)."""
    count = 0

    def counted(value: Any) -> Any:
        nonlocal count
        count += 1
        if count > MAX_FILE_CONTAINERS:
            raise _TooManyContainers
        return value

    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        ext_hook=_reject_ext,
        object_hook=counted,
        list_hook=counted,
        max_buffer_size=max(len(data), 1),
    )
    try:
        unpacker.feed(data)
        value = unpacker.unpack()
    except msgpack.OutOfData:
        raise BadState(
            "not a Lantern Table replay or save (damaged or truncated: the file ends early)"
        ) from None
    except _TooManyContainers:
        raise BadState(
            f"the file holds more than {MAX_FILE_CONTAINERS} maps and lists; "
            "it is not a replay or saved game"
        ) from None
    except Exception as exc:  # msgpack raises several unrelated types for bad input
        detail = clean_text(str(exc))[:120] or type(exc).__name__
        raise BadState(
            f"not a Lantern Table replay or save (damaged or truncated): {detail}"
        ) from None
    if unpacker.tell() != len(data):
        raise BadState(
            "not a Lantern Table replay or save (damaged or truncated: stray bytes after the record)"
        )
    problem = _depth_problem(value, MAX_FILE_DEPTH)
    if problem:
        raise BadState(f"not a Lantern Table replay or save: {problem}")
    return value


def _reject_ext(code: int, data: bytes) -> Any:
    raise ValueError("msgpack extension types are not accepted")


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass
class MatchResult:
    """What :func:`play_match` returns."""

    replay: Replay
    state: GameState
    seconds: float

    @property
    def scores(self) -> list[dict[str, int]]:
        return self.state.scores()

    @property
    def winners(self) -> list[Seat]:
        return self.state.winners()


class AgentError(GameError):
    """An agent returned an action that the rules refused."""


def play_match(
    game_id: str,
    players: int,
    seed: int,
    agents: Sequence[Agent],
    options: dict[str, Any] | None = None,
    seats: Sequence[dict[str, Any]] | None = None,
    max_actions: int = 1_000_000,
    on_action: Callable[[GameState, Seat, Action, list[dict[str, Any]]], None] | None = None,
) -> MatchResult:
    """Play one game to the end with one agent per seat and record it.

    Each agent is called with a *determinized* copy of the state for its seat (other seats'
    secrets resampled, RNG reseeded), so no agent can read what its seat may not see.  The
    determinization seed derives from the match seed, so the whole match is reproducible.
    """
    game = get_game(game_id)
    if len(agents) != players:
        raise GameError(f"{players} players need {players} agents, got {len(agents)}")
    opts = dict(options or {})
    state = game.new(players, opts, seed)
    replay = Replay(
        game=game_id,
        players=players,
        seed=seed,
        options=opts,
        rules_version=game.rules_version,
        seats=[dict(s) for s in seats] if seats else [{} for _ in range(players)],
    )
    started = time.perf_counter()
    step = 0
    while not state.is_over():
        if step >= max_actions:
            raise GameError(f"game did not end within {max_actions} actions")
        for seat in state.to_move():
            hidden = state.determinize(seat, derive_seed(seed, "agent", seat, step))
            action = agents[seat](hidden, seat)
            try:
                events = state.apply(seat, action)
            except IllegalAction as exc:
                raise AgentError(f"seat {seat}'s agent chose an illegal action: {exc}") from None
            replay.actions.append((seat, tuple(action)))
            step += 1
            if on_action is not None:
                on_action(state, seat, tuple(action), events)
            break  # recompute to_move after every action
    replay.final_hash = state.state_hash()
    return MatchResult(replay=replay, state=state, seconds=time.perf_counter() - started)
