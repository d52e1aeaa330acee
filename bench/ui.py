"""Client speed: start-up to the first frame, and frame times of a busy Kingdom Builder table.

Figures:

* ``ui.first_frame_ms`` — median wall time from starting ``python -m game`` to its first drawn
  frame (the main menu), SDL dummy video driver, settings in a temporary folder.  Target < 500.
* ``ui.import_pygame_ms`` — median time to import pygame-ce alone in a fresh interpreter (the
  floor under the figure above).
* ``ui.kb_frame_ms_median`` / ``ui.kb_frame_ms_p95`` — one whole frame (events, update, draw,
  flip) of the game scene at 1280x800 with the dummy driver and software rendering, late in a
  4-player game: ~130 settlements, the legal hexes highlighted and pulsing, the mouse over a
  legal hex with its tooltip, the score preview and a full log.  Target: median < 8.
* ``ui.kb_frame_anim_ms_median`` — the same while settlements drop in and tiles fly (a new
  state with events every 20 frames).
* ``ui.kb_first_frame_ms`` — the first frame of that table, which draws the static board layer.
* ``ui.glen-more_frame_ms_median`` / ``ui.glen-more_frame_ms_p95`` — one whole frame of the
  busiest Glen More table at 1280x800: 5 players late in the game (four compact territories),
  the seat placing a tile with its ghost on every legal spot, the mouse over one of them (its
  edges and clan members marked, the tooltip up), the track and market, the score preview and a
  full log, once the last turns' animations are over.  Target: median < 8.
* ``ui.glen-more_frame_anim_ms_median`` — the same table while the last turns' events animate
  (a new state with them every 20 frames).
* ``ui.keyflower_frame_ms_median`` / ``ui.keyflower_frame_ms_p95`` — one whole frame of the
  busiest Keyflower table at 1280x800 (dummy driver, software rendering): a 6-player game in
  autumn, every village grown, bids beside the auction tiles, the seat to move with its legal
  tiles and bid spaces highlighted and pulsing, the mouse over a legal tile with its tooltip
  (both sides of the tile written out), the score preview and a full log.  Target: median < 8.
* ``ui.keyflower_frame_anim_ms_median`` — the same while keyples, resources and tiles fly (a new
  state with the last actions' events every 20 frames).
* ``ui.idle_cpu_percent.menu`` / ``.table_others`` / ``.<game>.<size>`` — the CPU the window
  uses while nobody touches it, in percent of one core (user + system time of the whole
  process, threads included, over 8 s after 3 s to settle; 3 s after 2 s with ``--quick``), the
  real main loop (``App.run``): on the main menu and at a Kingdom Builder table waiting for
  another player's move (1280x800); and for each game at 1280x800 and 1920x1080, at a table of
  this computer (in-process host, a bot opponent) waiting for the player's move, its legal
  targets pulsing.  Measured in a fresh process with the SDL dummy video driver
  (``LANTERN_BENCH_DISPLAY=1`` uses the ``DISPLAY`` there is instead, e.g. Xvfb).  Target < 2
  at a table (issue 20), < 5 on the menu.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

FIGURES: dict[str, str] = {
    "ui.first_frame_ms": "ms from starting `python -m game` to its first drawn frame (target < 500)",
    "ui.import_pygame_ms": "ms to import pygame-ce alone (the floor of the figure above)",
    "ui.kb_frame_ms_median": "ms per frame, busiest Kingdom Builder table, 1280x800 (target < 8)",
    "ui.kb_frame_ms_p95": "ms per frame, 95th percentile, same scene",
    "ui.kb_frame_anim_ms_median": "ms per frame with settlements dropping in and tiles flying",
    "ui.kb_first_frame_ms": "ms for the table's first frame (draws the static board layer)",
    "ui.glen-more_frame_ms_median": "ms per frame, busiest Glen More table, 1280x800 (target < 8)",
    "ui.glen-more_frame_ms_p95": "ms per frame, 95th percentile, same scene",
    "ui.glen-more_frame_anim_ms_median": "ms per frame, same table with the last turns animating",
    "ui.keyflower_frame_ms_median": "ms per frame, busiest Keyflower table, 1280x800 (target < 8)",
    "ui.keyflower_frame_ms_p95": "ms per frame, 95th percentile, same scene",
    "ui.keyflower_frame_anim_ms_median": "ms per frame with keyples, resources and tiles flying",
    "ui.idle_cpu_percent.menu": "% of one core, window idle on the main menu (target < 5)",
    "ui.idle_cpu_percent.table_others": "% of one core, table waiting for another player (< 2)",
}
#: The games and window sizes of the idle table waiting for your move (see the docstring).
IDLE_GAMES = ("kingdom-builder", "keyflower", "glen-more")
IDLE_SIZES = ((1280, 800), (1920, 1080))
for _game in IDLE_GAMES:
    for _w, _h in IDLE_SIZES:
        FIGURES[f"ui.idle_cpu_percent.{_game}.{_w}x{_h}"] = (
            f"% of one core, {_game} table waiting for your move, {_w}x{_h} (target < 2)"
        )


def _env(tmp: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYGAME_HIDE_SUPPORT_PROMPT="1",
        LANTERN_CONFIG_DIR=os.path.join(tmp, "config"),
        LANTERN_DATA_DIR=os.path.join(tmp, "data"),
    )
    return env


def first_frame_ms(runs: int) -> float:
    """Median ms from spawning ``python -m game`` until its first frame is on screen."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(tmp)
        env["LANTERN_FIRST_FRAME"] = "1"
        for _ in range(runs):
            start = time.time()
            out = subprocess.run(
                [sys.executable, "-m", "game"], env=env, capture_output=True, text=True, timeout=60
            )
            line = next((x for x in out.stdout.splitlines() if x.startswith("first-frame ")), "")
            if not line:
                raise RuntimeError(f"the window reported no first frame: {out.stderr[-500:]}")
            times.append((float(line.split()[1]) - start) * 1000)
    return statistics.median(times)


def import_pygame_ms(runs: int) -> float:
    code = "import time; t = time.perf_counter(); import pygame; print((time.perf_counter() - t) * 1000)"
    with tempfile.TemporaryDirectory() as tmp:
        env = _env(tmp)
        times = [
            float(
                subprocess.run(
                    [sys.executable, "-c", code],
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=60,
                ).stdout
            )
            for _ in range(runs)
        ]
    return statistics.median(times)


def _busy_table(frames: int) -> dict[str, float]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from game.commands.screenshot import _Feed, play_table
    from game.ui.app import App
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene
    from game.ui.settings import Settings

    # Late game: play until the seat to move has many legal hexes and the board is full.
    session, _events = play_table("kingdom-builder", 4, 11, 170, "random", {})
    state = session.state
    for _ in range(40):
        seat = state.to_move()[0]
        if sum(1 for a in state.legal_actions(seat) if a[0] == "place") >= 8:
            break
        action = state.legal_actions(seat)[0]
        session.act(seat, session.seq, action)
    seat = state.to_move()[0]
    from game.commands import screenshot

    recent = [ev for evs in screenshot.history[-20:] for ev in state.visible_events(evs, seat)]
    settings = Settings(language="en", window_size=(1280, 800), animation_speed=1.0)
    settings.save = lambda: None  # type: ignore[method-assign]
    app = App(settings, (1280, 800))
    feed = _Feed([session.lobby_message(), session.state_message(seat, recent)])
    scene = GameScene(app, TableClient("kingdom-builder", {seat: feed}), 4)
    t0 = time.perf_counter()
    app.push(scene)
    app.step(1 / 60)
    first = (time.perf_counter() - t0) * 1000
    legal = [a for a in scene.view.legal if a[0] == "place"]
    target = legal[len(legal) // 2] if legal else ("place", 10, 10)
    assert scene.view.hexes is not None  # type: ignore[attr-defined]
    pos = tuple(int(v) for v in scene.view.hexes.centre(target[1], target[2]))  # type: ignore[attr-defined]
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    for _ in range(30):  # warm caches (text, sprites) and let the tooltip appear
        app.step(1 / 60)
    still = []
    for _ in range(frames):
        t = time.perf_counter()
        app.step(1 / 60)
        still.append((time.perf_counter() - t) * 1000)
    # Animations: the same view again with the last few actions' events.
    place_events = [
        ev for evs in screenshot.history[-12:] for ev in state.visible_events(evs, seat)
    ]
    anim = []
    for i in range(frames):
        if i % 20 == 0:
            msg = session.state_message(seat, place_events)
            msg["seq"] = msg["seq"] + 1 + i  # a "new" state, so the scene animates its events
            feed.messages.append(msg)
        t = time.perf_counter()
        app.step(1 / 60)
        anim.append((time.perf_counter() - t) * 1000)
    app.shutdown()
    still.sort()
    return {
        "ui.kb_frame_ms_median": statistics.median(still),
        "ui.kb_frame_ms_p95": still[int(len(still) * 0.95) - 1],
        "ui.kb_frame_anim_ms_median": statistics.median(anim),
        "ui.kb_first_frame_ms": first,
    }


def busy_glen_more(frames: int) -> dict[str, float]:
    """Frame times of the busiest Glen More table (see the module docstring)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from game.commands import screenshot
    from game.commands.screenshot import _Feed, play_table
    from game.ui.app import App
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene
    from game.ui.settings import Settings

    # Late in a 5-player game, at a placement with the most legal spots seen on the way.
    session, _events = play_table("glen-more", 5, 7, 170, "normal", {})
    state = session.state
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        if sum(1 for a in legal if a[0] == "place") >= 4:
            break
        action = next((a for a in legal if a[0] != "sell"), legal[0])
        session.act(seat, session.seq, action)
    if state.is_over():
        raise RuntimeError("the Glen More bench game ended before its busy placement")
    seat = state.to_move()[0]
    recent = [ev for evs in screenshot.history[-30:] for ev in state.visible_events(evs, seat)]
    settings = Settings(language="en", window_size=(1280, 800), animation_speed=1.0)
    settings.save = lambda: None  # type: ignore[method-assign]
    app = App(settings, (1280, 800))
    feed = _Feed([session.lobby_message(), session.state_message(seat, recent)])
    scene = GameScene(app, TableClient("glen-more", {seat: feed}), 5)
    app.push(scene)
    for _ in range(3):
        app.step(1 / 60)
    view: Any = scene.view
    spots = [a for a in view.legal if a[0] == "place"]
    target = view.target(spots[len(spots) // 2]) if spots else view.rects.grid.center
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=target, rel=(0, 0), buttons=(0, 0, 0))
    )
    for _ in range(600):  # the last turns' animations end; caches warm; the tooltip appears
        app.step(1 / 60)
        if not view.animating() and app.frames > 60:
            break
    times = []
    for _ in range(frames):
        t = time.perf_counter()
        app.step(1 / 60)
        times.append((time.perf_counter() - t) * 1000)
    # Animations: the same position again with the last turns' events (figures walking, tiles
    # flying and landing, cubes popping, texts rising) every 20 frames.
    anim = []
    for i in range(frames):
        if i % 20 == 0:
            msg = session.state_message(seat, recent)
            msg["seq"] = msg["seq"] + 1 + i  # a "new" state, so the scene animates its events
            feed.messages.append(msg)
        t = time.perf_counter()
        app.step(1 / 60)
        anim.append((time.perf_counter() - t) * 1000)
    app.shutdown()
    times.sort()
    return {
        "ui.glen-more_frame_ms_median": statistics.median(times),
        "ui.glen-more_frame_ms_p95": times[max(0, int(len(times) * 0.95) - 1)],
        "ui.glen-more_frame_anim_ms_median": statistics.median(anim),
    }


def _busy_keyflower(frames: int) -> dict[str, float]:
    """The busiest Keyflower table: 6 players in autumn with grown villages and many bids."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from game.bots import make_bot
    from game.commands import screenshot
    from game.commands.screenshot import _Feed, play_table
    from game.core.rng import derive_seed
    from game.ui.app import App
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene
    from game.ui.settings import Settings

    # Autumn, well into the season: random bots play until the seat to move has many targets
    # and the auction tiles carry bids (in autumn a bot bids when it can, so bids pile up).
    session, _events = play_table("keyflower", 6, 4, 0, "random", {})
    state = session.state
    bots = [make_bot("random", derive_seed(4, "bench", s)) for s in range(6)]
    for _ in range(5000):
        if state.is_over():
            raise RuntimeError("the busy Keyflower table was not reached")
        view = state.view(None)
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        bids = sum(len(a["bids"]) for a in view["activity"])
        if (
            view["season"] == "autumn"
            and view["phase"] == "play"
            and bids >= 8
            and sum(1 for a in legal if a[0] in ("bid", "use")) >= 12
        ):
            break
        pick = bots[seat].choose(state, seat)
        if view["season"] == "autumn" and view["phase"] == "play":
            pick = next((a for a in legal if a[0] == "bid"), pick)
        screenshot.history.append(session.act(seat, session.seq, tuple(pick)))
    seat = state.to_move()[0]
    recent = [ev for evs in screenshot.history[-30:] for ev in state.visible_events(evs, seat)]
    settings = Settings(language="en", window_size=(1280, 800), animation_speed=1.0)
    settings.save = lambda: None  # type: ignore[method-assign]
    app = App(settings, (1280, 800))
    feed = _Feed([session.lobby_message(), session.state_message(seat, recent)])
    scene = GameScene(app, TableClient("keyflower", {seat: feed}), 6)
    app.push(scene)
    app.step(1 / 60)
    view = scene.view
    # the mouse over a tile that may be used (its tooltip shows both sides)
    target = next(
        (h for h in view.hits if h.kind == "tile" and h.key in view.use_at),  # type: ignore[attr-defined]
        next(h for h in view.hits if h.kind == "tile"),  # type: ignore[attr-defined]
    )
    pos = (int(target.centre[0]), int(target.centre[1]))
    pygame.event.post(
        pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    )
    for _ in range(30):  # warm caches (text, sprites) and let the tooltip appear
        app.step(1 / 60)
    still = []
    for _ in range(frames):
        t = time.perf_counter()
        app.step(1 / 60)
        still.append((time.perf_counter() - t) * 1000)
    moving = [ev for evs in screenshot.history[-12:] for ev in state.visible_events(evs, seat)]
    anim = []
    for i in range(frames):
        if i % 20 == 0:
            msg = session.state_message(seat, moving)
            msg["seq"] = msg["seq"] + 1 + i  # a "new" state, so the scene animates its events
            feed.messages.append(msg)
        t = time.perf_counter()
        app.step(1 / 60)
        anim.append((time.perf_counter() - t) * 1000)
    app.shutdown()
    still.sort()
    return {
        "ui.keyflower_frame_ms_median": statistics.median(still),
        "ui.keyflower_frame_ms_p95": still[int(len(still) * 0.95) - 1],
        "ui.keyflower_frame_anim_ms_median": statistics.median(anim),
    }


#: Where the idle window is measured (see the module docstring), besides each game's own table
#: (``table:<game>``) at each of :data:`IDLE_SIZES`.
IDLE_SCENES = ("menu", "table_others")


def idle_cpu_percent(
    scene: str, settle: float, seconds: float, size: tuple[int, int] = (1280, 800)
) -> float:
    """Percent of one core a fresh window process uses while idle on ``scene`` (``menu``,
    ``table_others`` or ``table:<game id>``) in a window of ``size``."""
    import json

    with tempfile.TemporaryDirectory() as tmp:
        env = _env(tmp)
        if os.environ.get("LANTERN_BENCH_DISPLAY") == "1" and os.environ.get("DISPLAY"):
            env.pop("SDL_VIDEODRIVER", None)
        env["LANTERN_BOT_DELAY_MS"] = "0"
        code = f"import bench.ui as b; b._idle_window({scene!r}, {settle!r}, {seconds!r}, {size!r})"
        out = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            capture_output=True,
            text=True,
            timeout=120 + settle + seconds,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        )
        line = next((x for x in out.stdout.splitlines() if x.startswith("{")), "")
        if not line:
            raise RuntimeError(f"the idle window reported nothing: {out.stderr[-800:]}")
        return float(json.loads(line)["cpu_percent"])


def _idle_window(
    scene: str, settle: float, seconds: float, size: tuple[int, int] = (1280, 800)
) -> None:
    """In a fresh process: open the window on ``scene``, run the real main loop untouched and
    print the process's CPU use over ``seconds`` after ``settle`` (a JSON line)."""
    import json
    import threading

    from game.ui.app import App
    from game.ui.settings import Settings

    settings = Settings(language="en", window_size=size, animation_speed=1.0)
    settings.save = lambda: None  # type: ignore[method-assign]
    app = App(settings, size)
    if scene == "menu":
        from game.ui.scenes.menu import MenuScene

        app.push(MenuScene(app))
    elif scene.startswith("table:"):
        _idle_own_table(app, scene.split(":", 1)[1])
    elif scene == "table_others":
        _idle_others_table(app)
    else:
        raise ValueError(f"no idle scene {scene!r}")
    result: dict[str, float] = {}

    def measure() -> None:
        time.sleep(settle)
        cpu, wall, frames = time.process_time(), time.monotonic(), app.frames
        time.sleep(seconds)
        result["cpu_percent"] = (time.process_time() - cpu) / (time.monotonic() - wall) * 100
        result["frames_per_s"] = (app.frames - frames) / (time.monotonic() - wall)
        app.quit()
        app.wakeup()

    threading.Thread(target=measure, daemon=True).start()
    app.run()
    print(json.dumps(result), flush=True)


def _idle_own_table(app: Any, game: str) -> None:
    """A game of this computer against a bot, at the player's first move (the legal targets
    pulse; the in-process host waits)."""
    from game.ui.client import SeatSpec
    from game.ui.local_game import start_local_game
    from game.ui.scenes.setup import StartingScene

    specs = [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "easy")]
    client = start_local_game(game, specs, {}, seed=3, bot_delay=0, wakeup=app.wakeup)
    app.push(StartingScene(app, client, 2))
    deadline = time.monotonic() + 60
    while not (app.top is not None and app.top.name == "game" and app.top.view.legal):
        if time.monotonic() > deadline:
            raise RuntimeError("the table did not reach the player's move")
        app.step(1 / 60)
        time.sleep(0.005)
    for _ in range(240):  # the first frames' animations (cards dealt) end
        app.step(1 / 60)
        if not app.top.view.animating():
            break


def _idle_others_table(app: Any) -> None:
    """A Kingdom Builder table mid-game, shown to a seat whose turn it is not (it waits for
    another player's move, nothing moves)."""
    from game.commands.screenshot import _Feed, play_table
    from game.ui.client import TableClient
    from game.ui.scenes.game import GameScene

    session, _events = play_table("kingdom-builder", 3, 7, 40, "random", {})
    moving = session.state.to_move()[0]
    seat = (moving + 1) % 3
    feed = _Feed([session.lobby_message(), session.state_message(seat, [])])
    scene = GameScene(app, TableClient("kingdom-builder", {seat: feed}), 3)
    app.push(scene)
    for _ in range(240):
        app.step(1 / 60)
        if not scene.view.animating():
            break


def run(quick: bool) -> dict[str, Any]:
    runs = 2 if quick else 7
    figures: dict[str, Any] = {
        "ui.first_frame_ms": first_frame_ms(runs),
        "ui.import_pygame_ms": import_pygame_ms(runs),
    }
    figures.update(_busy_table(60 if quick else 400))
    figures.update(busy_glen_more(60 if quick else 400))
    figures.update(_busy_keyflower(60 if quick else 400))
    settle, seconds = (2.0, 3.0) if quick else (3.0, 8.0)
    for scene in IDLE_SCENES:
        figures[f"ui.idle_cpu_percent.{scene}"] = idle_cpu_percent(scene, settle, seconds)
    for game in IDLE_GAMES:
        for w, h in IDLE_SIZES:
            figures[f"ui.idle_cpu_percent.{game}.{w}x{h}"] = idle_cpu_percent(
                f"table:{game}", settle, seconds, (w, h)
            )
    return {k: round(v, 3) for k, v in figures.items()}
