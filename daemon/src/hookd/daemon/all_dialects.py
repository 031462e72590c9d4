"""The dialect table: every agent hookd speaks, keyed by its wire name (pre-commit's
``all_languages.py``).

Adding an agent is one dialect module plus one line here (and its tests); the
``Dialect`` enum and ``hookd.protocol.AGENTS`` must name the same agents, which
``tests/daemon/test_all_dialects.py`` checks. Only the fire pipeline and the registry's
readers look a dialect up; they hand the module down to whatever needs it.
"""

from __future__ import annotations

from collections.abc import Mapping

from .dialects.augment import dialect as augment
from .dialects.base import DialectModule
from .dialects.claude import dialect as claude
from .dialects.cline import dialect as cline
from .dialects.cline_sdk import dialect as cline_sdk
from .model import Dialect

DIALECTS: Mapping[Dialect, DialectModule] = {
    Dialect.CLAUDE: claude,
    Dialect.CLINE: cline,
    Dialect.CLINE_SDK: cline_sdk,
    Dialect.AUGMENT: augment,
}
