"""The channel the stations of one PostgreSQL hub announce changes on, and the triggers
that announce every stored event and every new table on it (as JSON naming the writer).

Below both :mod:`station.store.database` (which creates the triggers with the schema) and
:mod:`station.store.notify` (which listens and announces).
"""

from __future__ import annotations

CHANNEL = "packref_hub"

POSTGRES_NOTIFY_TRIGGERS = [
    "CREATE OR REPLACE FUNCTION packref_announce_event() RETURNS trigger AS $$ "
    f"BEGIN PERFORM pg_notify('{CHANNEL}', json_build_object('kind', 'event', "
    "'table', NEW.table_id, 'seq', NEW.seq, "
    "'origin', current_setting('application_name'))::text); RETURN NEW; END $$ "
    "LANGUAGE plpgsql",
    "DROP TRIGGER IF EXISTS events_announce ON events",
    "CREATE TRIGGER events_announce AFTER INSERT ON events "
    "FOR EACH ROW EXECUTE FUNCTION packref_announce_event()",
    "CREATE OR REPLACE FUNCTION packref_announce_table() RETURNS trigger AS $$ "
    f"BEGIN PERFORM pg_notify('{CHANNEL}', json_build_object('kind', 'tables', "
    "'table', NEW.id, 'origin', current_setting('application_name'))::text); "
    "RETURN NEW; END $$ LANGUAGE plpgsql",
    "DROP TRIGGER IF EXISTS tables_announce ON tables",
    "CREATE TRIGGER tables_announce AFTER INSERT ON tables "
    "FOR EACH ROW EXECUTE FUNCTION packref_announce_table()",
]
