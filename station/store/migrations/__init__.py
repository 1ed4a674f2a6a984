"""The database's schema, made and upgraded by Alembic migrations shipped in the package.

Each file of ``versions/`` is one step, ``down_revision`` naming the step before it; no
``alembic.ini`` is needed (:mod:`station.store.schema` configures Alembic in code).
"""
