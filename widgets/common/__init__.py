"""What every view shares: the live-widget base (buffered updates, snapshots, saved pages),
the layered graph layout and its drawing geometry, axis ticks, names and source origins."""
