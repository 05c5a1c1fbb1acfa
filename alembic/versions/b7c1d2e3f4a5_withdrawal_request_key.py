"""A withdrawal's idempotency key: a request sent again after a dropped connection is the same request

Revision ID: b7c1d2e3f4a5
Revises: 57547d7af007
Create Date: 2026-11-27 21:40:00.000000

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa
import sqlmodel

# revision identifiers, used by Alembic.
revision: str = 'b7c1d2e3f4a5'
down_revision: Union[str, Sequence[str], None] = '57547d7af007'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    with op.batch_alter_table('withdrawal', schema=None) as batch_op:
        batch_op.add_column(sa.Column('request_key', sqlmodel.sql.sqltypes.AutoString(length=100), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_withdrawal_request_key'), ['request_key'])


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('withdrawal', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_withdrawal_request_key'), type_='unique')
        batch_op.drop_column('request_key')
