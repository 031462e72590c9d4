#!/usr/bin/env python3
import sys
import json
import re

event_data = json.load(sys.stdin)
command = event_data.get('tool_input', {}).get('command', '')

if re.search(r'rm -rf|sudo', command):
    print(f"Blocked dangerous command: {command}", file=sys.stderr)
    sys.exit(2)  # Blocks tool, stderr shown to agent

sys.exit(0)  # Allow tool to proceed
