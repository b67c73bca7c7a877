"""Every command and button handler acknowledges before it works (issue #32).

Read from the source (AST), so a new command keeps the rule: in each slash command
of cogs/ and each cog method a button, select or form routes to (the methods of the
handler Protocols in bot/ui), the first thing awaited is the acknowledgement,
``think`` or ``update_later`` (bot/ui/errors.py), or a form (``send_modal``, which
must be the first answer). The few that answer otherwise are named below with
the reason. tests/e2e/test_acknowledgement.py shows the ordering at run time.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
ACKNOWLEDGEMENTS = {"think", "update_later"}

# (cog module, function): why its first await is something else
EXCEPTIONS = {
    ("help", "help"): "a fixed text: no I/O to wait behind, answered at once",
    ("chess", "analyse"): "without an engine a fixed text at once; else it thinks first",
    ("boggle", "submit"): "a form must be the first answer; one read finds the round",
    ("boggle", "open_form"): "a form must be the first answer; one read finds the round",
    ("boggle", "open_daily_form"): "a form must be the first answer; one read finds the "
    "member's countdown of the daily grid",
    ("scrabble_session", "explain_clicked"): "a form must be the first answer; one read "
    "finds the words it names",
}


def _handler_names() -> set[str]:
    """The methods of bot/ui's handler Protocols: what buttons, selects and forms call."""
    names: set[str] = set()
    for path in (ROOT / "bot/ui").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(base, ast.Name) and base.id == "Protocol" for base in node.bases
            ):
                names |= {f.name for f in node.body if isinstance(f, ast.AsyncFunctionDef)}
    return names


def _is_command(function: ast.AsyncFunctionDef) -> bool:
    return any(
        isinstance(d, ast.Call) and isinstance(d.func, ast.Attribute) and d.func.attr == "command"
        for d in function.decorator_list
    )


def _first_await(function: ast.AsyncFunctionDef) -> ast.expr | None:
    awaits = [n for n in ast.walk(function) if isinstance(n, ast.Await)]
    if not awaits:
        return None
    return min(awaits, key=lambda n: (n.lineno, n.col_offset)).value


def _acknowledges(call: ast.expr | None) -> bool:
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in ACKNOWLEDGEMENTS
    return isinstance(func, ast.Attribute) and func.attr == "send_modal"


def _handlers() -> list[tuple[str, ast.AsyncFunctionDef]]:
    routed = _handler_names()
    found = []
    for path in sorted((ROOT / "cogs").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.AsyncFunctionDef) and (
                _is_command(node) or node.name in routed
            ):
                found.append((path.stem, node))
    return found


def test_every_command_and_button_handler_acknowledges_first() -> None:
    handlers = _handlers()
    assert len(handlers) > 60  # the walk found the cogs' commands and handlers
    late = [
        f"cogs/{module}.py:{f.lineno} {f.name}: first awaits {ast.unparse(_first_await(f) or ast.Constant(None))}"
        for module, f in handlers
        if (module, f.name) not in EXCEPTIONS and not _acknowledges(_first_await(f))
    ]
    assert late == []


def test_the_exceptions_are_still_there_and_still_exceptions() -> None:
    """An exception that now acknowledges first, or is gone, comes off the list."""
    by_name = {(module, f.name): f for module, f in _handlers()}
    for key in EXCEPTIONS:
        assert key in by_name, key
        assert not _acknowledges(_first_await(by_name[key])), key
