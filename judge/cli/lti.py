"""`judge lti`: the LMSs the web judge is an LTI 1.3 tool of (static registration, for an LMS
without Dynamic Registration), the tool's signing key, and the grades queued for the LMS."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import click
from rich.table import Table

from judge.cli.common import err, out
from judge.cli.web import data_option, open_store
from judge.errors import JudgeError

if TYPE_CHECKING:
    from judge.web.state.lti import LtiRecords

# Where the well-known LMSs keep their LTI 1.3 endpoints. Canvas Cloud's are the same for every
# school; Moodle's are below the site's address (the issuer).
PRESETS = {
    "canvas": {
        "issuer": "https://canvas.instructure.com",
        "login": "https://sso.canvaslms.com/api/lti/authorize_redirect",
        "token": "https://sso.canvaslms.com/login/oauth2/token",
        "keys": "https://sso.canvaslms.com/api/lti/security/jwks",
    },
    "moodle": {
        "login": "{issuer}/mod/lti/auth.php",
        "token": "{issuer}/mod/lti/token.php",
        "keys": "{issuer}/mod/lti/certs.php",
    },
}


@click.group()
def lti() -> None:
    """The web judge inside an LMS (LTI 1.3): platforms, the tool's key, grades sent (docs/lti.md)."""


def _url(name: str, value: str) -> str:
    """An endpoint's URL: https, or http on this machine (a test platform)."""
    parts = urlsplit(value)
    local = parts.hostname in ("localhost", "127.0.0.1", "::1")
    if (parts.scheme != "https" and not (parts.scheme == "http" and local)) or not parts.netloc:
        raise JudgeError(f"--{name} {value!r}: an https:// URL is needed (http only on this machine)")
    return value.rstrip("/") if name == "issuer" else value


@lti.command("add-platform")
@click.option("--lms", type=click.Choice(sorted(PRESETS)), help="Fill the endpoints in for this LMS.")
@click.option("--issuer", help="The platform's issuer (`iss`); for Moodle, the site's address.")
@click.option("--client-id", required=True, help="The client id the LMS gave the tool.")
@click.option("--deployment", "deployments", multiple=True, help="A deployment id the LMS gave (repeatable).")
@click.option("--login-url", help="The LMS's OIDC authorization endpoint.")
@click.option("--token-url", help="The LMS's OAuth 2 token endpoint (roster and grade services).")
@click.option("--keys-url", help="The LMS's public keys (JWKS URL).")
@click.option("--audience", default="", help="The token endpoint's audience, when it is not its URL.")
@click.option("--name", default="", help="A name for the teacher's pages [default: the issuer's host].")
@click.option(
    "--frame-origin",
    "frame_origins",
    multiple=True,
    help="An address whose pages frame the judge (Canvas: your school's).",
)
@data_option
def add_platform(
    lms: str | None,
    issuer: str | None,
    client_id: str,
    deployments: tuple[str, ...],
    login_url: str | None,
    token_url: str | None,
    keys_url: str | None,
    audience: str,
    name: str,
    frame_origins: tuple[str, ...],
    data_dir: Path,
) -> None:
    """Register an LMS (or update one: same issuer and client id)."""
    from judge.web.lti import claims
    from judge.web.state.lti import Platform

    preset = PRESETS.get(lms or "", {})
    issuer = issuer or preset.get("issuer")
    if not issuer:
        raise JudgeError("--issuer is needed (for Moodle, the site's address)")
    issuer = _url("issuer", issuer)
    found = {}
    for key, given in (("login", login_url), ("token", token_url), ("keys", keys_url)):
        value = given or preset.get(key, "").format(issuer=issuer)
        if not value:
            raise JudgeError(f"--{key}-url is needed (or --lms canvas|moodle)")
        found[key] = _url(f"{key}-url", value)
    if not deployments:
        raise JudgeError("--deployment is needed: the LMS shows the deployment id beside the client id")
    platform = Platform(
        issuer,
        client_id,
        name or urlsplit(issuer).netloc,
        found["login"],
        found["token"],
        found["keys"],
        audience,
        deployments,
    )
    store = _records(data_dir)
    store.add_platform(platform)
    for origin in (issuer, *(_url("frame-origin", o) for o in frame_origins)):
        store.note_frame_origin(claims.origin_of(origin))
    out.print(f"{platform.name}: registered ({issuer}, client {client_id}, deployments {', '.join(deployments)})")


@lti.command("platforms")
@data_option
def platforms(data_dir: Path) -> None:
    """The LMSs registered, and the LMS courses linked."""
    store = _records(data_dir)
    table = Table("name", "issuer", "client id", "deployments", box=None, pad_edge=False)
    for p in store.platforms():
        table.add_row(p.name, p.issuer, p.client_id, ", ".join(p.deployments))
    out.print(table)
    for course in store.lms_courses():
        out.print(f"linked: {course.title or course.context_id} ({course.issuer}, by {course.linked_by})")


@lti.command("remove-platform")
@click.option("--issuer", required=True)
@click.option("--client-id", required=True)
@data_option
def remove_platform(issuer: str, client_id: str, data_dir: Path) -> None:
    """Forget an LMS: its launches are refused from now on (its people and grades stay)."""
    if not _records(data_dir).remove_platform(issuer.rstrip("/"), client_id):
        raise JudgeError(f"no platform {issuer} with client id {client_id} in {data_dir}")
    out.print(f"{issuer} ({client_id}): removed")


@lti.command("rotate-key")
@data_option
def rotate_key(data_dir: Path) -> None:
    """A new signing key; the old one stays published for a week, for LMSs that cached it."""
    from judge.web.lti import keys

    made = keys.rotate(_records(data_dir))
    out.print(f"signing key {made.kid}: made; the previous one signs no more")


@lti.command("registration-url")
@click.option(
    "--url", "tool", required=True, help="The judge's address as the LMS reaches it (https://judge.school.edu)."
)
@data_option
def registration_url(tool: str, data_dir: Path) -> None:
    """A Dynamic Registration URL for an LMS's administrator (it works once, for a week)."""
    from judge.web.lti import registering

    click.echo(registering.new_url(_records(data_dir), _url("url", tool).rstrip("/")))


@lti.command("resend")
@data_option
def resend(data_dir: Path) -> None:
    """Queue every grade sent to an LMS again (`judge serve` sends them)."""
    count = _records(data_dir).resend()
    err.print(f"judge: {count} grade(s) queued for the LMS")


def _records(data_dir: Path) -> LtiRecords:
    """LTI's records on the web judge's store (the web's modules load only when asked for)."""
    from judge.web.state.lti import LtiRecords

    return LtiRecords(open_store(data_dir))
