"""What ``hookd-relay`` answers when it cannot reach hookd, per agent: generated
from the agents' packages by ``python scripts/regenerate.py`` (``hookd.daemon.relay_table``);
do not edit. ``args``: how many arguments the agent's entries pass after its name;
``event``: the payload field naming the event; ``runners``: events another agent sends
through the same entry; ``continue`` / ``block``: (stdout, stderr, exit code) by
``HOOKD_RELAY_ON_ERROR``, ``{message}`` standing for the relay's one line and
``{message_json}`` for it as a JSON string."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # the relay starts on every event: no typing import at run time
    from typing import Any


AGENTS: dict[str, Any] = {'claude': {'args': 0,
            'event': 'hook_event_name',
            'runners': {},
            'continue': ('', '{message}\n', 1),
            'block': ('', '{message}\n', 2)},
 'cline': {'args': 1,
           'event': 'hookName',
           'runners': {'agent_start': 'cline-sdk',
                       'agent_resume': 'cline-sdk',
                       'agent_abort': 'cline-sdk',
                       'agent_end': 'cline-sdk',
                       'agent_error': 'cline-sdk',
                       'tool_call': 'cline-sdk',
                       'tool_result': 'cline-sdk',
                       'prompt_submit': 'cline-sdk',
                       'pre_compact': 'cline-sdk',
                       'session_shutdown': 'cline-sdk'},
           'continue': ('', '{message}\n', 1),
           'block': ('{"cancel": true, "contextModification": "", "errorMessage": '
                     '{message_json}}',
                     '{message}\n',
                     0)},
 'cline-sdk': {'args': 1,
               'event': 'hookName',
               'runners': {'TaskStart': 'cline',
                           'TaskResume': 'cline',
                           'TaskCancel': 'cline',
                           'TaskComplete': 'cline',
                           'UserPromptSubmit': 'cline',
                           'PreToolUse': 'cline',
                           'PostToolUse': 'cline',
                           'PreCompact': 'cline',
                           'Notification': 'cline'},
               'continue': ('{"context": {message_json}}', '{message}\n', 1),
               'block': ('{"cancel": true, "errorMessage": {message_json}}', '{message}\n', 0)},
 'augment': {'args': 1,
             'event': 'hook_event_name',
             'runners': {},
             'continue': ('', '{message}\n', 1),
             'block': ('', '{message}\n', 2)},
 'codex': {'args': 1,
           'event': 'hook_event_name',
           'runners': {},
           'continue': ('{"systemMessage": {message_json}}', '{message}\n', 0),
           'block': ('', '{message}\n', 2)},
 'gemini': {'args': 0,
            'event': 'hook_event_name',
            'runners': {},
            'continue': ('', '{message}\n', 1),
            'block': ('{"decision": "deny", "reason": {message_json}, "continue": false, '
                      '"stopReason": {message_json}}',
                      '{message}\n',
                      0)},
 'copilot': {'args': 2,
             'event': '',
             'runners': {},
             'continue': ('', '{message}\n', 0),
             'block': ('{"permissionDecision": "deny", "permissionDecisionReason": '
                       '{message_json}, "behavior": "deny", "message": {message_json}}',
                       '{message}\n',
                       2)},
 'droid': {'args': 1,
           'event': 'hook_event_name',
           'runners': {},
           'continue': ('', '{message}\n', 1),
           'block': ('{"hookSpecificOutput": {"permissionDecision": "deny", '
                     '"permissionDecisionReason": {message_json}}}',
                     '{message}\n',
                     1)},
 'qwen': {'args': 0,
          'event': 'hook_event_name',
          'runners': {},
          'continue': ('', '{message}\n', 1),
          'block': ('{"decision": "deny", "reason": {message_json}, "continue": false, '
                    '"stopReason": {message_json}}',
                    '{message}\n',
                    0)}}

EXIT_CODES: dict[str, Any] = {'args': 0,
 'event': '',
 'runners': {},
 'continue': ('', '{message}\n', 1),
 'block': ('', '{message}\n', 2)}
