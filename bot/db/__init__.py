"""Persistence: SQLAlchemy models (…Record), engine, unit of work, repositories."""
