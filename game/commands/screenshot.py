"""``lantern screenshot``: draw a scene of the real client to a PNG, without a screen.

    lantern screenshot --game kingdom-builder --players 4 --seed 3 --actions 60 \\
        --size 1280x800 --out kb.png

plays ``--actions`` actions with bots (each seeing only its own seat's information), then draws
the game scene as the seat to move sees it (or ``--seat``), with its legal moves highlighted —
the same :class:`~game.ui.scenes.game.GameScene` and game view the window uses, fed the same
``lobby`` and ``state`` messages the host would send (built by the host's own
:class:`net.session.Session`).  ``--scene`` draws other screens: ``results`` (the game played
to its end), ``help`` (the rules overlay over the table), ``curtain``, ``menu``, ``setup``,
``settings``, ``replay``, ``scoring`` (the game's end, paused at step ``--beat`` of the
end-of-game scoring sequence), ``round`` (Glen More: the first scoring round during play, paused
at step ``--beat``).  ``--until NAME`` stops the bots earlier, at the first position whose phase
or turn stage is NAME (Keyflower: ``--until transport`` shows a transport in progress,
``--until place`` the placement of new tiles, ``--until winter_pick`` the winter choice).  Uses
SDL's dummy video driver unless a display driver is set.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

SCENES = (
    "game",
    "results",
    "scoring",
    "help",
    "curtain",
    "menu",
    "setup",
    "settings",
    "replay",
    "join",
    "files",
    "round",
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "screenshot", help="render a scene of the client to a PNG (no screen needed)"
    )
    p.add_argument("--game", default="kingdom-builder", help="game id")
    p.add_argument("--players", type=int, default=4, help="number of seats")
    p.add_argument("--seed", type=int, default=0, help="the game's seed")
    p.add_argument("--actions", type=int, default=60, help="bot actions played before drawing")
    p.add_argument("--bots", default="normal", help="bot name for every seat (default normal)")
    p.add_argument("--seat", type=int, default=None, help="whose view (default: the seat to move)")
    p.add_argument("--size", default="1280x800", help="window size, e.g. 1280x800")
    p.add_argument("--lang", default="en", choices=["en", "ja", "nl"], help="language")
    p.add_argument("--scene", default="game", choices=SCENES, help="which scene (default game)")
    p.add_argument(
        "--beat", type=int, default=1, help="with --scene scoring: which step of the sequence"
    )
    p.add_argument(
        "--hint",
        action="store_true",
        help="the table allows hints and the seat's hint (the normal bot's choice) is shown",
    )
    p.add_argument(
        "--until",
        default=None,
        help="stop the bots at the first position whose phase or turn stage has this name "
        "(Keyflower: boats, place, winter_pick, transport, move_to, pay_keyple, ...)",
    )
    p.add_argument("--colour-blind", action="store_true", help="the colour-blind palette")
    p.add_argument("--options", default=None, help="game options as a JSON object")
    p.add_argument("--out", required=True, help="the PNG file to write")
    p.set_defaults(func=run)


class _Feed:
    """A connection that replays messages the host's Session produced (never blocks)."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = messages
        self.connected = True

    def send(self, msg: dict[str, Any]) -> None:
        """Nothing goes anywhere: the picture is of one moment."""

    def poll(self) -> list[dict[str, Any]]:
        out, self.messages = self.messages, []
        return out

    def close(self) -> None:
        self.connected = False


def reached(state: Any, until: str | None) -> bool:
    """Whether the position's phase or turn stage is called ``until`` (read from the
    spectator's view: Keyflower's ``phase`` and ``pending.stage``, Glen More's
    ``pending.phase``)."""
    if not until:
        return False
    view = state.view(None)
    pending = view.get("pending") if isinstance(view.get("pending"), dict) else {}
    return until in (view.get("phase"), pending.get("stage"), pending.get("phase"))


def play_table(
    game_id: str,
    players: int,
    seed: int,
    actions: int,
    bots: str,
    options: dict[str, Any],
    stop_on: str | None = None,
    until: str | None = None,
) -> tuple[Any, list[dict[str, Any]]]:
    """A started host Session after ``actions`` bot actions (or the end, or the first action
    with an event of type ``stop_on``, or the first position :func:`reached` ``until``), and
    the events of the last action."""
    from game.bots import make_bot
    from game.core.rng import derive_seed
    from net.session import Session

    session = Session.create("t1", game_id, players, options, seed=seed)
    for i, info in enumerate(session.seats):
        info.kind, info.name = "human", ["Anna", "Bram", "Chie", "Daan", "Emi", "Femke"][i % 6]
        info.connected = True
    session.start()
    agents = [make_bot(bots, derive_seed(seed, "bot", s)) for s in range(players)]
    events: list[dict[str, Any]] = []
    history.clear()
    for step in range(actions):
        state = session.state
        if state.is_over() or reached(state, until):
            break
        seat = state.to_move()[0]
        hidden = state.determinize(seat, derive_seed(seed, "agent", seat, step))
        action = agents[seat].choose(hidden, seat)
        events = session.act(seat, session.seq, tuple(action))
        history.append(events)
        if stop_on is not None and any(ev.get("type") == stop_on for ev in events):
            break
    return session, events


#: The events of every action of the last :func:`play_table` (the log shows the recent ones).
history: list[list[dict[str, Any]]] = []


def run(args: argparse.Namespace) -> int:
    from game.cli import UsageError
    from game.commands.common import parse_options, resolve_game
    from game.commands.play import parse_size

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    size = parse_size(args.size)
    game = resolve_game(args.game, args.players)
    options = parse_options(args.options)
    if args.actions < 0:
        raise UsageError("--actions must be 0 or more")
    from game.ui.games import NoView, view_class

    try:
        view_class(game.id)
    except NoView as exc:
        raise UsageError(str(exc)) from None
    import pygame

    from game.ui.app import App
    from game.ui.settings import Settings

    settings = Settings(language=args.lang, window_size=size, colour_blind=args.colour_blind)
    settings.animation_speed = 0.0
    app = App(settings, size)
    app.settings.save = lambda: None  # type: ignore[method-assign]  # never touch user settings
    scene = args.scene
    try:
        if scene in ("menu", "setup", "settings", "join", "files"):
            _menu_scene(app, scene)
        else:
            actions = 10**6 if scene in ("results", "replay", "scoring", "round") else args.actions
            stop_on = "scoring" if scene == "round" else None
            try:
                session, events = play_table(
                    game.id,
                    args.players,
                    args.seed,
                    actions,
                    args.bots,
                    options,
                    stop_on,
                    until=args.until,
                )
            except Exception as exc:  # bad options and the like, from the host's own checks
                raise UsageError(str(getattr(exc, "text", exc))) from None
            _game_scene(
                app, game.id, session, events, args.seat, scene, args.out, args.beat, args.hint
            )
        for _ in range(3):
            app.step(1 / 60)
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(app.screen, str(out))
    finally:
        app.shutdown()
    print(f"wrote {out} ({size[0]}x{size[1]}, scene {scene})")
    return 0


def _menu_scene(app: Any, scene: str) -> None:
    from game.ui.scenes.menu import MenuScene

    app.push(MenuScene(app))
    if scene == "setup":
        from game.ui.scenes.setup import SetupScene

        app.push(SetupScene(app, "local"))
    elif scene == "settings":
        from game.ui.scenes.settings import SettingsScene

        app.push(SettingsScene(app))
    elif scene == "join":
        from game.ui.scenes.join import JoinScene

        app.push(JoinScene(app))
    elif scene == "files":
        from game.ui.scenes.files import FilesScene

        app.push(FilesScene(app, "replays"))


def _game_scene(
    app: Any,
    game_id: str,
    session: Any,
    events: list[dict[str, Any]],
    seat: int | None,
    scene: str,
    out: str,
    beat: int = 1,
    hint: bool = False,
) -> None:
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    state = session.state
    if seat is None:
        to_move = state.to_move()
        seat = to_move[0] if to_move else 0
    if not 0 <= seat < session.players:
        from game.cli import UsageError

        raise UsageError(f"--seat must be from 0 to {session.players - 1}")
    recent = [ev for evs in history[-16:-1] for ev in state.visible_events(evs, seat)]
    first = session.state_message(seat, recent)
    session.settings.allow_hints = hint
    messages = [session.lobby_message(), first, session.state_message(seat, events)]
    if hint and seat in state.to_move():
        from game.bots import hint as bot_hint
        from game.core.rng import derive_seed

        action = bot_hint(state, seat, derive_seed(session.seed, "hint", seat, session.seq))
        messages.append({"t": "hint", "table": "t1", "seq": session.seq, "action": list(action)})
    if state.is_over():
        messages.append(session.game_over_message())
    client = TableClient(game_id, {seat: _Feed(messages)})
    client.table_id = "t1"
    if scene == "replay":
        import tempfile

        from game.ui.scenes.replay import ReplayScene

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "game.replay"
            session.replay.seats = session.seat_records()
            session.replay.save(path)
            replay = ReplayScene(app, str(path))
        app.push(replay)
        replay.go(max(0, replay.steps // 2))
        return
    if scene == "round":
        app.settings.animation_speed = 1e-9  # time stands still (0 would skip the round)
    game = GameScene(app, client, session.players)
    app.push(game)
    game.revealed = seat
    if scene == "results":
        game.view.start_scoring()
        game.view.scoring.elapsed = 1e9  # type: ignore[attr-defined]
        game.show_results()
        app.top.appear = 60.0
    elif scene == "scoring":
        _pause_scoring(app, game, beat)
    elif scene == "round":
        _pause_round(game, beat)
    elif scene == "help":
        app.show_help(game.help_topic)
    elif scene == "curtain":
        game._curtain(seat)


def _pause_scoring(app: Any, game: Any, beat: int) -> None:
    """Start the end-of-game sequence and hold it near the end of step ``beat``."""
    from game.cli import UsageError

    app.settings.animation_speed = 1e-9  # time stands still (0 would skip the sequence)
    game.scoring_started = True
    game.view.start_scoring()
    scoring = getattr(game.view, "scoring", None)
    beats = getattr(scoring, "beats", [])
    if scoring is None or not beats:
        return
    if not 0 <= beat < len(beats):
        raise UsageError(f"--beat must be from 0 to {len(beats) - 1}")
    step = beats[beat]
    scoring.elapsed = step.start + step.duration * 0.8


def _pause_round(game: Any, beat: int) -> None:
    """Hold the scoring round shown during play (Glen More) near the end of step ``beat``."""
    from game.cli import UsageError

    game.view.finish_animations()
    show = getattr(game.view, "round_show", None)
    if show is None:
        raise UsageError("--scene round: this game shows no scoring round during play")
    if not 0 <= beat < len(show.beats):
        raise UsageError(f"--beat must be from 0 to {len(show.beats) - 1}")
    step = show.beats[beat]
    show.elapsed = step.start + step.duration * 0.8
