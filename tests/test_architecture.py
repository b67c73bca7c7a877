"""DESIGN.md's import rules, checked on the source by the AST."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def _violations(package: str, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in _sources(package):
        for name in _imports(path):
            top = name.split(".")
            for bad in forbidden:
                if top[: len(bad.split("."))] == bad.split("."):
                    found.append(f"{path.relative_to(ROOT)} imports {name}")
    return found


def test_engines_import_no_discord_sqlalchemy_pil_asyncio_bot_or_cogs() -> None:
    assert (
        _violations(
            "engines", ("discord", "sqlalchemy", "PIL", "asyncio", "aiohttp", "bot", "cogs")
        )
        == []
    )


def test_engines_use_no_global_randomness_or_wall_clock() -> None:
    offenders = []
    for path in _sources("engines"):
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
            ):
                owner, attr = node.func.value.id, node.func.attr
                if owner == "random" and attr not in {"Random", "SystemRandom"}:
                    offenders.append(f"{path.relative_to(ROOT)}: random.{attr}()")
                if owner in {"datetime", "time"} and attr in {"now", "utcnow", "today", "time"}:
                    offenders.append(f"{path.relative_to(ROOT)}: {owner}.{attr}()")
    assert offenders == []


# Offline tools that live beside their engine (a command line, the data builders run by
# a maintainer): they read and write files by design, and no game path imports them.
_ENGINE_TOOLS = ("__main__.py", "build_default.py", "build_levels.py")


def test_engines_read_no_environment_and_write_no_file() -> None:
    offenders = []
    for path in _sources("engines"):
        if path.name in _ENGINE_TOOLS:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in {"environ", "getenv"}:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: os.{node.attr}")
            if isinstance(node, ast.Attribute) and node.attr in {
                "write_bytes",
                "write_text",
                "replace",
                "mkdir",
                "unlink",
            }:
                if node.attr == "replace" and not (
                    isinstance(node.value, ast.Name) and node.value.id == "os"
                ):
                    continue  # str.replace
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: .{node.attr}()")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "open"
                and any(
                    isinstance(a, ast.Constant)
                    and isinstance(a.value, str)
                    and set(a.value) & set("wax+")
                    for a in [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "mode")]
                )
            ):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: open() for writing")
    assert offenders == []


def _calls_and_literals(path: Path) -> list[tuple[int, str]]:
    """What the Discord-adapter rule looks for in one module: ``create_thread`` calls,
    the literal 160004, and comparisons of an error's ``.status`` with a number."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr == "create_thread":
            found.append((node.lineno, "create_thread"))
        if isinstance(node, ast.Constant) and node.value == 160004:
            found.append((node.lineno, "160004"))
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "status" for s in sides) and any(
                isinstance(s, ast.Constant) and isinstance(s.value, int) for s in sides
            ):
                found.append((node.lineno, "a raw status-code check"))
    return found


def test_threads_and_discords_status_codes_are_handled_in_one_place() -> None:
    """One Discord adapter: games' threads are opened only by bot/ui/threads.py, and
    "Discord's own trouble" (5xx, 429) is decided only by bot/ui/errors.discords_trouble."""
    allowed = {ROOT / "bot/ui/threads.py", ROOT / "bot/ui/errors.py"}
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for package in ("bot", "cogs")
        for path in _sources(package)
        if path not in allowed
        for line, what in _calls_and_literals(path)
    ]
    assert offenders == []


def _exception_text_uses(path: Path) -> list[tuple[int, str]]:
    """Where a caught exception becomes text: ``str(error)``, ``f"{error}"`` or
    ``error.message`` inside its ``except … as error`` handler (a log call aside),
    and any ``.replace`` whose first argument is such text."""
    found: list[tuple[int, str]] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for handler in ast.walk(tree):
        if not (isinstance(handler, ast.ExceptHandler) and handler.name):
            continue
        name = handler.name
        logged: set[int] = set()
        for node in ast.walk(handler):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id in {"log", "logger", "logging"}
            ):
                logged |= {id(n) for n in ast.walk(node)}
        for node in ast.walk(handler):
            if id(node) in logged:
                continue
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "str"
                and any(isinstance(a, ast.Name) and a.id == name for a in node.args)
            ):
                found.append((node.lineno, f"str({name})"))
            if isinstance(node, ast.FormattedValue) and (
                isinstance(node.value, ast.Name) and node.value.id == name
            ):
                found.append((node.lineno, f"an f-string of {name}"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "replace"
            and node.args
            and (
                (
                    isinstance(node.args[0], ast.Call)
                    and getattr(node.args[0].func, "id", "") == "str"
                )
                or (isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "message")
            )
        ):
            found.append((node.lineno, "a .replace of an error's text"))
    return found


def test_refusals_travel_as_template_and_fields_never_as_english_text() -> None:
    """An engine's error reaches the member through ``ClubError.passing_on`` (its template
    and fields, translated where it is shown), never as ``str(error)`` patched up later."""
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {what}"
        for package in ("bot/services", "bot/messages", "bot/ui", "bot/gateway", "bot/web", "cogs")
        for path in _sources(package)
        for line, what in _exception_text_uses(path)
    ]
    assert offenders == []


MAX_SERVICE_CLASS_LINES = 450


def test_no_service_class_is_over_450_lines() -> None:
    """A service grown past this is split along its lifecycle, as the games are."""
    too_long = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {node.end_lineno - node.lineno + 1}"
        for path in _sources("bot/services")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef)
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > MAX_SERVICE_CLASS_LINES
    ]
    assert too_long == []


def test_services_reach_the_database_through_repositories_only() -> None:
    """No ``uow.session``: a service flushes, adds and reads through a repository."""
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in _sources("bot/services")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and node.attr == "session"
        and isinstance(node.value, ast.Name)
        and node.value.id == "uow"
    ]
    assert offenders == []


def test_services_import_no_discord() -> None:
    assert _violations("bot/services", ("discord",)) == []


def test_services_import_no_sqlalchemy() -> None:
    # use cases read and write through the repositories on the unit of work
    assert _violations("bot/services", ("sqlalchemy",)) == []


def test_messages_import_no_discord_database_or_services() -> None:
    # the text layer is built from plain data, so any layer (and a translation) can use it
    assert _violations("bot/messages", ("discord", "sqlalchemy", "bot.db", "bot.services")) == []


def test_the_cpu_workers_code_imports_no_discord_database_or_services() -> None:
    # bot/compute/ is what the CPU pool's worker processes import (bot/offload.py): kept
    # light, so a worker starts quickly and holds no database layer.
    assert (
        _violations(
            "bot/compute", ("discord", "sqlalchemy", "bot.db", "bot.services", "bot.ui", "cogs")
        )
        == []
    )


def test_render_imports_no_discord() -> None:
    assert _violations("bot/render", ("discord",)) == []


def test_cogs_import_no_sqlalchemy_or_bot_db() -> None:
    assert _violations("cogs", ("sqlalchemy", "bot.db")) == []


@pytest.mark.parametrize("package", ["bot", "engines", "cogs", "migrations", "benchmarks"])
def test_nothing_imports_cogs(package: str) -> None:
    offenders = [v for v in _violations(package, ("cogs",)) if not v.startswith("cogs/")]
    assert offenders == []


def test_a_cog_module_holds_one_command_group() -> None:
    for path in _sources("cogs"):
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        cogs = [
            n
            for n in tree.body
            if isinstance(n, ast.ClassDef)
            and any(
                (isinstance(b, ast.Attribute) and b.attr in {"Cog", "GroupCog"}) for b in n.bases
            )
        ]
        assert len(cogs) == 1, f"{path.name} defines {len(cogs)} cogs"
