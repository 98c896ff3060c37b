"""Tablée on Discord: a bot with slash commands generated from the command declarations.

A sibling of the command line and the web table: it imports the table layer, the games and
the dice, and nothing imports it but ``tablee discord`` (lazily, so no other command loads
discord.py). The parts:

* `tablee.discord.tree`: one slash-command group per game, one subcommand per declared
  command, options from the fields; French from the project's catalogs;
* `tablee.discord.bindings`: which channel plays which table, which Discord account holds
  which seat, and the last event posted in each channel, kept in the store;
* `tablee.discord.embeds`: a stored event as an embed (its roll card, else its log line);
* `tablee.discord.bot`: the client: commands, binding and claiming, buttons, and the relay
  that posts what the web table and the command line did.

Source: docs/architecture.md, "Discord"; docs/discord.md.
"""

__all__: list[str] = []
