"""The ``hookd`` command line: one module per subcommand, dispatched by ``main``."""
