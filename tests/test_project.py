"""Project-shape checks: README commands in CI, public names documented and exported."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import tablee

ROOT = Path(__file__).resolve().parents[1]


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_readme_gives_exactly_two_fresh_machine_commands() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert commands[0].endswith("tablee serve")
    assert commands[1].endswith("python -m pytest")


def test_ci_runs_the_readme_main_job_and_checks_it_through_the_pages() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert quick_start_commands()[0] in ci
    assert "scripts/smoke_web.py" in ci


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert quick_start_commands()[1] in ci.splitlines()


def public_modules() -> list[str]:
    names = [tablee.__name__]
    for info in pkgutil.walk_packages(tablee.__path__, prefix="tablee."):
        parts = info.name.split(".")
        if any(p.startswith("_") for p in parts[1:]) or "migrations" in parts:
            continue
        names.append(info.name)
    return names


@pytest.mark.parametrize("name", public_modules())
def test_public_module_is_documented_with_its_source(name: str) -> None:
    module = importlib.import_module(name)
    doc = inspect.getdoc(module) or ""
    assert doc, f"{name} has no docstring"
    if name.startswith(("tablee.dice.", "tablee.systems.", "tablee.table.", "tablee.cli.")):
        assert "Source:" in doc, f"{name}'s docstring has no Source: line"


@pytest.mark.parametrize("name", public_modules())
def test_exported_names_exist_and_are_documented(name: str) -> None:
    module = importlib.import_module(name)
    exported = getattr(module, "__all__", None)
    if name.endswith("__main__"):
        return
    assert exported is not None, f"{name} has no __all__"
    for attr in exported:
        assert hasattr(module, attr), f"{name}.__all__ names missing {attr}"
        value = getattr(module, attr)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), f"{name}.{attr} has no docstring"
