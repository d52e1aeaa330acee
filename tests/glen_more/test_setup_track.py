"""Setup, turn order on the track, the refill and the neutral die figure (GM §2, §3, §4.5, §9,
§10)."""

from __future__ import annotations

import pytest

from game.core.types import BadOptions
from game.glen_more import GAME
from game.glen_more import grid as G
from game.glen_more.codes import EMPTY, PHASES, figure_code, figure_of
from game.glen_more.tiles import KINDS, STACK_SIZES, TRACK_SLOTS
from tests.glen_more.helpers import ROAD_FOREST, check_invariants, kind, legal, new, offer, play

#: Free river or road tiles a start village accepts (GM §4.2), to steer turns.
STARTERS = ["S0-02", "S0-03", "S0-06", "S0-07", "S0-01", "S0-04", "S0-05", "S0-08"]


def finish_turn(st) -> list[dict]:
    """Finish the current turn: done, then end if there are movement points."""
    events = []
    turn = st.turn_id()
    while st.turn_id() == turn and not st.is_over():
        acts = legal(st)
        for name in ("done", "end"):
            if (name,) in acts:
                events += play(st, (name,))
                break
        else:
            raise AssertionError(f"no way to finish the turn in phase {PHASES[st.phase]}")
    return events


def move_to(st, slot: int) -> list[dict]:
    """The player to move goes to ``slot``: take (a placeable starter tile put there if
    needed), place it at its first legal cell, finish the turn."""
    acts = legal(st)
    if ("take", slot) not in acts and ("discard", slot) not in acts:
        s = st.cur
        for tile in STARTERS:
            k = kind(tile)
            if k in st.grid[s].values():
                continue
            if any(k in g.values() for g in st.grid):
                continue
            offer(st, slot, tile)
            if ("take", slot) in legal(st):
                break
    acts = legal(st)
    if ("discard", slot) in acts:
        return play(st, ("discard", slot))
    events = play(st, ("take", slot))
    while PHASES[st.phase] == "pay":
        events += play(st, next(a for a in legal(st) if a[0] in ("pay", "buy", "pay_clan")))
    place = next(a for a in legal(st) if a[0] == "place")
    events += play(st, place)
    while PHASES[st.phase] == "resource":
        events += play(st, legal(st)[0])
    return events + finish_turn(st)


# ---- setup (GM §2) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "die", "tiles", "from_stack1"),
    [(2, True, 10, 2), (3, True, 9, 1), (4, False, 9, 1), (5, False, 8, 0)],
)
def test_setup_track(players: int, die: bool, tiles: int, from_stack1: int) -> None:
    """GM §2.3–2.5: figures on consecutive spaces from the start player, the die figure right
    after the last real figure with 2–3 players; tiles from stack 0 (then stack 1) on the
    following spaces; exactly one empty space, right behind the first figure, which moves
    first.  14 − 1 − figures tiles: 10, 9, 9, 8."""
    st = new(players, seed=3)
    figures = players + (1 if die else 0)
    assert st.die is die
    for i in range(players):
        assert st.slots[i] == figure_code(i)  # start seat 0 (the youngest, D22)
    if die:
        assert figure_of(st.slots[players]) == players
    assert sum(1 for v in st.slots if v >= 0) == tiles == TRACK_SLOTS - 1 - figures
    assert st.slots[TRACK_SLOTS - 1] == EMPTY and st.empty == TRACK_SLOTS - 1
    assert all(KINDS[v].stack in (0, 1) for v in st.slots if v >= 0)
    assert sum(1 for v in st.slots if v >= 0 and KINDS[v].stack == 1) == from_stack1
    assert [len(p) for p in st.stacks] == [0, STACK_SIZES[1] - from_stack1, *STACK_SIZES[2:]]
    assert st.to_move() == (0,) and PHASES[st.phase] == "take" and st.turn_id() == 0
    check_invariants(st)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_seats_and_market(players: int) -> None:
    """GM §2.2: each player has the start village at (0, 0) with 1 clan member, 6 coins, no
    resources and no whisky.  GM §2.5 / §6 D7: the market holds a coin on every "1" space with
    2–3 players only."""
    st = new(players)
    for s in range(players):
        assert st.grid[s] == {G.ORIGIN: 0} and st.clan[s] == {G.ORIGIN: 1}
        assert st.coins[s] == 6 and st.whisky[s] == 0 and st.have[s] == [0] * 5
        assert st.chieftains[s] == 0 and st.cards[s] == []
    assert st.market == ([1] * 5 if players <= 3 else [0] * 5)


def test_start_seat_option() -> None:
    """GM §2 D22: the start player is configurable; the figures follow in seat order from it."""
    st = new(4, start_seat=2)
    assert [figure_of(v) for v in st.slots[:4]] == [2, 3, 0, 1]
    assert st.to_move() == (2,)
    assert new(3, start_seat="1").to_move() == (1,)
    chosen = {new(4, seed=s, start_seat="random").to_move()[0] for s in range(30)}
    assert chosen == {0, 1, 2, 3}


def test_bad_options_are_refused() -> None:
    with pytest.raises(BadOptions, match="unknown Glen More option"):
        GAME.new(3, {"colour": "red"}, 1)
    with pytest.raises(BadOptions, match="start_seat 4"):
        GAME.new(3, {"start_seat": 4}, 1)
    with pytest.raises(BadOptions, match="grey_clan_members"):
        GAME.new(3, {"grey_clan_members": "sometimes"}, 1)
    with pytest.raises(BadOptions, match="2 to 5 players"):
        GAME.new(6, None, 1)
    with pytest.raises(BadOptions):
        GAME.new(3, [1], 1)  # type: ignore[arg-type]


def test_same_seed_same_setup() -> None:
    assert new(4, seed=9).to_dict() == new(4, seed=9).to_dict()
    assert new(4, seed=9).to_dict() != new(4, seed=10).to_dict()


# ---- turn order (GM §3, §4.1) ------------------------------------------------------------------


def test_any_tile_on_the_track_may_be_chosen() -> None:
    """GM §4.1 D1: the figure may move to any tile on the track (never stays put, never passes
    the empty space); here all the first display's tiles that fit are offered."""
    st = new(5, seed=4)
    takes = sorted(a[1] for a in legal(st) if a[0] == "take")
    assert takes == list(range(5, 13))  # stack 0: every tile a river or road tile that fits


def test_hindmost_figure_moves_next() -> None:
    """GM §3: the figure furthest back (first clockwise after the empty space) moves next."""
    st = new(4, seed=5)
    move_to(st, 12)  # seat 0 jumps to the front
    assert st.to_move() == (1,)
    move_to(st, 5)
    assert st.to_move() == (2,)
    move_to(st, 6)
    assert st.to_move() == (3,)
    move_to(st, 7)
    assert st.to_move() == (1,)  # seat 1 (slot 5) is now hindmost, seat 0 is far ahead
    check_invariants(st)


def test_consecutive_turns_change_the_turn_id() -> None:
    """GM §3: a player who stays hindmost after moving takes the next turn too; ``turn_id``
    changes at the end of each turn anyway (contract rule 2)."""
    st = new(4, seed=6)
    move_to(st, 4)
    move_to(st, 12)
    move_to(st, 11)
    move_to(st, 10)
    assert st.to_move() == (0,) and st.figs[0] == 4
    first = st.turn_id()
    move_to(st, 5)
    assert st.to_move() == (0,), "seat 0 is still hindmost and moves again"
    assert st.turn_id() == first + 1
    check_invariants(st)


def test_refill_keeps_one_empty_space_behind_the_hindmost() -> None:
    """GM §4.5: after the refill exactly one space is empty, directly behind the hindmost
    figure; tiles come from the lowest non-empty stack."""
    st = new(4, seed=7)
    before = len(st.stacks[1])
    events = move_to(st, 6)
    refill = next(e for e in events if e["type"] == "refill")
    assert refill["reveal"] is True
    assert len(st.stacks[1]) == before - len(refill["tiles"])
    assert [i for i, v in enumerate(st.slots) if v == EMPTY] == [st.empty]
    assert figure_of(st.slots[(st.empty + 1) % TRACK_SLOTS]) == st.cur


def test_skipped_tiles_behind_the_mover_are_removed() -> None:
    """GM §4.5 D2: a player who stays hindmost leaves the tiles it jumped over behind it;
    they leave the game."""
    st = new(4, seed=6)
    move_to(st, 4)
    move_to(st, 12)
    move_to(st, 11)
    move_to(st, 10)
    assert st.cur == 0 and st.figs[0] == 4
    jumped = st.slots[5]
    assert jumped >= 0
    removed = len(st.removed)
    events = move_to(st, 6)  # skips slot 5; seat 0 stays hindmost
    left = next(e for e in events if e["type"] == "left_behind")
    assert left["tiles"] == [[5, KINDS[jumped].id]]
    assert st.removed[removed:] == [jumped]
    assert st.empty == 5 and st.cur == 0
    check_invariants(st)


# ---- the neutral die figure (GM §9) --------------------------------------------------------------


def test_die_figure_moves_automatically_counting_tiles() -> None:
    """GM §9 D5: with 2–3 players the die figure rolls 1-1-1-2-2-3 when hindmost and moves
    onto that many-th *tile* ahead (figures skipped), inside the apply of the action that ended
    the previous turn; the tile leaves the game; the roll is a reveal."""
    st = new(2, seed=11)
    move_to(st, 12)
    assert st.cur == 1
    die_slot = st.figs[2]
    ahead = [i for i in range(die_slot + 1, TRACK_SLOTS) if st.slots[i] >= 0]
    events = move_to(st, 11)  # seat 1 passes the die, which becomes hindmost
    die = next(e for e in events if e["type"] == "die")
    assert die["reveal"] is True and die["roll"] in (1, 2, 3)
    assert die["from"] == die_slot
    # the die landed on the roll-th tile ahead, counting tiles only
    assert die["slot"] == ahead[die["roll"] - 1]
    assert KINDS[kind(die["tile"])].id == die["tile"] and kind(die["tile"]) in st.removed
    assert st.to_move() in ((0,), (1,))
    assert PHASES[st.phase] == "take"
    check_invariants(st)


def test_die_rolls_follow_the_faces() -> None:
    """GM §9: the die has faces 1, 1, 1, 2, 2, 3."""
    rolls = []
    for seed in range(60):
        st = new(3, seed=seed)
        move_to(st, 12)
        move_to(st, 11)
        events = move_to(st, 10)
        rolls += [e["roll"] for e in events if e["type"] == "die"]
    assert set(rolls) == {1, 2, 3}
    assert rolls.count(1) > rolls.count(3)


def test_die_turns_count_as_turns() -> None:
    """Contract rule 2: the die figure's turn ends a turn as well."""
    st = new(2, seed=12)
    move_to(st, 12)
    before = st.turn_id()
    events = move_to(st, 11)
    dies = sum(1 for e in events if e["type"] == "die")
    assert dies >= 1
    assert st.turn_id() == before + 1 + dies


def test_no_die_figure_with_four_or_five_players() -> None:
    for players in (4, 5):
        st = new(players)
        assert not st.die and len(st.figs) == players


# ---- end of the game (GM §10) --------------------------------------------------------------------


def test_game_ends_when_stack_three_runs_out() -> None:
    """GM §10 D4: the turn whose refill places the last stack-3 tile is the last; the third
    scoring round and the final scoring follow; nobody moves any more."""
    st = new(4, seed=13)
    st.stacks[1] = []
    st._scoring_round([], 1)
    st.stacks[2] = []
    st._scoring_round([], 2)
    st.stacks[3] = st.stacks[3][:1]  # the refill after the jump to slot 12 needs one tile
    st.removed = _fix_removed(st)
    check_invariants(st)
    events = move_to(st, 12)
    assert st.is_over() and st.to_move() == ()
    assert [e["type"] for e in events][-3:] == ["scoring", "final_scoring", "game_over"]
    assert len(st.rounds) == 3 and st.final is not None
    assert st.legal_actions(0) == [] and PHASES[st.phase] == "over"
    check_invariants(st)


def _fix_removed(st) -> list[int]:
    """The removed pile that makes every tile appear once (for hand-emptied stacks)."""
    from collections import Counter

    from game.glen_more.tiles import STACKS, START_VILLAGE

    want = Counter(k for p in STACKS for k in p)
    have = Counter(k for p in st.stacks for k in p)
    have.update(v for v in st.slots if v >= 0)
    have.update(k for g in st.grid for k in g.values() if k != START_VILLAGE)
    return sorted((want - have).elements())


def test_scoring_round_after_the_refill_that_empties_stack_one() -> None:
    """GM §4.5 / §7.1: the refill that places the last tile of stack 1 triggers scoring round
    1, after the refill; when the stack runs out during a refill, the refill goes on with the
    next stack (D3)."""
    st = new(4, seed=6)
    move_to(st, 4)
    move_to(st, 12)
    move_to(st, 11)
    move_to(st, 10)
    assert st.cur == 0 and st.figs[0] == 4
    st.stacks[1] = st.stacks[1][:1]
    st.removed = _fix_removed(st)
    check_invariants(st)
    events = move_to(st, 6)  # skips slot 5: the refill needs more than one tile
    kinds = [e["type"] for e in events]
    assert kinds.index("refill") < kinds.index("scoring")
    scoring = next(e for e in events if e["type"] == "scoring")
    assert scoring["round"] == 1 and scoring["stack"] == 1
    assert len(st.rounds) == 1 and not st.is_over()
    refill = next(e for e in events if e["type"] == "refill")
    stacks = [KINDS[kind(tile)].stack for _, tile in refill["tiles"]]
    assert stacks[0] == 1 and stacks[1:] and set(stacks[1:]) == {2}
    check_invariants(st)


def test_road_forest_is_a_starter() -> None:
    """GM §4.2: the start village takes road tiles east and west."""
    st = new(4)
    offer(st, 5, ROAD_FOREST)
    assert ("take", 5) in legal(st)
