"""``python -m bot`` runs the bot; ``--check`` validates offline; ``--sync`` re-sends the commands.

Exit codes: 0 done, 1 a check or sync failed, 2 a bad setting or token (systemd's
``RestartPreventExitStatus=2`` keeps a misconfigured bot from restarting in a loop).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from bot.allocator import limit_arenas
from bot.config import Settings, SettingsError, configure_logging, load_settings
from bot.errors import ClubError

log = logging.getLogger("clubbot")

EXIT_CONFIG = 2


def _err(message: str) -> None:
    print(f"clubbot: {message}", file=sys.stderr)


async def _check(settings: Settings) -> int:
    from bot.client import ClubBot
    from bot.command_limits import count_commands, validate_commands
    from bot.db.migrate import current_revision

    bot = ClubBot(settings, sync_commands=False, run_background=False)
    try:
        await bot.prepare()
        revision = await current_revision(bot.engine)
        payloads = [cmd.to_dict(bot.tree) for cmd in bot.tree.get_commands()]
        problems = validate_commands(payloads)
        lexicon_line = await asyncio.to_thread(_lexicon_summary, settings)
    finally:
        await bot.engine.dispose()
    if problems:
        for p in problems:
            _err(f"command tree: {p}")
        return 1
    print("clubbot check: OK")
    print(f"  database   {settings.safe_database_url} (revision {revision})")
    print(f"  cogs       {', '.join(sorted(bot.cogs))}")
    print(f"  word list  {lexicon_line}")
    print(f"  commands   {len(payloads)} top-level, {count_commands(payloads)} in all:")
    for payload in sorted(payloads, key=lambda p: p["name"]):
        print(f"    /{payload['name']:<12} {payload['description']}")
        for sub in payload.get("options") or []:
            if sub.get("type") == 1:
                print(f"      {sub['name']:<12} {sub['description']}")
            elif sub.get("type") == 2:
                for leaf in sub.get("options") or []:
                    print(f"      {sub['name']} {leaf['name']:<8} {leaf['description']}")
    return 0


async def _sync(settings: Settings, token: str) -> int:
    """Log in over REST only (no gateway session, so it is safe beside the running
    bot), build the tree and sync every scope whatever the stored hashes say."""
    import discord

    from bot.client import ClubBot

    bot = ClubBot(settings, force_sync=True, run_background=False)
    try:
        await bot.login(token)
    except discord.LoginFailure:
        _err("Discord rejected DISCORD_TOKEN (check the token in .env)")
        return EXIT_CONFIG
    except ClubError as exc:
        _err(f"cannot start: {exc}")
        return EXIT_CONFIG
    finally:
        await bot.close()
    print(f"clubbot sync: sent the commands to {', '.join(bot.synced_scopes)}")
    return 0


def _lexicon_summary(settings: Settings) -> str:
    name = settings.lexicon
    try:
        from bot.lexicons import load_word_list
    except ImportError:
        return f"{name} (word list module not installed)"
    lexicon = load_word_list(name, settings)
    return f"{lexicon.name} ({len(lexicon):,} words)"


async def _run(settings: Settings, token: str) -> int:
    from bot.client import ClubBot

    bot = ClubBot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except NotImplementedError:  # Windows
            pass
    runner = asyncio.create_task(bot.start(token))
    stopper = asyncio.create_task(stop.wait())
    done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if stopper in done:
        log.info("shutting down")
    await bot.close()
    stopper.cancel()
    exc = runner.exception() if runner in done else None
    if exc is not None:
        import discord

        if isinstance(exc, discord.LoginFailure):
            _err("Discord rejected DISCORD_TOKEN (check the token in .env)")
            return EXIT_CONFIG
        if isinstance(exc, discord.PrivilegedIntentsRequired):
            _err(
                "enable the Message Content and Server Members intents for the bot in the Discord developer portal"
            )
            return EXIT_CONFIG
        if isinstance(exc, ClubError):  # raised while starting: a setting (LEXICON) is unusable
            _err(f"cannot start: {exc}")
            return EXIT_CONFIG
        raise exc
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot", description="Run clubbot, the club games bot."
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--check",
        action="store_true",
        help="validate settings, database and commands offline, then exit",
    )
    mode.add_argument(
        "--sync",
        action="store_true",
        help="send the slash commands to Discord now, even if unchanged, then exit "
        "(a normal start syncs only what changed)",
    )
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.env_file)
    except SettingsError as exc:
        _err(f"invalid settings: {exc}")
        return EXIT_CONFIG
    configure_logging(settings.log_level)
    if args.check:
        try:
            return asyncio.run(_check(settings))
        except Exception as exc:  # the operator gets the reason, not a trace
            _err(f"check failed: {type(exc).__name__}: {exc}")
            return 1
    if settings.discord_token is None:
        _err(
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token there (or export DISCORD_TOKEN)"
        )
        return EXIT_CONFIG
    token = settings.discord_token.get_secret_value()
    if args.sync:
        try:
            return asyncio.run(_sync(settings, token))
        except Exception as exc:  # the operator gets the reason, not a trace
            _err(f"sync failed: {type(exc).__name__}: {exc}")
            return 1
    limit_arenas()  # before any thread starts (bot.allocator)
    return asyncio.run(_run(settings, token))


if __name__ == "__main__":
    sys.exit(main())
