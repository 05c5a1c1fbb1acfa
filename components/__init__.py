"""Hand-wrapped React components for what Reflex lacks."""
