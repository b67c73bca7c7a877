"""Every job kind the bot defines (``JOB_… = "kind"`` in ``bot/``) is scheduled
somewhere: named outside its definition, the ``JOB_KINDS`` tuples and the
``job_handlers()`` maps. A kind only handled, never scheduled, is dead code that
reads as a feature (``tournament.forfeit_game`` was one: a withdrawal ends its
games in its own transaction)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _job_name(node: ast.AST) -> str | None:
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return name if isinstance(name, str) and name.startswith("JOB_") else None


def _kinds_and_uses() -> tuple[dict[str, str], set[str]]:
    defined: dict[str, str] = {}
    used: set[str] = set()
    for path in sorted((ROOT / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        parent_of = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and (name := _job_name(node.targets[0])) is not None
                and isinstance(node.value, ast.Constant)
            ):
                defined[name] = f"{path.relative_to(ROOT)}:{node.lineno}"
                continue
            name = _job_name(node)
            if name is None or isinstance(getattr(node, "ctx", None), ast.Store):
                continue
            parent = parent_of.get(node)
            if isinstance(parent, ast.Dict) and node in parent.keys:
                continue  # a job_handlers() map
            if isinstance(parent, ast.Tuple) and isinstance(parent_of.get(parent), ast.Assign):
                continue  # a JOB_KINDS tuple
            used.add(name)
    return defined, used


def test_every_job_kind_is_scheduled_somewhere() -> None:
    defined, used = _kinds_and_uses()
    assert len(defined) > 20  # the walk found the kinds
    never = {name: where for name, where in defined.items() if name not in used}
    assert not never, f"job kinds nothing schedules: {never}"
