"""The results service owns its tables: its own races (name and start as the site announced them) and
their result lines, no longer tied to the site's event table.

Revision ID: 3c41d2a8f6b7
Revises: 159ba5c3c129
Create Date: 2026-11-23 16:40:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel

# revision identifiers, used by Alembic.
revision: str = '3c41d2a8f6b7'
down_revision: Union[str, Sequence[str], None] = '159ba5c3c129'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

RESULT_COLUMNS = "event_id, day_id, position, rider_name, category, time_s, watts_per_kg"


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('result_race',
    sa.Column('event_id', sa.Integer(), autoincrement=False, nullable=False),
    sa.Column('name', sqlmodel.sql.sqltypes.AutoString(length=150), nullable=False),
    sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('event_id')
    )
    op.create_table('result_line',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('day_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('rider_name', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('category', sa.Integer(), nullable=False),
    sa.Column('time_s', sa.Float(), nullable=False),
    sa.Column('watts_per_kg', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['result_race.event_id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('event_id', 'day_id', 'position', name='uq_result_line_place')
    )
    with op.batch_alter_table('result_line', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_result_line_event_id'), ['event_id'], unique=False)

    # Results already stored keep their race's name and start.
    op.execute(
        "INSERT INTO result_race (event_id, name, starts_at) SELECT DISTINCT event.id, event.name, "
        "event.starts_at FROM event JOIN event_result ON event_result.event_id = event.id"
    )
    op.execute(f"INSERT INTO result_line ({RESULT_COLUMNS}) SELECT {RESULT_COLUMNS} FROM event_result")

    with op.batch_alter_table('event_result', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_event_result_event_id'))
    op.drop_table('event_result')


def downgrade() -> None:
    """Downgrade schema."""
    op.create_table('event_result',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('day_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('rider_name', sqlmodel.sql.sqltypes.AutoString(length=120), nullable=False),
    sa.Column('category', sa.Integer(), nullable=False),
    sa.Column('time_s', sa.Float(), nullable=False),
    sa.Column('watts_per_kg', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['event_id'], ['event.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('event_id', 'day_id', 'position', name='uq_event_result_place')
    )
    with op.batch_alter_table('event_result', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_event_result_event_id'), ['event_id'], unique=False)
    op.execute(
        f"INSERT INTO event_result ({RESULT_COLUMNS}) SELECT {RESULT_COLUMNS} FROM result_line "
        "WHERE event_id IN (SELECT id FROM event)"
    )

    with op.batch_alter_table('result_line', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_result_line_event_id'))
    op.drop_table('result_line')
    op.drop_table('result_race')
