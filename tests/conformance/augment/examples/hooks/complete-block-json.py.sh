#!/usr/bin/env python3
import sys
import json
import re

event_data = json.load(sys.stdin)
command = event_data.get('tool_input', {}).get('command', '')

if re.search(r'rm -rf', command):
    output = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "Command contains 'rm -rf' which violates security policy"
        }
    }
    print(json.dumps(output))
    sys.exit(0)

sys.exit(0)
