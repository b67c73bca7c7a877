"""Imports every model module so ``Base.metadata`` knows every table.

Feature tables live in ``bot/db/models_<feature>.py`` beside the core
``models.py``; Alembic's env and the schema test import this module.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from bot.db.models import Base

for _module in pkgutil.iter_modules([str(Path(__file__).parent)]):
    if _module.name.startswith("models_"):
        importlib.import_module(f"bot.db.{_module.name}")

__all__ = ["Base"]
