#!/usr/bin/env python3
import sys, json

event_data = json.load(sys.stdin)
if event_data.get('tool_name') == 'str-replace-editor':
    path = event_data.get('tool_input', {}).get('path', '')
    if any(p in path for p in ['.env', 'secrets', 'credentials']):
        print(f"[AUDIT] Sensitive file: {path}", file=sys.stderr)

sys.exit(0)
