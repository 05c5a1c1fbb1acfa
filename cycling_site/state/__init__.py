"""Reflex State classes, thin: they call services."""
