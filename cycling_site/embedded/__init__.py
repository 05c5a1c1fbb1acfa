"""Default implementations of the outside services, served by the same process."""
