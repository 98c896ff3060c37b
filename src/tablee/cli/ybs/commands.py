"""The ``tablee ybs`` commands: characters, sessions and tokens, tests, damage, fights, evolution.

The commands live by theme in `tablee.cli.ybs.character_cmds` (characters, sessions and
tokens), `tablee.cli.ybs.trait_test_cmds` (tests and their follow-ups) and
`tablee.cli.ybs.sheet_cmds` (damage, fights, evolution); this module gathers their builders.

Source: seed 004; rulings Y-M1 to Y-M6, Y-M9.
"""

from __future__ import annotations

from tablee.cli.ybs.character_cmds import CHARACTER_BUILDERS, character_lines
from tablee.cli.ybs.character_cmds import TRAIT_IDS as TRAIT_IDS
from tablee.cli.ybs.character_cmds import cmd_character_create as cmd_character_create
from tablee.cli.ybs.character_cmds import cmd_character_import as cmd_character_import
from tablee.cli.ybs.character_cmds import cmd_character_show as cmd_character_show
from tablee.cli.ybs.character_cmds import cmd_invoke as cmd_invoke
from tablee.cli.ybs.character_cmds import cmd_session as cmd_session
from tablee.cli.ybs.character_cmds import cmd_shichi as cmd_shichi
from tablee.cli.ybs.character_cmds import cmd_tokens as cmd_tokens
from tablee.cli.ybs.sheet_cmds import SHEET_BUILDERS
from tablee.cli.ybs.sheet_cmds import cmd_damage as cmd_damage
from tablee.cli.ybs.sheet_cmds import cmd_evolve as cmd_evolve
from tablee.cli.ybs.sheet_cmds import cmd_fight as cmd_fight
from tablee.cli.ybs.trait_test_cmds import TEST_BUILDERS
from tablee.cli.ybs.trait_test_cmds import cmd_follow_up as cmd_follow_up
from tablee.cli.ybs.trait_test_cmds import cmd_test as cmd_test

__all__ = ["BUILDERS", "character_lines"]

BUILDERS = {**CHARACTER_BUILDERS, **TEST_BUILDERS, **SHEET_BUILDERS}
"""A builder per group of commands (the key is the first command it adds)."""
