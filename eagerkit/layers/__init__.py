"""eagerkit.layers (being built)."""
