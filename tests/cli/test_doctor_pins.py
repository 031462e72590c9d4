"""The agent versions ``hookd doctor`` compares with are the ones the agent tests pin:
``tests/agents/versions.json``, installed by ``tests/agents/install.sh`` from the npm
packages the doctor's fix commands name."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hookd.daemon.doctor.agent_pins import PINS

AGENTS = Path(__file__).resolve().parents[1] / "agents"


def test_the_pins_are_the_agent_tests_versions() -> None:
    versions = json.loads((AGENTS / "versions.json").read_text())
    assert {pin.key: pin.version for pin in PINS} == versions


def test_each_pin_names_the_package_install_sh_installs() -> None:
    script = (AGENTS / "install.sh").read_text()
    installed = dict(re.findall(r"^install (\S+) \"?([^\s\"]+)\"?", script, re.MULTILINE))
    platform_variables = {"droid": "$droid_platform"}
    for pin in PINS:
        package = pin.package.replace("{platform}", platform_variables.get(pin.key, ""))
        assert installed[pin.key] == package, pin.key
