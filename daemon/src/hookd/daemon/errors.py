"""Errors of the hookd daemon and CLI.

HookdError
├── UserError          something the user can fix; the message says what and how
│   ├── ConfigError    a bad hookd configuration file or option
│   └── AlreadyRunning another daemon already serves this socket
└── (bugs surface as any other exception: exit code 3 with a crash report)
"""

from __future__ import annotations


class HookdError(Exception):
    """Root of hookd's own errors."""


class UserError(HookdError):
    """An error the user can fix. ``str()`` says what was wrong and what to do."""


class ConfigError(UserError):
    """hookd's own configuration is invalid."""


class AlreadyRunning(UserError):
    """Another daemon holds the lock for this socket."""
