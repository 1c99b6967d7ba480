"""The printed components of Planet Unknown as JSON, read by :mod:`domain.planet_unknown.data`."""
