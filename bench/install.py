"""The install page, end to end on loopback: a guest's ``pip install`` from a host's index.

A host's install page (``net.install.service``: this platform's wheels made from what is
installed, cached) serves on 127.0.0.1; a fresh virtual environment (no pip cache, no other
index, no pip configuration) runs ``pip install --index-url http://127.0.0.1:PORT/simple/
lantern-table``.  The figures: the seconds from starting pip to its end (wall clock: it is
mostly unpacking and writing files), the CPU seconds pip used, and the megabytes the page
sent.  Making the wheels (first time: seconds; then cached) is not part of it.

``python -m bench.install`` (or ``lantern bench --only install``) prints them.
"""

from __future__ import annotations

import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import venv
from pathlib import Path
from typing import Any

FIGURES: dict[str, str] = {
    "install.pip_seconds": "s wall clock: pip install of lantern-table from the install page "
    "into a fresh venv (127.0.0.1, no cache)",
    "install.pip_cpu_seconds": "s CPU time of that pip process",
    "install.megabytes_served": "MB the install page sent for it",
    "install.files_served": "files the install page sent for it",
}


def _serve(ready: threading.Event, box: dict[str, Any], stop: threading.Event) -> None:
    from net.install import service

    async def main() -> None:
        page = await service.start(None, "127.0.0.1", 0, 7777, [])
        box["page"] = page
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.05)
        await page.stop()

    asyncio.run(main())


def run(quick: bool = False) -> dict[str, float]:
    ready, stop = threading.Event(), threading.Event()
    box: dict[str, Any] = {}
    thread = threading.Thread(target=_serve, args=(ready, box, stop), daemon=True)
    thread.start()
    if not ready.wait(600):
        raise RuntimeError("the install page did not start")
    page = box["page"]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            venv.EnvBuilder(with_pip=True).create(folder / "venv")
            python = folder / "venv" / ("Scripts" if sys.platform == "win32" else "bin") / "python"
            env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
            env.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1")
            before_bytes = page.server.stats.bytes_sent
            before_files = page.server.stats.files_sent
            cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run(
                [str(python), "-m", "pip", "install", "--quiet", "--no-cache-dir",
                 "--index-url", f"http://127.0.0.1:{page.port}/simple/", "lantern-table"],
                check=True, env=env, cwd=folder,
            )  # fmt: skip
            seconds = time.perf_counter() - started
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        stop.set()
        thread.join(10)
    return {
        "install.pip_seconds": round(seconds, 2),
        "install.pip_cpu_seconds": round(
            after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime, 2
        ),
        "install.megabytes_served": round((page.server.stats.bytes_sent - before_bytes) / 1e6, 1),
        "install.files_served": float(page.server.stats.files_sent - before_files),
    }


if __name__ == "__main__":
    for name, value in run().items():
        print(f"{name:<28} {value:>8}  {FIGURES[name]}")
