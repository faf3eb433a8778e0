"""The event stream (``GET /api/v1/events``): server-sent events read as they come, and the stream
opened again after a disconnect with ``Last-Event-ID`` (the id of the last event received), so
every committed version is yielded once, in order, whatever happens to the connection."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional

import httpx

from ._http import RETRIED, MdsError, retry_after


@dataclass
class Event:
    """One server-sent event: its ``id`` (the data version), its type and its data (a JSON text)."""

    id: Optional[str]
    event: str
    data: str


@dataclass
class SseParser:
    """Lines of an event stream to events (WHATWG HTML, "Server-sent events"): ``id``, ``event``,
    ``data`` (several lines joined by line breaks) and ``retry`` fields; comments are skipped."""

    retry_ms: Optional[int] = None
    _id: Optional[str] = None
    _event: str = ""
    _data: List[str] = field(default_factory=list)
    _any: bool = False

    def line(self, line: str) -> Optional[Event]:
        """Reads one line (without its line break); returns the event a blank line completes."""
        if line == "":
            if not self._any:
                return None
            done = Event(self._id, self._event or "message", "\n".join(self._data))
            self._id, self._event, self._data, self._any = None, "", [], False
            return done
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "id":
            self._id = value
        elif name == "event":
            self._event = value
        elif name == "data":
            self._data.append(value)
        elif name == "retry" and value.isdigit():
            self.retry_ms = int(value)
            return None
        else:
            return None
        self._any = True
        return None


@dataclass
class _Resume:
    """Where a stream resumes: the last event's id, and the wait the server asked for (``retry``)."""

    last: Optional[str] = None
    wait_ms: Optional[int] = None


def _records(response: httpx.Response, at: _Resume, done: Callable[[], bool]) -> Iterator[Dict[str, Any]]:
    """The records of one open stream's `version` events, until it ends or `done()`."""
    parser = SseParser()
    for line in response.iter_lines():
        e = parser.line(line.rstrip("\r\n"))  # httpx before 0.24 keeps each line's break
        at.wait_ms = parser.retry_ms if parser.retry_ms is not None else at.wait_ms
        if e is not None and e.event == "version":
            at.last = e.id if e.id is not None else at.last
            yield json.loads(e.data)
        elif e is not None and e.event == "dropped":
            # Too slow a reader: the versions after `after` are replayed on the next stream.
            at.last = str(json.loads(e.data)["after"])
        elif e is not None and e.event == "error":
            body = json.loads(e.data)
            if body.get("code") != "internal_error":
                raise MdsError(401, body.get("code"), body.get("detail", ""))
        if done():
            return


def events(
    http: httpx.Client,
    target: str,
    *,
    timeout: float,
    duration: Optional[float],
    retries: int,
    backoff: float,
    max_wait: float,
    sleep: Callable[[float], None],
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[Dict[str, Any]]:
    """The records of the `version` events of the stream at `target`, as they come. A stream that
    ends (the server closing, a worker gone, `event: dropped` for a reader too slow) or falls silent
    for `timeout` seconds is opened again with Last-Event-ID; a 429 or 503, or a connection that
    fails, is tried again after a wait, up to `retries` times in a row. A revoked key ends the
    iteration with an MdsError, and so does any other answer than 200. With `duration`, it stops
    once that many seconds have passed (a read waits at most what is left of them)."""
    end = None if duration is None else clock() + duration
    at = _Resume()
    failures = 0

    def left() -> float:
        return float("inf") if end is None else end - clock()

    while left() > 0:
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-store"}
        if at.last is not None:
            headers["Last-Event-ID"] = at.last
        asked: Optional[float] = None
        try:
            read = max(0.05, min(timeout, left()))
            with http.stream("GET", target, headers=headers, timeout=httpx.Timeout(timeout, read=read)) as response:
                if response.status_code == 200:
                    failures = 0
                    # Until it ends; then opened again after the server's `retry` wait, as EventSource does.
                    yield from _records(response, at, lambda: left() <= 0)
                else:
                    response.read()
                    asked = retry_after(response)
                    if response.status_code not in RETRIED or failures >= retries or (asked is not None and asked > max_wait):
                        raise MdsError.of(response)
                    failures += 1
        except httpx.ReadTimeout:
            continue  # silence: opened again at once (or the duration is over)
        except httpx.TransportError:
            if failures >= retries:
                raise
            failures += 1
        pause = asked if asked is not None else (at.wait_ms or 0) / 1000 + (backoff * 2 ** (failures - 1) if failures else 0)
        if left() <= pause:
            return
        sleep(min(pause, max_wait))
