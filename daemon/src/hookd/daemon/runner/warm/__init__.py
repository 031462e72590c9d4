"""Warm Python interpreters: zygotes that fork a child per Python hook (see docs/design.md)."""
