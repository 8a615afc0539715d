"""uvicorn's HTTP/1.1 protocol with a deadline on reading each request.

uvicorn closes an idle keep-alive connection, but a client that opens a connection and then
sends half a request line, or a header a minute, holds it (and its buffers) for ever: the
slow-loris attack. Here every request must arrive whole, headers and body, within
REQUEST_READ_S of the first byte of it (or of the connection); a late one is dropped.
"""

from __future__ import annotations

import asyncio

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_READ_S = 20.0  # a 130 KiB submission needs 6.5 KB/s: any classroom network


class DeadlineH11Protocol(H11Protocol):
    read_deadline_s = REQUEST_READ_S
    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self._reading():
            self._arm()  # the first byte of a new request on a kept-alive connection
        super().data_received(data)
        if not self._reading():
            self._disarm()  # the whole request is in: the app's time is not limited here

    def _reading(self) -> bool:
        return self.conn.their_state in (h11.IDLE, h11.SEND_BODY)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.read_deadline_s, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self._reading() and not self.transport.is_closing():
            self.logger.info("dropped a connection that did not send its request within %g s", self.read_deadline_s)
            self.transport.close()
