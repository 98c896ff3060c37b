"""Tablée: rules engine and live virtual table for four French tabletop role-playing systems.

Systems: Pouyss (seed 000), agents (002), Space Horror Stories (003), Yuigahama Bad Seeds
(004). See README.md and docs/architecture.md.
"""

__version__ = "0.2.0"
__all__ = ["__version__"]
