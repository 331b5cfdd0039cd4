#!/usr/bin/env python3
"""allclose.py REF.npy OTHER.npy...: exit 0 when every OTHER has REF's shape
and |other - ref| <= 1e-5 + 1e-5 * |ref| everywhere; else print the worst
element and exit 1."""
import sys

import numpy as np

ref = np.load(sys.argv[1])
bad = 0
for path in sys.argv[2:]:
    other = np.load(path)
    if other.shape != ref.shape:
        print(f"{path}: shape {other.shape}, expected {ref.shape}")
        bad += 1
        continue
    err = np.abs(other.astype(np.float64) - ref) - (1e-5 + 1e-5 * np.abs(ref))
    if (err > 0).any() or not np.isfinite(other).all():
        i = np.unravel_index(np.argmax(err), err.shape)
        print(f"{path}: {other[i]} at {i}, expected {ref[i]}")
        bad += 1
sys.exit(1 if bad else 0)
