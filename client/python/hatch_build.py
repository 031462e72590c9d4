"""The client package's build hook: the native ``hookd-relay`` (``native/relay.c``), built
with ``zig cc`` from the ``ziglang`` wheel (a build requirement where PyPI has one), goes
into the wheel as data (``<data>/libexec/hookd/hookd-relay``, beside the ``bin`` that
holds ``hookd``). When it cannot be built the wheel is the pure one it always was, and
the Python relay serves: an install never fails for the native relay's sake. Set
``HOOKD_NATIVE_RELAY=0`` to leave it out. ``docs/design.md`` ("The native relay") says
why it is built here.
"""

from __future__ import annotations

import importlib.util
import os
import sysconfig
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ROOT = Path(__file__).resolve().parent


def _build_module() -> Any:
    spec = importlib.util.spec_from_file_location("hookd_native_build", ROOT / "native/build.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class NativeRelayHook(BuildHookInterface):  # type: ignore[type-arg, unused-ignore]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("HOOKD_NATIVE_RELAY") == "0":
            return
        native = _build_module()
        out = ROOT / "build" / "native" / "hookd-relay"
        try:
            native.build(out)
        except native.BuildError as exc:
            self.app.display_warning(f"hookd-relay: the native relay was not built ({exc}); "
                                     "the Python relay serves")  # fmt: skip
            return
        self.app.display_info(f"hookd-relay: built the native relay ({native.version_line()})")
        build_data["shared_data"][str(out)] = native.RELAY_IN_DATA
        build_data["pure_python"] = False
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        build_data["tag"] = f"py3-none-{platform}"
