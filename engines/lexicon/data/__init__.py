"""The built-in word lists, read as package resources (``README.md`` here says what each is)."""
