"""The migrations, oldest first: ``0001_initial`` is the schema as it stood before migrations."""
