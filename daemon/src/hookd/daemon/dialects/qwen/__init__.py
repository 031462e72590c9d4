"""Qwen Code (``@qwen-code/qwen-code`` 0.24.4): its dialect and how it reaches hookd."""
