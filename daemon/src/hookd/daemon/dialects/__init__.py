"""The dialects hookd speaks, by the ``agent`` name a fire uses (an explicit table, like
pre-commit's ``all_languages``)."""

from __future__ import annotations

from . import augment, claude, cline, cline_sdk
from .base import DialectModule

DIALECTS: dict[str, DialectModule] = {
    "claude": claude,
    "cline": cline,
    "cline-sdk": cline_sdk,
    "augment": augment,
}
