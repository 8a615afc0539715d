"""pylti1p3 on FastAPI and the judge's store: a request of the login or the launch, its cookies,
the launch's state in SQLite (every nonce used once), the registrations read from the store,
and the launch's checks, with those the library leaves out (the id token's expiry and issue
time required, `azp` when the token names several audiences, its issuer and audience checked
by signature verification itself)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import jwt
import requests
from pylti1p3.cookie import CookieService
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException
from pylti1p3.launch_data_storage.base import LaunchDataStorage
from pylti1p3.message_launch import MessageLaunch
from pylti1p3.oidc_login import OIDCLogin
from pylti1p3.redirect import Redirect as PyltiRedirect
from pylti1p3.registration import Registration
from pylti1p3.request import Request
from pylti1p3.service_connector import ServiceConnector
from pylti1p3.session import SessionService
from pylti1p3.tool_config.abstract import ToolConfAbstract
from starlette.responses import Response

from judge.web.lti import keys
from judge.web.routes.auth import set_framed_cookie
from judge.web.state.lti import LtiRecords, Platform, ToolKey

NONCE_S = 600  # a login must become a launch within this
STATE_S = 600
LAUNCH_S = 3600  # a deep-linking launch's data, kept for the teacher's pick
PUBLIC_KEYS_S = 600  # a platform's JWKS, cached this long
LEEWAY_S = 60  # clocks of the LMS and the judge may differ this much
HTTP_TIMEOUT_S = 15.0
TOKEN_MARGIN_S = 60  # an access token is not used in its last minute
COOKIE_PREFIX = "lti1p3"


class Timed(requests.Session):
    """Every call to an LMS ends within HTTP_TIMEOUT_S: a platform that hangs delays one send."""

    def request(self, *args: Any, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", HTTP_TIMEOUT_S)
        return super().request(*args, **kwargs)


class Asked(Request):
    """The login's or the launch's request: its parameters (query or form), cookies and scheme."""

    def __init__(self, params: Mapping[str, str], cookies: Mapping[str, str], secure: bool) -> None:
        super().__init__()
        self.params = dict(params)
        self.cookies = dict(cookies)
        self.secure = secure

    @property
    def session(self) -> None:
        return None

    def get_param(self, key: str) -> str | None:  # type: ignore[override]
        return self.params.get(key)

    def get_cookie(self, key: str) -> str | None:
        return self.cookies.get(key)

    def is_secure(self) -> bool:
        return self.secure


class Cookies(CookieService):
    """The login's state cookie: SameSite=None, Secure and Partitioned where the judge is
    served securely, so that it comes back inside the LMS's frame; Lax otherwise."""

    def __init__(self, request: Asked) -> None:
        self.request = request
        self.to_set: dict[str, tuple[str, int]] = {}

    def get_cookie(self, name: str) -> str | None:
        return self.request.get_cookie(f"{COOKIE_PREFIX}-{name}")

    def set_cookie(self, name: str, value: str | int, exp: int | None = 3600) -> None:
        self.to_set[f"{COOKIE_PREFIX}-{name}"] = (str(value), exp or 3600)

    def apply(self, response: Response) -> Response:
        for key, (value, max_age) in self.to_set.items():
            if self.request.is_secure():
                set_framed_cookie(response, key, value, max_age)
            else:
                response.set_cookie(key, value, max_age=max_age, httponly=True, samesite="lax", path="/")
        return response


class Values(LaunchDataStorage[Any]):
    """pylti1p3's storage (the platforms' cached keys) as JSON values in the store."""

    def __init__(self, store: LtiRecords) -> None:
        super().__init__()
        self.store = store

    def can_set_keys_expiration(self) -> bool:
        return True

    def get_value(self, key: str) -> Any:
        found = self.store.lti_value(self._prepare_key(key))
        return json.loads(found) if found is not None else None

    def set_value(self, key: str, value: Any, exp: int | None = None) -> None:
        self.store.put_lti_value(self._prepare_key(key), json.dumps(value), exp or LAUNCH_S)

    def check_value(self, key: str) -> bool:
        return self.store.lti_value(self._prepare_key(key)) is not None


class LaunchState(SessionService):
    """A launch's state in the store. A nonce is taken as it is checked: a replayed launch
    (the same id token again) finds it gone."""

    def __init__(self, store: LtiRecords) -> None:
        self.store = store
        self.data_storage = Values(store)

    def save_nonce(self, nonce: str) -> None:
        self.store.put_lti_value(f"nonce:{nonce}", "1", NONCE_S)

    def check_nonce(self, nonce: str) -> bool:
        return self.store.take_lti_value(f"nonce:{nonce}") is not None

    def save_state_params(self, state: str, params: dict[str, object]) -> None:
        self.store.put_lti_value(f"state:{state}", json.dumps(params), STATE_S)

    def get_state_params(self, state: str) -> dict[str, object]:
        found = self.store.lti_value(f"state:{state}")
        loaded = json.loads(found) if found is not None else {}
        return loaded if isinstance(loaded, dict) else {}

    def save_launch_data(self, key: str, jwt_body: Mapping[str, Any]) -> None:
        self.store.put_lti_value(f"launch:{key}", json.dumps(dict(jwt_body)), LAUNCH_S)

    def get_launch_data(self, key: str) -> Mapping[str, Any]:
        found = self.store.lti_value(f"launch:{key}")
        loaded = json.loads(found) if found is not None else {}
        return loaded if isinstance(loaded, dict) else {}

    def set_state_valid(self, state: str, id_token_hash: str) -> None:
        self.store.put_lti_value(f"valid:{state}", id_token_hash, STATE_S)

    def check_state_is_valid(self, state: str, id_token_hash: str) -> bool:
        return self.store.lti_value(f"valid:{state}") == id_token_hash


class Signed(Registration):
    """A registration whose tool key is named by the judge's own key id (as the JWKS names it)."""

    def __init__(self, platform: Platform, key: ToolKey) -> None:
        super().__init__()
        self.kid = key.kid
        self.set_issuer(platform.issuer).set_client_id(platform.client_id).set_key_set_url(platform.keys_url)
        self.set_auth_login_url(platform.login_url).set_auth_token_url(platform.token_url)
        self.set_auth_audience(platform.audience or platform.token_url).set_tool_private_key(key.private_pem)

    def get_kid(self) -> str:
        return self.kid


class Connector(ServiceConnector):
    """Calls to an LMS's services; each access token is kept in the store until shortly before
    it expires, so one is asked for per scope and hour, not per call."""

    def __init__(self, store: LtiRecords, registration: Registration) -> None:
        super().__init__(registration, requests_session=Timed())
        self.store = store

    def _get_cached_access_token(self, scope_key: str) -> str | None:
        return self.store.lti_value(f"token:{scope_key}")

    def _cache_access_token(self, scope_key: str, access_token: str, expires_in: float) -> None:
        if expires_in > TOKEN_MARGIN_S:
            self.store.put_lti_value(f"token:{scope_key}", access_token, expires_in - TOKEN_MARGIN_S)


class ToolConfig(ToolConfAbstract[Asked]):
    """The registrations as the store has them (`judge lti add-platform`, Dynamic Registration)."""

    def __init__(self, store: LtiRecords) -> None:
        self.store = store

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def platform(self, iss: str, client_id: str | None) -> Platform | None:
        found = self.store.platforms(iss)
        if client_id:
            found = [p for p in found if p.client_id == client_id]
        return found[0] if len(found) == 1 else None

    def find_registration_by_issuer(self, iss: str, *args: Any, **kwargs: Any) -> Registration:
        return self.find_registration_by_params(iss, None)

    def find_registration_by_params(self, iss: str, client_id: str | None, *args: Any, **kwargs: Any) -> Registration:
        platform = self.platform(iss, client_id)
        if platform is None:
            client = f" and client id {client_id!r}" if client_id else ""
            raise LtiException(f"no LMS is registered here with issuer {iss!r}{client} (judge lti add-platform)")
        return Signed(platform, keys.signing_key(self.store))

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        return self.find_deployment_by_params(iss, deployment_id, None)

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str | None, *args: Any, **kwargs: Any
    ) -> Deployment | None:
        platform = self.platform(iss, client_id)
        if platform is None or deployment_id not in platform.deployments:
            return None
        return Deployment().set_deployment_id(deployment_id)

    def get_jwks(self, iss: str | None = None, client_id: str | None = None, **kwargs: Any) -> Any:
        return keys.published(self.store)


class Redirect(PyltiRedirect[None]):
    """Where the login sends the browser: only its URL is read (routes.py answers)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def do_redirect(self) -> None:
        return None

    def do_js_redirect(self) -> None:
        return None

    def set_redirect_url(self, location: str) -> None:
        self.url = location

    def get_redirect_url(self) -> str:
        return self.url


class ToolLogin(OIDCLogin[Asked, ToolConfig, LaunchState, Cookies, None]):
    """The third-party initiated login: the platform asks, the judge answers with a redirect
    to the platform's authorization endpoint, a state cookie and a nonce in the store."""

    def __init__(self, request: Asked, store: LtiRecords) -> None:
        self.cookies = Cookies(request)
        super().__init__(request, ToolConfig(store), session_service=LaunchState(store), cookie_service=self.cookies)

    def get_redirect(self, url: str) -> Redirect:
        return Redirect(url)


class ToolLaunch(MessageLaunch[Asked, ToolConfig, LaunchState, Cookies]):
    """A launch (the id token posted by the platform) and the library's checks of it."""

    def __init__(self, request: Asked, store: LtiRecords) -> None:
        self.asked = request
        self.cookies = Cookies(request)
        super().__init__(
            request,
            ToolConfig(store),
            session_service=LaunchState(store),
            cookie_service=self.cookies,
            requests_session=Timed(),
        )
        self.set_public_key_caching(Values(store), PUBLIC_KEYS_S)

    def _get_request_param(self, key: str) -> str:
        return self.asked.get_param(key) or ""


def check_claims(launch: ToolLaunch, id_token: str, platform: Platform) -> None:
    """What the library leaves out, after its checks passed: the signature verified again with
    the issuer and this tool among the audiences, an expiry and an issue time required (a
    token without `exp` would never expire), and `azp` when the token names several
    audiences. LtiException when one fails."""
    public_key, algorithm = launch.get_public_key()
    try:
        body = jwt.decode(
            id_token,
            public_key,
            algorithms=[algorithm],
            audience=platform.client_id,
            issuer=platform.issuer,
            leeway=LEEWAY_S,
            options={"require": ["exp", "iat", "iss", "aud", "sub"]},
        )
    except jwt.InvalidTokenError as err:
        raise LtiException(f"the id token is not valid: {err}") from None
    audiences = body.get("aud")
    azp = body.get("azp")
    several = isinstance(audiences, list) and len(audiences) > 1
    if (several or azp is not None) and azp != platform.client_id:
        raise LtiException("the id token's authorized party (azp) is not this tool")
