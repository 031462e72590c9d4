"""The variables Claude Code 2.1.328 keeps from its hooks, as its build decides (the lists
and patterns below are copied from it; pinned by tests/agents/claude cases
``pre-http-headers-*`` and ``pre-env-own-credentials``).

* A command hook's environment never holds the agent's own credentials and internal
  variables (``NEVER_IN_SUBPROCESSES``, ``OTEL_*`` and the like: ``_agent_internal``),
  and with ``CLAUDE_CODE_SUBPROCESS_ENV_SCRUB`` on, no variable named like a credential
  (``_scrubbed``): ``hook_environment``. The agent adds its own hook variables
  (``GIVEN_TO_HOOKS``) after that, so those are kept.
* An http hook's header never interpolates the agent's own credentials (``ALWAYS_BLANK``)
  nor, unless a managed settings file lists the name in ``httpHookAllowedEnvVars``, a
  name the agent keeps from every remote sink (``_remote_sink``): ``withheld_from_header``.

Not reproduced (said in docs/compatibility.md): the scrub's checks of values (a URL or a
command line holding a credential under a harmless name), its bubblewrap isolation, and
the lists that depend on how the agent itself is signed in or hosted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache

SCRUB_VARIABLE = "CLAUDE_CODE_SUBPROCESS_ENV_SCRUB"

_OWN_CREDENTIALS = (  # S1e
    "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_SESSIONS_OAUTH_TOKEN",
    "CLAUDE_CODE_OAUTH_TOKEN_FILE_DESCRIPTOR", "CLAUDE_CODE_GATEWAY_TOKEN_FILE_DESCRIPTOR",
    "CLAUDE_CODE_API_KEY_FILE_DESCRIPTOR", "CLAUDE_CODE_WEBSOCKET_AUTH_FILE_DESCRIPTOR",
    "CCR_AGENT_PROXY_TOKEN_FILE_DESCRIPTOR", "CLAUDE_CODE_ARTIFACTS_API_TOKEN",
    "CLAUDE_CODE_SLACK_TAG_TOKEN", "CLAUDE_CODE_HFI_BEARER_TOKEN", "CLAUDE_BRIDGE_OAUTH_TOKEN",
    "CLAUDE_TRUSTED_DEVICE_TOKEN", "AGENT_PROXY_AUTH_TOKEN", "CLAUDE_CODE_MCP_SERVE_AUTH_TOKEN",
    "CLAUDE_BG_AUTH_SNAPSHOT_PATH", "CLAUDE_BG_SOCKET_TOKENS_PATH", "CLAUDE_BG_RV_AUTH",
    "CLAUDE_BG_PTY_AUTH", "CLAUDE_BG_CLAIM_AUTH",
)  # fmt: skip
_HOST_SECRETS = (  # dyo: never in a header; a command hook keeps them
    "CLAUDE_CODE_OAUTH_REFRESH_TOKEN", "CLAUDE_SESSION_INGRESS_TOKEN_FILE",
    "CLAUDE_CODE_HOST_CREDS_FILE", "CLAUDE_CODE_MESSAGING_TOKEN", "MCP_CLIENT_SECRET",
    "MCP_XAA_IDP_CLIENT_SECRET", "ENVIRONMENT_SERVICE_KEY", "SELF_HOSTED_RUNNER_POOL_SECRET",
    "SELF_HOSTED_RUNNER_ENVIRONMENT_SECRET",
)  # fmt: skip
_AGENT_SETTINGS = (  # the rest of ESt() and V$t: the agent's own settings and internals
    "CLAUDE_CODE_SUBSCRIPTION_TYPE", "CLAUDE_CODE_RATE_LIMIT_TIER",
    "CLAUDE_CODE_PLUGIN_ATTRIBUTION", "CLAUDE_CODE_SKILL_ATTRIBUTION",
    "CLAUDE_CODE_BRIDGE_CHILD_AUTO_DEFAULT", "CLAUDE_CODE_BRIDGE_CHILD_ARTIFACT",
    "CLAUDE_CODE_BRIDGE_CHILD_MACHINE_SETTINGS", "CLAUDE_CODE_BRIDGE_CHILD_PROJECTS_ENTRYPOINT",
    "CLAUDE_CODE_BRIDGE_CHILD_CLI_ENTRYPOINT", "CLAUDE_CODE_BRIDGE_CHILD_START_DIR",
    "CLAUDE_CODE_CONFIG_PROBE", "CLAUDE_CODE_HOST_PROMPT_SUPERSEDES_RECORD",
    "CLAUDE_CODE_MCP_SERVE_SETTINGS", "CLAUDE_CODE_MCP_SERVE_ENABLED_PLUGINS",
    "CLAUDE_CODE_MCP_SERVE_MACHINE_PLUGINS", "CLAUDE_CODE_REMOTE_TOOLS_FORWARD",
    "CLAUDE_CODE_REMOTE_TOOLS_DESKTOP_APP_HOST", "CLAUDE_CODE_MCP_SERVE_WORKSPACE_ROOT",
    "CLAUDE_CODE_SESSION_KIND", "CLAUDE_BG_SOURCE", "CLAUDE_BG_DISPATCH_ENTRYPOINT",
    "CLAUDE_BG_ISOLATION", "CLAUDE_BG_BACKEND", "CLAUDE_CODE_SESSION_NAME",
    "CLAUDE_CODE_RESUME_INTERRUPTED_TURN", "CLAUDE_CODE_RESUME_INTERRUPTED_TURN_MAX_AGE_MS",
    "CLAUDE_CODE_RESUME_PROMPT", "CLAUDE_CODE_RESUME_SHOWS_CUT_OFF_CALLS",
    "CLAUDE_CODE_RESUME_REASON", "CLAUDE_CODE_RESUME_SOURCE_ALIVE",
    "CLAUDE_CODE_SESSION_BEGAN_AS_COPY", "CLAUDE_CODE_DISABLE_DEFERRED_TOOL_RESUME",
    "CLAUDE_BG_POST_CLEAR_RESPAWN", "CLAUDE_BG_SESSION_PERMISSION_RULES",
    "CLAUDE_BG_MEMORY_TOGGLED_OFF", "CLAUDE_BG_AUTO_MEMORY_OFF", "CLAUDE_BG_GATEWAY_ROUTED",
    "CLAUDE_BG_WORKSPACE_TRUSTED", "CLAUDE_BG_CARRIED_PROMPTS_SHA256",
    "CLAUDE_BG_GATEWAY_WITHHELD", "CLAUDE_BG_SESSION_CREDENTIAL",
    "CLAUDE_CODE_RELAUNCH_HOME_TRUST", "CLAUDE_CODE_RELAUNCH_SANDBOX_HOLD",
    "CLAUDE_CODE_RELAUNCH_RESUME_HINT_FLAGS", "CLAUDE_CODE_RESUME_HINT_COMMAND",
    "CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS", "CLAUDE_CODE_CHILD_NOTES_DIR",
    "CLAUDE_BG_DISPATCHER_SUBSCRIPTION_TYPE", "CLAUDE_BG_DISPATCHER_RATE_LIMIT_TIER",
)  # fmt: skip
_CHILD_SETTINGS = (  # the rest of oi()'s list: not in a subprocess, a header may hold them
    "CLAUDE_CODE_QUESTION_EXTENDED", "CLAUDE_CODE_QUESTION_OPTIONAL_DESCRIPTIONS",
    "CLAUDE_CODE_AGENT_PROGRESS_SUMMARIES", "CLAUDE_CODE_SDK_HAS_OAUTH_REFRESH",
    "CLAUDE_CODE_SDK_HAS_SESSIONS_OAUTH_REFRESH", "CLAUDE_CODE_HOST_AUTH_ASK_AT_START",
    "CLAUDE_CODE_SDK_READS_SESSION_STATE", "CLAUDE_CODE_SDK_READS_STARTUP_MARKS",
    "CLAUDE_CODE_REMOTE_TOOLS_PIN_STORED_LOGIN", "CLAUDE_CODE_REMOTE_TOOLS_HOST_ALLOWS_UNATTENDED",
    "CLAUDE_CODE_REMOTE_TOOLS_HOST_IDLE_RELEASE_MINUTES", "CLAUDE_CODE_MCP_STARTUP_WAIT_MS",
    "CLAUDE_CODE_OVERLOADED_RETRY_MAX_WAIT_MS", "CLAUDE_CODE_SPARE_DEFER_ALL_MCP",
    "CLAUDE_CODE_REMOTE_MCP_CONFIG", "CLAUDE_CODE_REPLY_GATE_POLICY", "CLAUDE_CODE_MCP_APPS_HOST",
    "CLAUDE_CODE_MCP_APPS_NO_TOOL_ROUTE", "CLAUDE_CODE_NOTIFICATIONS_HOST",
    "CLAUDE_CODE_UPFRONT_TOOLS", "CLAUDE_CODE_ATTACHMENTS_BY_PATH",
    "CLAUDE_CODE_PROGRAM_USE_CASE_ID", "CLAUDE_CODE_SLEEP_COMPACT",
    "CLAUDE_CODE_SLEEP_COMPACT_AFTER_MS", "CLAUDE_CODE_RESUME_SESSIONSTART_HOOKS_WAIT_MS",
    "CLAUDE_CODE_ARTIFACT_SHARE", "CLAUDE_CODE_ARTIFACT_VERSIONS",
    "CLAUDE_CODE_HOST_GUARDS_ARTIFACTS_MCP", "CLAUDE_CODE_HOST_ARTIFACT_TYPE_COMMANDS",
    "CLAUDE_CODE_AUTOUPDATER_DISABLED_BY_HOST", "CLAUDE_CODE_SDK_MCP_TOOL_IDLE_TIMEOUT",
    "CLAUDE_CODE_WARN_DISK_FREE_GIB", "CLAUDE_CODE_WARN_MEMORY_FREE_GIB",
    "CCR_BYOC_RESOURCE_WATCHDOG_TELEMETRY", "CLAUDE_CHROME_TAB_GROUP_KEY",
    "CLAUDE_CODE_EVEN_MORE_DANGEROUSLY_SKIP_PERMISSIONS",
)  # fmt: skip
_THIRD_PARTY = (  # $t: credentials of other services the agent keeps from remote sinks
    "ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "CLAUDE_CODE_SESSIONS_OAUTH_TOKEN",
    "CLAUDE_CODE_RUNNER_MODEL_SOCKET", "CLAUDE_CODE_ARTIFACTS_API_TOKEN",
    "CLAUDE_CODE_MEMORY_API_TOKEN", "CLAUDE_CODE_SLACK_TAG_TOKEN", "ANTHROPIC_AUTH_TOKEN",
    "ANTHROPIC_FOUNDRY_API_KEY", "ANTHROPIC_FOUNDRY_AUTH_TOKEN", "ANTHROPIC_AWS_API_KEY",
    "ANTHROPIC_CUSTOM_HEADERS", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK", "GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_GHA_CREDS_PATH",
    "AZURE_CLIENT_SECRET", "IDENTITY_HEADER", "MSI_SECRET", "AZURE_CLIENT_CERTIFICATE_PATH",
    "AZURE_CLIENT_CERTIFICATE_PASSWORD", "AZURE_PASSWORD", "AZURE_FEDERATED_TOKEN_FILE",
    "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_CONTAINER_AUTHORIZATION_TOKEN",
    "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", "CLOUDSDK_AUTH_ACCESS_TOKEN",
    "GOOGLE_OAUTH_ACCESS_TOKEN", "CLAUDE_CODE_OAUTH_REFRESH_TOKEN", "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN", "HUGGINGFACEHUB_API_TOKEN", "NODE_AUTH_TOKEN", "NUGET_AUTH_TOKEN",
    "CARGO_REGISTRY_TOKEN", "TWINE_PASSWORD", "TWINE_USERNAME", "PYPI_TOKEN", "PYPI_API_TOKEN",
    "UV_PUBLISH_TOKEN", "UV_PUBLISH_PASSWORD", "UV_PUBLISH_USERNAME", "FLIT_PASSWORD",
    "FLIT_USERNAME", "HATCH_INDEX_AUTH", "HATCH_INDEX_USER", "GEM_HOST_API_KEY",
    "MATURIN_PYPI_TOKEN", "MATURIN_PASSWORD", "MATURIN_USERNAME", "CONAN_LOGIN_USERNAME",
    "CONAN_PASSWORD", "ANACONDA_API_TOKEN", "BINSTAR_API_TOKEN", "VAULT_TOKEN",
    "VAULT_AUTH_TOKEN", "VAULT_ROLE_ID", "VAULT_SECRET_ID", "CONSUL_HTTP_TOKEN",
    "CONSUL_HTTP_AUTH", "NOMAD_TOKEN", "NOMAD_HTTP_AUTH", "CI_REGISTRY_USER", "CI_DEPLOY_USER",
    "JF_USER", "FASTLANE_SESSION", "MATCH_GIT_BASIC_AUTHORIZATION", "SONAR_TOKEN",
    "SONARQUBE_SCANNER_PARAMS", "SONAR_SCANNER_JSON_PARAMS", "SLACK_WEBHOOK_URL",
    "SLACK_WEBHOOK", "DISCORD_WEBHOOK", "DISCORD_WEBHOOK_URL", "TEAMS_WEBHOOK_URL",
    "MS_TEAMS_WEBHOOK_URI", "ANTHROPIC_IDENTITY_TOKEN", "ANTHROPIC_IDENTITY_TOKEN_FILE",
    "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE", "CLOUDSDK_AUTH_AUTHORIZATION_TOKEN_FILE",
    "AZURE_AUTH_LOCATION", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL",
    "ACTIONS_RUNTIME_TOKEN", "ACTIONS_RUNTIME_URL", "ALL_INPUTS",
    "VSS_NUGET_EXTERNAL_FEED_ENDPOINTS", "ARTIFACTS_CREDENTIALPROVIDER_EXTERNAL_FEED_ENDPOINTS",
    "VSS_NUGET_ACCESSTOKEN", "ARTIFACTS_CREDENTIALPROVIDER_ACCESSTOKEN", "COMPOSER_AUTH",
    "OVERRIDE_GITHUB_TOKEN", "DEFAULT_WORKFLOW_TOKEN", "SSH_SIGNING_KEY",
)  # fmt: skip
_HEADER_PASSES = frozenset(  # Gkr: in $t, yet a header may carry them
    {"GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN", "HF_TOKEN", "HUGGING_FACE_HUB_TOKEN",
     "HUGGINGFACEHUB_API_TOKEN"}
)  # fmt: skip
_REMOTE_ONLY = (  # jkr: kept from headers, not from a command's environment
    "AWS_CONTAINER_AUTHORIZATION_TOKEN", "ANTHROPIC_IDENTITY_TOKEN",
    "CLOUDSDK_AUTH_ACCESS_TOKEN", "GOOGLE_OAUTH_ACCESS_TOKEN",
    "AZURE_CLIENT_CERTIFICATE_PASSWORD", "AZURE_PASSWORD", "CLAUDE_CODE_CLIENT_KEY_PASSPHRASE",
    "CLAUDE_CODE_CLIENT_KEY", "CLAUDE_CODE_CLIENT_CERT", "HTTPS_PROXY", "HTTP_PROXY",
    "ALL_PROXY", "CARGO_REGISTRY_TOKEN", "NPM_TOKEN", "CODEARTIFACT_AUTH_TOKEN", "PIP_INDEX_URL",
    "PIP_EXTRA_INDEX_URL", "UV_INDEX_URL", "UV_EXTRA_INDEX_URL", "UV_DEFAULT_INDEX", "UV_INDEX",
    "GOPROXY", "GOAUTH", "PYPI_TOKEN", "TWINE_PASSWORD",
)  # fmt: skip
_CONFIG_PLACES = (  # xt: files and folders that hold credentials (scrubbed)
    "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "CLOUDSDK_CONFIG", "AZURE_CONFIG_DIR",
    "KUBECONFIG", "NETRC", "PGPASSFILE", "PGSERVICEFILE", "DOCKER_CONFIG", "GH_CONFIG_DIR",
    "GNUPGHOME", "NPM_CONFIG_USERCONFIG", "NPM_CONFIG_GLOBALCONFIG", "SSH_AUTH_SOCK",
    "GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS", "SSH_AGENT_PID",
    "TF_CLI_CONFIG_FILE", "WGETRC", "PIP_CONFIG_FILE", "UV_CONFIG_FILE", "RCLONE_CONFIG",
    "BOTO_CONFIG", "BOTO_PATH", "S3CMD_CONFIG", "SOPS_AGE_KEY_FILE",
    "ANSIBLE_VAULT_PASSWORD_FILE", "ANSIBLE_VAULT_IDENTITY_LIST", "ANSIBLE_CONFIG", "GOAUTH",
    "SBT_CREDENTIALS", "COURSIER_CREDENTIALS", "CONSUL_HTTP_TOKEN_FILE", "SYSTEM_WGETRC",
    "CLOUDSDK_ROOT_DIR", "M2_HOME", "MAVEN_HOME", "LEIN_HOME", "SSLKEYLOGFILE",
    "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS",
    "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
    "HELM_REGISTRY_CONFIG", "HELM_REPOSITORY_CONFIG", "HELM_CONFIG_HOME", "REGISTRY_AUTH_FILE",
    "DOCKER_CERT_PATH", "SSL_CLIENT_CERT", "GIT_SSL_CERT", "GIT_SSL_KEY", "PIP_CLIENT_CERT",
    "PGSSLKEY", "VAULT_CLIENT_KEY", "VAULT_CLIENT_CERT", "CONSUL_CLIENT_KEY",
    "CONSUL_CLIENT_CERT", "NOMAD_CLIENT_KEY", "NOMAD_CLIENT_CERT", "PGSSLCERT", "PGSYSCONFDIR",
    "CURL_HOME", "CARGO_HOME", "COMPOSER_HOME", "GRADLE_USER_HOME", "BUNDLE_CONFIG",
    "BUNDLE_USER_CONFIG", "BUNDLE_USER_HOME", "BUNDLE_APP_CONFIG", "POETRY_CONFIG_DIR",
    "COURSIER_CONFIG_DIR", "HEX_HOME", "HF_HOME", "HF_TOKEN_PATH", "HF_STORED_TOKENS_PATH",
    "CONDARC", "BUN_CONFIG_FILE", "GOENV", "NPM_CONFIG_PREFIX",
    "CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE", "CLAUDE_CONFIG_DIR", "ANTHROPIC_CONFIG_DIR",
    "ANTHROPIC_PROFILE", "CLAUDE_CODE_FEDERATION_CACHE_DIR", "CLAUDE_SECURESTORAGE_CONFIG_DIR",
)  # fmt: skip
_BASE_URLS = (  # O5's *_BASE_URL names: a URL with credentials in it stays out of headers
    "ANTHROPIC_BASE_URL", "_CLAUDE_CODE_ASSUME_FIRST_PARTY_BASE_URL",
    "ANTHROPIC_BEDROCK_BASE_URL", "ANTHROPIC_VERTEX_BASE_URL", "ANTHROPIC_FOUNDRY_BASE_URL",
    "ANTHROPIC_AWS_BASE_URL", "ANTHROPIC_GOOGLE_CLOUD_BASE_URL",
    "ANTHROPIC_BEDROCK_MANTLE_BASE_URL", "CLAUDE_CODE_ARTIFACTS_API_BASE_URL",
    "CLAUDE_CODE_MEMORY_API_BASE_URL", "CLAUDE_CODE_API_BASE_URL",
)  # fmt: skip

GIVEN_TO_HOOKS = frozenset(
    {"CLAUDECODE", "CLAUDE_CODE_SESSION_ID", "CLAUDE_CODE_CHILD_SESSION",
     "CLAUDE_CODE_SESSION_ATTENDED", "CLAUDE_PID", "CLAUDE_CODE_CHILD_NOTES_DIR", "AI_AGENT",
     "CLAUDE_EFFORT", "TRACEPARENT", "CLAUDE_CODE_MESSAGING_SOCKET",
     "CLAUDE_CODE_MESSAGING_TOKEN", "CLAUDE_CODE_ENTRYPOINT", "CLAUDE_PROJECT_DIR",
     "CLAUDE_ENV_FILE"}
)  # fmt: skip
"""What the agent sets for its hooks after it filtered its environment: a fire's ``env``
captured inside one of its hooks (``hookd-relay``) holds them, and they stay."""


def _with_input(names: Iterable[str]) -> frozenset[str]:
    """Each name and its ``INPUT_`` twin (a GitHub Action's input), upper-cased."""
    return frozenset(n.upper() for name in names for n in (name, f"INPUT_{name}"))


NEVER_IN_SUBPROCESSES = frozenset(
    n.upper() for n in (*_OWN_CREDENTIALS, *_AGENT_SETTINGS, *_CHILD_SETTINGS)
)
ALWAYS_BLANK = _with_input((*_OWN_CREDENTIALS, *_HOST_SECRETS))
"""Never put into a header, whatever the settings say (Jkr)."""
_SINK = frozenset(
    {*(n.upper() for n in (*_OWN_CREDENTIALS, *_AGENT_SETTINGS)), *_with_input(_HOST_SECRETS),
     *_with_input(_REMOTE_ONLY),
     *(n for n in _with_input(_THIRD_PARTY) if n.removeprefix("INPUT_") not in _HEADER_PASSES)}
)  # fmt: skip
_SCRUBBED = _with_input((*_THIRD_PARTY, *_CONFIG_PLACES))
_BASE_URL_NAMES = _with_input(_BASE_URLS)

# Names that look like a credential (_1e and friends).
_SECRET_WORDS = (
    "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "KEY", "AUTH", "COOKIE", "PAT",
    "DSN", "WEBHOOK", "CREDENTIAL", "CREDENTIALS", "CREDS", "APIKEY", "ACCESSKEY",
    "SECRETKEY", "ACCOUNTKEY", "PRIVATEKEY", "AUTHKEY", "SSHKEY", "SIGNINGKEY", "MASTERKEY",
    "DEPLOYKEY", "ENCRYPTIONKEY", "PGPASSWORD", "SSHPASS",
)  # fmt: skip
_SECRET_NAME = re.compile(
    rf"((^|_)({'|'.join(_SECRET_WORDS)}|(KEY|SECRET|PASSWORD|CREDENTIAL)S)|_(PWD|PASS|JWT)"
    r"|(TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE))(?=$|[_0-9])",
    re.IGNORECASE | re.ASCII,
)
_CONNECTION_STRING = re.compile(r"CONN(ECT(ION)?)?_?STR(ING)?S?(?=$|[_0-9])", re.I | re.A)
_BUNDLE_KEEP = "BUILD|LOCAL|MIRROR|PATH|WITH|WITHOUT|CACHE|DISABLE|IGNORE|ONLY"
_BUNDLE_HOST = r"(?:[A-Za-z0-9]+(?:___[A-Za-z0-9]+)*__)+[A-Za-z]{2,}"
_BUNDLE_CREDENTIAL = re.compile(
    rf"^(?:INPUT_)?BUNDLE_(?!(?:{_BUNDLE_KEEP})__(?!{_BUNDLE_HOST}$))\w*__", re.I | re.A
)
_GIT_CONFIG_KEY = re.compile(r"^GIT_CONFIG_KEY_[0-9][A-Za-z0-9_]*$", re.A)
_GIT_CONFIG = re.compile(r"^GIT_CONFIG_(?:COUNT|PARAMETERS|(?:KEY|VALUE)_[0-9]+)$", re.A)
_PROXY = re.compile(
    r"^(?:(?:https?|ftp|all|no)_proxy|npm_config_(?:https?_)?proxy|npm_config_noproxy|yarn_proxy"
    r"|(?:yarn|global_agent|docker|claude_code)_(?:https?|no)_proxy|cloudsdk_proxy_[a-z]+"
    r"|electron_get_use_proxy)$",
    re.I | re.A,
)
_PREFIXED = re.compile(
    r"^(?:INPUT_|ORG_GRADLE_PROJECT_|POETRY_PYPI_TOKEN_|POETRY_HTTP_BASIC_|CARGO_REGISTRIES_"
    r"|CONAN_LOGIN_USERNAME_|CONAN_PASSWORD_)",
    re.I | re.A,
)
_PREFIXED_ALWAYS = re.compile(r"^(?:INPUT_)?(?:POETRY_HTTP_BASIC_|CONAN_LOGIN_USERNAME_)", re.I)
_USER_SUFFIX = re.compile(r"USER(?:_?NAME)?_?[0-9]*$", re.I)
_NOT_SECRETS = frozenset(
    {"CLAUDE_CODE_CLIENT_KEY", "CLAUDE_CODE_API_KEY_HELPER_TTL_MS",
     "CLAUDE_CODE_PROXY_AUTH_HELPER_TTL_MS", "CLAUDE_CODE_ENABLE_PROXY_AUTH_HELPER",
     "CLAUDE_CODE_AUTH_FAIL_EXIT_MS", "CLAUDE_CODE_ENABLE_TOKEN_USAGE_ATTACHMENT",
     "CLAUDE_CODE_IDLE_TOKEN_THRESHOLD", "CLAUDE_CODE_RESUME_TOKEN_THRESHOLD",
     "CLAUDE_CODE_ARG_KEY_SHAPE"}
)  # fmt: skip
_GIT_HOST_TOKENS = frozenset({"GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN",
                              "GITHUB_ENTERPRISE_TOKEN"})  # fmt: skip
_SKIP_AUTH = re.compile(r"^CLAUDE_CODE_SKIP_[A-Z0-9_]+_AUTH$")
_TRUTHY = frozenset({"1", "true", "yes", "on"})


def _words(name: str) -> str:
    """A camelCase name split at its words (``MyApiKey`` -> ``My_Api_Key``)."""
    name = name.replace("OAuth", "Oauth").replace("NextAuth", "Nextauth")
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return re.sub(r"([A-Z])([A-Z][a-z])", r"\1_\2", name)


def looks_like_credential(name: str) -> bool:
    """A name the agent takes for a credential's (``_1e``): a secret word at a word's
    start or end (``API_KEY``, ``MyToken``, ``DB_PASS``), a connection string, a Bundler
    host credential; ``GIT_CONFIG_KEY_<n>`` is not one."""
    bare = re.sub(r"^AUTH0_", "", name, flags=re.I).replace("-", "_")
    named = bool(
        _SECRET_NAME.search(bare)
        or _SECRET_NAME.search(_words(bare))
        or _CONNECTION_STRING.search(bare)
        or _CONNECTION_STRING.search(_words(bare))
        or _BUNDLE_CREDENTIAL.search(bare)
    )
    return named and not _GIT_CONFIG_KEY.match(name)


def _prefixed_credential(name: str) -> bool:
    """A credential under a tool's prefix (``CARGO_REGISTRIES_X_TOKEN``, a Poetry or
    Conan login, an ``ORG_GRADLE_PROJECT_..._USER``) (``_wr``)."""
    bare = name.replace("-", "_")
    if not _PREFIXED.match(bare):
        return False
    return bool(
        _PREFIXED_ALWAYS.match(bare) or _USER_SUFFIX.search(bare) or looks_like_credential(bare)
    )


def _agent_internal(upper: str) -> bool:
    """``vSt``: telemetry settings and the agent's artifact and memory service addresses."""
    bare = upper.removeprefix("INPUT_")
    return (
        bare.startswith("OTEL_")
        or bare == "CLAUDE_CODE_OTEL_DIAG_STDERR"
        or (bare.startswith("CLAUDE_CODE_ARTIFACT") and bare.endswith("_BASE_URL"))
        or bare in ("CLAUDE_CODE_MEMORY_API_BASE_URL", "CLAUDE_CODE_MEMORY_API_TOKEN")
    )


def _remote_sink(name: str, value: str | None) -> bool:
    """A name the agent keeps from anything it sends away (``Oln`` without its checks of
    values): its lists, telemetry, git and cargo credentials, prefixed credentials, and a
    service address with a password in it."""
    upper = name.upper()
    bare = upper.removeprefix("INPUT_")
    return (
        upper in _SINK
        or _agent_internal(upper)
        or bool(re.match(r"^GIT_CONFIG_(?:PARAMETERS|(?:KEY|VALUE)_\d+)$", bare))
        or bool(re.match(r"^CARGO_REGISTRIES_[A-Z0-9_]+_TOKEN$", bare))
        or _prefixed_credential(bare)
        or bool(_BUNDLE_CREDENTIAL.search(bare))
        or (value is not None and upper in _BASE_URL_NAMES and _has_password(value))
    )


def _has_password(url: str) -> bool:
    """A URL whose user part carries a password (``scheme://user:secret@host``)."""
    match = re.search(r"[a-z0-9+.-]://([^\s/?#]*)@", url, re.I)
    return match is not None and ":" in match.group(1)


def scrubbing(env: Mapping[str, str]) -> bool:
    """``CLAUDE_CODE_SUBPROCESS_ENV_SCRUB`` is on (``1``, ``true``, ``yes`` or ``on``)."""
    return env.get(SCRUB_VARIABLE, "").strip().lower() in _TRUTHY


def _credential_name(name: str) -> bool:
    """``eus``: a name that looks like a credential's (``looks_like_credential``), but for
    git's numbered settings, proxies, git hosts' tokens and the agent's own settings."""
    upper = name.upper()
    return (
        not (_GIT_CONFIG.match(name) or _PROXY.match(name))
        and looks_like_credential(name)
        and upper not in _GIT_HOST_TOKENS
        and upper not in _NOT_SECRETS
        and not _SKIP_AUTH.match(upper)
    )


def _scrubbed(name: str) -> bool:
    """What the scrub takes out of a subprocess's environment by name (``oi()``): the
    credentials and credential files of ``_THIRD_PARTY`` and ``_CONFIG_PLACES``,
    prefixed and Bundler credentials, and every other credential-like name."""
    if name in GIVEN_TO_HOOKS or name.upper().startswith("CLAUDE_PLUGIN_"):
        return False  # the agent sets these for its hook after the scrub
    return (
        name.upper().replace("-", "_") in _SCRUBBED
        or bool(_BUNDLE_CREDENTIAL.search(name))
        or _prefixed_credential(name)
        or _credential_name(name)
    )


def hook_environment(env: Mapping[str, str], scrub: bool) -> dict[str, str]:
    """``env`` without what Claude Code keeps from a command hook's environment (its own
    credentials and internals, telemetry settings; with ``scrub``, every credential the
    scrub recognises by name); the variables it gives its hooks itself stay."""
    return {name: value for name, value in env.items() if _passed(name, scrub)}


@lru_cache(maxsize=8192)
def _passed(name: str, scrub: bool) -> bool:
    """Whether the agent passes ``name`` to a command hook (decided by name alone, so
    remembered: a fire's environment holds the same names every time)."""
    if name in GIVEN_TO_HOOKS:
        return True
    upper = name.upper()
    if upper in NEVER_IN_SUBPROCESSES or _agent_internal(upper):
        return False
    return not (scrub and _scrubbed(name))


def withheld_from_header(
    name: str, value: str | None, managed_allow: frozenset[str], scrub: bool
) -> bool:
    """Whether the agent leaves ``$name`` empty in an http hook's header although
    ``allowedEnvVars`` names it: always for its own credentials; for what it keeps from
    remote sinks unless a managed settings file lists the name in
    ``httpHookAllowedEnvVars``; under the scrub, for every name that looks like a
    credential (``tot``)."""
    if name.upper() in ALWAYS_BLANK:
        return True
    if name in managed_allow:
        return False
    if _remote_sink(name, value):
        return True
    return scrub and _credential_name(name)
