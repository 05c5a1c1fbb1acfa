"""Layout, header, footer and the shared pieces every screen is built from."""
