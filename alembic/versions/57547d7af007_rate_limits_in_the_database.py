"""Rate limits kept in the database (without Redis), so that every worker and a restart see them

Revision ID: 57547d7af007
Revises: fe974577a95a
Create Date: 2026-11-26 09:00:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel

# revision identifiers, used by Alembic.
revision: str = '57547d7af007'
down_revision: Union[str, Sequence[str], None] = 'fe974577a95a'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('ratelimitwindow',
    sa.Column('key', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('hits', sa.JSON(), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    with op.batch_alter_table('ratelimitwindow', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ratelimitwindow_expires_at'), ['expires_at'], unique=False)


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('ratelimitwindow', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ratelimitwindow_expires_at'))

    op.drop_table('ratelimitwindow')
