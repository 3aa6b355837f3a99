"""The client in Italian: every text of the client is in the gettext catalog, translated, not
fuzzy, with the same fields; the committed .mo is the .po compiled; no text of the client is
left outside the catalog (an AST walk over ``briscola_lan/tui``); and the language comes from
``--lang`` or the locale. (The session's events in both languages: ``test_eventlog.py``.)"""

from __future__ import annotations

import ast
import gettext
import re
import string
from pathlib import Path

import pytest

from briscola_lan.table import events as ev
from briscola_lan.tui import catalog, eventlog, i18n

TUI = Path(catalog.__file__).parent
ITALIAN = TUI / "locale" / "it" / "LC_MESSAGES" / "briscola_lan.po"
MARKERS = {"_", "N_", "ngettext"}
# Strings that are English on purpose: the host's AI names and the Italian deck's own names read
# to show them; everything else a person reads must go through the catalog.
ENGLISH_ON_PURPOSE = {
    "state.py": {"_AI_NAME"},  # the host's AI names, read to show them in the player's language
    "deck.py": {"_ITALIAN_SUITS", "_ITALIAN_FIGURES"},  # the Italian deck's own names
}
NOT_TEXT = {" Briscola LAN", "%Y-%m-%d %H:%M", "Player"}  # the product, a date, a default name


def _fields(text: str) -> set[tuple[str, str | None, str | None]]:
    """Each replacement field with its format and conversion (``{n:.1f}`` is not ``{n}``)."""
    return {(f[1], f[2], f[3]) for f in string.Formatter().parse(text) if f[1] is not None}


def test_every_client_text_is_translated_in_italian() -> None:
    texts = catalog.extract()
    po = catalog.read_po(ITALIAN)
    assert len(texts) > 300
    missing = sorted(t for t in texts if t not in po)
    assert not missing, f"not in the Italian catalog: {missing}"
    for msgid, entry in po.items():
        if not msgid:
            continue  # the header
        assert not entry.fuzzy, f"fuzzy: {msgid!r}"
        assert entry.msgstr and all(entry.msgstr), f"untranslated: {msgid!r}"
        sources = [msgid] if entry.plural is None else [msgid, entry.plural]
        for source, translated in zip(sources, entry.msgstr, strict=True):
            assert _fields(translated) == _fields(source), (source, translated)
    stale = sorted(t for t in po if t and t not in texts)
    assert not stale, f"in the catalog but no longer in the client: {stale}"


def test_the_committed_mo_is_the_po_compiled() -> None:
    po = catalog.read_po(ITALIAN)
    mo = ITALIAN.with_suffix(".mo")
    assert mo.read_bytes() == catalog.compile_mo(po), (
        "run: python -m briscola_lan.tui.catalog compile"
    )
    with mo.open("rb") as f:
        loaded = gettext.GNUTranslations(f)
    assert (
        loaded.gettext("Your turn: choose a card, Enter plays it")
        == po["Your turn: choose a card, Enter plays it"].msgstr[0]
    )
    assert (
        loaded.ngettext("{n} hand played", "{n} hands played", 2) == po["{n} hand played"].msgstr[1]
    )


def _english_literals(path: Path) -> list[tuple[int, str]]:
    """String literals a person would read that do not go through the catalog."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents: dict[ast.AST, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    skip_names = ENGLISH_ON_PURPOSE.get(path.name, set())
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
            continue
        text = node.value
        words = [w for w in re.split(r"\s+", text) if sum(c.isalpha() for c in w) >= 2]
        word = re.fullmatch(r"[A-Z][a-z]{2,}", text) is not None  # "You", "Waiting"
        if (len(words) < 2 and not word) or text in NOT_TEXT or "class:" in text or "#" in text:
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Expr | ast.Compare):
            continue  # a docstring; a value compared with (a state, not a text shown)
        if isinstance(parent, ast.Dict) and node in parent.keys:
            continue  # a key (a state's name)
        exempt = False
        up: ast.AST | None = parent
        while up is not None:
            if (
                isinstance(up, ast.Call)
                and isinstance(up.func, ast.Name)
                and (up.func.id in MARKERS)
            ):
                exempt = True  # inside _() (or an f-string in it)
            if (
                isinstance(up, ast.Call)
                and isinstance(up.func, ast.Attribute)
                and (up.func.attr in ("startswith", "endswith", "strftime", "from_dict"))
            ):
                exempt = True
            if isinstance(up, ast.Assign | ast.AnnAssign):
                targets = up.targets if isinstance(up, ast.Assign) else [up.target]
                names = skip_names | {"__all__"}
                if any(isinstance(t, ast.Name) and t.id in names for t in targets):
                    exempt = True
            up = parents.get(up)
        if not exempt:
            found.append((node.lineno, text))
    return found


def test_no_client_text_is_left_out_of_the_catalog() -> None:
    left = {
        f"{path.name}:{line}": text
        for path in sorted(TUI.glob("*.py"))
        if path.name != "catalog.py"
        for line, text in _english_literals(path)
    }
    assert not left, f"texts outside _(): {left}"


@pytest.fixture
def italian() -> object:
    i18n.set_language("it")
    yield
    i18n.set_language("en")


def test_the_language_from_the_locale_or_lang(italian: object) -> None:
    assert i18n.language_from_env({"LANG": "it_IT.UTF-8"}) == "it"
    assert i18n.language_from_env({"LANG": "C.UTF-8", "LANGUAGE": "it"}) == "en"
    assert i18n.language_from_env({"LC_ALL": "it_CH.UTF-8", "LANG": "en_US.UTF-8"}) == "it"
    assert i18n.language_from_env({"LANG": "en_US.UTF-8", "LANGUAGE": "it:en"}) == "it"
    assert i18n.language_from_env({"LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.language() == "it"
    assert i18n._("Your turn: choose a card, Enter plays it") != (
        "Your turn: choose a card, Enter plays it"
    )
    said = eventlog.render(ev.HandStarted(1, 1, blind=False))
    assert said == i18n._("hand {n} started, {seat} deals").format(n=2, seat="posto 1")
