"""The agent table: every agent hookd speaks, keyed by its wire name (pre-commit's
``all_languages.py``).

An agent is one package, ``dialects/<agent>/``: its ``dialect`` module (reading its
hooks, running them, reading their answers: ``base.DialectModule``), its
``integration`` module (how the agent reaches hookd: adopt, relay entries, relayed
answers, the http entry: ``integration.IntegrationModule``) and its ``portable`` module
(its events, tools and answers in the portable hooks' shared vocabulary:
``portable.PortableModule``). Adding an agent is that
package plus one line here (and its tests; ``docs/design.md``, "Adding an agent"); the
``Dialect`` enum and ``hookd.protocol.AGENTS`` must name the same agents, which
``tests/daemon/test_all_dialects.py`` checks. Every other list of agents (the CLI's
choices, the relay's answers when hookd is down) is derived from this one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .dialects.augment import dialect as augment
from .dialects.augment import integration as augment_integration
from .dialects.augment import portable as augment_portable
from .dialects.base import DialectModule
from .dialects.claude import dialect as claude
from .dialects.claude import integration as claude_integration
from .dialects.claude import portable as claude_portable
from .dialects.cline import dialect as cline
from .dialects.cline import integration as cline_integration
from .dialects.cline import portable as cline_portable
from .dialects.cline_sdk import dialect as cline_sdk
from .dialects.cline_sdk import integration as cline_sdk_integration
from .dialects.cline_sdk import portable as cline_sdk_portable
from .dialects.codex import dialect as codex
from .dialects.codex import integration as codex_integration
from .dialects.codex import portable as codex_portable
from .dialects.copilot import dialect as copilot
from .dialects.copilot import integration as copilot_integration
from .dialects.copilot import portable as copilot_portable
from .dialects.droid import dialect as droid
from .dialects.droid import integration as droid_integration
from .dialects.droid import portable as droid_portable
from .dialects.gemini import dialect as gemini
from .dialects.gemini import integration as gemini_integration
from .dialects.gemini import portable as gemini_portable
from .dialects.integration import IntegrationModule
from .dialects.portable import PortableModule
from .dialects.qwen import dialect as qwen
from .dialects.qwen import integration as qwen_integration
from .dialects.qwen import portable as qwen_portable
from .model import Dialect


@dataclass(frozen=True, slots=True)
class AgentPackage:
    """One agent's three parts."""

    dialect: DialectModule
    integration: IntegrationModule
    portable: PortableModule


AGENT_PACKAGES: Mapping[Dialect, AgentPackage] = {
    Dialect.CLAUDE: AgentPackage(claude, claude_integration, claude_portable),
    Dialect.CLINE: AgentPackage(cline, cline_integration, cline_portable),
    Dialect.CLINE_SDK: AgentPackage(cline_sdk, cline_sdk_integration, cline_sdk_portable),
    Dialect.AUGMENT: AgentPackage(augment, augment_integration, augment_portable),
    Dialect.CODEX: AgentPackage(codex, codex_integration, codex_portable),
    Dialect.GEMINI: AgentPackage(gemini, gemini_integration, gemini_portable),
    Dialect.COPILOT: AgentPackage(copilot, copilot_integration, copilot_portable),
    Dialect.DROID: AgentPackage(droid, droid_integration, droid_portable),
    Dialect.QWEN: AgentPackage(qwen, qwen_integration, qwen_portable),
}

DIALECTS: Mapping[Dialect, DialectModule] = {d: p.dialect for d, p in AGENT_PACKAGES.items()}
"""The fire half: only the fire pipeline and the registry's readers look a dialect up;
they hand the module down to whatever needs it."""
INTEGRATIONS: Mapping[Dialect, IntegrationModule] = {
    d: p.integration for d, p in AGENT_PACKAGES.items()
}
"""The integration half: the CLI's adopt and relay commands, the relay door, the http
entry."""
PORTABLE: Mapping[Dialect, PortableModule] = {d: p.portable for d, p in AGENT_PACKAGES.items()}
"""The portable part: how each agent's events, tools and answers meet the portable hooks
(``dialects/portable.py``)."""
ADOPTABLE = tuple(d.value for d, i in INTEGRATIONS.items() if i.ADOPT_SCOPES)
"""The agents whose hooks ``hookd adopt`` can hand to hookd."""
