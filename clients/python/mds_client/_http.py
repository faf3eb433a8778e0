"""Requests with retries, the API's errors, and the on-disk cache keyed by the data version."""

from __future__ import annotations

import email.utils
import hashlib
import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Optional

import httpx

#: Statuses worth asking again after a wait: too many requests, and the store (or a worker) unavailable.
RETRIED = (429, 503)


class MdsError(Exception):
    """An answer other than 200 (or 304): the API's ErrorResponse, or what the server said instead."""

    def __init__(
        self,
        status: int,
        code: Optional[str],
        detail: str,
        *,
        title: Optional[str] = None,
        parameter: Optional[str] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(f"{status} {code or 'error'}: {detail}")
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.parameter = parameter
        self.request_id = request_id
        self.retry_after = retry_after

    @classmethod
    def of(cls, response: httpx.Response) -> "MdsError":
        """The error a response says (the first of `errors`, else its text)."""
        try:
            body = response.json()
            first = body["errors"][0]
            return cls(
                response.status_code,
                first.get("code"),
                first.get("detail") or first.get("title") or "",
                title=first.get("title"),
                parameter=(first.get("source") or {}).get("parameter"),
                request_id=(body.get("meta") or {}).get("request_id"),
                retry_after=retry_after(response),
            )
        except (ValueError, KeyError, IndexError, TypeError, AttributeError):
            return cls(response.status_code, None, response.text[:500], retry_after=retry_after(response))


def retry_after(response: httpx.Response) -> Optional[float]:
    """Retry-After in seconds (RFC 9110: a number of seconds or an HTTP date), or None."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, float(when.timestamp() - time.time()))


class Session:
    """GETs that wait and try again on 429 and 503 (Retry-After when the server gives one, else
    exponential backoff) and on connection failures, up to `retries` more times."""

    def __init__(
        self,
        http: httpx.Client,
        *,
        retries: int,
        backoff: float,
        max_wait: float,
        sleep: Callable[[float], None],
    ) -> None:
        self.http = http
        self.retries = retries
        self.backoff = backoff
        self.max_wait = max_wait
        self.sleep = sleep
        #: HTTP requests sent, retries included.
        self.sent = 0

    def get(self, url: str, headers: Dict[str, str]) -> httpx.Response:
        attempt = 0
        while True:
            try:
                self.sent += 1
                response = self.http.get(url, headers=headers)
            except httpx.TransportError:
                if attempt >= self.retries:
                    raise
                wait = self.backoff * 2**attempt
            else:
                if response.status_code not in RETRIED or attempt >= self.retries:
                    return response
                asked = retry_after(response)
                if asked is not None and asked > self.max_wait:
                    raise MdsError.of(response)
                wait = asked if asked is not None else self.backoff * 2**attempt
            self.sleep(min(wait, self.max_wait))
            attempt += 1


@dataclass
class Stored:
    """A page as it was answered: its media type, its next page (the `Link` of a file), its bytes."""

    content_type: str
    link: Optional[str]
    body: bytes


class DiskCache:
    """Pages on disk by server, data version and request target (Accept included). A data version
    names the whole store's content, so a page stored under it is what the server answers for that
    target for as long as the version is the latest: no expiry is needed, and a new version is a
    new directory (older ones of the server are removed when it appears)."""

    def __init__(self, directory: Path, base_url: str) -> None:
        self.root = Path(directory).expanduser() / _digest(base_url)[:16]

    def _file(self, version: int, target: str, accept: str) -> Path:
        return self.root / str(version) / f"{_digest(accept + ' ' + target)}.page"

    def get(self, version: int, target: str, accept: str) -> Optional[Stored]:
        try:
            raw = self._file(version, target, accept).read_bytes()
        except OSError:
            return None
        head, _, body = raw.partition(b"\n")
        meta: Dict[str, Any] = json.loads(head)
        return Stored(meta["content_type"], meta.get("link"), body)

    def put(self, version: int, target: str, accept: str, page: Stored) -> None:
        file = self._file(version, target, accept)
        if not file.parent.exists():
            self._drop_older(version)
            file.parent.mkdir(parents=True, exist_ok=True)
        head = json.dumps({"content_type": page.content_type, "link": page.link}).encode()
        part = file.with_suffix(".part")
        part.write_bytes(head + b"\n" + page.body)
        part.replace(file)

    def _drop_older(self, version: int) -> None:
        if not self.root.exists():
            return
        for d in self.root.iterdir():
            if d.is_dir() and d.name.isdigit() and int(d.name) < version:
                shutil.rmtree(d, ignore_errors=True)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
