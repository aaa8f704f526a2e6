"""Pipeline stages: each reads the run directory (or the outside world) and writes to it."""
