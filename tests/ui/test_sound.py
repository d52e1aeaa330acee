"""Sounds and the call for attention (issue 20): the cues are what ``sound_synth`` makes; no sound
device (the dummy driver, a mixer that will not open) is never an error; volume and mute are
settings, kept; the mixer closes when silent; the table's moments ask for their cues; a turn
beginning while the window is not in front puts "Your turn" in the title."""

from __future__ import annotations

import io
import wave
from array import array
from typing import Any

import pygame
import pytest

from game.ui import sound as sound_module
from game.ui.app import App
from game.ui.client import SeatSpec
from game.ui.local_game import start_local_game
from game.ui.settings import Settings
from game.ui.sound import CLOSE_AFTER, Sounds
from game.ui.sound_synth import CUES, PEAK, RATE, samples, sounds_dir
from tests.ui.conftest import click, click_at, run_until


def _frames(data: bytes) -> array:
    with wave.open(io.BytesIO(data), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, RATE)
        out = array("h")
        out.frombytes(w.readframes(w.getnframes()))
        return out


def test_the_player_knows_every_cue_the_synth_makes() -> None:
    assert sound_module.CUES == CUES


@pytest.mark.parametrize("cue", CUES)
def test_each_shipped_sound_is_what_its_recipe_makes(cue: str) -> None:
    shipped = _frames((sounds_dir() / f"{cue}.wav").read_bytes())
    made = samples(cue)
    assert len(shipped) == len(made)
    assert max(abs(a - b) for a, b in zip(shipped, made, strict=True)) <= 1
    assert len(made) / RATE <= 1.0, "short"
    top = max(abs(v) for v in made)
    assert top <= PEAK * 32767 + 1, "quiet"
    assert abs(made[-1]) < 50 and abs(made[0]) < 2000, "no click at either end"


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_no_sound_device_is_never_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def no_device(*args: Any, **kwargs: Any) -> None:
        calls.append(1)
        raise pygame.error("ALSA: Couldn't open audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    sounds = Sounds(Settings(), FakeClock())
    for cue in CUES:
        assert sounds.play(cue) is False
    assert calls == [1], "a mixer that failed is not asked again"
    assert sounds.asked == list(CUES) and sounds.played == []
    sounds.settings_changed()
    assert sounds.play("turn") is False and calls == [1, 1], "asked again after a change"
    assert sounds.play("no such cue") is False


def test_the_dummy_driver_plays_and_the_mixer_closes_when_silent() -> None:
    clock = FakeClock()
    settings = Settings(sound_volume=0.5)
    sounds = Sounds(settings, clock)
    try:
        assert sounds.play("turn") is True, "SDL_AUDIODRIVER=dummy takes the sound"
        assert sounds.is_open and pygame.mixer.get_init()
        assert sounds.play("turn") is False, "the same cue at once is played once"
        clock.now += 1
        assert sounds.play("turn") is True
        assert sounds.played == ["turn", "turn"]
        clock.now += CLOSE_AFTER + 1
        pygame.mixer.stop()
        sounds.update()
        assert not sounds.is_open and not pygame.mixer.get_init(), "no audio thread when silent"
        assert sounds.play("move") is True, "opened again for the next cue"
    finally:
        sounds.close()


def test_mute_and_volume_zero_play_nothing_and_open_nothing() -> None:
    for settings in (Settings(sound_muted=True), Settings(sound_volume=0.0)):
        sounds = Sounds(settings, FakeClock())
        assert sounds.play("turn") is False
        assert not sounds.is_open
        assert sounds.asked == ["turn"]


def test_volume_and_mute_are_settings_that_are_kept(env: Any) -> None:
    s = Settings(sound_volume=0.3, sound_muted=True)
    s.save()
    again = Settings.load()
    assert again.sound_volume == 0.3 and again.sound_muted is True
    bad = Settings.from_dict({"sound_volume": 7, "sound_muted": "yes"})
    assert bad.sound_volume == Settings().sound_volume and bad.sound_muted is False


def test_the_settings_scene_has_a_volume_slider_and_a_sound_switch(app: App) -> None:
    from game.ui.scenes.settings import SettingsScene

    app.settings.sound_volume = 0.6
    app.push(SettingsScene(app))
    app.step()
    slider = app.top.widget("sound_volume")  # type: ignore[union-attr]
    track = slider.track  # type: ignore[attr-defined]
    click_at(app, (track.x + track.width // 4, track.centery))
    assert app.settings.sound_volume == pytest.approx(0.25, abs=0.051)
    assert app.sounds.asked[-1] == "move", "a change lets the player hear the loudness"
    click(app, "sound_on")
    assert app.settings.sound_muted is True
    click_at(app, (track.right - 2, track.centery))
    assert app.settings.sound_volume == pytest.approx(0.25, abs=0.051), "off while muted"
    click(app, "sound_on")
    assert app.settings.sound_muted is False
    app.pop()  # the settings are saved when the scene closes
    assert Settings.load().sound_volume == pytest.approx(app.settings.sound_volume)


def test_the_table_asks_for_its_cues_and_for_attention(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.ui.scenes.setup import StartingScene

    monkeypatch.setattr(sound_module.Sounds, "play", _record_only)
    focused = [False]
    monkeypatch.setattr(app.attention, "focused", lambda: focused[0])
    captions: list[str] = []
    real_caption = pygame.display.set_caption
    monkeypatch.setattr(
        pygame.display, "set_caption", lambda *a: (captions.append(a[0]), real_caption(*a))[1]
    )
    specs = [SeatSpec("human", "Ann", "red"), SeatSpec("bot", "Bot", "blue", "random")]
    client = start_local_game("glen-more", specs, {}, seed=3, bot_delay=0)
    app.push(StartingScene(app, client, 2))
    run_until(app, lambda: app.top is not None and app.top.name == "game", timeout=30)
    game = app.top
    seen = 0
    turns = 0
    for _ in range(40):
        run_until(app, lambda: bool(game.view.legal) or client.game_over is not None, timeout=30)
        if client.game_over is not None:
            break
        if app.sounds.asked.count("turn") > turns:
            turns = app.sounds.asked.count("turn")
            assert app.attention.asking, "not in front: the window asks for attention"
            assert captions and captions[-1].startswith("Your turn")
            pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSGAINED))
            focused[0] = True
            app.step()
            assert not app.attention.asking and captions[-1] == "Lantern Table"
            focused[0] = False
        seen += 1
        before = client.state_of(game.shown)["seq"]  # type: ignore[index]
        game.act(game.view.legal[0])
        run_until(
            app,
            lambda s=before: client.state_of(game.shown)["seq"] != s,  # type: ignore[index]
            timeout=30,
        )
    assert turns >= 2, "each turn of the player asks for the turn cue once"
    assert app.sounds.asked.count("turn") <= seen
    assert "move" in app.sounds.asked, "moves landing knock"


def _record_only(self: Sounds, cue: str) -> bool:
    self.asked.append(cue)
    return False


def test_keyflower_hears_an_outbid_and_the_end_of_a_season(app: App) -> None:
    from game.ui.games.base import SeatInfo
    from game.ui.games.keyflower.view import KeyflowerView

    view = KeyflowerView(app, [SeatInfo(0, "Ann", "red"), SeatInfo(1, "Bo", "blue")])
    view.view = {"you": 0, "seats": [{}, {}], "activity": [{"tile": "t1", "bids": [[0, "red", 2]]}]}
    assert view.cues([{"type": "bid", "seat": 1, "tile": "t1", "keyples": 3}]) == [
        "move",
        "outbid",
    ]
    assert view.cues([{"type": "bid", "seat": 1, "tile": "t2", "keyples": 1}]) == ["move"]
    assert "round" in view.cues([{"type": "season_end", "season": "spring"}])
    assert view.cues([{"type": "bid", "seat": 0, "tile": "t1"}]) == ["move"]
