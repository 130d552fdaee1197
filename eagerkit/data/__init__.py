"""eagerkit.data (being built)."""
