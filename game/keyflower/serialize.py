"""placeholder"""

from __future__ import annotations

from typing import Any


def to_dict(st: Any) -> dict[str, Any]:
    raise NotImplementedError


def from_dict(data: dict[str, Any]) -> Any:
    raise NotImplementedError
