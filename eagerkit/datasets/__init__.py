"""eagerkit.datasets (being built)."""
