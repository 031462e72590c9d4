"""The Cline SDK runner (cline 3.0.65): ``dialect`` is the module the dialect table holds."""
