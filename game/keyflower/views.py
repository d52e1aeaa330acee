"""What each seat may see (``view``), the full report for ``show --json`` and its text form.

Secrets (KF §1, §3, §4.1; ``docs/keyflower.md``, "Hidden information"): the keyples and skill
tiles behind a screen are seen by their owner only — the others see how many there are and the
fewest of each colour/kind the seat is known to hold (``known_keyples`` / ``known_skills``); a
winter hand is seen by its owner only; placements and winter choices made in a simultaneous
phase are seen by their maker only until everybody has chosen.  At the end everything is shown.
The bag and the skill supply show their size only (their mix depends on the screens).  The RNG
never appears.

Field lists are in ``docs/keyflower.md`` ("View", "show --json").  A view is built from plain
lists (village tiles as ``[tile, q, r, rot, face, [wood, stone, iron, gold]]``) so a 6-player
view stays small; the seat-independent part is built once per position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.core.types import Seat
from game.core.wire import plain_copy
from game.keyflower.const import (
    BOATS,
    DISPLAY,
    NONE,
    OVER,
    PHASES,
    PLACE,
    PLAY,
    STAGES,
    WINTER_PICK,
)
from game.keyflower.tiles import COLOURS, RESOURCES, SEASONS, SKILLS, TILES, WINTER
from game.keyflower.village import axial

if TYPE_CHECKING:
    from game.keyflower.state import KeyflowerState


def _face(st: KeyflowerState, t: int) -> str:
    return TILES[t].sides[st.side[t]].face


def _activity(st: KeyflowerState) -> list[dict[str, Any]]:
    """Tiles with keyples on or beside them this season (bids, uses, lock colour)."""
    out = []
    for t in range(len(st.lock)):
        if st.lock[t] < 0:
            continue
        bids = [
            [s, COLOURS[st.bidc[t * 6 + s]], st.bidn[t * 6 + s]]
            for s in range(st.n)
            if st.bidn[t * 6 + s]
        ]
        uses = [[s, COLOURS[c], m] for s, c, m in st.uses.get(t, ())]
        out.append({"tile": TILES[t].id, "lock": COLOURS[st.lock[t]], "bids": bids, "uses": uses})
    return out


def _village(st: KeyflowerState, s: int) -> list[list[Any]]:
    return [
        [TILES[t].id, *axial(st.hexof[t]), st.rot[t], _face(st, t), st.res[t * 4 : t * 4 + 4]]
        for t in st.vorder[s]
    ]


def _pending(st: KeyflowerState) -> dict[str, Any] | None:
    """The turn being built by the current seat (public: keyples are placed in the open)."""
    if st.phase != PLAY or st.stage == NONE:
        return None
    return {
        "seat": st.cur,
        "stage": STAGES[st.stage],
        "reclaimed": [TILES[t].id for t in st.precl],
        "colour": COLOURS[st.pcol] if st.pcol >= 0 else None,
        "keyples": st.pk,
        "tile": TILES[st.ptile].id if st.ptile >= 0 else None,
        "transport": st.ppts,
        "upgrades": st.pupg,
        "upgraded": st.pupgraded,
        "move_from": TILES[st.pfrom].id if st.pfrom >= 0 else None,
        "move_kind": RESOURCES[st.pkind] if st.pkind >= 0 else None,
    }


def _seat_public(st: KeyflowerState, s: int, over: bool) -> dict[str, Any]:
    won = list(st.won[s]) + [t for t, _, _ in st.pplaced[s]]
    out: dict[str, Any] = {
        "seat": s,
        "home": TILES[st.home[s]].id,
        "village": _village(st, s),
        "keyple_count": sum(st.keys[s]),
        "known_keyples": list(st.kknown[s]),
        "skill_count": sum(st.skills[s]),
        "known_skills": list(st.sknown[s]),
        "purple": st.purple == s,
        "winter_hand": len(st.hands[s]),
        "won": sorted(TILES[t].id for t in won),
        "done": _done(st, s),
    }
    if over:
        out["keyples"] = list(st.keys[s])
        out["skills"] = list(st.skills[s])
    return out


def _done(st: KeyflowerState, s: int) -> bool | None:
    """In a simultaneous phase: whether ``s`` has finished choosing (public); else None."""
    if st.phase == PLACE:
        return not st.won[s]
    if st.phase == WINTER_PICK:
        return st.wpick[s] is not None
    return None


def _public(st: KeyflowerState) -> dict[str, Any]:
    over = st.phase == OVER
    out: dict[str, Any] = {
        "game": st.game_id,
        "players": st.n,
        "season": SEASONS[st.season],
        "phase": PHASES[st.phase],
        "turn": st.turn,
        "start": st.start,
        "purple": st.purple,
        "current": st.cur if st.cur >= 0 else None,
        "passes": st.passes,
        "over": over,
        "supply": {
            "bag": sum(st.bag),
            "green": st.green,
            "skills": sum(st.sksup),
            "resources": list(st.ressup),
        },
        "auction": [[TILES[t].id, _face(st, t)] for t in st.auction],
        "turn_order": [
            [TILES[t].id, _face(st, t), TILES[t].faces_purple[st.side[t]]]
            for t in st.tord
            if st.where[t] == DISPLAY
        ],
        "activity": _activity(st),
        "boats": [
            {
                "boat": TILES[b].id,
                "side": _face(st, b),
                "keyples": st.bkeys[i * 3 : i * 3 + 3],
                "skills": st.bskills[i * 3 : i * 3 + 3],
                "taken": st.btaken[i],
            }
            for i, b in enumerate(st.boats)
            if st.where[b] == DISPLAY
        ],
        "boat_order": list(st.border) if st.phase == BOATS else [],
        "pending": _pending(st),
        "seats": [_seat_public(st, s, over) for s in range(st.n)],
        "scores": st.scores(),
        "preview": st.preview_scores(),
    }
    if over:
        out["final"] = _final(st)
    return out


def _final(st: KeyflowerState) -> list[dict[str, Any]]:
    fin = st.final()
    return [dict(d) for d in fin.details]


def view(st: KeyflowerState, seat: Seat | None) -> dict[str, Any]:
    """The plain-dict view of ``seat`` (``None``: a spectator); fields in ``docs/keyflower.md``
    ("View").  The caller's own: nothing in it is shared with the state."""
    return plain_copy(shared_view(st, seat))


def shared_view(st: KeyflowerState, seat: Seat | None) -> dict[str, Any]:
    """:func:`view`, sharing with the other seats' views of this position everything but
    ``you`` and the seat's own secrets (built once per position; for the host, which encodes it
    at once)."""
    shared = st._view
    if shared is None:
        shared = st._view = _public(st)
    out = dict(shared)
    out["you"] = seat
    if seat is not None and 0 <= seat < st.n and st.phase != OVER:
        seats = list(shared["seats"])
        mine = dict(seats[seat])
        mine["keyples"] = list(st.keys[seat])
        mine["skills"] = list(st.skills[seat])
        mine["winter_hand"] = [TILES[t].id for t in st.hands[seat]]
        pick = st.wpick[seat]
        mine["winter_pick"] = None if pick is None else [TILES[t].id for t in pick]
        mine["placed"] = [[TILES[t].id, *axial(h), r] for t, h, r in st.pplaced[seat]]
        mine["place_selected"] = TILES[st.psel[seat]].id if st.psel[seat] >= 0 else None
        seats[seat] = mine
        out["seats"] = seats
    return out


# ---- show --json ----------------------------------------------------------------------------
def _named(values: list[int], names: tuple[str, ...]) -> dict[str, int]:
    return dict(zip(names, values, strict=True))


def report(st: KeyflowerState) -> dict[str, Any]:
    """The ``python -m game show --json`` object: full information (a saved file has no
    secrets from its reader).  Fields are documented in ``docs/keyflower.md``."""
    return plain_copy(_report(st))


def _report(st: KeyflowerState) -> dict[str, Any]:
    over = st.phase == OVER
    seats = []
    fin = st.final() if over else None
    for s in range(st.n):
        village = []
        for t in st.vorder[s]:
            q, r = axial(st.hexof[t])
            village.append(
                {
                    "tile": TILES[t].id,
                    "name": TILES[t].name,
                    "side": _face(st, t),
                    "q": q,
                    "r": r,
                    "rotation": st.rot[t],
                    "resources": _named(st.res[t * 4 : t * 4 + 4], RESOURCES),
                }
            )
        res = [sum(st.res[t * 4 + k] for t in st.vorder[s]) for k in range(4)]
        entry: dict[str, Any] = {
            "seat": s,
            "home": TILES[st.home[s]].id,
            "village": village,
            "supply": {
                "keyples": _named(st.keys[s], COLOURS),
                "resources": _named(res, RESOURCES),
                "skills": _named(st.skills[s], SKILLS),
            },
            "known_keyples": _named(st.kknown[s], COLOURS),
            "known_skills": _named(st.sknown[s], SKILLS),
            "purple": st.purple == s,
            "winter_tiles": [TILES[t].id for t in st.vorder[s] if TILES[t].season == WINTER],
            "winter_hand": [TILES[t].id for t in st.hands[s]],
            "winter_pick": (
                None if st.wpick[s] is None else [TILES[t].id for t in st.wpick[s] or ()]
            ),
            "boats": [TILES[t].id for t in st.vorder[s] if TILES[t].kind == "boat"],
            "won": [TILES[t].id for t in st.won[s]],
            "placed": [[TILES[t].id, *axial(h), r] for t, h, r in st.pplaced[s]],
        }
        if fin is not None:
            entry["score"] = fin.scores[s]
            entry["scoring"] = fin.details[s]
        seats.append(entry)
    return {
        "game": st.game_id,
        "players": st.n,
        "to_move": list(st.to_move()),
        "turn": st.turn,
        "over": over,
        "scores": st.scores(),
        "winners": st.winners() if over else [],
        "season": SEASONS[st.season],
        "phase": PHASES[st.phase],
        "start": st.start,
        "purple": st.purple,
        "current": st.cur if st.cur >= 0 else None,
        "passes": st.passes,
        "supply": {
            "bag": _named(st.bag, COLOURS[:3]),
            "green": st.green,
            "skills": _named(st.sksup, SKILLS),
            "resources": _named(st.ressup, RESOURCES),
        },
        "auction": [{"tile": TILES[t].id, "side": _face(st, t)} for t in st.auction],
        "turn_order": [
            {
                "tile": TILES[t].id,
                "face": _face(st, t),
                "purple": TILES[t].faces_purple[st.side[t]],
                "on_table": st.where[t] == DISPLAY,
            }
            for t in st.tord
        ],
        "activity": _activity(st),
        "boats": [
            {
                "boat": TILES[b].id,
                "side": _face(st, b),
                "keyples": _named(st.bkeys[i * 3 : i * 3 + 3], COLOURS[:3]),
                "skills": _named(st.bskills[i * 3 : i * 3 + 3], SKILLS),
                "taken": st.btaken[i],
                "on_table": st.where[b] == DISPLAY,
            }
            for i, b in enumerate(st.boats)
        ],
        "boat_order": list(st.border),
        "pending": _pending(st),
        "preview": st.preview_scores(),
        "seats": seats,
    }


def report_text(st: KeyflowerState) -> str:
    """A readable summary: season, auction, each seat's village and screen, the scores."""
    lines = [
        f"Keyflower, {st.n} players; {SEASONS[st.season]}, phase {PHASES[st.phase]}, "
        f"turn {st.turn}; start player seat {st.start}, purple keyple: seat {st.purple}"
    ]
    if st.phase == OVER:
        lines.append("game over; winners: " + ", ".join(f"seat {s}" for s in st.winners()))
    else:
        lines.append("to move: " + ", ".join(f"seat {s}" for s in st.to_move()))
    if st.auction:
        lines.append(
            "auction: " + ", ".join(f"{TILES[t].name} ({_face(st, t)})" for t in st.auction)
        )
    for a in _activity(st):
        bids = " ".join(f"s{s}:{n}{c[0]}" for s, c, n in a["bids"])
        uses = " ".join(f"s{s}:{n}{c[0]}" for s, c, n in a["uses"])
        lines.append(f"  {a['tile']} [{a['lock']}] bids {bids or '-'}; uses {uses or '-'}")
    for s in range(st.n):
        keys = " ".join(f"{COLOURS[c]} {st.keys[s][c]}" for c in range(4))
        sk = " ".join(f"{SKILLS[k]} {st.skills[s][k]}" for k in range(3))
        lines.append(
            f"seat {s}: keyples {keys}; skills {sk}" + (" (purple)" if st.purple == s else "")
        )
        for t in st.vorder[s]:
            q, r = axial(st.hexof[t])
            res = ", ".join(
                f"{st.res[t * 4 + k]} {RESOURCES[k]}" for k in range(4) if st.res[t * 4 + k]
            )
            lines.append(
                f"    ({q:+d},{r:+d}) rot {st.rot[t]} {TILES[t].name} [{_face(st, t)}]"
                + (f": {res}" if res else "")
            )
    scores = st.preview_scores()
    cats = [k for k in scores[0] if k != "total"]
    width = max(len(c) for c in [*cats, "total"]) + 1
    label = "final score" if st.phase == OVER else "preview"
    lines.append(f"{label}:")
    lines.append("seat  " + "".join(f"{c:>{width}}" for c in [*cats, "total"]))
    for s, row in enumerate(scores):
        lines.append(f"{s:>4}  " + "".join(f"{row[c]:>{width}}" for c in [*cats, "total"]))
    return "\n".join(lines)
