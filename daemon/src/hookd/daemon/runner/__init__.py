"""Running hooks: one process (``process``), and a fire's set of hooks (``runner``)."""
