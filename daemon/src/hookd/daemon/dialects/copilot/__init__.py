"""GitHub Copilot CLI (1.0.102): ``dialect`` (its hook files and settings, both payload
forms, its chain of handlers and its reading of their answers) and ``integration``
(adopt, relay entries that name their file and event)."""
