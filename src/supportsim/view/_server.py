"""The viewer's web server: aiohttp on loopback, pages from ``_pages``, files from the
package's ``static/`` folder (and the report's style sheet and script), nothing else.

Loopback only: run transcripts hold prompts, customer data and tool results, and the
viewer has no authentication, so it binds 127.0.0.1 (or another loopback address) and
refuses any other ``--host`` (:func:`check_host`). It also answers only requests whose
``Host`` names a loopback address, so a web page that rebinds its DNS name to 127.0.0.1
cannot read runs through the visitor's browser. Every page is sent with a
Content-Security-Policy allowing scripts, styles and connections from the viewer itself
only; the compare and trend pages are the report's self-contained pages, with their own.

Routes::

    GET /                          the runs (index)
    GET /runs/{run}                a run: summary, pass^k per scenario, unit table
    GET /runs/{run}/units/{unit}   a conversation
    GET /compare?run=A&run=B       the report's comparison of two runs (the later against
                                   the earlier, by start time); &customer=SPEC: under
                                   that Customer (required for a run of several)
    GET /trend?run=A&run=B...      the report's trend over the chosen runs
    GET /api/state[?run=NAME]      {"version": ...}: changes when the run(s) change
    GET /static/{file}             view.css, view.js, report.css, report.js
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable
from functools import cache
from importlib import resources
from pathlib import Path

from aiohttp import web

from supportsim.errors import InputError
from supportsim.report import (
    compare_runs,
    order_runs,
    render_comparison,
    render_trend_html,
    report_css,
    trend,
    under_customer,
)
from supportsim.view._pages import render_conversation, render_index, render_problem, render_run
from supportsim.view._reader import RunsFolder, Snapshot
from supportsim.view._units import UnitQuery

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
_TYPES = {".css": "text/css", ".js": "text/javascript"}
FOLDER: web.AppKey[RunsFolder] = web.AppKey("folder", RunsFolder)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, without port) is this machine's loopback."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def check_host(host: str) -> None:
    """Refuse to serve on anything but loopback.

    Raises:
        InputError: ``host`` is not a loopback address, with why and what to do instead.
    """
    if not is_loopback(host):
        raise InputError(
            f"--host {host}: the viewer serves only on loopback (127.0.0.1, ::1, localhost). "
            "It shows run transcripts (prompts, customer data, tool results) without any "
            "login, so it never listens on a network interface; to view runs on another "
            "machine, forward the port over SSH (ssh -L 8600:127.0.0.1:8600 host)"
        )


@cache
def _static(name: str) -> bytes | None:
    if name == "report.css":
        return report_css().encode("utf-8")
    if name == "report.js":
        files = resources.files("supportsim.report") / "templates" / "report.js"
        return files.read_bytes()
    if name not in ("view.css", "view.js"):
        return None
    return (resources.files("supportsim.view") / "static" / name).read_bytes()


def _page(text: str, status: int = 200, *, own_csp: bool = True) -> web.Response:
    headers = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
    if own_csp:
        headers["Content-Security-Policy"] = CSP
    return web.Response(text=text, status=status, content_type="text/html", headers=headers)


def _problem(title: str, message: str, status: int) -> web.Response:
    return _page(render_problem(title, message, status), status)


@web.middleware
async def _loopback_only(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    if not is_loopback(request.url.host or ""):
        return web.Response(status=403, text="supportsim view answers loopback hosts only")
    return await handler(request)


def _snapshot(request: web.Request, name: str) -> Snapshot | None:
    reader = request.app[FOLDER].reader(name)
    return reader.snapshot() if reader is not None else None


async def _index(request: web.Request) -> web.Response:
    folder = request.app[FOLDER]
    version = folder.version()
    return _page(render_index([r.glance() for r in folder.readers()], version))


async def _run(request: web.Request) -> web.Response:
    name = request.match_info["run"]
    snap = _snapshot(request, name)
    if snap is None:
        return _problem("No such run", f"{name}: no such run in this folder", 404)
    if snap.run is None:
        return _problem("Cannot read the run", snap.problem or name, 422)
    return _page(render_run(snap, UnitQuery.of(request.query), snap.version))


async def _unit(request: web.Request) -> web.Response:
    name, unit_id = request.match_info["run"], request.match_info["unit"]
    snap = _snapshot(request, name)
    if snap is None or snap.run is None:
        return _problem("No such run", f"{name}: no such run in this folder", 404)
    record = next((r for r in snap.records if r.unit_id == unit_id), None)
    if record is None:
        return _problem("No such unit", f"{unit_id}: no record of this unit in {name}", 404)
    return _page(render_conversation(snap, record))


def _chosen(request: web.Request) -> tuple[list[Snapshot], str | None]:
    """The runs ticked on the index (``run`` repeated), or why they cannot be used."""
    names = request.query.getall("run", [])
    snaps = []
    for name in names:
        snap = _snapshot(request, name)
        if snap is None or snap.run is None:
            return [], f"{name}: no such run in this folder (or it cannot be read)"
        snaps.append(snap)
    return snaps, None


async def _compare(request: web.Request) -> web.Response:
    snaps, problem = _chosen(request)
    if problem is None and len(snaps) != 2:
        problem = f"tick exactly two runs to compare ({len(snaps)} ticked)"
    if problem is not None:
        return _problem("Compare two runs", problem, 400)
    a, b = order_runs([s.run for s in snaps if s.run is not None])  # A: the earlier
    # As `supportsim compare`: a run of several Customers is compared under one
    # (?customer=SPEC) or refused, never pooled across Customers silently.
    customer = request.query.get("customer") or None
    try:
        a, b = under_customer(a, "A", customer), under_customer(b, "B", customer)
    except InputError as exc:
        return _problem("Compare two runs", str(exc), 400)
    compared = compare_runs(a, b, customer=customer)
    return _page(render_comparison(compared, back_href="/"), own_csp=False)


async def _trend(request: web.Request) -> web.Response:
    snaps, problem = _chosen(request)
    if problem is None and len(snaps) < 2:
        problem = f"tick two runs or more for a trend ({len(snaps)} ticked)"
    if problem is not None:
        return _problem("Trend", problem, 400)
    runs = [s.run for s in snaps if s.run is not None]
    return _page(render_trend_html(trend(runs), back_href="/"), own_csp=False)


async def _state(request: web.Request) -> web.Response:
    name = request.query.get("run")
    if name is None:
        version = request.app[FOLDER].version()
    else:
        reader = request.app[FOLDER].reader(name)
        if reader is None:
            return web.json_response({"error": f"{name}: no such run"}, status=404)
        version = reader.current_version()
    return web.json_response({"version": version}, headers={"Cache-Control": "no-store"})


async def _static_file(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    data = _static(name)
    if data is None:
        return web.Response(status=404, text="not found")
    kind = _TYPES[Path(name).suffix]
    return web.Response(
        body=data,
        content_type=kind,
        charset="utf-8",
        headers={"X-Content-Type-Options": "nosniff", "Cache-Control": "no-cache"},
    )


async def _no_icon(_request: web.Request) -> web.Response:
    return web.Response(status=204)  # no icon, and no 404 in the browser's console


def build_app(runs_dir: Path) -> web.Application:
    """The viewer's application over ``runs_dir`` (a folder of runs, or one run)."""
    app = web.Application(middlewares=[_loopback_only])
    app[FOLDER] = RunsFolder(runs_dir)
    app.router.add_get("/", _index)
    app.router.add_get("/runs/{run}", _run)
    app.router.add_get("/runs/{run}/units/{unit}", _unit)
    app.router.add_get("/compare", _compare)
    app.router.add_get("/trend", _trend)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/static/{name}", _static_file)
    app.router.add_get("/favicon.ico", _no_icon)
    return app


async def start_viewer(runs_dir: Path, host: str = "127.0.0.1", port: int = 0) -> web.AppRunner:
    """Start serving ``runs_dir`` in the running loop; the runner's ``addresses`` give the
    port. Stop it with ``await runner.cleanup()``.

    Raises:
        InputError: ``host`` is not loopback, ``runs_dir`` is not a folder, or the port
            cannot be bound.
    """
    check_host(host)
    host = host.strip().strip("[]")  # bind what was checked: '[::1]' is ::1
    _check_folder(runs_dir)
    runner = web.AppRunner(build_app(runs_dir), access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as exc:
        await runner.cleanup()
        raise InputError(
            f"--port {port}: cannot listen on {host}:{port} ({exc.strerror or exc}); "
            "pick another port, or 0 for any free one"
        ) from None
    return runner


def _check_folder(runs_dir: Path) -> None:
    if not runs_dir.is_dir():
        raise InputError(f"{runs_dir}: no such folder (give the folder your runs are in)")


def url_of(runner: web.AppRunner) -> str:
    host, port = runner.addresses[0][:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
