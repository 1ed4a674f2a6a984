"""Receipts: the first answer to a write sent with an ``Idempotency-Key``.

A retry with the same key gets the receipt's answer back and stores nothing again
(``station.store.receipts``; the model is ``ReceiptRow``).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("receipts"):
        return  # made by a station of the days before migrations knew it
    op.create_table(
        "receipts",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False))


def downgrade() -> None:
    op.drop_table("receipts")
