"""Celery tasks: what must not sit on the request path."""
