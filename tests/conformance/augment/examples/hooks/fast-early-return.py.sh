#!/usr/bin/env python3
import sys
import json
import re

event_data = json.load(sys.stdin)

# Early return if not a launch-process tool
tool_name = event_data.get('tool_name', '')
if tool_name != 'launch-process':
    sys.exit(0)  # Not interested, return immediately

# Only parse command if we got here
command = event_data.get('tool_input', {}).get('command', '')

# Check command
if re.search(r'rm -rf', command):
    print("Blocked dangerous command", file=sys.stderr)
    sys.exit(2)

sys.exit(0)
