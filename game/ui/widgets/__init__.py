"""The client's own small widgets: button, label, text field, list, toggle, choice, slider, tooltip, and
the results' score table."""

from game.ui.widgets.base import TextLike, Widget, draw_box, resolve
from game.ui.widgets.button import Button
from game.ui.widgets.choice import Choice
from game.ui.widgets.label import Label
from game.ui.widgets.listbox import ListBox, ListItem
from game.ui.widgets.score_table import ScoreTable
from game.ui.widgets.slider import Slider
from game.ui.widgets.textfield import TextField
from game.ui.widgets.toggle import Toggle
from game.ui.widgets.tooltip import Tooltip

__all__ = [
    "Button",
    "Choice",
    "Label",
    "ListBox",
    "ListItem",
    "ScoreTable",
    "Slider",
    "TextField",
    "TextLike",
    "Toggle",
    "Tooltip",
    "Widget",
    "draw_box",
    "resolve",
]
