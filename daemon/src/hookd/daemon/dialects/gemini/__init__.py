"""Gemini CLI (``@google/gemini-cli``): its hooks under hookd (``dialect``) and how the
agent reaches hookd (``integration``)."""
