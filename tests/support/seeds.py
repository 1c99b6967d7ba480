"""Seeds for tests: games that deal hidden information refuse a chosen seed under 128 bits."""

from __future__ import annotations

import hashlib


def strong_seed(label: str) -> bytes:
    """A fixed seed of 64 hexadecimal digits derived from ``label``, so a test can name its deal."""
    return hashlib.sha256(label.encode()).hexdigest().encode()
