"""Limits on what one client, or one game, may take of a process (OWASP API4): the rate
limits and stream caps shared by every API process (``rates``), and the per-game
bulkhead of one process (``gate``)."""

from .gate import GameGate
from .rates import Limits

__all__ = ["GameGate", "Limits"]
