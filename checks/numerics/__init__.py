"""Numerics everything uses: array backends, devices, dtypes and tolerances, the reference formulas, RoPE
pairings and implementation domains. Imports nothing else of the project."""
