"""Words of the Glen More table: tile names, costs, effects and points (from the tile data), the
status line, hover texts, log lines and action descriptions — all through
:func:`~game.ui.i18n.t` with the game's own catalogue (``locales/glen-more/``)."""

from __future__ import annotations

import contextlib
from typing import Any

from game.ui.composer import Composer
from game.ui.games.base import Action, LogLine
from game.ui.games.glen_more.common import (
    RESOURCE_NAMES,
    GMBase,
    cell_of,
    slug,
    tile_of,
    tile_ops,
)
from game.ui.i18n import has, has_text, plural, t


# ---- names ------------------------------------------------------------------------------------
def tile_name(tile_id: Any) -> str:
    """A tile's name in the current language (its id if the data does not know it)."""
    entry = tile_of(tile_id)
    if entry is None:
        return str(tile_id)
    key = f"gm.tile.{slug(entry['name'])}"
    return t(key) if has(key) else str(entry["name"])


def res_name(res: Any) -> str:
    key = f"gm.res.{res}"
    return t(key) if has(key) else str(res)


def count(n: int, res: str) -> str:
    """``n`` cubes of ``res`` ("2 wood")."""
    return t("gm.count", n=n, res=res_name(res))


def res_list(res: dict[str, Any] | None, any_n: int = 0) -> str:
    """Resources as words, in market order: "1 wood, 1 stone" (plus any kinds)."""
    res = res or {}
    parts = [
        count(int(res[r]), r) for r in RESOURCE_NAMES if isinstance(res.get(r), int) and res[r]
    ]
    if any_n:
        parts.append(plural("gm.cost.any", any_n))
    return t("gm.list_sep").join(parts)


def category_name(key: str) -> str:
    """A score category or a scoring-round count, for the results and the scoring."""
    k = f"gm.score.{key}"
    return t(k) if has(k) else key.replace("_", " ")


def option_value_label(option: str, value: object) -> str:
    """Names of option values in the setup screen (the clan-member option's two readings)."""
    if option == "grey_clan_members" and isinstance(value, str):
        key = f"gm.option.{value}"
        return t(key) if has(key) else value
    return str(value)


# ---- what a tile costs, does and scores --------------------------------------------------------
def cost_text(tile_id: Any) -> str:
    """A tile's cost (GM §4.1): resources, any kinds, whisky, a clan member — or "free"."""
    entry = tile_of(tile_id)
    if entry is None:
        return ""
    cost = entry.get("cost") or {}
    parts = []
    res = res_list(cost.get("resources"), int(cost.get("any", 0)))
    if res:
        parts.append(res)
    if cost.get("whisky"):
        parts.append(t("gm.cost.whisky", n=cost["whisky"]))
    if cost.get("clan_members"):
        parts.append(t("gm.cost.clan", n=cost["clan_members"]))
    return t("gm.list_sep").join(parts) if parts else t("gm.cost.free")


def edges_text(tile_id: Any) -> str:
    entry = tile_of(tile_id)
    if entry is None:
        return ""
    return t(f"gm.edges.{entry.get('edge_class', 'plain')}")


def _op_text(op: dict[str, Any]) -> str:
    name = op.get("op")
    n = int(op.get("n", 1) or 1)
    if name == "produce":
        return t("gm.op.produce", what=count(n, str(op.get("resource"))))
    if name == "produce_choice":
        return t("gm.op.produce_choice", n=n)
    if name == "gain":
        what = str(op.get("what"))
        return plural(f"gm.op.gain.{what}", n) if has_text(f"gm.op.gain.{what}") else what
    if name == "clan_move":
        return t("gm.op.clan_move", n=n)
    if name == "convert":
        return t(
            "gm.op.convert",
            pay=res_list(op.get("pay")),
            gain=plural("gm.op.gain.whisky", int((op.get("gain") or {}).get("whisky", 1))),
        )
    if name == "score":
        if op.get("pay_any"):
            return plural("gm.op.score_any", int(op["pay_any"]), vp=op.get("vp", 0))
        if op.get("pay"):
            return t("gm.op.score", pay=res_list(op.get("pay")), vp=op.get("vp", 0))
        return t("gm.op.score_free", vp=op.get("vp", 0))
    if name == "score_choice":
        options = t("gm.or").join(
            t("gm.option_item", pay=res_list(o.get("pay")), vp=o.get("vp", 0))
            for o in op.get("options", [])
        )
        return t("gm.op.score_choice", options=options)
    if name == "score_distinct":
        table = t("gm.list_sep").join(
            t("gm.kinds_vp", k=k, vp=vp) for k, vp in enumerate(op.get("vp_by_kinds", [])) if k
        )
        return t("gm.op.score_distinct", max=op.get("max_kinds", 0), table=table)
    if name == "gain_resources_choice":
        return plural("gm.op.gain_resources_choice", n)
    if name == "fill_empty_production_tiles":
        return t("gm.op.fill_empty_production_tiles", n=n)
    if name == "activate_all_own_tiles":
        return t("gm.op.activate_all_own_tiles")
    if name == "activate_any":
        return t("gm.op.activate_any")
    if name == "vp_per_tile":
        cat = str(op.get("category"))
        key = f"gm.op.vp_per_tile.{cat}"
        return t(key, vp=op.get("vp", 0)) if has(key) else cat
    return str(name)


def effect_lines(tile_id: Any, on_placement: bool = False) -> list[str]:
    """What a tile does, one line per moment: when placed, each activation, once per turn,
    at the game's end; then its card, bonnets and chieftain multiplier (GM §4.3, §7, §8).
    ``on_placement`` is the clan-member option (grey tiles' clan member when placed)."""
    entry = tile_of(tile_id)
    if entry is None:
        return []
    place, activate = tile_ops(tile_id, on_placement)
    lines = []
    for when, ops in (
        ("place", place),
        ("activate", activate),
        ("turn", entry.get("per_turn", [])),
        ("end", entry.get("end_game", [])),
    ):
        if ops:
            what = t("gm.and").join(_op_text(op) for op in ops)
            lines.append(t("gm.effect_line", when=t(f"gm.when.{when}"), what=what))
    if not lines:
        lines.append(t("gm.effect.none"))
    if entry.get("special"):
        lines.append(t("gm.tile.special"))
    if int(entry.get("bonnets", 0)):
        lines.append(plural("gm.tile.bonnets", int(entry["bonnets"])))
    if int(entry.get("chieftain_multiplier", 1)) > 1:
        lines.append(plural("gm.tile.multiplier", int(entry["chieftain_multiplier"])))
    return lines


def tile_info(tile_id: Any, on_placement: bool = False, with_cost: bool = True) -> str:
    """The hover text of a tile: name, colour group and stack, cost, edges, effects, points."""
    entry = tile_of(tile_id)
    if entry is None:
        return ""
    head = tile_name(tile_id)
    stack = entry.get("stack")
    group = t(f"gm.category.{entry['category']}")
    sub = group if stack is None else t("gm.tile.group_stack", group=group, stack=stack_name(stack))
    lines = [f"{head} — {sub}"]
    if with_cost:
        lines.append(t("gm.tile.cost", cost=cost_text(tile_id)))
    lines.append(edges_text(tile_id))
    lines.extend(effect_lines(tile_id, on_placement))
    return "\n".join(lines)


def payment_text(payment: dict[str, Any]) -> str:
    """What is still to pay (``pending.payment``)."""
    parts = []
    res = res_list(payment.get("resources"), int(payment.get("any", 0) or 0))
    if res:
        parts.append(res)
    if payment.get("clan_members"):
        parts.append(t("gm.cost.clan", n=payment["clan_members"]))
    return t("gm.list_sep").join(parts) if parts else t("gm.cost.nothing")


def reward_text(reward: dict[str, Any]) -> str:
    parts = []
    if reward.get("vp"):
        parts.append(t("gm.vp", n=reward["vp"]))
    if reward.get("whisky"):
        parts.append(plural("gm.op.gain.whisky", int(reward["whisky"])))
    return t("gm.list_sep").join(parts)


def option_label(option: dict[str, Any]) -> str:
    """An option of a butcher or fair (``pending.options`` entry): what it pays and scores."""
    return t(
        "gm.option_item",
        pay=res_list(option.get("pay"), int(option.get("any", 0) or 0)),
        vp=option.get("vp", 0),
    )


def where(cell: Any) -> str:
    """A cell by its row and column (only when no tile around it can name it)."""
    try:
        r, c = cell_of(cell)
    except (TypeError, ValueError, IndexError):
        return "?"
    return t("gm.cell", row=r, col=c)


def stack_name(stack: Any) -> str:
    """A stack as the tiles' backs show it: "the start stack" (stack 0), "stack 2"."""
    if stack == 0:
        return t("gm.stack.start")
    return t("gm.stack.n", n=stack)


#: A neighbour's offset from a cell, and how the cell is placed from that neighbour.
_SIDES = (((0, -1), "east_of"), ((-1, 0), "south_of"), ((0, 1), "west_of"), ((1, 0), "north_of"))


class TextMixin(GMBase):
    """Status line, action descriptions, log lines."""

    def _choice_label(self, index: int, value: Any, prefix: Action) -> str:
        """How the choice panel names a value: an option's payment and points, a resource."""
        if index == 0:
            # The tile the choice is for (the kind itself is chosen at once).
            p = self.pending
            you = self.you if self.you is not None else 0
            if value == "option" and p.get("effect_tile") is not None:
                return tile_name(self._tile_at(you, p["effect_tile"]))
            queue = p.get("resource_for") or []
            if value == "resource" and queue and isinstance(queue[0], list):
                return tile_name(self._tile_at(you, queue[0][:2]))
            key = f"gm.field.{value}"
            return t(key) if has(key) else str(value)
        if prefix and prefix[0] == "option":
            for option in self.pending.get("options") or []:
                if option.get("option") == value:
                    return option_label(option)
            return str(value)
        if prefix and prefix[0] == "resource":
            return res_name(value)
        return str(value)

    def _choice_field(self, composer: Composer) -> str:
        kind = composer.prefix[0] if composer.prefix else ""
        key = f"gm.field.{kind}"
        return t(key) if kind and has(key) else t("gm.field.choice")

    def place_words(self, seat: int, cell: Any) -> str:
        """Where ``cell`` is in ``seat``'s territory, by a tile beside it: "east of Village"
        (the coordinates only when no tile touches it)."""
        try:
            r, c = cell_of(cell)
        except (TypeError, ValueError, IndexError):
            return "?"
        for (dr, dc), side in _SIDES:
            tile = self._tile_at(seat, (r + dr, c + dc))
            if tile is not None:
                return t(f"gm.where.{side}", tile=tile_name(tile))
        return where(cell)

    def tile_words(self, seat: int, cell: Any) -> str:
        """The tile on ``cell`` by its name — and, when ``seat`` has another tile of that name,
        where it is ("Forest (east of Village)")."""
        tile = self._tile_at(seat, cell)
        if tile is None:
            return self.place_words(seat, cell)
        name = tile_name(tile)
        try:
            c = cell_of(cell)
        except (TypeError, ValueError, IndexError):
            return name
        territory = self.territories[seat] if 0 <= seat < len(self.territories) else {}
        twins = [k for k, e in territory.items() if k != c and tile_name(e.get("tile")) == name]
        if not twins:
            return name
        neighbours = [
            (other, side)
            for (dr, dc), side in _SIDES
            if (other := self._tile_at(seat, (c[0] + dr, c[1] + dc))) is not None
        ]
        # a neighbour of another name says it best; else any neighbour
        neighbours.sort(key=lambda n: tile_name(n[0]) == name)
        if neighbours:
            other, side = neighbours[0]
            beside = t(f"gm.where.{side}", tile=tile_name(other))
            return t("gm.where.tile_beside", tile=name, beside=beside)
        return t("gm.where.tile_beside", tile=name, beside=where(cell))

    def _tile_at(self, seat: int, cell: Any) -> str | None:
        try:
            c = cell_of(cell)
        except (TypeError, ValueError, IndexError):
            return None
        if 0 <= seat < len(self.territories):
            entry = self.territories[seat].get(c)
            if entry is not None:
                return str(entry.get("tile"))
        return None

    def status(self) -> str:
        v = self.view
        if not v:
            return ""
        if v.get("over"):
            return t("gm.status.over")
        cur = self.current
        if cur is None:
            return ""
        if self.replaying:
            return self.replay_status([cur])
        if not self.my_turn():
            who = self.seats[cur] if 0 <= cur < len(self.seats) else None
            if who is not None and who.kind == "bot":
                return t("gm.status.bot_thinking", name=who.name)
            if self.you is None:
                return t("gm.status.turn_of", name=self._name(cur))
            return t("gm.status.waiting", name=self._name(cur))
        p = self.pending
        tile = tile_name(p.get("tile")) if p.get("tile") else ""
        phase = self.phase
        if self.trade is not None:
            return t("gm.status.trade")
        if phase == "take":
            if self.acts.discards and not self.acts.takes:
                return t("gm.status.discard")
            return t("gm.status.take")
        if phase == "pay":
            pay = p.get("payment") or {}
            need = payment_text(pay)
            if pay.get("for") == "effect":
                effect = tile_name(self._tile_at(self.you or 0, p.get("effect_tile")))
                return t("gm.status.pay_effect", tile=effect, need=need)
            return t("gm.status.pay", tile=tile, need=need)
        if phase == "place":
            return t("gm.status.place", tile=tile)
        if phase == "resource":
            target = (p.get("resource_for") or [[0, 0, 0]])[0]
            name = tile_name(self._tile_at(self.you or 0, target[:2])) if target else tile
            return t("gm.status.resource", tile=name)
        if phase == "option":
            effect = tile_name(self._tile_at(self.you or 0, p.get("effect_tile")))
            return t("gm.status.option", tile=effect)
        if phase == "activate":
            n = len(self.acts.activates)
            if n:
                return t("gm.status.activate", n=n)
            return t("gm.status.activate_done")
        if phase == "move":
            return t("gm.status.move", n=int(p.get("movement_points", 0) or 0))
        return ""

    def describe_action(self, action: Action) -> str:
        kind = action[0] if action else ""
        track = self.view.get("track") or []
        # A malformed action (from a hostile host) falls through to the plain words below.
        with contextlib.suppress(TypeError, ValueError, IndexError):
            if kind in ("take", "discard"):
                slot = int(action[1])
                entry = track[slot] if 0 <= slot < len(track) else None
                name = tile_name(entry.get("tile")) if isinstance(entry, dict) else "?"
                return t(f"gm.describe.{kind}", tile=name)
            if kind in ("pay", "sell"):
                cell = (action[1], action[2])
                you = self.you if self.you is not None else 0
                return t(
                    f"gm.describe.{kind}",
                    res=res_name(action[3]),
                    where=self.tile_words(you, cell),
                )
            if kind == "buy":
                return t("gm.describe.buy", res=res_name(action[1]))
            if kind in ("place", "activate", "loch_ness", "pay_clan", "chieftain"):
                you = self.you if self.you is not None else 0
                tile = tile_name(self._tile_at(you, action[1:3])) or "?"
                return t(f"gm.describe.{kind}", where=self.place_words(you, action[1:3]), tile=tile)
            if kind == "move":
                you = self.you if self.you is not None else 0
                return t(
                    "gm.describe.move",
                    frm=self.tile_words(you, action[1:3]),
                    to=self.tile_words(you, action[3:5]),
                )
            if kind == "resource":
                return t("gm.describe.resource", res=res_name(action[1]))
            if kind == "option":
                options = self.pending.get("options") or []
                i = int(action[1])
                if 0 <= i < len(options):
                    return option_label(options[i])
        key = f"gm.describe.{kind}"
        return t(key) if has(key) else " ".join(str(a) for a in action)

    def reason_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """Glen More's refusal params in words (``game/glen_more/explain.py``): tile ids,
        resources and seat numbers become names."""
        out: dict[str, Any] = dict(params)
        if "tile" in params:
            out["tile"] = tile_name(params["tile"])
        if "res" in params:
            out["res"] = res_name(params["res"])
        for name in ("current", "seat"):
            value = params.get(name)
            if isinstance(value, int) and not isinstance(value, bool):
                out[name] = self._name(value)
        return out

    def describe_event(self, ev: dict[str, Any]) -> LogLine | None:
        kind = ev.get("type")
        seat = ev.get("seat") if isinstance(ev.get("seat"), int) else None
        name = self._name(seat)
        try:
            return self._event_line(kind, seat, name, ev)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError):
            return None  # a malformed event is not worth a traceback

    def _event_line(
        self, kind: Any, seat: int | None, name: str, ev: dict[str, Any]
    ) -> LogLine | None:
        tile = tile_name(ev.get("tile")) if ev.get("tile") else ""
        if kind == "take":
            return LogLine(seat, t("gm.log.take", name=name, tile=tile))
        if kind == "discard":
            return LogLine(seat, t("gm.log.discard", name=name, tile=tile))
        if kind == "pay_whisky":
            return LogLine(seat, t("gm.log.pay_whisky", name=name, n=ev.get("n", 1)))
        if kind == "pay":
            return LogLine(seat, t("gm.log.pay", name=name, res=res_name(ev.get("resource"))))
        if kind == "sell":
            return LogLine(
                seat,
                plural(
                    "gm.log.sell",
                    int(ev.get("price", 0)),
                    name=name,
                    res=res_name(ev.get("resource")),
                    price=ev.get("price"),
                ),
            )
        if kind == "buy":
            return LogLine(
                seat,
                plural(
                    "gm.log.buy",
                    int(ev.get("price", 0)),
                    name=name,
                    res=res_name(ev.get("resource")),
                    price=ev.get("price"),
                ),
            )
        if kind == "pay_clan":
            return LogLine(seat, t("gm.log.pay_clan", name=name))
        if kind == "place":
            words = self.place_words(seat if seat is not None else 0, ev["cell"])
            return LogLine(seat, t("gm.log.place", name=name, tile=tile, where=words))
        if kind == "card":
            return LogLine(seat, t("gm.log.card", name=name, tile=tile))
        if kind == "gain":
            what = str(ev.get("what"))
            n = int(ev.get("n", 0))
            if what == "clan_member" and n == 0:
                return LogLine(seat, t("gm.log.no_clan", name=name))
            key = f"gm.log.gain.{what}"
            return LogLine(seat, plural(key, n, name=name)) if has_text(key) else None
        if kind == "produce":
            return LogLine(
                seat,
                t(
                    "gm.log.produce",
                    name=name,
                    what=count(int(ev.get("n", 0)), str(ev.get("resource"))),
                    tile=tile_name(self._tile_at(seat or 0, ev.get("cell"))),
                ),
            )
        if kind == "activate":
            key = "gm.log.loch_ness" if ev.get("loch_ness") else "gm.log.activate"
            line = t(key, name=name, tile=tile)
            if ev.get("skipped"):
                skipped = tile_name(self._tile_at(seat or 0, ev["skipped"]))
                line += " " + t("gm.log.skipped", tile=skipped)
            return LogLine(seat, line)
        if kind == "option":
            return LogLine(
                seat,
                t("gm.log.option", name=name, pay=res_list(ev.get("pay")), vp=ev.get("vp", 0)),
            )
        if kind == "score":
            return LogLine(seat, t("gm.log.score", name=name, vp=ev.get("vp", 0), tile=tile))
        if kind == "done":
            return None
        if kind == "move":
            return LogLine(
                seat,
                t(
                    "gm.log.move",
                    name=name,
                    frm=self.tile_words(seat or 0, ev["from"]),
                    to=self.tile_words(seat or 0, ev["to"]),
                ),
            )
        if kind == "chieftain":
            return LogLine(seat, t("gm.log.chieftain", name=name))
        if kind == "left_behind":
            names = ", ".join(tile_name(x[1]) for x in ev.get("tiles", []))
            return LogLine(None, t("gm.log.left_behind", tiles=names))
        if kind == "refill":
            n = len(ev.get("tiles", []))
            return LogLine(None, plural("gm.log.refill", n)) if n else None
        if kind == "die":
            return LogLine(None, t("gm.log.die", roll=ev.get("roll"), tile=tile))
        if kind == "turn":
            return LogLine(seat, t("gm.log.turn", name=name))
        if kind == "scoring":
            totals = ev.get("total", [])
            parts = ", ".join(
                f"{self._name(s)} +{v}" for s, v in enumerate(totals) if isinstance(v, int)
            )
            return LogLine(None, t("gm.log.scoring", round=ev.get("round"), points=parts))
        if kind == "final_scoring":
            return LogLine(None, t("gm.log.final_scoring"))
        if kind == "game_over":
            winners = [self._name(w) for w in ev.get("winners", []) if isinstance(w, int)]
            return LogLine(None, t("gm.log.game_over", names=", ".join(winners)))
        if kind == "undo":
            return LogLine(seat, t("gm.log.undo", name=name))
        return None
