"""The designer's lab: exact tables, simulations and charts of the four games' rules.

A lab question is a declared `Question` (typed fields with ranges and help, like a game's
commands, so the command line and the web lab page are generated from it) whose `answer`
drives the same rule code as play, through the chance protocol, and returns a `LabResult`:
rows of exact figures (`fractions.Fraction`) or estimates with their confidence interval
(`Estimate`), the charts to draw from them, the policies every simulated choice followed,
the house rules compared and the seeds that replay the run.

Layers: this package uses `tablee.dice` and `tablee.systems` (the rules core); the command
line and the web import it, never the other way. Charts (matplotlib) and reports are loaded
only when drawn.

Source: docs/architecture.md, "The designer's lab".
"""

from __future__ import annotations

from tablee.lab.questions import QUESTIONS, Question, question_named, questions_of
from tablee.lab.results import Chart, Column, Estimate, LabResult, Policy, Variant

__all__ = [
    "QUESTIONS",
    "Chart",
    "Column",
    "Estimate",
    "LabResult",
    "Policy",
    "Question",
    "Variant",
    "question_named",
    "questions_of",
]
