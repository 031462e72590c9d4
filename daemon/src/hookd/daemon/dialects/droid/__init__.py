"""Factory Droid (``droid``): the dialect and how the agent reaches hookd."""
