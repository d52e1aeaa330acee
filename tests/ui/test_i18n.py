"""Every string in English, Japanese and Dutch: the same keys and the same fields everywhere."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from game.ui import i18n
from game.ui.games.kingdom_builder import CARD_NAMES, LOCATION_TYPES, TERRAINS

UI = Path(i18n.__file__).parent


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_catalogues_have_the_same_keys() -> None:
    en = i18n.catalogue("en")
    for code in ("ja", "nl"):
        other = i18n.catalogue(code)
        assert sorted(set(en) - set(other)) == [], f"{code} lacks keys"
        assert sorted(set(other) - set(en)) == [], f"{code} has extra keys"


def test_every_catalogue_file_has_every_key_in_every_language() -> None:
    """The shared file and each game's folder (``locales/<game>/``): the same keys in English,
    Japanese and Dutch, file by file (a key never moves between files in a translation)."""
    files = i18n.catalogue_files()
    assert "kingdom-builder/{code}.json" in files
    for name in files:
        en = i18n.load_file(name, "en")
        assert en, name
        for code in ("ja", "nl"):
            other = i18n.load_file(name, code)
            assert sorted(set(en) - set(other)) == [], f"{name.format(code=code)} lacks keys"
            assert sorted(set(other) - set(en)) == [], f"{name.format(code=code)} has extra keys"


def test_game_strings_live_in_the_games_folder() -> None:
    """Kingdom Builder's strings are in ``locales/kingdom-builder/``; the shared file holds
    none of any game's keys, and no key is defined twice (the loader refuses that)."""
    shared = i18n.load_file("{code}.json", "en")
    kb = i18n.load_file("kingdom-builder/{code}.json", "en")
    assert all(
        k.startswith(("kb.", "option.kingdom-builder.", "reason.kingdom-builder.")) for k in kb
    )
    assert len(kb) > 150
    games = [n.split("/")[0] for n in i18n.catalogue_files()[1:]]
    assert not [k for k in shared if k.startswith(("kb.", "reason.kingdom-builder."))]
    assert not [k for k in shared for g in games if k.startswith(f"option.{g}.")]
    assert len(i18n.catalogue("en")) == sum(
        len(i18n.load_file(n, "en")) for n in i18n.catalogue_files()
    )


def test_a_key_in_two_files_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    real = i18n.load_file

    def doubled(name: str, code: str) -> dict[str, str]:
        data = dict(real(name, code))
        if name != "{code}.json":
            data["menu.quit"] = "Quit twice"
        return data

    monkeypatch.setattr(i18n, "load_file", doubled)
    i18n.catalogue.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"repeats keys: menu\.quit"):
            i18n.catalogue("nl")
    finally:
        monkeypatch.undo()
        i18n.catalogue.cache_clear()


@pytest.mark.parametrize("code", ["ja", "nl"])
def test_translations_use_the_same_fields(code: str) -> None:
    en = i18n.catalogue("en")
    other = i18n.catalogue(code)
    for key, text in en.items():
        assert fields(other[key]) == fields(text), key
        assert other[key].strip(), f"{code}: {key} is empty"


def test_translations_are_translated() -> None:
    """Most strings differ from English (names like "Kingdom Builder" may stay)."""
    en = i18n.catalogue("en")
    for code in ("ja", "nl"):
        other = i18n.catalogue(code)
        same = [k for k in en if en[k] == other[k] and len(en[k]) > 12]
        assert len(same) < len(en) * 0.05, (code, same[:20])


def test_every_key_used_in_the_code_exists() -> None:
    en = i18n.catalogue("en")
    pattern = re.compile(r"""\b(?:t|lazy)\(\s*"([a-z][a-z0-9_.\-]+)"\s*[,)]""")
    missing = []
    for path in UI.rglob("*.py"):
        if path.name == "i18n.py":  # its docstring shows made-up examples
            continue
        for key in pattern.findall(path.read_text("utf-8")):
            if key not in en:
                missing.append((path.name, key))
    assert missing == []


def test_game_texts_exist() -> None:
    """Rule texts of every location tile, card and terrain are translated."""
    for code in ("en", "ja", "nl"):
        cat = i18n.catalogue(code)
        for tile in LOCATION_TYPES:
            for suffix in ("", ".abbr", ".text"):
                assert f"kb.tile.{tile}{suffix}" in cat
        for card in CARD_NAMES:
            for suffix in ("", ".short", ".text"):
                assert f"kb.card.{card}{suffix}" in cat
        for terrain in TERRAINS:
            assert f"kb.terrain.{terrain}" in cat and f"kb.terrain.{terrain}.text" in cat


def test_switching_language() -> None:
    try:
        i18n.set_language("ja")
        assert i18n.t("menu.quit") == i18n.catalogue("ja")["menu.quit"]
        i18n.set_language("xx")
        assert i18n.language() == "en"
        assert i18n.t("no.such.key") == "no.such.key"
        assert i18n.t("curtain.pass_to", name="Anna") == "Pass the computer to Anna"
    finally:
        i18n.set_language("en")


def test_lazy_text_follows_the_language() -> None:
    """Widget texts made with ``lazy`` are looked up when drawn, with their fields."""
    text = i18n.lazy("curtain.pass_to", name="Anna")
    try:
        assert text() == "Pass the computer to Anna"
        i18n.set_language("nl")
        assert text() == i18n.catalogue("nl")["curtain.pass_to"].format(name="Anna")
    finally:
        i18n.set_language("en")


def test_guess_language() -> None:
    assert i18n.guess_language(["nl_BE.UTF-8"]) == "nl"
    assert i18n.guess_language(["fr_FR", "ja-JP"]) == "ja"
    assert i18n.guess_language([]) == "en"
