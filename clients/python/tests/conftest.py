"""A live server for the tests: a small demo store (20 equities, 2025-11-03..2026-11-20) in a
temporary SQLite file, an API key, and ``node dist/app/server.js`` on a free port, as a user runs it.

Needs Node.js and the repository's node_modules (``npm ci``); dist/ is built when missing or stale.
Without Node the live tests skip, saying so (the retry tests do not need it).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

import httpx
import pytest

REPO = Path(__file__).resolve().parents[3]
FIRST, LAST = "2025-11-03", "2026-11-20"


@dataclass
class Server:
    url: str
    key: str
    store: Path
    repo: Path

    def mds(self, *args: str) -> str:
        """Runs ``mds --database STORE ARGS`` (the CLI) and returns what it printed."""
        return _node("dist/cli/index.js", "--database", str(self.store), *args)


def _node(*args: str) -> str:
    done = subprocess.run(["node", *args], cwd=REPO, capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"node {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if shutil.which("node") is None or not (REPO / "node_modules").exists():
        pytest.skip("the live tests need Node.js and the repository's node_modules (npm ci)")
    _node("scripts/build.mjs", "--if-changed")
    store = tmp_path_factory.mktemp("mds") / "store.sqlite"
    _node("dist/cli/index.js", "--database", str(store), "demo", "--equities", "20", "--start", FIRST, "--end", LAST,
          "--minute-days", "0", "--tick-days", "0")  # fmt: skip
    port = _free_port()
    env = {**os.environ, "DATABASE_URL": str(store), "HOST": "127.0.0.1", "PORT": str(port), "DEMO": "0", "LOG_LEVEL": "warn"}
    child = subprocess.Popen(["node", "dist/app/server.js"], cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        # While the server starts: a key (the server reads keys from the store when they are used).
        key = _node("dist/cli/index.js", "--database", str(store), "keys", "create", "--name", "pytest").strip().splitlines()[-1]
        deadline = time.monotonic() + 60
        while True:
            if child.poll() is not None:
                raise RuntimeError(f"the server exited {child.returncode}: {child.stderr.read().decode()[-2000:]}")  # type: ignore[union-attr]
            try:
                if httpx.get(f"{url}/api/v1/system/readiness", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not get ready within 60 s")
            time.sleep(0.1)
        yield Server(url, key, store, REPO)
    finally:
        child.kill()
        child.wait(10)


@pytest.fixture
def api(server: Server) -> Iterator[httpx.Client]:
    """Plain HTTP to the server with the key: what the client's answers are checked against."""
    with httpx.Client(base_url=server.url, headers={"X-API-Key": server.key}) as c:
        yield c


def everything(api: httpx.Client, path: str, **query: Any) -> List[Dict[str, Any]]:
    """Every record of a collection, walked by hand with the largest pages."""
    rows: List[Dict[str, Any]] = []
    url = path
    params: Dict[str, Any] = {**query, "page[size]": 1000}
    while url:
        response = api.get(url, params=params)
        response.raise_for_status()
        body = response.json()
        rows += body["data"]
        url, params = body["links"]["next"], {}
    return rows


#: A scripted answer: status, headers, body (a dict is sent as JSON, Data-Version 7; a str as it is).
Answer = Tuple[int, Dict[str, str], Union[dict, str]]


class Stub:
    """An HTTP server on 127.0.0.1 answering each GET with the next scripted answer, the last one
    ever after, and closing the connection; it records each request's path, key and Last-Event-ID."""

    def __init__(self, answers: List[Answer]) -> None:
        self.answers = answers
        self.seen: List[str] = []
        self.keys: List[str] = []
        self.last_ids: List[Optional[str]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                stub.seen.append(self.path)
                stub.keys.append(self.headers.get("X-API-Key", ""))
                stub.last_ids.append(self.headers.get("Last-Event-ID"))
                status, headers, body = stub.answers[min(len(stub.seen), len(stub.answers)) - 1]
                if isinstance(body, dict):
                    data = json.dumps(body).encode()
                    headers = {"Content-Type": "application/json", "Data-Version": "7", **headers}
                else:
                    data = body.encode()
                self.send_response(status)
                for k, v in {**headers, "Content-Length": str(len(data)), "Connection": "close"}.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()


@pytest.fixture
def stub() -> Iterator[Stub]:
    s = Stub([])
    yield s
    s.server.shutdown()
