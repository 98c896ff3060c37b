"""Roll cards of the web log: `tablee.table.cards`, named from here as before.

The card data moved to the table layer so that the Discord bot, a sibling of the web table,
draws the same cards.
"""

from tablee.table.cards import PIPS, card_context, card_view

__all__ = ["PIPS", "card_context", "card_view"]
