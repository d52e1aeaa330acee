"""Test-wide setup: no screen, no sound, and hypothesis profiles.

SDL reads these variables when pygame initialises its subsystems, so they are set before any
test module imports pygame.  CI therefore needs no display.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

try:
    from hypothesis import HealthCheck, settings

    settings.register_profile(
        "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=60
    )
    settings.register_profile(
        "long", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=2000
    )
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
except ImportError:  # hypothesis is in the test extra; the plain tests still run without it
    pass


import pytest


@pytest.fixture(scope="session")
def wheel_cache(tmp_path_factory: pytest.TempPathFactory) -> object:
    """One cache folder (``LANTERN_CACHE_DIR``) for every test that makes the install page's
    wheels: the project's wheel is built and the dependencies rebuilt once per test run."""
    return tmp_path_factory.mktemp("lantern-cache")


@pytest.fixture(autouse=True)
def english_between_tests() -> object:
    """Every test starts in English and leaves the language as it found it.

    The current language is module state of ``game.ui.i18n``; a test that switches to Japanese
    and fails (or an app that loads saved settings) would otherwise leak it into whichever test
    runs next in the same worker process, and which test that is depends on how the tests are
    shared between processes."""
    from game.ui import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")
