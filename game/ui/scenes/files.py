"""Saved games and replays: the host's autosaves, listed newest first.

The host writes every table's record after each move (``docs/protocol.md``, Saves).  An
unfinished one continues where it stopped, in the same file (one game, one entry):

* a game of this computer in an in-process host (every human seat played here, bots get their
  bots back);
* a LAN table (its save is in ``saves/lan/``, ``game/ui/lan.py``) as a LAN table again: this
  window hosts it, every seat stays reserved for its player's token — they reconnect by
  themselves or take their seat back from *Join a LAN game* — and the host's player sits down
  in their own seat with the creator's rights.

A finished one — or any ``.replay`` file, e.g. from ``lantern simulate --save-replays`` — opens
in the replay viewer.  A path can also be typed in.  Any listed file (a damaged one too) can be
deleted, after a confirmation.  The game's log is rebuilt from the save's actions when it
continues (:func:`game.ui.client.history_events`).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pygame

from game.ui.i18n import game_title, t
from game.ui.scenes.common import PageScene
from game.ui.settings import data_dir, lan_saves_dir, saves_dir
from game.ui.widgets import Button, Label, ListBox, ListItem, TextField

if TYPE_CHECKING:
    from game.ui.app import App

MAX_FILES = 200


def list_files(kind: str) -> list[ListItem]:
    """Saved games (``kind == "saves"``: not finished) or replays (finished), newest first.

    Every file is checked as it is read (``Replay.load``).  A file that cannot be opened — damaged,
    foreign, crafted — is listed as a row that says why and cannot be chosen (by its suffix:
    ``.save`` under saved games, ``.replay`` under replays); it never stops the list.
    """
    from game.core.match import Replay, clean_text
    from game.core.registry import UnknownGame, get_game
    from game.core.types import BadState

    folders = file_folders()
    found: list[tuple[float, Path]] = []
    for folder in folders:
        try:
            entries = list(folder.iterdir()) if folder.is_dir() else []
        except OSError:
            continue
        for p in entries:
            if p.suffix not in (".save", ".replay"):
                continue
            try:
                found.append((p.stat().st_mtime, p))
            except OSError:
                continue  # gone meanwhile
    found.sort(key=lambda item: item[0], reverse=True)
    if kind == "replays":
        from game.ui.scenes.replay import start_listing

        start_listing()
    items = []
    for mtime, path in found[: MAX_FILES * 2]:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(mtime))
        try:
            replay = Replay.load(path)
        except BadState as exc:
            error = str(exc)
        except Exception as exc:  # a safety net: no file may stop the list
            error = type(exc).__name__
        else:
            error = ""
        if error:
            if (path.suffix == ".replay") == (kind == "replays"):
                items.append(
                    ListItem(
                        clean_text(path.name)[:80],
                        t("files.load_failed", error=clean_text(error)[:160]),
                        str(path),
                        enabled=False,
                    )
                )
            continue
        finished = replay.final_hash is not None
        if finished != (kind == "replays"):
            continue
        try:
            title = game_title(replay.game, get_game(replay.game).title)
        except UnknownGame:
            title = replay.game
        names = ", ".join(
            str((s or {}).get("name") or f"#{i + 1}") for i, s in enumerate(replay.seats)
        )
        detail = t("files.detail", when=when, moves=len(replay.actions), players=replay.players)
        if finished:  # who won, and every player's total
            from game.ui.scenes.replay import replay_summary

            totals, winners = replay_summary(replay, str(path), mtime)
            if totals:
                names = totals
                detail = t("files.won_by", winners=winners) + " · " + detail
        elif is_lan_save(path):
            detail = t("files.lan_detail", detail=detail)
        items.append(ListItem(f"{title} — {names}", detail, str(path)))
        if len(items) >= MAX_FILES:
            break
    return items


def file_folders() -> list[Path]:
    """The folders listed: saves of this computer, LAN saves, replays."""
    return [saves_dir(), lan_saves_dir(), data_dir() / "replays"]


def is_lan_save(path: str | Path) -> bool:
    """A save of a LAN table hosted in the window (it continues as a LAN table)."""
    try:
        return Path(path).resolve().parent == lan_saves_dir().resolve()
    except OSError:
        return False


def delete_file(path: str | Path) -> None:
    """Delete a listed save or replay and its journal (only files of the listed folders)."""
    from game.core.match import journal_path

    target = Path(path).resolve()
    if target.parent not in [f.resolve() for f in file_folders()]:
        raise OSError(f"{target.name} is not in a folder of saved games")
    target.unlink()
    journal = journal_path(target)
    if journal.exists():
        journal.unlink()


class _FileList(ListBox):
    """The list of files: a click selects a row that cannot be opened (a damaged file) too,
    so that it can be deleted (it still cannot be opened or activated)."""

    def on_click(self, pos: tuple[int, int], app: App) -> None:
        index = self.scroll + (pos[1] - self.rect.y) // max(1, self._row_px)
        if 0 <= index < len(self.items) and not self.items[index].enabled:
            self.selected = index
            return
        super().on_click(pos, app)


class FilesScene(PageScene):
    """A list of saved games or replays (see the module docstring)."""

    name = "files"
    help_topic = "files"

    def frame_rate(self) -> float:
        return 0.0  # nothing moves by itself

    def __init__(self, app: App, kind: str) -> None:
        super().__init__(app)
        self.kind = kind
        self.title = lambda: t("files.title.saves" if kind == "saves" else "files.title.replays")
        self.list = _FileList(
            "files",
            on_activate=lambda item: self.open_selected(),
            empty_text=lambda: t("files.empty." + kind),
            row_height=56,
        )
        self.open_button = Button(
            "open_file",
            lambda: t("files.continue" if kind == "saves" else "files.watch"),
            self.open_selected,
            style="primary",
            enabled=lambda: self.list.selected_item is not None and self.list.selected_item.enabled,
        )
        self.path_label = Label(lambda: t("files.path"), size=16)
        self.path_field = TextField(
            "path",
            "",
            placeholder=lambda: t("files.path_placeholder"),
            max_length=300,
            on_submit=lambda text: self.open_path(text),
        )
        self.path_button = Button(
            "open_path", lambda: t("files.open"), lambda: self.open_path(self.path_field.text)
        )
        self.delete_button = Button(
            "delete_file",
            lambda: t("files.delete"),
            self.ask_delete,
            style="danger",
            enabled=lambda: self.list.selected_item is not None,
            tooltip=lambda: t("files.delete.tip"),
        )
        for w in (
            self.list,
            self.open_button,
            self.delete_button,
            self.path_label,
            self.path_field,
            self.path_button,
        ):
            self.add(w)

    def enter(self) -> None:
        self.refresh()

    def resume(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        self.list.set_items(list_files(self.kind))

    def ask_delete(self) -> None:
        """Delete the selected file, after asking."""
        from game.ui.scenes.overlays import ConfirmOverlay

        item = self.list.selected_item
        if item is None:
            return
        title, path = item.title, str(item.value)

        def delete() -> None:
            try:
                delete_file(path)
            except OSError as exc:
                self.app.toast(t("files.delete_failed", error=str(exc)[:200]), "error")
            else:
                self.app.toast(t("files.deleted", title=title[:80]), "good")
            self.refresh()

        self.app.push(
            ConfirmOverlay(
                self.app,
                lambda: t("files.delete.confirm", title=title[:80]),
                delete,
                yes=lambda: t("files.delete"),
                no=lambda: t("files.keep"),
            )
        )

    def open_selected(self) -> None:
        item = self.list.selected_item
        if item is not None and item.enabled:
            self.open_path(item.value)

    def open_path(self, path: str) -> None:
        path = path.strip()
        if not path:
            return
        from game.core.match import Replay
        from game.core.types import BadState

        try:
            replay = Replay.load(path)
        except BadState as exc:
            self.app.toast(t("files.load_failed", error=str(exc)[:300]), "error")
            return
        if replay.final_hash is None and self.kind == "saves":
            self._continue(path, replay)
        else:
            self._watch(path)

    def _continue(self, path: str, replay: Any) -> None:
        from game.ui.local_game import resume_local_game
        from game.ui.scenes.setup import StartingScene

        if is_lan_save(path):
            from game.ui.scenes.lobby import host_lan_save

            host_lan_save(self.app, path, replay)
            return
        try:
            client = resume_local_game(path, wakeup=self.app.wakeup)
        except Exception as exc:  # BadState from the host: damaged, foreign, finished
            self.app.toast(t("files.load_failed", error=str(exc)), "error")
            return
        self.app.push(StartingScene(self.app, client, replay.players))

    def _watch(self, path: str) -> None:
        from game.ui.scenes.replay import ReplayScene

        try:
            scene = ReplayScene(self.app, path)
        except Exception as exc:
            self.app.toast(t("files.load_failed", error=str(exc)), "error")
            return
        self.app.push(scene)

    def layout(self, w: int, h: int) -> None:
        super().layout(w, h)
        px = self.app.px
        area = self.content_rect()
        self.list.rect = pygame.Rect(area.x, area.y, area.width, area.height - px(66))
        y = self.list.rect.bottom + px(16)
        self.path_label.rect = pygame.Rect(area.x, y, px(110), px(42))
        self.path_field.rect = pygame.Rect(
            area.x + px(110), y, area.width - px(110) - px(160), px(42)
        )
        self.path_button.rect = pygame.Rect(self.path_field.rect.right + px(10), y, px(150), px(42))
        self.open_button.rect = pygame.Rect(w - px(32) - px(240), h - px(72), px(240), px(48))
        self.delete_button.rect = pygame.Rect(
            self.open_button.rect.x - px(170), h - px(72), px(160), px(48)
        )
