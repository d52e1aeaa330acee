"""Words of the Keyflower table: tile names, every tile side's effect and upgrade cost written
out from the box's data (so a hover shows both sides of any tile in the chosen language), the
status line, hover texts, log lines and action descriptions — all through
:func:`~game.ui.i18n.t` with the game's own catalogue (``locales/keyflower/``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from game.keyflower.tiles import TileDef
from game.ui.games.base import Action, LogLine
from game.ui.games.keyflower.clean import num
from game.ui.games.keyflower.common import (
    COLOURS,
    RESOURCES,
    SKILLS,
    KFBase,
    as_dict,
    as_list,
    side_index,
    tile_def,
)
from game.ui.i18n import has, t


# ---- names ----------------------------------------------------------------------------------
def tile_name(tile_id: Any) -> str:
    """A tile's name in the current language ("?" for an unknown id)."""
    tile = tile_def(tile_id)
    if tile is None:
        return "?"
    if tile.kind == "home":
        return t("kf.tile.home", n=tile.number)
    if tile.kind == "turn_order":
        return t("kf.tile.turn_order", n=tile.number)
    if tile.kind == "summer_boat":
        return t("kf.tile.summer_boat", n=tile.id.rsplit("_", 1)[-1])
    key = f"kf.boat.{tile.id}" if tile.kind == "boat" else f"kf.tile.{tile.id}"
    return t(key) if has(key) else tile.name


def face_name(tile: TileDef, face: Any) -> str:
    """ "Front" / "Upgraded side" / "Face 2a" / "Side B"."""
    if tile.kind in ("home", "village", "winter"):
        return t("kf.face.upgraded") if face == "upgraded" else t("kf.face.front")
    if tile.kind == "summer_boat":
        return t("kf.face.summer_boat", face=f"{tile.id.rsplit('_', 1)[-1]}{face}")
    return t("kf.face.side", face=str(face))


def shown_name(tile_id: Any, face: Any = None) -> str:
    """The name with a summer boat's face (2a) — what the table shows."""
    tile = tile_def(tile_id)
    if tile is not None and tile.kind == "summer_boat" and face in ("a", "b"):
        return t("kf.tile.summer_boat", n=f"{tile.id.rsplit('_', 1)[-1]}{face}")
    return tile_name(tile_id)


def colour_name(colour: Any) -> str:
    key = f"kf.colour.{colour}"
    return t(key) if has(key) else str(colour)


def resource_name(kind: Any) -> str:
    key = f"kf.res.{kind}"
    return t(key) if has(key) else str(kind)


def skill_name(kind: Any) -> str:
    key = f"kf.skill.{kind}"
    return t(key) if has(key) else str(kind)


def season_name(season: Any) -> str:
    key = f"kf.season.{season}"
    return t(key) if has(key) else str(season)


def category_name(key: str) -> str:
    k = f"kf.category.{key}"
    return t(k) if has(k) else key


def _plural(key: str, n: int, **fields: Any) -> str:
    return t(f"{key}.{'one' if n == 1 else 'many'}", n=n, **fields)


def keyples_text(n: int, colour: str | None = None) -> str:
    """ "1 red keyple", "2 keyples", "1 keyple of any colour" (``colour`` "any")."""
    if colour == "any":
        return _plural("kf.n.keyples_any", n)
    if colour is None:
        return _plural("kf.n.keyples", n)
    return _plural("kf.n.keyples_colour", n, colour=colour_name(colour))


def resources_text(n: int, kind: str) -> str:
    return t("kf.n.resource", n=n, res=resource_name(kind))


def skills_text(n: int, kind: str | None = None) -> str:
    if kind == "any":
        return _plural("kf.n.skills_any", n)
    if kind is None:
        return _plural("kf.n.skills", n)
    return _plural(f"kf.n.skill.{kind}", n)


def join(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c" in the current language."""
    items = [x for x in items if x]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return t("kf.and", a=t("kf.list_sep").join(items[:-1]), b=items[-1])


def _resource_list(values: Sequence[int]) -> str:
    return join([resources_text(n, RESOURCES[k]) for k, n in enumerate(values) if n])


# ---- effects -------------------------------------------------------------------------------
def side_text(tile: TileDef, side: int) -> str:
    """What one side of a tile does, written out from the data (KF §6, §7, §11, §13)."""
    if not 0 <= side < len(tile.sides):
        return ""
    s = tile.sides[side]
    if tile.kind == "boat":
        return boat_text(tile, side)
    if tile.kind == "turn_order":
        text = t("kf.effect.turn_order", n=tile.number)
        if side < len(tile.faces_purple) and tile.faces_purple[side]:
            text += " " + t("kf.effect.turn_order_purple")
        return text
    if s.action == "produce":
        return t("kf.effect.produce", items=_resource_list(s.produce))
    if s.action == "produce_choice":
        kinds = join([resource_name(RESOURCES[k]) for k in s.choice[1]])
        return t("kf.effect.produce_choice", n=s.choice[0], kinds=kinds)
    if s.action == "gain_keyples":
        parts = []
        if s.random_keyples:
            parts.append(t("kf.effect.random_keyples", keyples=keyples_text(s.random_keyples)))
        if s.green:
            parts.append(t("kf.effect.green", keyples=keyples_text(s.green, "green")))
        if s.choice_keyples:
            parts.append(t("kf.effect.choice_keyples", keyples=keyples_text(s.choice_keyples)))
        return " ".join(parts)
    if s.action == "gain_skills":
        return t("kf.effect.random_skills", skills=skills_text(s.random_skills))
    if s.action == "exchange":
        pay = [keyples_text(n, COLOURS[c]) for c, n in enumerate(s.pay_colours) if n]
        if s.pay_any_keyple:
            pay.append(keyples_text(s.pay_any_keyple, "any"))
        pay += [skills_text(n, SKILLS[k]) for k, n in enumerate(s.pay_skills) if n]
        if s.pay_any_skill:
            pay.append(skills_text(s.pay_any_skill, "any"))
        gain = []
        if any(s.produce):
            gain.append(t("kf.gain.produce", items=_resource_list(s.produce)))
        if s.green:
            gain.append(t("kf.gain.green", keyples=keyples_text(s.green, "green")))
        if s.random_keyples:
            gain.append(t("kf.gain.random_keyples", keyples=keyples_text(s.random_keyples)))
        if s.random_skills:
            gain.append(t("kf.gain.random_skills", skills=skills_text(s.random_skills)))
        return t("kf.effect.exchange", pay=join(pay), gain=join(gain))
    if s.action == "transport":
        return t("kf.effect.transport", transport=s.transport, upgrade=s.upgrade)
    if s.store is not None:
        accepts, rate = s.store
        if len(accepts) >= 4:
            return t("kf.effect.store_any", vp=rate)
        basic = [k for k in accepts if RESOURCES[k] != "gold"]
        res = resource_name(RESOURCES[basic[0]]) if basic else resource_name("gold")
        return t("kf.effect.store_kind", res=res, vp=rate)
    if s.score is not None:
        return winter_text(s.score)
    if s.special is not None:
        key = f"kf.special.{s.special}"
        return t(key, n=s.amount) if has(key) else s.special
    return t("kf.effect.vp_only")


def winter_text(score: dict[str, Any]) -> str:
    """A winter tile's scoring rule (KF §13) from its data."""
    if "items" not in score:
        return t("kf.effect.winter_vp", vp=int(score.get("vp", 0)))
    family = str(score.get("items"))
    wanted = dict(score.get("set") or {})
    vp = int(score.get("vp", 0))
    if score.get("replaces_base_gold_vp"):
        return t("kf.effect.jeweller", vp=vp)
    if "any" in wanted:
        return t(
            "kf.effect.winter_any", vp=vp, n=int(wanted["any"]), family=t(f"kf.family.{family}")
        )
    if "same" in wanted:
        return t("kf.effect.winter_same", vp=vp, one=t(f"kf.family1.{family}"))

    def item(kind: str) -> str:
        if family == "keyples":
            return t("kf.keyple_of", colour=colour_name(kind))
        if family == "skills":
            return skill_name(kind)
        return resource_name(kind)

    if len(wanted) == 1:
        return t("kf.effect.winter_one", vp=vp, item=item(next(iter(wanted))))
    return t("kf.effect.winter_set", vp=vp, items=join([item(k) for k in wanted]))


def boat_text(tile: TileDef, side: int) -> str:
    """A boat: what each side carries and what the boat scores in a village (KF §11.1)."""
    lines = []
    for i, face in enumerate(("A", "B")):
        if i < len(tile.loads):
            k, s = tile.loads[i]
            seasons = [
                season_name(x)
                for n, x in enumerate(("spring", "summer", "autumn", "winter"))
                if n < len(tile.boat_sides) and tile.boat_sides[n] == i
            ]
            load = (
                t("kf.boat.load", keyples=keyples_text(k), skills=skills_text(s))
                if k or s
                else t("kf.boat.empty")
            )
            lines.append(t("kf.boat.side", face=face, seasons=join(seasons), load=load))
    key = f"kf.boat.{tile.id}.text"
    if has(key):
        lines.append(t(key))
    return "\n".join(lines)


def cost_text(tile: TileDef) -> str:
    """The upgrade cost (KF §7.2): resources on the tile, skill tiles from the screen."""
    cost = tile.cost
    if cost is None:
        return ""
    parts = [resources_text(n, RESOURCES[k]) for k, n in enumerate(cost.res) if n]
    if cost.any_res:
        parts.append(_plural("kf.n.any_resource", cost.any_res))
    parts += [skills_text(n, SKILLS[k]) for k, n in enumerate(cost.skills) if n]
    if cost.any_skill:
        parts.append(skills_text(cost.any_skill, "any"))
    return t("kf.cost", items=join(parts))


def use_text(tile_id: Any, face: Any = None) -> str:
    """The hover's click hint on a tile that may be used: what using it does, from the side
    shown ("Click: use this tile — Transport: 2 steps, then 1 upgrade.")."""
    tile = tile_def(tile_id)
    if tile is None:
        return t("kf.hover.use", effect="?")
    shown = side_index(tile, face) if face is not None else 0
    return t("kf.hover.use", effect=side_text(tile, shown))


def tile_text(tile_id: Any, face: Any = None) -> str:
    """Everything a player needs of a tile: name, the side shown, both sides' effects and VP,
    and the upgrade cost — what hovering any tile shows."""
    tile = tile_def(tile_id)
    if tile is None:
        return ""
    shown = side_index(tile, face) if face is not None else 0
    lines = [shown_name(tile_id, face)]
    if tile.kind in ("home", "village") and len(tile.sides) > 1:
        for i in range(2):
            mark = "▶ " if i == shown else ""
            vp = tile.sides[i].vp
            head = face_name(tile, tile.sides[i].face)
            lines.append(
                f"{mark}{head}: {side_text(tile, i)}" + (f" {t('kf.vp', vp=vp)}" if vp else "")
            )
        if tile.cost is not None:
            lines.append(cost_text(tile))
        if shown == 1:
            lines.append(t("kf.hover.upgraded"))
    elif tile.kind == "summer_boat":
        for i in range(len(tile.sides)):
            mark = "▶ " if i == shown and face is not None else ""
            lines.append(f"{mark}{face_name(tile, tile.sides[i].face)}: {side_text(tile, i)}")
    elif tile.kind == "boat":
        lines.append(boat_text(tile, shown))
    else:
        lines.append(side_text(tile, shown))
        vp = tile.sides[shown].vp if shown < len(tile.sides) else 0
        if vp:
            lines.append(t("kf.vp", vp=vp))
    return "\n".join(lines)


def option_value_label(option: str, value: object) -> str:
    """Keyflower has no options; values are shown as they are."""
    return str(value)


# ---- the view's words -------------------------------------------------------------------------
class TextMixin(KFBase):
    """Status line, log lines, action descriptions."""

    def _name(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.seats):
            return self.seats[seat].name
        return "?"

    def _names(self, seats: Sequence[int]) -> str:
        return join([self._name(s) for s in seats])

    def status(self) -> str:
        v = self.view
        if not v:
            return ""
        if v.get("over"):
            return t("kf.status.over")
        phase = self._phase()
        mine = bool(self.legal)
        if self.scoring is not None and not self.scoring.done:
            return t("kf.status.scoring")
        if not mine:
            waiting = [s for s in self.to_move if 0 <= s < len(self.seats)]
            if not waiting and isinstance(v.get("current"), int):
                waiting = [int(v["current"])]
            if not waiting:
                return ""
            if self.replaying:
                return self.replay_status(waiting)
            if all(self.seats[s].kind == "bot" for s in waiting):
                return t("kf.status.thinking", names=self._names(waiting))
            key = {
                "place": "kf.status.waiting_place",
                "winter_pick": "kf.status.waiting_winter",
                "boats": "kf.status.waiting_boat",
            }.get(phase, "kf.status.waiting")
            return t(key, names=self._names(waiting))
        if phase == "boats":
            return t("kf.status.boat")
        if phase == "place":
            return t("kf.status.place")
        if phase == "winter_pick":
            return t("kf.status.winter")
        stage = self._stage()
        p = self._pending()
        tile = shown_name(p.get("tile"))
        if stage in ("start",):
            return t("kf.status.turn")
        if stage == "reclaim":
            return t(
                "kf.status.reclaimed",
                keyples=keyples_text(num(p.get("keyples")), p.get("colour")),
            )
        if stage in ("bid", "use"):
            return t(f"kf.status.narrowed_{stage}", tile=tile)
        if stage == "pay_keyple":
            return t("kf.status.pay_keyple", tile=tile)
        if stage == "pay_skill":
            return t("kf.status.pay_skill", tile=tile)
        if stage == "choose_resource":
            return t("kf.status.choose_resource", tile=tile)
        if stage == "choose_keyple":
            return t("kf.status.choose_keyple", tile=tile)
        if stage == "transport":
            return t(
                "kf.status.transport",
                points=num(p.get("transport")),
                upgrades=num(p.get("upgrades")),
            )
        if stage == "move_to":
            return t(
                "kf.status.move_to",
                res=resource_name(p.get("move_kind")),
                tile=shown_name(p.get("move_from")),
            )
        return t("kf.status.turn")

    # ---- actions in words ------------------------------------------------------------------
    def describe_action(self, action: Action) -> str:
        kind = action[0] if action else ""
        a = action[1] if len(action) > 1 else None
        if kind == "pass":
            return t("kf.do.pass")
        if kind == "done":
            return t("kf.do.done")
        if kind == "reclaim":
            return t("kf.do.reclaim", tile=tile_name(a))
        if kind in ("bid", "use") and len(action) == 4:
            return t(
                f"kf.do.{kind}",
                tile=tile_name(a),
                keyples=keyples_text(num(action[3]), str(action[2])),
            )
        if kind in ("bid_tile", "use_tile", "place_tile"):
            return t(f"kf.do.{kind}", tile=tile_name(a))
        if kind == "pay_keyple":
            return t("kf.do.pay_keyple", colour=colour_name(a))
        if kind == "pay_skill":
            return t("kf.do.pay_skill", skill=skill_name(a))
        if kind == "resource":
            return t("kf.do.resource", res=resource_name(a))
        if kind == "keyple":
            return t("kf.do.keyple", colour=colour_name(a))
        if kind == "move" and len(action) == 3:
            return t("kf.do.move", res=resource_name(action[2]), tile=tile_name(a))
        if kind == "move_to":
            return t("kf.do.move_to", tile=tile_name(a))
        if kind == "upgrade" and len(action) == 9:
            return t("kf.do.upgrade", tile=tile_name(a), pay=self._payment(action) or "—")
        if kind == "boat":
            return t("kf.do.boat", boat=tile_name(a))
        if kind == "place" and len(action) == 5:
            return t("kf.do.place", tile=tile_name(a))
        if kind == "winter_tiles":
            return t("kf.do.winter", tiles=join([tile_name(x) for x in action[1:]]))
        return " ".join(str(x) for x in action)

    def reason_params(self, params: dict[str, Any]) -> dict[str, Any]:
        """Keyflower's refusal params in words (``game/keyflower/explain.py``): tile ids and
        keyple colours become their names."""
        out: dict[str, Any] = dict(params)
        if "tile" in params:
            out["tile"] = tile_name(params["tile"])
        if "colour" in params:
            out["colour"] = colour_name(params["colour"])
        return out

    def _payment(self, action: Action) -> str:
        """An upgrade's payment: ``("upgrade", tile, w, s, i, g, saw, pickaxe, anvil)``."""
        parts = [resources_text(num(n), RESOURCES[k]) for k, n in enumerate(action[2:6]) if num(n)]
        parts += [skills_text(num(n), SKILLS[k]) for k, n in enumerate(action[6:9]) if num(n)]
        return join(parts)

    # ---- events ----------------------------------------------------------------------------
    def describe_event(self, ev: dict[str, Any]) -> LogLine | None:
        kind = ev.get("type")
        seat = ev.get("seat") if isinstance(ev.get("seat"), int) else None
        name = self._name(seat)

        def line(key: str, **fields: Any) -> LogLine:
            return LogLine(seat, t(key, name=name, **fields))

        if kind == "pass":
            return line("kf.log.pass")
        if kind == "reclaim":
            return line(
                "kf.log.reclaim",
                tile=tile_name(ev.get("tile")),
                keyples=keyples_text(num(ev.get("keyples")), ev.get("colour")),
            )
        if kind == "bid":
            return line(
                "kf.log.bid",
                tile=tile_name(ev.get("tile")),
                keyples=keyples_text(num(ev.get("keyples")), ev.get("colour")),
            )
        if kind == "use":
            return line(
                "kf.log.use",
                tile=shown_name(ev.get("tile"), ev.get("side")),
                keyples=keyples_text(num(ev.get("keyples")), ev.get("colour")),
            )
        if kind == "produce":
            res = as_dict(ev.get("resources"))
            words = join([resources_text(num(n), str(k)) for k, n in res.items() if num(n)])
            return line("kf.log.produce", items=words or "—", tile=tile_name(ev.get("tile")))
        if kind == "draw_keyples":
            return line("kf.log.draw_keyples", keyples=keyples_text(num(ev.get("count"))))
        if kind == "drew_keyples":
            if not self.show_private:
                return None
            got = [str(c) for c in as_list(ev.get("keyples"))]
            words = join([keyples_text(got.count(c), c) for c in COLOURS if got.count(c)])
            return line("kf.log.drew_keyples", keyples=words or "—")
        if kind == "draw_skills":
            return line("kf.log.draw_skills", skills=skills_text(num(ev.get("count"))))
        if kind == "drew_skills":
            if not self.show_private:
                return None
            got = [str(k) for k in as_list(ev.get("skills"))]
            words = join([skills_text(got.count(k), k) for k in SKILLS if got.count(k)])
            return line("kf.log.drew_skills", skills=words or "—")
        if kind == "gain_green":
            return line("kf.log.gain_green", keyples=keyples_text(num(ev.get("count")), "green"))
        if kind == "gain_keyple":
            return line("kf.log.gain_keyple", colour=colour_name(ev.get("colour")))
        if kind == "pay":
            keys = [str(c) for c in as_list(ev.get("keyples"))]
            skills = [str(k) for k in as_list(ev.get("skills"))]
            items = [keyples_text(keys.count(c), c) for c in COLOURS if keys.count(c)]
            items += [skills_text(skills.count(k), k) for k in SKILLS if skills.count(k)]
            return line("kf.log.pay", items=join(items) or "—")
        if kind == "transport":
            return line(
                "kf.log.transport",
                tile=tile_name(ev.get("tile")),
                steps=_plural("kf.n.steps", num(ev.get("transport"))),
                upgrades=_plural("kf.n.upgrades", num(ev.get("upgrades"))),
            )
        if kind == "move":
            return line(
                "kf.log.move",
                res=resource_name(ev.get("resource")),
                frm=tile_name(ev.get("from")),
                to=tile_name(ev.get("to")),
            )
        if kind == "upgrade":
            paid = as_dict(ev.get("paid"))
            items = [resources_text(num(paid.get(k)), k) for k in RESOURCES if num(paid.get(k))]
            items += [skills_text(num(paid.get(k)), k) for k in SKILLS if num(paid.get(k))]
            return line("kf.log.upgrade", tile=tile_name(ev.get("tile")), pay=join(items) or "—")
        if kind == "done":
            return line("kf.log.done")
        if kind == "season":
            return LogLine(
                None,
                t(
                    "kf.log.season",
                    season=season_name(ev.get("season")),
                    name=self._name(ev.get("start")),
                ),
            )
        if kind == "season_end":
            won = as_list(ev.get("won"))
            parts = [
                f"{self._name(s)}: {join([tile_name(x) for x in tiles])}"
                for s, tiles in enumerate(won)
                if isinstance(tiles, list) and tiles
            ]
            return LogLine(
                None,
                t(
                    "kf.log.season_end",
                    season=season_name(ev.get("season")),
                    won="; ".join(parts) or t("kf.log.nothing_won"),
                ),
            )
        if kind == "boat_order":
            order = [s for s in as_list(ev.get("order")) if isinstance(s, int)]
            if not order:
                # the engine's event shares its list with the state, which empties it as boats
                # are chosen (see the issue notes): the view of the same moment has the order
                order = [s for s in as_list(self.view.get("boat_order")) if isinstance(s, int)]
            return LogLine(
                None, t("kf.log.boat_order", names=", ".join(self._name(s) for s in order))
            )
        if kind == "boat":
            if ev.get("tile"):
                return line("kf.log.boat_tile", boat=tile_name(ev.get("boat")))
            keys = [str(c) for c in as_list(ev.get("keyples"))]
            skills = [str(k) for k in as_list(ev.get("skills"))]
            items = [keyples_text(keys.count(c), c) for c in COLOURS if keys.count(c)]
            items += [skills_text(skills.count(k), k) for k in SKILLS if skills.count(k)]
            return line("kf.log.boat", boat=tile_name(ev.get("boat")), items=join(items) or "—")
        if kind == "purple":
            key = "kf.log.purple_won" if ev.get("won") else "kf.log.purple_passed"
            return line(key)
        if kind == "place":
            if not self.show_private:
                return None
            return line("kf.log.place", tile=tile_name(ev.get("tile")))
        if kind == "place_tile":
            return None
        if kind == "placed_all":
            return line("kf.log.placed_all")
        if kind == "placed":
            return LogLine(None, t("kf.log.placed"))
        if kind == "winter_choice":
            if not self.show_private:
                return None
            return line(
                "kf.log.winter_choice", tiles=join([tile_name(x) for x in as_list(ev.get("tiles"))])
            )
        if kind == "committed":
            return line("kf.log.committed")
        if kind == "winter_auction":
            return LogLine(
                None,
                t(
                    "kf.log.winter_auction",
                    tiles=join([tile_name(x) for x in as_list(ev.get("tiles"))]),
                ),
            )
        if kind == "game_over":
            return LogLine(None, t("kf.log.game_over"))
        if kind == "setup":
            return LogLine(None, t("kf.log.setup", name=self._name(ev.get("start"))))
        if kind == "winter_hand":
            if not self.show_private:
                return None
            return line(
                "kf.log.winter_hand", tiles=join([tile_name(x) for x in as_list(ev.get("tiles"))])
            )
        if kind == "undo":
            return line("kf.log.undo")
        return None
