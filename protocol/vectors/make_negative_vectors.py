"""Regenerate the negative transcript vectors, protocol/vectors/negative/ and negative.json.

Each case is an honest match played by the pure host and its clients (fixed entropy, fixed keys,
a fixed clock), then edited and re-signed with the editor's own keys (the host's and the seats'
test keys), so that exactly one rule of protocol/fairness.md §8 (or of §11, for the blind deal's
cases, named blind-*) fails. The expected verdict, record and party at fault of each case are
written here from the rules, not read from a verifier. Run from the repo root:
``python protocol/vectors/make_negative_vectors.py``.

The harness (the honest matches, the editor, the registry) is negative_harness.py; the cases,
one function each, are in the negative_classic*.py, negative_blind*.py and negative_signals.py
modules (five players: negative_chiamata.py, and dealt blind negative_chiamata_blind.py),
taken in the
order of ``MODULES`` (the order of negative.json).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # the modules beside this script, however it is loaded
import negative_blind  # noqa: E402
import negative_blind_call  # noqa: E402
import negative_chiamata  # noqa: E402
import negative_chiamata_blind  # noqa: E402
import negative_classic  # noqa: E402
import negative_classic_edges  # noqa: E402
import negative_classic_match  # noqa: E402
import negative_signals  # noqa: E402
from negative_harness import HONEST, Case, Run  # noqa: E402

from briscola_lan.fairness.transcript import dumps  # noqa: E402

OUT_DIR = HERE / "negative"
INDEX = HERE / "negative.json"
MODULES = (
    negative_classic,
    negative_classic_match,
    negative_classic_edges,
    negative_blind,
    negative_blind_call,
    negative_signals,
    negative_chiamata,
    negative_chiamata_blind,
)


def cases() -> list[Case]:
    """Every case, made, in the order of negative.json."""
    out = [case for module in MODULES for case in module.cases.made()]
    assert len({case.name for case in out}) == len(out)
    return out


def honest_bases() -> list[Run]:
    """The honest matches the cases are edited from (each of their files verifies)."""
    return [match() for match in HONEST]


def index_text(index: list[dict[str, Any]]) -> str:
    out = {
        "description": "Negative transcript vectors (protocol/fairness.md §8, and §11 for the "
        "blind deal's, named blind-*): each file is an "
        "honest match edited and re-signed with the editor's own test keys so that one rule "
        "fails. verdict: failed, aborted, incomplete or unacknowledged; record: the index of "
        "the record at fault (null when nobody is at fault); at_fault: host, seat N, "
        "host or seat N (null for incomplete and unacknowledged files); waiting_for: who an "
        "incomplete file waits for, host or seat N (null for every other verdict).",
        "cases": index,
    }
    return json.dumps(out, indent=1, ensure_ascii=False) + "\n"


def generated() -> dict[str, bytes]:
    """Every output file (path relative to this directory -> bytes), made in memory."""
    index = []
    files: dict[str, bytes] = {}
    for case in cases():
        fname = f"negative/{case.name}.briscola.json"
        got = case.outcome
        files[fname] = dumps(got.records)
        index.append(
            {
                "file": fname,
                "description": got.description,
                "verdict": got.verdict,
                "record": got.record,
                "at_fault": got.at_fault,
                "waiting_for": got.waiting_for,
            }
        )
    files["negative.json"] = index_text(index).encode()
    return files


def main() -> None:
    OUT_DIR.mkdir(exist_ok=True)
    for old in OUT_DIR.glob("*.briscola.json"):
        old.unlink()
    for name, data in generated().items():
        (HERE / name).write_bytes(data)


if __name__ == "__main__":
    main()
