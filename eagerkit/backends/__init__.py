"""eagerkit.backends (being built)."""
