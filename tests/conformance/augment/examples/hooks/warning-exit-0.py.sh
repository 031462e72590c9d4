#!/usr/bin/env python3
import sys
import json
import re

event_data = json.load(sys.stdin)
file_path = event_data.get('tool_input', {}).get('path', '')

if re.search(r'\.env|secrets', file_path):
    print(f"Warning: Accessing sensitive file: {file_path}", file=sys.stderr)

sys.exit(0)  # Allow tool but show warning
