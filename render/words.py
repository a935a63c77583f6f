"""The words helper as the pictures and messages import it: one implementation, in ``engines.words``
(the lowest layer that writes sentences, so the engines' labels use it too)."""

from __future__ import annotations

from engines.words import article, count, ordinal, plural

__all__ = ["article", "count", "ordinal", "plural"]
