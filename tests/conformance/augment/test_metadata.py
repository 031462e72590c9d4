"""The metadata options: ``context``, ``mcp_metadata`` and ``conversation`` reach a hook
only when its configuration opts in, and only on the events each is available for.

The client sends all three on every event (it cannot know which hook wants what);
hookd filters them per fire. auggie 0.36.0 builds one payload for all of a fire's hooks,
with a field when any matched group opted in to it, so the second, plain group of every
case receives what the first opted in to; a handler with hookd's ``metadataScope:
"own"`` receives only its own group's fields.

Reference: ``augment-hooks.md`` § Hook Metadata (Configuration) (Available Metadata
Options, Metadata availability by event type, Privacy Considerations), § Metadata-Based
Fields.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from conformance.augment.support import (
    EVENTS,
    REFERENCE,
    Augment,
    base_payload,
    example_json,
    group,
    params,
)

AVAILABILITY = f"{REFERENCE} § Metadata availability by event type"
PRIVACY = f"{REFERENCE} § Privacy Considerations"
FLAGS = {
    "includeUserContext": "context",
    "includeMCPMetadata": "mcp_metadata",
    "includeConversationData": "conversation",
}
AVAILABLE = {
    "context": set(EVENTS),
    "mcp_metadata": {"PreToolUse", "PostToolUse"},
    "conversation": {"Stop"},
}
"""The table of the document: which field each event may carry."""
PRIVATE = {
    "context": example_json("fields/context.json")["context"],
    "mcp_metadata": example_json("fields/mcp-metadata.json")["mcp_metadata"],
    "conversation": example_json("fields/conversation.json")["conversation"],
}


@dataclass(frozen=True)
class Case:
    id: str
    rule: str
    event: str
    metadata: Any
    """The group's ``metadata`` value (None: no key)."""
    receives: frozenset[str]
    sent: frozenset[str] = frozenset(PRIVATE)
    where: str = "group"
    """``group``: metadata beside ``hooks``; ``handler``: on the handler object."""
    runs: bool = True
    """False: auggie's schema drops the event's hooks of the file (nothing runs)."""
    xfail: str | None = None
    skip: str | None = None


def expected(event: str, metadata: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(
        name
        for flag, name in FLAGS.items()
        if metadata.get(flag) is True and event in AVAILABLE[name]
    )


OPTIONS: dict[str, dict[str, Any]] = {
    "user-context": {"includeUserContext": True},
    "mcp-metadata": {"includeMCPMetadata": True},
    "conversation-data": {"includeConversationData": True},
    "all-three": {flag: True for flag in FLAGS},
    "all-false": {flag: False for flag in FLAGS},
}

CASES: list[Case] = [
    *[
        Case(
            f"{event}-{name}",
            f"{AVAILABILITY}: includeUserContext on every event, "
            "includeMCPMetadata on PreToolUse/PostToolUse, includeConversationData on Stop; "
            f"{PRIVACY}: each flag opts in to its own field only",
            event,
            metadata,
            expected(event, metadata),
        )
        for event in EVENTS
        for name, metadata in OPTIONS.items()
    ],
    *[
        Case(
            f"{event}-no-metadata",
            f"{PRIVACY}: default deny: no metadata, no private field",
            event,
            None,
            frozenset(),
        )
        for event in EVENTS
    ],
    Case(
        "empty-metadata",
        f"{PRIVACY}: default deny: every option defaults to false",
        "Stop",
        {},
        frozenset(),
    ),
    Case(
        "truthy-non-booleans-do-not-opt-in",
        f'{PRIVACY}: explicit opt-in: only true opts in (not "true", 1 or "yes"); auggie '
        "0.36.0's schema refuses such a group, so the file's hooks for the event never run",
        "PostToolUse",
        {"includeUserContext": "true", "includeMCPMetadata": 1, "includeConversationData": "yes"},
        frozenset(),
        runs=False,
    ),
    Case(
        "opt-in-does-not-invent-fields",
        f"{REFERENCE} § Metadata-Based Fields: the fields come from the agent; a flag "
        "for a field the client did not send adds nothing",
        "Stop",
        {flag: True for flag in FLAGS},
        frozenset({"conversation"}),
        sent=frozenset({"conversation", "mcp_metadata"}),
    ),
    Case(
        "handler-level-metadata",
        f"{REFERENCE} § Structure (Configuration fields): metadata is listed with the "
        "handler fields (the examples put it on the group); auggie 0.36.0 reads it on the "
        "group only",
        "PreToolUse",
        {"includeMCPMetadata": True},
        frozenset(),
        where="handler",
    ),
]


@pytest.mark.parametrize("case", params(CASES))
async def test_metadata(augment: Augment, case: Case) -> None:
    opted = augment.script("opted.sh", f"cat > {augment.tmp / 'opted.json'}")
    plain = augment.script("plain.sh", f"cat > {augment.tmp / 'plain.json'}")
    first = group(opted)
    if case.metadata is not None and case.where == "group":
        first["metadata"] = case.metadata
    elif case.metadata is not None:
        first["hooks"][0]["metadata"] = case.metadata
    augment.write("workspace", **{case.event: [first, group(plain)]})
    payload = {**base_payload(case.event), **{k: PRIVATE[k] for k in case.sent}}

    result = await augment.fire(case.event, payload)

    if not case.runs:
        assert result["hooks"] == []
        assert any("metadata" in w for w in result["warnings"]), result["warnings"]
        return
    assert [h["exitCode"] for h in result["hooks"]] == [0, 0]
    got = json.loads((augment.tmp / "opted.json").read_text())
    control = json.loads((augment.tmp / "plain.json").read_text())
    assert {k for k in PRIVATE if k in got} == case.receives
    assert all(got[k] == PRIVATE[k] for k in case.receives)
    assert {k for k in PRIVATE if k in control} == case.receives  # one payload per fire
    public = {k: v for k, v in payload.items() if k not in PRIVATE}
    assert {k: got[k] for k in public} == {k: control[k] for k in public} == public


async def test_metadata_scope_own_keeps_a_hook_to_its_own_groups_fields(
    augment: Augment,
) -> None:
    """Privacy Considerations: explicit opt-in. auggie gives every hook of a fire the
    fields any matched group opted in to; hookd's handler key ``metadataScope: "own"``
    (auggie ignores it) keeps a hook to what its own group opted in to."""
    opted = augment.script("opted.sh", f"cat > {augment.tmp / 'opted.json'}")
    shared = augment.script("shared.sh", f"cat > {augment.tmp / 'shared.json'}")
    own = augment.script("own.sh", f"cat > {augment.tmp / 'own.json'}")
    first = group(opted)
    first["metadata"] = {"includeConversationData": True, "includeUserContext": True}
    private = group(own)
    private["hooks"][0]["metadataScope"] = "own"
    augment.write("workspace", Stop=[first, group(shared), private])

    await augment.fire("Stop", {**base_payload("Stop"), **PRIVATE})

    for name in ("opted", "shared"):
        got = json.loads((augment.tmp / f"{name}.json").read_text())
        assert (got["conversation"], got["context"]) == (
            PRIVATE["conversation"],
            PRIVATE["context"],
        )
    kept = json.loads((augment.tmp / "own.json").read_text())
    assert not set(PRIVATE) & set(kept)


async def test_an_opt_in_revoked_by_an_edit_that_breaks_the_file_is_revoked(
    augment: Augment,
) -> None:
    """Privacy Considerations: default deny. A file that stops parsing keeps its last good hooks (a
    typo must not switch a policy hook off), but not their metadata opt-ins: the edit
    that broke it may have been the one that revoked them."""
    out = augment.tmp / "seen.json"
    hook = augment.script("hook.sh", f"cat > {out}")
    opted = group(hook)
    opted["metadata"] = {"includeConversationData": True}
    path = augment.write("workspace", Stop=[opted])
    payload = {**base_payload("Stop"), **PRIVATE}
    await augment.fire("Stop", payload)
    before = json.loads(out.read_text())
    path.write_text(path.read_text().replace('"includeConversationData": true', "") + ",")

    result = await augment.fire("Stop", payload)

    after = json.loads(out.read_text())
    assert before["conversation"] == PRIVATE["conversation"]
    assert [h["exitCode"] for h in result["hooks"]] == [0]  # the hook still runs
    assert "conversation" not in after
    assert any("invalid JSON" in w for w in result["warnings"])
