"""Ogre Cheerleaders (rules/ogre-cheerleaders.md).

``ENGINE`` is the engine object; ``formations(field)`` is the pure rule helper named in DESIGN.md.
"""

from __future__ import annotations

from engines.ogre_cheerleaders.engine import ENGINE, OgreCheerleaders
from engines.ogre_cheerleaders.rules import formations
from engines.ogre_cheerleaders.state import State

__all__ = ["ENGINE", "OgreCheerleaders", "State", "formations"]
