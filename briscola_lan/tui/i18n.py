"""The client's language: standard gettext catalogs in ``tui/locale``, chosen by ``--lang`` or
the locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``); English needs no catalog.

Texts are marked ``_("...")`` (and ``ngettext`` for plurals) where they are written; ``_`` looks
the active catalog up at call time, so the language can be chosen after the modules are imported.
Another language is one catalog more: ``locale/<lang>/LC_MESSAGES/briscola_lan.po`` and its
compiled ``.mo`` (``scripts/compile_catalogs.py``).
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "briscola_lan"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES: tuple[str, ...] = ("en", "it")  # English is the source language (no catalog)

_active: gettext.NullTranslations = gettext.NullTranslations()
_lang = "en"


def _code(value: str) -> str:
    """``it`` from ``it_IT.UTF-8``, ``c`` from ``C.UTF-8``."""
    return (
        value.split(".", maxsplit=1)[0]
        .split("@", maxsplit=1)[0]
        .split("_", maxsplit=1)[0]
        .strip()
        .lower()
    )


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for, among ``LANGUAGES`` (English otherwise).

    As gettext does: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set decides, and
    ``LANGUAGE`` (a list such as ``it:en``) comes first unless that locale is C/POSIX."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var)
        if not value:
            continue
        code = _code(value)
        if code in ("c", "posix"):
            return "en"
        for part in env.get("LANGUAGE", "").split(":"):
            if _code(part) in LANGUAGES:
                return _code(part)
        return code if code in LANGUAGES else "en"
    return "en"


def set_language(lang: str | None) -> str:
    """Use ``lang`` (``en``, ``it``; None: from the environment); returns the one in force."""
    global _active, _lang
    code = (lang or language_from_env()).split("_")[0].lower()
    if code not in LANGUAGES:
        raise ValueError(
            _("no catalog for language {lang!r}: use one of {langs}").format(
                lang=lang, langs=", ".join(LANGUAGES)
            )
        )
    if code == "en":
        _active = gettext.NullTranslations()
    else:
        _active = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code])
    _lang = code
    return code


def language() -> str:
    """The language in force (``en`` or ``it``)."""
    return _lang


def _(message: str) -> str:
    """``message`` in the language in force."""
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n``, in the language in force."""
    return _active.ngettext(singular, plural, n)


# The decimal separator of each language that does not write a point (Italian: "18,5").
_DECIMAL_SEPARATOR = {"it": ","}


def decimal(x: float, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals, written as the language in force writes numbers."""
    return f"{x:.{digits}f}".replace(".", _DECIMAL_SEPARATOR.get(_lang, "."))


def N_(message: str) -> str:
    """Marks a text for the catalog where it is defined; ``_`` translates it where it is shown."""
    return message
