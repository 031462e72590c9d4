#!/usr/bin/env python3
import sys
import json

event_data = json.load(sys.stdin)
tool_error = event_data.get('tool_error', '')

if tool_error and 'permission denied' in tool_error.lower():
    output = {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": "Permission denied error detected. Try with appropriate permissions."
        }
    }
    print(json.dumps(output))

sys.exit(0)
