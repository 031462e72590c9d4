#!/usr/bin/env python3
import sys
import json

event_data = json.load(sys.stdin)
tool_name = event_data.get('tool_name', '')
tool_output = event_data.get('tool_output', '')

if tool_name == 'launch-process' and 'test' in tool_output and 'passed' in tool_output:
    # Tests passed - inject success context
    output = {
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "additionalContext": "All tests passed successfully!"
        }
    }
    print(json.dumps(output))

sys.exit(0)
