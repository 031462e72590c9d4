"""Augment (auggie 0.36.0): ``dialect`` is the module the dialect table holds."""
