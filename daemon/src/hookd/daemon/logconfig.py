"""structlog set-up: JSON lines for services and pipes, readable console for terminals."""

from __future__ import annotations

import logging
import sys

import structlog


def configure_logging(level: str = "info", json_lines: bool | None = None) -> None:
    if json_lines is None:
        json_lines = not sys.stderr.isatty()
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer()
        if json_lines
        else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())  # no codes in files
    )
    processors: list[structlog.typing.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    if json_lines:
        processors.append(structlog.processors.dict_tracebacks)
    structlog.configure(
        processors=[*processors, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
        ),
        logger_factory=structlog.WriteLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    # Libraries that log through stdlib logging (jsonrpcserver, watchfiles): warnings only.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="%(name)s: %(message)s")
