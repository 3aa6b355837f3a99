"""Typed reading of the host's snapshot file: a wrong or missing field is a ``SnapshotError``
with a reason a person can act on (the layout is in protocol/SPEC.md §10)."""

from __future__ import annotations

from briscola_lan.wire.messages import Record


class SnapshotError(ValueError):
    """A snapshot file that this version cannot restore."""


class Fields:
    """Typed access to one map of a snapshot: a wrong or missing field is a SnapshotError."""

    def __init__(self, obj: object, where: str) -> None:
        if not isinstance(obj, dict):
            raise SnapshotError(f"damaged table snapshot: {where} is not a map")
        self.obj, self.where = obj, where

    def get(self, key: str, *types: type) -> object:
        if key not in self.obj:
            raise SnapshotError(f"damaged table snapshot: {self.where}.{key} is missing")
        v = self.obj[key]
        if not isinstance(v, types) or (isinstance(v, bool) and bool not in types):
            raise SnapshotError(f"damaged table snapshot: {self.where}.{key} has the wrong type")
        return v

    def get_int(self, key: str) -> int:
        v = self.get(key, int)
        assert isinstance(v, int)
        return v

    def get_float(self, key: str) -> float:
        v = self.get(key, float, int)
        assert isinstance(v, float | int)
        return float(v)

    def get_bool(self, key: str) -> bool:
        v = self.get(key, bool)
        assert isinstance(v, bool)
        return v

    def get_str(self, key: str) -> str:
        v = self.get(key, str)
        assert isinstance(v, str)
        return v

    def get_bytes(self, key: str) -> bytes:
        v = self.get(key, bytes)
        assert isinstance(v, bytes)
        return v

    def opt_str(self, key: str) -> str | None:
        v = self.get(key, str, type(None))
        assert v is None or isinstance(v, str)
        return v

    def opt_bytes(self, key: str) -> bytes | None:
        v = self.get(key, bytes, type(None))
        assert v is None or isinstance(v, bytes)
        return v

    def opt_float(self, key: str) -> float | None:
        v = self.get(key, float, int, type(None))
        assert v is None or isinstance(v, float | int)
        return None if v is None else float(v)

    def get_list(self, key: str) -> list[object]:
        v = self.get(key, list)
        assert isinstance(v, list)
        return v

    def ints(self, key: str) -> list[int]:
        items = self.get_list(key)
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in items):
            raise SnapshotError(f"damaged table snapshot: {self.where}.{key} must hold integers")
        return [x for x in items if isinstance(x, int)]

    def bytes_list(self, key: str) -> list[bytes]:
        items = self.get_list(key)
        if not all(isinstance(x, bytes) for x in items):
            raise SnapshotError(f"damaged table snapshot: {self.where}.{key} must hold bytes")
        return [x for x in items if isinstance(x, bytes)]

    def opt_records(self, key: str, n: int) -> list[Record | None]:
        return opt_records(self, key, n)

    def map(self, key: str) -> Fields:
        return Fields(self.get(key, dict), f"{self.where}.{key}")

    def opt_map(self, key: str) -> Fields | None:
        v = self.get(key, dict, type(None))
        return None if v is None else Fields(v, f"{self.where}.{key}")


def record(v: object) -> Record:
    if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, bytes) for x in v)):
        raise SnapshotError("damaged table snapshot: a record is not [body, signature]")
    return bytes(v[0]), bytes(v[1])


def opt_records(f: Fields, key: str, n: int) -> list[Record | None]:
    items = f.get_list(key)
    if len(items) != n:
        raise SnapshotError(f"damaged table snapshot: {key} must have {n} entries")
    return [None if x is None else record(x) for x in items]


__all__ = ["Fields", "SnapshotError", "opt_records", "record"]
