"""hookd's own configuration and the socket address rules."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest
import trio

from hookd.daemon.app import serve
from hookd.daemon.errors import ConfigError
from hookd.daemon.settings import load_settings
from hookd.protocol import default_socket_path, runtime_dir
from hookd_testing import RpcClient, write_executable


def test_config_file_values_apply_and_options_win(tmp_path) -> None:
    """The TOML file sets values; explicit options override the file."""
    config = tmp_path / "config.toml"
    config.write_text(
        'slow_threshold_ms = 250\ndisabled_dialects = ["augment"]\nterm_grace_s = 1\n'
    )

    settings = load_settings(str(config), slow_threshold_ms=None, log_level="debug")

    assert settings.slow_threshold_ms == 250
    assert settings.disabled_dialects == frozenset({"augment"})
    assert settings.term_grace_s == 1
    assert settings.log_level == "debug"
    assert load_settings(str(config), slow_threshold_ms=5).slow_threshold_ms == 5


def test_config_errors_say_what_is_wrong(tmp_path) -> None:
    """Unknown keys list the known ones; wrong types and bad TOML name the problem."""
    config = tmp_path / "config.toml"
    config.write_text("slow_treshold_ms = 1\n")
    with pytest.raises(
        ConfigError,
        match=r"unknown key.*slow_treshold_ms \(did you mean slow_threshold_ms\?\); known keys:",
    ):
        load_settings(str(config))
    config.write_text('slow_threshold_ms = "fast"\n')
    with pytest.raises(ConfigError, match="slow_threshold_ms must be int, not str"):
        load_settings(str(config))
    config.write_text("slow_threshold_ms = \n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_settings(str(config))
    with pytest.raises(ConfigError, match="cannot read"):
        load_settings(str(tmp_path / "missing.toml"))


def test_config_is_found_through_the_environment(tmp_path, monkeypatch) -> None:
    """$HOOKD_CONFIG, else $XDG_CONFIG_HOME/hookd/config.toml when it exists."""
    xdg = tmp_path / "xdg"
    (xdg / "hookd").mkdir(parents=True)
    (xdg / "hookd" / "config.toml").write_text("slow_threshold_ms = 7\n")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(xdg))
    assert load_settings().slow_threshold_ms == 7

    explicit = tmp_path / "other.toml"
    explicit.write_text("slow_threshold_ms = 9\n")
    monkeypatch.setenv("HOOKD_CONFIG", str(explicit))
    assert load_settings().slow_threshold_ms == 9


@pytest.mark.parametrize(
    ("switch", "says"),
    [
        ({"disabled_dialects": frozenset({"cline"})}, "disabled_dialects"),
        ({"disable_all_hooks": True}, "disable_all_hooks"),
    ],
)
async def test_switched_off_hooks_do_not_run_and_the_fire_says_why(
    settings, workspace, switch, says
) -> None:
    """The per-dialect and the global switch: no hook runs, the fire answers normally
    (an agent must not fail because hooks are off) and a warning names the switch."""
    marker = workspace / "ran"
    write_executable(
        workspace / ".clinerules" / "hooks" / "TaskStart", f"#!/bin/sh\ntouch {marker}\n"
    )
    async with trio.open_nursery() as nursery:
        daemon = await nursery.start(serve, replace(settings, **switch))
        client = await RpcClient.connect(settings.socket_path)
        result = await client.fire("cline", "TaskStart", [str(workspace)], {"taskId": "t"})

        assert result["hooks"] == []
        assert result["blocked"] is False
        assert says in result["warnings"][0]
        assert not marker.exists()
        await client.aclose()
        daemon.request_shutdown("test over")


def test_socket_address_rules(monkeypatch) -> None:
    """HOOKD_SOCKET wins; else $XDG_RUNTIME_DIR/hookd; else $TMPDIR/hookd-<uid>."""
    monkeypatch.setenv("HOOKD_SOCKET", "/run/custom.sock")
    assert default_socket_path() == "/run/custom.sock"
    monkeypatch.delenv("HOOKD_SOCKET")
    monkeypatch.setenv("XDG_RUNTIME_DIR", "/run/user/1000")
    assert default_socket_path() == "/run/user/1000/hookd/hookd.sock"
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    monkeypatch.setenv("TMPDIR", "/var/tmp")
    assert runtime_dir() == f"/var/tmp/hookd-{os.getuid()}"
