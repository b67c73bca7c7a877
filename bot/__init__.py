"""clubbot application: configuration, database, services, rendering, scheduler."""
