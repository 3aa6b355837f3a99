"""The client's message catalogs: its texts found by an AST walk (``_``, ``N_``, ``ngettext``),
the ``.po`` files read, and compiled to the ``.mo`` files gettext loads (no GNU tools needed).

    python -m briscola_lan.tui.catalog extract   # tui/locale/briscola_lan.pot from the code
    python -m briscola_lan.tui.catalog compile   # every tui/locale/*/LC_MESSAGES/*.po -> .mo

The tests check that every text of the client is in the Italian catalog, translated, not fuzzy,
with the same ``{fields}``, and that the committed ``.mo`` is the ``.po`` compiled.
"""

from __future__ import annotations

import ast
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

from briscola_lan.tui.i18n import DOMAIN, LOCALE_DIR

SOURCES = Path(__file__).parent  # every module of the client
MARKERS = {"_": 1, "N_": 1, "ngettext": 2}


@dataclass(slots=True)
class Entry:
    """One message of a catalog: its id (and plural id), translations, and where it is used."""

    msgid: str
    plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    fuzzy: bool = False
    where: list[str] = field(default_factory=list)


def extract(sources: Path = SOURCES) -> dict[str, Entry]:
    """Every marked text of the client's modules, by its msgid, in order of appearance."""
    found: dict[str, Entry] = {}
    for path in sorted(sources.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            count = MARKERS.get(node.func.id)
            if count is None or len(node.args) < count:
                continue
            texts = [
                a.value
                for a in node.args[:count]
                if isinstance(a, ast.Constant) and isinstance(a.value, str)
            ]
            if len(texts) != count:
                continue
            entry = found.setdefault(texts[0], Entry(texts[0], texts[1] if count == 2 else None))
            entry.where.append(f"{path.name}:{node.lineno}")
    return found


def _quote(text: str) -> str:
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{out}"'


def write_pot(entries: dict[str, Entry], path: Path) -> None:
    lines = [
        "# The Briscola LAN client's texts (python -m briscola_lan.tui.catalog extract).",
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        "",
    ]
    for e in entries.values():
        lines.append("#: " + " ".join(e.where))
        if "{" in e.msgid:
            lines.append("#, python-brace-format")
        lines.append(f"msgid {_quote(e.msgid)}")
        if e.plural is not None:
            lines.append(f"msgid_plural {_quote(e.plural)}")
            lines += ['msgstr[0] ""', 'msgstr[1] ""']
        else:
            lines.append('msgstr ""')
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8")


_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _unquote(text: str) -> str:
    m = _STRING.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"not a quoted string: {text!r}")
    return re.sub(r"\\(.)", lambda g: {"n": "\n", "t": "\t"}.get(g.group(1), g.group(1)), m[1])


def read_po(path: Path) -> dict[str, Entry]:
    """The entries of a ``.po`` file (the header's is the empty msgid)."""
    entries: dict[str, Entry] = {}
    current: Entry | None = None
    key: str | None = None  # what continued strings add to
    fuzzy = False

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries[current.msgid] = current
        current = None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            finish()
            fuzzy = False
            continue
        if line.startswith("#,"):
            fuzzy = fuzzy or "fuzzy" in line
            continue
        if line.startswith("#"):
            continue
        if line.startswith("msgid_plural "):
            assert current is not None
            current.plural, key = _unquote(line[13:]), "plural"
        elif line.startswith("msgid "):
            finish()
            current, key = Entry(_unquote(line[6:]), fuzzy=fuzzy), "msgid"
        elif line.startswith("msgstr"):
            assert current is not None
            head, _, value = line.partition(" ")
            index = int(head[7:-1]) if "[" in head else 0
            while len(current.msgstr) <= index:
                current.msgstr.append("")
            current.msgstr[index] = _unquote(value)
            key = f"msgstr{index}"
        elif line.startswith('"') and current is not None and key is not None:
            more = _unquote(line)
            if key == "msgid":
                current.msgid += more
            elif key == "plural":
                current.plural = (current.plural or "") + more
            else:
                current.msgstr[int(key[6:])] += more
    finish()
    return entries


def compile_mo(entries: dict[str, Entry]) -> bytes:
    """The GNU ``.mo`` bytes of a catalog (fuzzy and untranslated entries left out)."""
    pairs: dict[bytes, bytes] = {}
    for e in entries.values():
        if e.fuzzy and e.msgid:
            continue
        if not e.msgstr or not all(e.msgstr):
            continue
        key = e.msgid if e.plural is None else e.msgid + "\0" + e.plural
        pairs[key.encode("utf-8")] = "\0".join(e.msgstr).encode("utf-8")
    keys = sorted(pairs)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(pairs[k] + b"\0" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    id_table, str_table = [], []
    offset = 0
    for k in keys:
        id_table += [len(k), start + offset]
        offset += len(k) + 1
    offset = 0
    for k in keys:
        str_table += [len(pairs[k]), start + len(ids) + offset]
        offset += len(pairs[k]) + 1
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    tables = struct.pack(f"{len(id_table)}i", *id_table)
    tables += struct.pack(f"{len(str_table)}i", *str_table)
    return head + tables + ids + strs


def po_files(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    return sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["extract"]:
        path = LOCALE_DIR / f"{DOMAIN}.pot"
        write_pot(extract(), path)
        print(f"wrote {path}")
        return 0
    if args == ["compile"]:
        for po in po_files():
            mo = po.with_suffix(".mo")
            mo.write_bytes(compile_mo(read_po(po)))
            print(f"wrote {mo}")
        return 0
    print("usage: python -m briscola_lan.tui.catalog extract|compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
