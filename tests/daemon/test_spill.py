"""Per-session state folders: ids cannot escape or collide; the state dir must be absolute."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hookd.daemon.errors import ConfigError
from hookd.daemon.settings import load_settings
from hookd.daemon.spill import session_directory


def test_session_ids_cannot_escape_or_collide(tmp_path) -> None:
    state = str(tmp_path)
    sessions = tmp_path / "claude" / "sessions"
    folders = {session_directory(state, "claude", sid) for sid in ("..", "a/b", "a_b", ".")}
    assert len(folders) == 4
    assert all(Path(f).parent == sessions for f in folders)


def test_state_dir_must_be_absolute(tmp_path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('state_dir = "relative/state"\n')
    with pytest.raises(ConfigError, match="state_dir must be an absolute path"):
        load_settings(str(config))
    config.write_text('state_dir = "~/state"\n')
    assert os.path.isabs(load_settings(str(config)).state_dir)
