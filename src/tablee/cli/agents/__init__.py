"""``tablee agents play``: the agents game's one command written by hand, at a prompt.

Every other command of ``tablee agents`` (and ``tablee odds agents``) is generated from the
game's declarations (`tablee.systems.agents.commands`). ``play`` walks a group through a
whole adventure without a game master, asking each step's questions at a prompt (or from a
script), which no declaration describes; each answer runs a declared command through the
table service, as the generated commands do. It is listed in
`tablee.cli.main.HAND_WIRED_COMMANDS`.

Modules: `play` (the loop), `prompting` (questions and answers), `quest_steps`,
`challenge_steps` and `contest_steps` (each step's questions) and `common` (dice, names); a
group's own generator tables are read by `tablee.systems_io.agents_tables`.

Source: seed 002; docs/rules/agents.md.
"""

from __future__ import annotations

__all__: list[str] = []
