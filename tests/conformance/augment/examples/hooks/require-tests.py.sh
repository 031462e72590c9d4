#!/usr/bin/env python3
import sys
import json
import re

event_data = json.load(sys.stdin)
conversation = event_data.get('conversation', {})
code_response = conversation.get('agentCodeResponse', [])

# Check if any test files were modified
test_files = [
    change['path'] for change in code_response
    if re.search(r'test|spec', change.get('path', ''))
]

if not test_files:
    # No test files modified - block stop
    output = {
        "hookSpecificOutput": {
            "hookEventName": "Stop",
            "decision": "block",
            "reason": "Please add or update tests before finishing"
        }
    }
    print(json.dumps(output))
    sys.exit(0)

sys.exit(0)
