"""The client's colours and text attributes: one prompt_toolkit ``Style``, by class name
(``class:turn``, ``class:card.new``...), that the layout and the render functions name."""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE = Style.from_dict(
    {
        "title": "reverse bold",
        "frame": "",
        "frame.title": "bold",
        "dim": "#888888",
        "bold": "bold",
        "me": "bold",
        "turn": "bold #00afff",
        "selected": "reverse",
        "card": "",
        "card.selected": "reverse",
        "card.new": "bold #ffd700",
        "card.win": "bold #5fd75f",
        "suit.coins": "#d7af00",
        "suit.cups": "#ff5f5f",
        "suit.swords": "#5f87ff",
        "suit.clubs": "#5fd75f",
        "good": "bold #5fd75f",
        "bad": "bold #ff5f5f",
        "error": "bold #ff5f5f",
        "partner": "bold underline #d787ff",
        "panel": "bg:#262626",
        "blink": "blink",
    }
)
