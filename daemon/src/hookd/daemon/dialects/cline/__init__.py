"""Cline's original runner (cline 2.18.0, the VS Code extension core): ``dialect`` is
the module the dialect table holds."""
