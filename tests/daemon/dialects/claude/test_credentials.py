"""Which variables Claude Code 2.1.328 keeps from its hooks, by name (the lists and
patterns ``credentials`` copies from its build; the real agent pins the common ones in
tests/agents/claude ``pre-http-headers-credentials`` and ``pre-env-own-credentials``)."""

from __future__ import annotations

import pytest

from hookd.daemon.dialects.claude import credentials

NONE: frozenset[str] = frozenset()


@pytest.mark.parametrize(
    ("name", "credential"),
    [
        ("MY_SECRET", True), ("API_KEYS", True), ("DB_PASS", True), ("myApiKey", True),
        ("ServiceOAuthToken", True), ("DATABASE_CONNECTION_STRING", True),
        ("BUNDLE_GEMS__EXAMPLE__COM", True), ("AUTH0_DOMAIN", False), ("GITHUB_TOKEN", True),
        ("PATH", False), ("KEYBOARD", False), ("MONKEY", False), ("SESSION_ID", False),
        ("GIT_CONFIG_KEY_0", False), ("BUNDLE_PATH__SYSTEM", False), ("TOKENIZER", False),
    ],
)  # fmt: skip
def test_names_that_look_like_credentials(name: str, credential: bool) -> None:
    assert credentials.looks_like_credential(name) is credential


@pytest.mark.parametrize(
    ("name", "withheld"),
    [
        ("CLAUDE_CODE_OAUTH_TOKEN", True), ("INPUT_MCP_CLIENT_SECRET", True),
        ("ANTHROPIC_API_KEY", True), ("npm_token", True), ("OTEL_EXPORTER_OTLP_HEADERS", True),
        ("GIT_CONFIG_VALUE_3", True), ("CARGO_REGISTRIES_CORP_TOKEN", True),
        ("POETRY_HTTP_BASIC_PRIVATE_USERNAME", True), ("ORG_GRADLE_PROJECT_REPO_USER", True),
        ("HTTPS_PROXY", True), ("HF_TOKEN", False), ("GITHUB_TOKEN", False),
        ("MY_SECRET", False), ("HOME", False),
    ],
)  # fmt: skip
def test_headers_never_carry_what_the_agent_keeps_from_remote_sinks(
    name: str, withheld: bool
) -> None:
    assert credentials.withheld_from_header(name, "value", NONE, scrub=False) is withheld


def test_a_managed_list_lifts_the_remote_sink_but_not_the_agents_own_credentials() -> None:
    managed = frozenset({"ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN"})
    assert not credentials.withheld_from_header("ANTHROPIC_API_KEY", "k", managed, scrub=False)
    assert credentials.withheld_from_header("CLAUDE_CODE_OAUTH_TOKEN", "t", managed, scrub=False)


def test_a_service_address_with_a_password_stays_out_of_headers() -> None:
    with_password = "https://user:secret@gateway.example/v1"
    assert credentials.withheld_from_header("ANTHROPIC_BASE_URL", with_password, NONE, False)
    assert not credentials.withheld_from_header(
        "ANTHROPIC_BASE_URL", "https://gateway.example/v1", NONE, False
    )


def test_under_the_scrub_headers_lose_every_credential_like_name_but_git_hosts() -> None:
    assert credentials.withheld_from_header("MY_SECRET", "s", NONE, scrub=True)
    assert not credentials.withheld_from_header("GITHUB_TOKEN", "g", NONE, scrub=True)
    assert not credentials.withheld_from_header("HTTPS_PROXY_HOST", "h", NONE, scrub=True)


def test_a_command_hooks_environment() -> None:
    env = {"CLAUDE_CODE_OAUTH_TOKEN": "o", "otel_x": "1", "CLAUDE_CODE_ARTIFACTS_API_BASE_URL": "u",
           "CLAUDE_CODE_SESSION_NAME": "n", "CLAUDE_CODE_CHILD_NOTES_DIR": "given",
           "ANTHROPIC_API_KEY": "k", "KUBECONFIG": "/k", "MY_SECRET": "s", "GITHUB_TOKEN": "g",
           "CLAUDE_PLUGIN_OPTION_API_KEY": "p", "HTTPS_PROXY": "h", "PATH": "/bin"}  # fmt: skip
    kept = credentials.hook_environment(env, scrub=False)
    scrubbed = credentials.hook_environment(env, scrub=True)

    assert set(kept) == set(env) - {"CLAUDE_CODE_OAUTH_TOKEN", "otel_x", "CLAUDE_CODE_SESSION_NAME",
                                    "CLAUDE_CODE_ARTIFACTS_API_BASE_URL"}  # fmt: skip
    assert set(scrubbed) == {"CLAUDE_CODE_CHILD_NOTES_DIR", "GITHUB_TOKEN",
                             "CLAUDE_PLUGIN_OPTION_API_KEY", "HTTPS_PROXY", "PATH"}  # fmt: skip


@pytest.mark.parametrize(
    ("value", "on"), [("1", True), (" TRUE ", True), ("yes", True), ("on", True),
                      ("0", False), ("", False), ("false", False)],
)  # fmt: skip
def test_the_scrub_switch(value: str, on: bool) -> None:
    assert credentials.scrubbing({credentials.SCRUB_VARIABLE: value}) is on
