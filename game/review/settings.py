"""How hard a review looks: the search's playouts per turn and the sampled worlds.

A review must give the same result on any machine and at any load, so its budget is a count,
never a time: ``iterations`` playouts of the hard level's search per judged turn (the search
is then deterministic), ``worlds`` common sampled worlds on which the move made and the move
found are compared, ``graph_worlds`` sampled worlds per point of the graph.

The default per turn is the hard level's own playout count in the game (its
``SEARCH["iterations"]``; a game whose hard level counts work instead — Kingdom Builder,
Keyflower — has its playouts per median decision in :data:`PLAYOUTS`, else
:data:`DEFAULT_PLAYOUTS`), lowered for a long game so that the whole
review searches at most :data:`TOTAL_DECISIONS` hard decisions' worth (a 4-player Keyflower
game gives a seat about 50 turns with a choice; Kingdom Builder and Glen More about 10).
``--budget S`` asks for ``S`` seconds of the hard level's thinking per turn: its count is
calibrated to about :data:`HARD_SECONDS` of CPU at the median (``docs/bots.md``, "Budgets"), so
``S`` seconds are ``S / HARD_SECONDS`` times that count — a count again, the same everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from game.bots.knowledge import knowledge_for

#: Changes whenever the analysis changes what it computes (a cached review of another version
#: is recomputed).
REVIEW_VERSION = 3  # 3: Kingdom Builder's hard level plays its own next turn in playouts
#: The CPU seconds a hard decision takes at the median with the count a game calibrates
#: (``docs/bots.md``, "Budgets": Kingdom Builder 1.12, Glen More 0.90, Keyflower 0.84).
HARD_SECONDS = 1.0
#: Playouts of a median hard decision where the game's hard level counts work, not playouts
#: (measured with ``python -m bench.bot_budgets``, 2026-12-02: ``docs/bots.md``, "Budgets";
#: Kingdom Builder's since its hard level plays its own next turn in playouts, the evening of
#: 2026-12-02, 9,000 work: the median of 76 hard decisions of 6 games, 3 base and 3 full
#: Nomads — 73; base 78, full Nomads 63).
PLAYOUTS = {"kingdom-builder": 73, "keyflower": 160}
#: The same for any other game.
DEFAULT_PLAYOUTS = 60
#: A whole review searches at most this many hard decisions' worth of playouts.
TOTAL_DECISIONS = 24
#: The fewest playouts a judged turn gets (below this the search is the planner and little more).
MIN_ITERATIONS = 16
#: The most playouts a judged turn may be asked for.
MAX_ITERATIONS = 5000
#: Common sampled worlds on which the move made and the move found are compared.
WORLDS = 8
#: Sampled worlds per point of the graph.
GRAPH_WORLDS = 3


@dataclass(frozen=True)
class ReviewSettings:
    """The budget of one review (see the module docstring)."""

    iterations: int
    worlds: int = WORLDS
    graph_worlds: int = GRAPH_WORLDS

    def __post_init__(self) -> None:
        if not MIN_ITERATIONS // 4 <= self.iterations <= MAX_ITERATIONS:
            raise ValueError(
                f"a review searches {MIN_ITERATIONS // 4} to {MAX_ITERATIONS} playouts a turn"
            )
        if not 1 <= self.worlds <= 64 or not 1 <= self.graph_worlds <= 16:
            raise ValueError("a review samples 1 to 64 worlds a turn, 1 to 16 per graph point")

    def key(self) -> str:
        """What a cached review must match (with the review's version)."""
        return f"v{REVIEW_VERSION}/i{self.iterations}/w{self.worlds}/g{self.graph_worlds}"

    def to_plain(self) -> dict[str, Any]:
        return {
            "iterations": self.iterations,
            "worlds": self.worlds,
            "graph_worlds": self.graph_worlds,
            "version": REVIEW_VERSION,
        }


def hard_iterations(game_id: str) -> int:
    """The hard level's playouts per decision in ``game_id``."""
    fallback = PLAYOUTS.get(game_id, DEFAULT_PLAYOUTS)
    count = dict(knowledge_for(game_id).search).get("iterations", fallback)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        return fallback
    return count


def iterations_for(game_id: str, seconds: float) -> int:
    """Playouts per turn for ``seconds`` of the hard level's thinking (see the docstring)."""
    count = round(hard_iterations(game_id) * seconds / HARD_SECONDS)
    return max(MIN_ITERATIONS, min(MAX_ITERATIONS, count))


def default_settings(game_id: str, judged_turns: int) -> ReviewSettings:
    """The hard level's budget per turn, lowered for a long game (see the module docstring)."""
    iterations = hard_iterations(game_id)
    if judged_turns > TOTAL_DECISIONS:
        iterations = iterations * TOTAL_DECISIONS // judged_turns
    return ReviewSettings(max(MIN_ITERATIONS, min(MAX_ITERATIONS, iterations)))
