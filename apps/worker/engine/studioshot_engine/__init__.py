"""Studioshot compute engine. Node owns all state; this process only computes."""

__version__ = "0.2.0"
PROTOCOL_VERSION = 2
ENGINES = ("studio", "flux")
