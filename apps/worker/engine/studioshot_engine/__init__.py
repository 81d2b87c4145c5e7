"""Studioshot compute engine. Node owns all state; this process only computes."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 1
ENGINES = ("studio", "flux")
