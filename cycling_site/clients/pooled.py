"""One long-lived client per outside service, so calls reuse its connections instead of opening new ones.

A client belongs to the event loop it was made on (its connections do) and to the address it was made for:
a call from another loop (tests start one per test) or after the address changed gets a new client.
`close_all` closes them when the site stops.
"""

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

C = TypeVar("C")

_pools: list["PerLoop"] = []


class PerLoop(Generic[C]):
    """`make()` once per running event loop and `target()`; `close(client)` when the site stops."""

    def __init__(
        self, make: Callable[[], C], close: Callable[[C], Awaitable[None]], target: Callable[[], Hashable]
    ):
        self._make = make
        self._close = close
        self._target = target
        self._made: tuple[asyncio.AbstractEventLoop, Hashable, C] | None = None
        _pools.append(self)

    def get(self) -> C:
        loop, target = asyncio.get_running_loop(), self._target()
        if self._made is None or self._made[:2] != (loop, target):
            self._made = (loop, target, self._make())
        return self._made[2]

    async def close(self) -> None:
        made, self._made = self._made, None
        if made is not None and made[0] is asyncio.get_running_loop():
            await self._close(made[2])


async def close_all() -> None:
    for pool in _pools:
        await pool.close()
