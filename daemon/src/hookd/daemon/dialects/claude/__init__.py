"""Claude Code's dialect: ``dialect`` is the module the dialect table holds; the rest
are its parts (output reading, handler types, event rules, ``if`` rules and the Bash
scanner they need)."""
