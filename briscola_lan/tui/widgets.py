"""Text controls the screens are built from: text broken between words at the window's width,
and text that scrolls (keys and the mouse wheel) with a visible hint that there is more.

prompt_toolkit's own line wrapping cuts words in the middle ("choose a ca|rd"); these controls
get the width from the layout and wrap before the text reaches the screen.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from prompt_toolkit.application.current import get_app
from prompt_toolkit.formatted_text import (
    OneStyleAndTextTuple,
    StyleAndTextTuples,
    to_formatted_text,
)
from prompt_toolkit.layout.controls import FormattedTextControl, UIContent
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

Frag = StyleAndTextTuples


def wrap_words(frags: Frag, width: int | None) -> Frag:
    """Styled text with every line longer than ``width`` broken between words (a word longer
    than the width is cut); unchanged when the width is unknown. Mouse handlers are kept."""
    if not width or width < 4:
        return frags
    out: Frag = []
    for n, line in enumerate(split_lines(frags)):
        if n:
            out.append(("", "\n"))
        col = 0
        for frag in line:
            for word in re.findall(r"\S+|\s+", frag[1]):
                if word.isspace():
                    if col + len(word) > width:  # a break replaces the spaces
                        out.append(("", "\n"))
                        col = 0
                    else:
                        out.append(_with_text(frag, word))
                        col += len(word)
                    continue
                piece = word
                while col + len(piece) > width:
                    if col == 0:  # longer than a whole line: cut it
                        out.append(_with_text(frag, piece[:width]))
                        piece = piece[width:]
                    out.append(("", "\n"))
                    col = 0
                if piece:
                    out.append(_with_text(frag, piece))
                    col += len(piece)
    return out


def hang(head: Frag, body: Frag, width: int | None) -> Frag:
    """``head`` then ``body`` on one line; the body, broken between words, goes on under
    itself (a hanging indent as wide as the head), never back under the head."""
    indent = sum(len(f[1]) for f in head)
    out: Frag = list(head)
    room = (width - indent) if width else None
    for n, line in enumerate(split_lines(wrap_words(body, room if room and room >= 8 else None))):
        if n:
            out.append(("", "\n" + " " * indent))
        out.extend(line)
    out.append(("", "\n"))
    return out


def _with_text(frag: OneStyleAndTextTuple, text: str) -> OneStyleAndTextTuple:
    """The same fragment (style, mouse handler) with other text."""
    if len(frag) == 3:
        return (frag[0], text, frag[2])
    return (frag[0], text)


def split_lines(frags: Frag) -> list[Frag]:
    """The lines of styled text (without their newlines)."""
    lines: list[Frag] = [[]]
    for frag in frags:
        parts = frag[1].split("\n")
        for i, part in enumerate(parts):
            if i:
                lines.append([])
            if part:
                lines[-1].append(_with_text(frag, part))
    return lines


def join_lines(lines: list[Frag]) -> Frag:
    out: Frag = []
    for i, line in enumerate(lines):
        if i:
            out.append(("", "\n"))
        out.extend(line)
    return out


def head_of_last(frags: Frag, width: int, rows: int) -> list[Frag] | None:
    """The first ``rows`` rows of the last line of ``frags`` broken between words at ``width``,
    the last of them ending in "…", when that line takes more rows than that; else ``None``.
    (A short log shows its newest line from its start, not the end of its last row.)"""
    wrapped = split_lines(wrap_words(split_lines(frags)[-1], width))
    if rows < 1 or len(wrapped) <= rows:
        return None
    shown = wrapped[:rows]
    row = list(shown[-1])
    while row and sum(len(f[1]) for f in row) + 1 > width:  # room for the "…"
        over = sum(len(f[1]) for f in row) + 1 - width
        keep = row[-1][1][: max(0, len(row[-1][1]) - over)]
        row[-1:] = [_with_text(row[-1], keep)] if keep else []
    while row and not row[-1][1].rstrip():  # the "…" right after the last word
        row.pop()
    if row:
        row[-1] = _with_text(row[-1], row[-1][1].rstrip())
    style = row[-1][0] if row else ""
    shown[-1] = [*row, (style, "…")]
    return shown


class WrapControl(FormattedTextControl):
    """Formatted text made for the window's width: ``get_text(width)`` is broken between words
    at that width (the width is ``None`` only while the layout asks for a preferred size)."""

    def __init__(self, get_text: Callable[[int], Frag], **kw: object) -> None:
        super().__init__("", **kw)  # type: ignore[arg-type]
        self.get_text = get_text
        self._width = 80
        self._counter = -1  # the redraw the texts below were made for
        self._texts: dict[int, Frag] = {}  # by width

    def _text_for(self, width: int) -> Frag:
        counter = get_app().render_counter
        if counter != self._counter:
            self._counter, self._texts = counter, {}
        frags = self._texts.get(width)
        if frags is None:
            frags = self._texts[width] = wrap_words(to_formatted_text(self.get_text(width)), width)
        return frags

    def _get_formatted_text_cached(self) -> Frag:
        return self._text_for(self._width)

    def preferred_width(self, max_available_width: int) -> int:
        self._width = max(1, max_available_width)
        return super().preferred_width(max_available_width)

    def preferred_height(self, width: int, *args: object, **kw: object) -> int | None:
        self._width = max(1, width)
        return super().preferred_height(width, *args, **kw)  # type: ignore[arg-type]

    def create_content(self, width: int, height: int | None) -> UIContent:
        self._width = max(1, width)
        return super().create_content(width, height)


@dataclass(slots=True)
class Scroll:
    """Where a scrolling text is: ``offset`` lines from its top (or from its end, for a log that
    follows what is added), and how much it could show at the last redraw."""

    offset: int = 0
    from_end: bool = False
    page: int = 5  # lines in view at the last redraw
    total: int = 0  # lines in all at the last redraw

    @property
    def can_scroll(self) -> bool:
        return self.total > self.page

    def by(self, lines: int) -> None:
        """Scroll ``lines`` towards the end (negative: towards the start)."""
        step = -lines if self.from_end else lines
        self.offset = max(0, min(self.offset + step, max(0, self.total - self.page)))

    def pages(self, n: int) -> None:
        self.by(n * max(1, self.page - 1))

    def home(self) -> None:
        self.offset = 0


class ScrollControl(WrapControl):
    """Word-wrapped text that shows one window of its lines; the wheel and ``Scroll.by`` move
    it. ``marker`` lines (``↑ more``/``↓ more``) say when text is out of view."""

    def __init__(
        self,
        get_text: Callable[[int], Frag],
        scroll: Scroll,
        *,
        ascii_only: bool = False,
        more: Callable[[bool], str] | None = None,
        **kw: object,
    ) -> None:
        super().__init__(get_text, **kw)
        self.scroll = scroll
        self.ascii_only = ascii_only
        self.more = more

    def create_content(self, width: int, height: int | None) -> UIContent:
        self._width = max(1, width)
        if height is None:
            return super().create_content(width, height)
        lines = split_lines(self._text_for(self._width))
        s = self.scroll
        s.total, s.page = len(lines), max(1, height)
        top = max(0, s.total - s.page - s.offset) if s.from_end else s.offset
        top = max(0, min(top, max(0, s.total - s.page)))
        s.offset = (s.total - s.page - top) if s.from_end else top
        s.offset = max(0, s.offset)
        shown = lines[top : top + s.page]
        newest = None
        if s.from_end and s.offset == 0:  # following the end: the newest line from its start
            newest = head_of_last(to_formatted_text(self.get_text(self._width)), width, s.page)
        if newest is not None:
            shown = newest
        elif self.more is not None and s.can_scroll and s.page > 2:
            if top > 0 and shown:
                shown[0] = [("class:dim", self.more(True)[:width])]
            if top + s.page < s.total and shown:
                shown[-1] = [("class:dim", self.more(False)[:width])]
        frags = join_lines(shown)
        self._fragments = frags
        stripped: list[Frag] = [[(f[0], f[1]) for f in line] for line in split_lines(frags)]

        def get_line(i: int) -> Frag:
            return stripped[i] if i < len(stripped) else []

        return UIContent(
            get_line=get_line,
            line_count=max(1, len(stripped)),
            show_cursor=False,
        )

    def mouse_handler(self, mouse_event: MouseEvent) -> object:  # None, or NotImplemented
        if mouse_event.event_type == MouseEventType.SCROLL_UP:
            self.scroll.by(-3)
            get_app().invalidate()
            return None
        if mouse_event.event_type == MouseEventType.SCROLL_DOWN:
            self.scroll.by(3)
            get_app().invalidate()
            return None
        return super().mouse_handler(mouse_event)
