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
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgpack

from game.core.api import GameState
from game.core.registry import get_game
from game.core.rng import derive_seed
from game.core.types import Action, BadState, GameError, IllegalAction, Seat
from game.core.wire import WireError, as_action, digest, packb, to_plain, unpackb

REPLAY_FORMAT = "lantern-table/replay"
REPLAY_VERSION = 1
#: Replays larger than this are refused before parsing (a game has a few thousand actions).
MAX_REPLAY_BYTES = 64 * 1024 * 1024


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
        return get_game(self.game).new(self.players, dict(self.options), self.seed)

    def states(self) -> Iterator[GameState]:
        """The state before the first action, then after each action (the same object)."""
        state = self.new_state()
        yield state
        for i, (seat, action) in enumerate(self.actions):
            try:
                state.apply(seat, action)
            except IllegalAction as exc:
                raise BadState(
                    f"replay action {i + 1} ({action!r} by seat {seat}) is illegal: {exc}"
                ) from None
            yield state

    def state_at(self, step: int | None = None) -> GameState:
        """The state after ``step`` actions (all of them if ``None``)."""
        n = len(self.actions) if step is None else step
        if not 0 <= n <= len(self.actions):
            raise BadState(f"step {n} is outside 0..{len(self.actions)}")
        for i, state in enumerate(self.states()):
            if i == n:
                return state
        raise AssertionError("unreachable")

    def verify(self) -> GameState:
        """Re-run every action and check the final hash; return the final state.

        Raises :class:`BadState` if an action is illegal, the rules version differs, or the
        final state does not match the recorded hash.
        """
        game = get_game(self.game)
        if self.rules_version and self.rules_version != game.rules_version:
            raise BadState(
                f"replay was recorded with {self.game} rules version {self.rules_version}, "
                f"this program has version {game.rules_version}"
            )
        state = self.state_at(None)
        if self.final_hash is not None and state.state_hash() != self.final_hash:
            raise BadState(
                f"final state hash {state.state_hash()} differs from the recorded {self.final_hash}"
            )
        return state

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
        if len(data) > MAX_REPLAY_BYTES:
            raise BadState("file is too large to be a replay or saved game")
        try:
            top = unpackb(data)
        except WireError as exc:
            raise BadState(
                f"not a Lantern Table replay or save (damaged or truncated): {exc}"
            ) from None
        if not isinstance(top, dict) or top.get("format") != REPLAY_FORMAT:
            raise BadState("not a Lantern Table replay or saved game")
        if top.get("version") != REPLAY_VERSION:
            raise BadState(f"unsupported replay version {top.get('version')!r}")
        body = top.get("body")
        if not isinstance(body, dict) or top.get("digest") != digest(body):
            raise BadState("replay file was modified or damaged (digest mismatch)")
        return cls.from_body(body)

    @classmethod
    def from_body(cls, body: dict[str, Any]) -> Replay:
        try:
            actions: list[tuple[Seat, Action]] = []
            for item in body["actions"]:
                seat, action = item
                if not isinstance(seat, int) or isinstance(seat, bool):
                    raise BadState("a replay seat is not an integer")
                actions.append((seat, as_action(action)))
            replay = cls(
                game=_typed(body["game"], str, "game"),
                players=_typed(body["players"], int, "players"),
                seed=_typed(body["seed"], int, "seed"),
                options=_typed(body["options"], dict, "options"),
                rules_version=_typed(body["rules_version"], int, "rules_version"),
                seats=_typed(body["seats"], list, "seats"),
                actions=actions,
                final_hash=body["final_hash"],
            )
        except (KeyError, TypeError, ValueError, WireError) as exc:
            raise BadState(f"replay body is malformed: {exc}") from None
        if replay.final_hash is not None and not isinstance(replay.final_hash, str):
            raise BadState("replay final_hash is not a string")
        return replay

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
                    replay.actions = apply_journal(replay.actions, fh.read(MAX_REPLAY_BYTES + 1))
            except OSError as exc:
                raise BadState(f"cannot read {journal}: {exc.strerror or exc}") from None
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
    unpacker = msgpack.Unpacker(
        raw=False, strict_map_key=True, max_buffer_size=max(len(data), 1), max_array_len=65536
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


def _typed(value: Any, kind: type, name: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadState(f"replay field {name!r} should be {kind.__name__}")
    return value


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
