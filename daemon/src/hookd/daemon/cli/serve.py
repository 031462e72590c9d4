"""``hookd serve``: load settings and run the daemon in the foreground."""

from __future__ import annotations

import argparse

from ..app import run
from ..settings import load_settings


def run_serve(args: argparse.Namespace) -> int:
    log_json = None if args.log_format is None else args.log_format == "json"
    settings = load_settings(
        args.config,
        socket_path=args.socket,
        home=args.home,
        system_root=args.system_root,
        slow_threshold_ms=args.slow_threshold_ms,
        log_level=args.log_level,
        log_json=log_json,
        trust_all=args.trust_all,
    )
    run(settings)
    return 0
